// The lobby: open a table (the game, its options in plain words, who sits where), see the open
// tables and take a seat or watch. The form is built from GET /api/games, so a new option or bot
// shows up here without a change to the page.

import * as account from "./account.js";
import { api } from "./api.js";
import { cardName as jassName, cardSVG as jassCard, suitName as jassSuit } from "./cards/jass.js";
import { cardSVG as slCard } from "./cards/stichling.js";
import { cardSVG as smCard } from "./cards/stichmeister.js";
import { cardSVG as swCard } from "./cards/stichwahl.js";
import { esc } from "./dom.js";
import { has, lang, t, tableName } from "./i18n.js";
import * as prefs from "./prefs.js";
import { FriendsPanel } from "./friends.js";
import { QuickPlay } from "./quick.js";
import { httpRefusal } from "./refusals.js";

const ORDER = ["jass", "coiffeur", "differenzler", "stichwahl", "stichling", "stichmeister"];
// pimc (Jass, Differenzler, Coiffeur) solves sampled deals exactly: the strongest Jass bot (docs/arena.md)
const LEVELS = ["random", "heuristic", "ismcts:time=0.3", "ismcts:time=1", "pimc"];
const DEFAULT_LEVEL = "heuristic";
// Jass as Swiss players know it comes first: the Schieber, to 1000 or 2500 points. The rule
// sheet's game is the other choice, named as such; the finer rules wait under "Weitere Regeln".
const FIRST_PROFILE = { jass: "schieber" };
const TARGETS = { jass: { schieber: [1000, 2500], seed: [1000, 1500, 2000] } };
const FINER_RULES = { jass: ["weis", "stoeck", "first_forehand", "undertrump", "ausmachregel"] };

function sample(game, data) {
  const l = lang();
  if (game === "jass" || game === "differenzler" || game === "coiffeur")
    return (game === "jass" ? ["HJ", "D9", "SA"] : game === "coiffeur" ? ["SA", "S6", "HJ"] : ["CA", "C9", "H10"]).map((c) => jassCard(c, { deck: prefs.get("jassDeck"), lang: l })).join("");
  if (game === "stichwahl") {
    const info = (c) => (data && data.cards && data.cards[c]) || null;
    return ["N2", "O8", "5a"].map((c) => swCard(c, { info: info(c), lang: l, t })).join("");
  }
  if (game === "stichling") return ["G7", "Y12", "B3"].map((c) => slCard(c, { lang: l })).join("");
  return ["K13", "T4", "M15"].map((c) => smCard(c, { lang: l })).join("");
}

function optionLabel(name) {
  return has(`opt.${name}`) ? t(`opt.${name}`) : name;
}

// The suits each named set of Jass multipliers counts double (stichkit/games/jass/multipliers.py).
const DOUBLED = { swisslos: ["S", "C"], "one-to-four": ["D", "S"] };

function choiceLabel(name, value) {
  const key = `opt.${name}.${value}`;
  if (typeof value === "number" && !has(key)) return t("table.seatN", { n: value + 1 });
  // the start card is named in the deck the player chose ("Schellen-7", "Ecken-7", "Käse-7"), and so are suits
  let params = name === "first_forehand" ? { card: jassName("D7", prefs.get("jassDeck"), lang()) } : {};
  if (name === "multipliers" && DOUBLED[value])
    params = { suits: DOUBLED[value].map((s) => jassSuit(prefs.get("jassDeck"), s, lang())).join("/") };
  return has(key) ? t(key, params) : String(value);
}

/** What someone about to join should know of a table's settings: a move timer, no hints, no takebacks. */
function tableRules(x) {
  const st = x.settings || {};
  const rules = [];
  if (st.move_time) rules.push(t("lobby.tagMoveTime", { s: st.move_time }));
  if (st.hints === false) rules.push(t("lobby.tagNoHints"));
  if (st.rated) rules.push(t("lobby.tagRated"));
  else if (st.takebacks === false) rules.push(t("lobby.tagNoTakebacks"));
  if (st.shared_screen) rules.push(t("lobby.tagSharedScreen"));
  return rules;
}

export class Lobby {
  constructor(root, catalog) {
    this.root = root;
    this.catalog = catalog;
    this.games = ORDER.map((n) => catalog.games.find((g) => g.name === n)).filter(Boolean);
    for (const g of catalog.games) if (!this.games.includes(g)) this.games.push(g);
    this.bots = new Map((catalog.bots || []).map((b) => [b.name, b]));
    this.game = this.games[0];
    this.players = this.game.default_players;
    this.profile = FIRST_PROFILE[this.game.name] || null;
    // quick play keeps its own element (and a wait under way) while the lobby is drawn again
    this.quickBox = document.createElement("section");
    this.quick = new QuickPlay(this.quickBox, this.games, (game) => this.levels(game));
    this.friendsBox = document.createElement("section");
    this.friends = new FriendsPanel(this.friendsBox);
    this.render();
    this.refresh();
    this.poll = setInterval(() => this.refresh(), 5000);
  }

  destroy() {
    clearInterval(this.poll);
    this.quick.destroy();
  }

  render() {
    this.root.innerHTML =
      `<div class="lobby">` +
      `<section class="panel new-table" aria-labelledby="new-title"><h2 id="new-title">${esc(t("lobby.new"))}</h2>` +
      `<form id="new-table" novalidate>` +
      `<fieldset class="game-pick"><legend>${esc(t("lobby.game"))}</legend>` +
      this.games
        .map(
          (g) =>
            `<label class="game-tile${g === this.game ? " chosen" : ""}" data-game="${g.name}"><input type="radio" name="game" value="${g.name}"${g === this.game ? " checked" : ""}>` +
            `<span class="tile-cards" aria-hidden="true">${sample(g.name, g.data)}</span>` +
            `<span class="tile-title">${esc(t(`game.${g.name}`))}</span><span class="tile-about">${esc(t(`about.${g.name}`))}</span></label>`,
        )
        .join("") +
      `</fieldset>` +
      `<div class="form-columns"><fieldset class="seats"><legend>${esc(t("lobby.seats"))}</legend>` +
      (this.game.players.length > 1
        ? `<label class="row"><span class="row-label">${esc(t("lobby.players"))}</span> <select name="players">${this.game.players.map((p) => `<option${p === this.players ? " selected" : ""}>${p}</option>`).join("")}</select></label>`
        : "") +
      this.seatRows() +
      `</fieldset>` +
      `<fieldset class="options"><legend>${esc(t("lobby.options"))}</legend>${this.optionRows()}</fieldset></div>` +
      `<details class="more"><summary>${esc(t("lobby.more"))}</summary>` +
      `<label class="row"><span class="row-label">${esc(t("lobby.tableName"))}</span> <input name="table_name" maxlength="40" placeholder="${esc(t(`game.${this.game.name}`))}"></label>` +
      `<label class="row check"><input type="checkbox" name="private"> ${esc(t("lobby.private"))}</label>` +
      `<label class="row check"><input type="checkbox" name="hints" checked> ${esc(t("lobby.hints"))}</label>` +
      `<label class="row check"><input type="checkbox" name="takebacks" checked> ${esc(t("lobby.takebacks"))}</label>` +
      `<label class="row check"><input type="checkbox" name="shared_screen"> ${esc(t("lobby.sharedScreen"))}</label>` +
      `<label class="row check"><input type="checkbox" name="rated"${account.current() ? "" : " disabled"}> ${esc(t("lobby.rated"))}</label>` +
      `<label class="row"><span class="row-label">${esc(t("lobby.moveTime"))}</span> <input type="number" name="move_time" min="1" max="3600" step="1" inputmode="numeric"></label>` +
      `<label class="row"><span class="row-label">${esc(t("lobby.takeover"))}</span> <select name="takeover">${["hand", "game", "off"].map((v) => `<option value="${v}">${esc(t(`lobby.takeover.${v}`))}</option>`).join("")}</select></label>` +
      `<label class="row"><span class="row-label">${esc(t("lobby.grace"))}</span> <input type="number" name="grace" min="0" max="86400" value="60"></label>` +
      `</details>` +
      `<p class="form-error" id="form-error" role="alert"></p>` +
      `<button type="submit" class="primary big" id="open-table">${esc(t("lobby.open"))}</button>` +
      `</form></section>` +
      `<section class="panel tables" aria-labelledby="tables-title"><div class="panel-head"><h2 id="tables-title">${esc(t("lobby.tables"))}</h2>` +
      `<button type="button" class="small" id="refresh">${esc(t("lobby.refresh"))}</button></div><div id="table-list"></div>` +
      `<div id="my-tables"></div></section>` +
      `</div>`;
    this.root.querySelector(".lobby").prepend(this.quickBox);
    this.root.querySelector(".lobby").append(this.friendsBox);
    const form = this.root.querySelector("#new-table");
    form.addEventListener("change", (ev) => this.onChange(ev));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.open(form);
    });
    this.root.querySelector("#refresh").addEventListener("click", () => this.refresh());
  }

  /** The bot levels this server has for `game` (by default the chosen one; a bot may name the games it plays). */
  levels(game = this.game.name) {
    return LEVELS.filter((l) => {
      const bot = this.bots.get(l.split(":")[0]);
      return bot && (!bot.games || bot.games.includes(game));
    });
  }

  seatRows() {
    const rows = [];
    rows.push(
      `<label class="row seat-row"><span class="seat-no">1</span> ${esc(t("lobby.yourName"))}` +
        ` <input name="name" required maxlength="40" autocomplete="nickname" value="${esc(account.seatName(prefs.get("name") || ""))}"${account.current() ? " readonly" : ""} placeholder="${esc(t("lobby.namePlaceholder"))}"></label>`,
    );
    for (let s = 1; s < this.players; s++) {
      const opts =
        this.levels().map((lv) => `<option value="bot:${lv}"${lv === DEFAULT_LEVEL ? " selected" : ""}>${esc(t(`level.${lv}`))}</option>`).join("") +
        `<option value="human">${esc(t("lobby.human"))}</option>`;
      rows.push(`<label class="row seat-row"><span class="seat-no">${s + 1}</span> <span class="sr-only">${esc(t("lobby.seat", { n: s + 1 }))}</span><select name="seat${s}">${opts}</select></label>`);
    }
    return rows.join("");
  }

  optionRows() {
    const finer = FINER_RULES[this.game.name] || [];
    const rows = [];
    const more = [];
    for (const o of this.game.options) (finer.includes(o.name) ? more : rows).push(this.optionRow(o));
    return rows.join("") + (more.length ? `<details class="more-rules"><summary>${esc(t("lobby.moreRules"))}</summary>${more.join("")}</details>` : "");
  }

  optionRow(o) {
    const label = esc(optionLabel(o.name));
    const help = o.doc ? ` title="${esc(o.doc)}"` : "";
    if (o.name === "profile" && FIRST_PROFILE[this.game.name]) {
      const order = [FIRST_PROFILE[this.game.name], ...o.choices.filter((c) => c !== FIRST_PROFILE[this.game.name])];
      return (
        `<div class="row profile-pick" role="radiogroup" aria-label="${label}">` +
        order
          .map(
            (c) =>
              `<label class="profile-choice${c === this.profile ? " chosen" : ""}"><input type="radio" name="opt:profile" value="${esc(c)}"${c === this.profile ? " checked" : ""}>` +
              `<span class="profile-title">${esc(t(`opt.profile.${c}`))}</span><span class="profile-about">${esc(t(`opt.profile.${c}.about`))}</span></label>`,
          )
          .join("") +
        `</div>`
      );
    }
    const targets = o.name === "target" && TARGETS[this.game.name] ? TARGETS[this.game.name][this.profile] : null;
    if (targets) {
      const chosen = targets.includes(o.default) && this.profile !== "schieber" ? o.default : targets[targets.length - 1];
      return (
        `<label class="row"${help}><span class="row-label">${label}</span> <select name="opt:target" data-type="integer">` +
        targets.map((v) => `<option value="${v}"${v === chosen ? " selected" : ""}>${esc(t("lobby.toPoints", { n: v }))}</option>`).join("") +
        `<option value="other">${esc(t("lobby.otherTarget"))}</option></select></label>` +
        `<label class="row" hidden data-other="target"><span class="row-label">${esc(t("lobby.otherTargetPoints"))}</span> <input type="number" name="opt:target-other" min="1" step="1" inputmode="numeric"></label>`
      );
    }
    if (o.name === "deals" && this.game.name === "jass") {
      // a Jass of fixed deals: none (to the target, the default), a Passe of 12, or another number
      return (
        `<label class="row"${help}><span class="row-label">${esc(t("lobby.jassDeals"))}</span> <select name="opt:deals" data-type="integer">` +
        [0, 12].map((v) => `<option value="${v}"${v === o.default ? " selected" : ""}>${esc(t(`lobby.jassDeals.${v}`))}</option>`).join("") +
        `<option value="other">${esc(t("lobby.otherDeals"))}</option></select></label>` +
        `<label class="row" hidden data-other="deals"><span class="row-label">${esc(t("lobby.otherDealsCount"))}</span> <input type="number" name="opt:deals-other" min="1" max="${o.maximum ?? 1000}" step="1" inputmode="numeric"></label>`
      );
    }
    if (o.name === "first_player") {
      return `<label class="row"${help}><span class="row-label">${label}</span> <select name="opt:${o.name}" data-type="integer">${Array.from({ length: this.players }, (_, s) => `<option value="${s}"${s === o.default ? " selected" : ""}>${esc(t("table.seatN", { n: s + 1 }))}</option>`).join("")}</select></label>`;
    }
    if (o.type === "choice")
      return (
        `<label class="row"${help}><span class="row-label">${label}</span> <select name="opt:${o.name}">${o.choices.map((c) => `<option value="${esc(c)}"${c === o.default ? " selected" : ""}>${esc(choiceLabel(o.name, c))}</option>`).join("")}</select></label>` +
        // a choice too long for its menu (Coiffeur's sheets): the short name there, the whole of it under it
        (has(`opt.${o.name}.${o.default}.about`) ? `<p class="row-about muted" data-about="${esc(o.name)}">${esc(t(`opt.${o.name}.${o.default}.about`))}</p>` : "")
      );
    if (o.type === "boolean") return `<label class="row check"${help}><input type="checkbox" name="opt:${o.name}"${o.default ? " checked" : ""}> ${label}</label>`;
    if (o.type === "integer")
      return `<label class="row"${help}><span class="row-label">${label}</span> <input type="number" name="opt:${o.name}" data-type="integer" data-default="${o.default ?? ""}" placeholder="${esc(o.default ?? "")}"${o.minimum !== undefined ? ` min="${o.minimum}"` : ""}${o.maximum !== undefined ? ` max="${o.maximum}"` : ""} step="1" inputmode="numeric"></label>`;
    return `<label class="row"${help}><span class="row-label">${label}</span> <input name="opt:${o.name}" placeholder="${esc(o.default ?? "")}"></label>`;
  }

  onChange(ev) {
    const el = ev.target;
    if (el.name === "game") {
      this.game = this.games.find((g) => g.name === el.value) || this.game;
      this.players = this.game.default_players;
      this.profile = FIRST_PROFILE[this.game.name] || null;
      this.keepName();
      this.render();
      this.refresh();
    } else if (el.name === "players") {
      this.players = Number(el.value);
      this.keepName();
      const form = this.root.querySelector("#new-table");
      form.querySelector("fieldset.seats").innerHTML =
        `<legend>${esc(t("lobby.seats"))}</legend><label class="row"><span class="row-label">${esc(t("lobby.players"))}</span> <select name="players">${this.game.players.map((p) => `<option${p === this.players ? " selected" : ""}>${p}</option>`).join("")}</select></label>` +
        this.seatRows();
      form.querySelector("fieldset.options").innerHTML = `<legend>${esc(t("lobby.options"))}</legend>${this.optionRows()}`;
    } else if (el.name === "opt:profile") {
      this.profile = el.value;
      const form = this.root.querySelector("#new-table");
      form.querySelector("fieldset.options").innerHTML = `<legend>${esc(t("lobby.options"))}</legend>${this.optionRows()}`;
    } else if (el.name && el.name.startsWith("opt:") && this.root.querySelector(`[data-about="${el.name.slice(4)}"]`)) {
      const about = this.root.querySelector(`[data-about="${el.name.slice(4)}"]`);
      const key = `opt.${el.name.slice(4)}.${el.value}.about`;
      about.textContent = has(key) ? t(key) : "";
    } else if (el.name === "opt:target" || el.name === "opt:deals") {
      const other = this.root.querySelector(`[data-other="${el.name.slice(4)}"]`);
      if (other) other.hidden = el.value !== "other";
    } else if (el.name === "name") {
      prefs.set("name", el.value.trim());
    }
  }

  keepName() {
    const input = this.root.querySelector('input[name="name"]');
    if (input && input.value.trim() && !account.current()) prefs.set("name", input.value.trim());
  }

  /** The request body for POST /api/tables, or an error text. */
  spec(form) {
    const f = form.elements;
    const name = f.name.value.trim();
    if (!name) return { error: t("lobby.needName") };
    const seats = ["human"];
    for (let s = 1; s < this.players; s++) seats.push(f[`seat${s}`].value);
    const options = {};
    for (const o of this.game.options) {
      const el = f[`opt:${o.name}`];
      if (!el) continue;
      const type = el.dataset ? el.dataset.type : null; // a group of radio buttons has none
      if (o.type === "boolean") {
        if (el.checked !== Boolean(o.default)) options[o.name] = el.checked;
      } else if (o.name === "target" && el.tagName === "SELECT") {
        // the target is sent whatever it is: the rule profile may change its default
        const v = el.value === "other" ? Number(f["opt:target-other"].value) : Number(el.value);
        if (el.value === "other" && !(Number.isInteger(v) && v > 0)) return { error: t("lobby.needTarget") };
        options.target = v;
      } else if (o.name === "deals" && el.tagName === "SELECT") {
        const v = el.value === "other" ? Number(f["opt:deals-other"].value) : Number(el.value);
        if (el.value === "other" && !(Number.isInteger(v) && v > 0)) return { error: t("lobby.needDeals") };
        if (v !== o.default) options.deals = v;
      } else if (type === "integer") {
        if (el.value === "") continue;
        const v = Number(el.value);
        if (v !== o.default) options[o.name] = v;
      } else if (el.value !== "" && el.value !== o.default) {
        options[o.name] = el.value;
      }
    }
    const body = { game: this.game.name, options, seats, private: f.private.checked };
    if (f.rated.checked) {
      if (seats.some((x) => x !== "human")) return { error: t("lobby.ratedPeople") };
      if (f.shared_screen.checked) return { error: t("lobby.ratedShared") };
      body.rated = true;
    }
    body.name = (f.table_name.value.trim() || `${t(`game.${this.game.name}`)} – ${name}`).slice(0, 40);
    if (f.move_time.value) body.move_time = Number(f.move_time.value);
    if (!f.hints.checked) body.hints = false;
    if (!f.takebacks.checked) body.takebacks = false;
    if (f.shared_screen.checked) body.shared_screen = true;
    body.takeover = f.takeover.value;
    if (f.grace.value !== "") body.grace = Number(f.grace.value);
    return { name, body };
  }

  async open(form) {
    const err = this.root.querySelector("#form-error");
    const { name, body, error } = this.spec(form);
    if (error) {
      err.textContent = error;
      form.elements.name.focus();
      return;
    }
    prefs.set("name", name);
    const button = this.root.querySelector("#open-table");
    button.disabled = true;
    button.textContent = t("lobby.opening");
    try {
      const table = await api.open(body);
      const joined = await api.join(table.id, name, 0);
      prefs.saveSeat(table.id, joined.seat, joined.token, name);
      location.href = `/tables/${encodeURIComponent(table.id)}`;
    } catch (e) {
      err.textContent = httpRefusal("open", e);
      button.disabled = false;
      button.textContent = t("lobby.open");
    }
  }

  async refresh() {
    if (!this.quick.ticket) this.quick.refreshQueues();
    if (this.friends) this.friends.refresh();
    const list = this.root.querySelector("#table-list");
    if (!list) return;
    let tables;
    try {
      tables = (await api.tables()).tables || [];
    } catch (e) {
      list.innerHTML = `<p class="form-error">${esc(httpRefusal("tables", e))}</p>`;
      return;
    }
    const open = tables.filter((x) => x.status !== "over");
    list.innerHTML = open.length
      ? `<ul class="table-list">${open
          .map((x) => {
            const free = x.seats.filter((s) => s.kind === "human" && !s.claimed).length;
            const href = `/tables/${encodeURIComponent(x.id)}`;
            const about = [t(`game.${x.game}`), t("lobby.nPlayers", { n: x.players }), t(`status.${x.status}`), ...tableRules(x)];
            return (
              `<li data-table="${esc(x.id)}"><div><b>${esc(tableName(x))}</b> <span class="muted">${about.map(esc).join(" · ")}</span>` +
              `<div class="muted small">${x.seats.map((s) => esc(s.kind === "bot" ? t("bot.short") : s.claimed ? s.name || "?" : t("table.free"))).join(" · ")}</div></div>` +
              `<div class="actions">${free ? `<a class="button primary" href="${href}?join=1">${esc(t("lobby.take"))} (${esc(t("lobby.free", { n: free }))})</a>` : ""}` +
              `<a class="button" href="${href}">${esc(t("lobby.watch"))}</a></div></li>`
            );
          })
          .join("")}</ul>`
      : `<p class="muted">${esc(t("lobby.noTables"))}</p>`;
    this.refreshMine();
  }

  /** Logged in or out: the name field and the list of the player's tables. */
  onAccount() {
    const input = this.root.querySelector('input[name="name"]');
    if (input) {
      input.value = account.seatName(prefs.get("name") || "");
      input.readOnly = !!account.current();
    }
    const rated = this.root.querySelector('input[name="rated"]');
    if (rated) {
      rated.disabled = !account.current(); // rated tables are for account holders
      if (rated.disabled) rated.checked = false;
    }
    if (this.quick) this.quick.onAccount();
    if (this.friends) this.friends.refresh();
    this.refreshMine();
  }

  /** The tables this browser holds a seat at, newest first, while they are not over. */
  async refreshMine() {
    const box = this.root.querySelector("#my-tables");
    if (!box) return;
    // this browser's seats, and the account's (taken on any device)
    const ids = prefs.mySeats().map(([id]) => id);
    for (const s of (account.current() || {}).seats || []) if (!ids.includes(s.table_id)) ids.push(s.table_id);
    const infos = await Promise.all(ids.slice(0, 8).map((id) => api.table(id).catch(() => null)));
    const live = infos.filter((x) => x && x.status !== "over");
    box.innerHTML = live.length
      ? `<h3>${esc(t("lobby.yourTables"))}</h3><ul class="table-list">${live
          .map(
            (x) =>
              `<li><div><b>${esc(tableName(x))}</b> <span class="muted">${esc(t(`game.${x.game}`))} · ${esc(t(`status.${x.status}`))}</span></div>` +
              `<div class="actions"><a class="button primary" href="/tables/${encodeURIComponent(x.id)}">${esc(t("lobby.back"))}</a></div></li>`,
          )
          .join("")}</ul>`
      : "";
  }
}
