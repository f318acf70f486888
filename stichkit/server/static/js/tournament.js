// A tournament's page (/tournaments/ID, ?invitation=SECRET from an invitation link): registration,
// the rounds with their pairings, tables and games (each with its replay), the live standings
// with their tie-breaks, and the final standings. It follows the tournament by its revision: it
// asks /rev every few seconds and reads the tournament again when the number changed. When a
// round begins and the player has a table, the page takes them there (once per table).

import * as account from "./account.js";
import { api } from "./api.js";
import { copy, esc } from "./dom.js";
import * as icons from "./icons.js";
import { lang, t } from "./i18n.js";
import * as prefs from "./prefs.js";
import { httpRefusal } from "./refusals.js";

const POLL_MS = 2000;
const TAKEN = "stichkit.tournamentTables"; // tables this browser was taken to already (sessionStorage)

/** A number as the standings show it: whole numbers plain, others with up to two decimals. */
export function shown(x) {
  if (x === null || x === undefined) return "–";
  const n = Number(x);
  const whole = Math.abs(n - Math.round(n)) < 1e-9;
  return n.toLocaleString(lang() === "de" ? "de-CH" : "en-GB", { maximumFractionDigits: whole ? 0 : 2, minimumFractionDigits: 0 });
}

function taken() {
  try {
    return JSON.parse(sessionStorage.getItem(TAKEN) || "[]");
  } catch {
    return [];
  }
}

function remember(table) {
  const seen = taken();
  if (!seen.includes(table)) sessionStorage.setItem(TAKEN, JSON.stringify([...seen, table].slice(-50)));
}

export class TournamentPage {
  constructor(root, id, { invitation = null, onTitle = () => {} } = {}) {
    this.root = root;
    this.id = id;
    this.invitation = invitation;
    this.onTitle = onTitle;
    this.doc = null;
    this.rev = null;
    this.error = null;
    this.busy = false;
    this.root.innerHTML = `<div class="panel notice"><p>${esc(t("tour.loading"))}</p></div>`;
    this.root.addEventListener("click", (ev) => this.click(ev));
    this.root.addEventListener("submit", (ev) => this.submit(ev));
    this.load();
    this.poll = setInterval(() => this.check(), POLL_MS);
  }

  destroy() {
    clearInterval(this.poll);
  }

  relabel() {
    if (this.doc) this.render();
  }

  onAccount() {
    this.load();
  }

  async check() {
    if (this.busy) return;
    try {
      const r = await api.tournamentRev(this.id);
      if (r.rev !== this.rev) await this.load();
    } catch {
      // a network drop: the next poll tries again
    }
  }

  async load() {
    this.busy = true;
    try {
      this.doc = await api.tournament(this.id);
      this.rev = this.doc.rev;
    } catch (e) {
      this.busy = false;
      if (!this.doc) {
        this.root.innerHTML = `<div class="panel notice"><p>${esc(e.status === 404 ? t("tour.notFound") : httpRefusal("tournament", e))}</p><p><a class="button" href="/tournaments">${esc(t("tour.all"))}</a></p></div>`;
      }
      return;
    }
    this.busy = false;
    this.onTitle(this.doc.name);
    this.render();
    this.follow();
  }

  /** At a round's start, take a registered player to their table (once per table). */
  follow() {
    const you = this.doc.you;
    const table = you && you.table;
    // a paused tournament plays its round on (no new round begins)
    if (!table || !["running", "paused"].includes(this.doc.status) || taken().includes(table.id)) return;
    remember(table.id);
    if (Number.isInteger(table.seat) && table.token) prefs.saveSeat(table.id, table.seat, table.token, you.name);
    location.assign(table.link);
  }

  say(text, bad = false) {
    const el = this.root.querySelector("#tour-message");
    if (el) {
      el.textContent = text;
      el.classList.toggle("bad", bad);
    }
  }

  async act(what, call) {
    // one request at a time: the buttons wait until the tournament is read again
    for (const b of this.root.querySelectorAll("button")) b.disabled = true;
    try {
      await call();
      this.error = null;
    } catch (e) {
      this.error = httpRefusal(what, e);
    }
    await this.load();
    for (const b of this.root.querySelectorAll("button")) b.disabled = false; // also when it could not be read
    if (this.error) this.say(this.error, true);
  }

  click(ev) {
    const b = ev.target.closest("button[data-act]");
    if (!b) return;
    const act = b.dataset.act;
    if (act === "leave") this.act("tourLeave", () => api.tournamentLeave(this.id));
    else if (act === "copy-invitation") {
      const field = this.root.querySelector("#tour-invitation");
      copy(field.value, field).then((ok) => this.say(ok ? t("table.copied") : ""));
    } else if (["start", "pause", "resume", "end"].includes(act)) {
      if (act === "end" && !confirm(t("tour.endConfirm"))) return;
      this.act("tourRun", () => api.tournamentStep(this.id, act));
    }
  }

  submit(ev) {
    const form = ev.target;
    ev.preventDefault();
    const data = new FormData(form);
    if (form.id === "tour-register") {
      const body = {};
      const name = (data.get("name") || "").toString().trim();
      const team = (data.get("team") || "").toString().trim();
      if (name && !account.current()) {
        body.name = name;
        prefs.set("name", name);
      }
      if (team) body.team = team;
      if (this.invitation) body.invitation = this.invitation;
      this.act("tourRegister", () => api.tournamentRegister(this.id, body));
    } else if (form.id === "tour-bot") {
      const body = { bot: data.get("bot").toString() };
      const team = (data.get("team") || "").toString().trim();
      if (team) body.team = team;
      this.act("tourBot", () => api.tournamentBot(this.id, body));
    }
  }

  render() {
    const d = this.doc;
    const settings = d.settings || {};
    const roundText = d.round ? t("tour.roundOf", { n: d.round, of: d.rounds }) : t(d.rounds === 1 ? "tour.oneRound" : "tour.rounds", { n: d.rounds });
    const meta = [t(`game.${d.game}`), t(`tour.format.${d.format}`), roundText, t(`tour.status.${d.status}`)];
    if (settings.rated) meta.push(t("tour.rated"));
    this.root.innerHTML =
      `<div class="tournament" data-rev="${d.rev}" data-status="${esc(d.status)}">` +
      `<section class="panel tour-head" aria-labelledby="tour-name"><h2 id="tour-name">${esc(d.name)}</h2>` +
      `<p class="tour-meta" id="tour-meta">${meta.map(esc).join(" · ")}</p>` +
      `<p class="muted tour-rule">${esc(t(`tour.rule.${d.format}`))}</p>` +
      this.final() +
      this.yours() +
      this.registration() +
      this.organiser() +
      `<p id="tour-message" class="tour-message" role="status" aria-live="polite"></p>` +
      `</section>` +
      this.standings() +
      this.errors() +
      this.roundsHtml() +
      this.entrants() +
      `</div>`;
  }

  final() {
    const d = this.doc;
    if (!d.final) return "";
    const top = d.standings.filter((s) => s.rank === 1).map((s) => s.name);
    return `<p class="tour-final" id="tour-final">${esc(t(d.ended_early ? "tour.endedEarly" : "tour.over", { names: top.join(", ") }))}</p>`;
  }

  yours() {
    const you = this.doc.you;
    if (!you) return "";
    const table = you.table;
    return (
      `<p class="tour-you" id="tour-you">${esc(t("tour.youAre", { name: you.name }))}` +
      (table ? ` <a class="button primary" id="tour-your-table" href="${esc(table.link)}">${esc(t("tour.yourTable", { n: table.number }))}</a>` : "") +
      `</p>`
    );
  }

  registration() {
    const d = this.doc;
    if (d.status !== "registering") return "";
    if (d.you) return `<p><button type="button" data-act="leave" id="tour-leave">${esc(t("tour.leave"))}</button></p>`;
    const settings = d.settings || {};
    if (settings.registration === "invitation" && !this.invitation && !d.organiser) {
      return `<p class="muted" id="tour-closed">${esc(t("tour.byInvitation"))}</p>`;
    }
    const teams = d.teams !== undefined && ["jass", "coiffeur"].includes(d.game) && ["swiss", "duplicate"].includes(d.format);
    return (
      `<form id="tour-register" class="tour-form" novalidate>` +
      // logged in, one plays under the account's name (fixed), as at a table
      `<label>${esc(t("lobby.yourName"))} <input name="name" maxlength="40" autocomplete="nickname" value="${esc(account.seatName(prefs.get("name") || ""))}"${account.current() ? " readonly" : ""}></label>` +
      (teams ? `<label>${esc(t("tour.team"))} <input name="team" maxlength="40" aria-describedby="tour-team-hint"></label>` : "") +
      `<button type="submit" class="primary" id="tour-register-button">${esc(t("tour.register"))}</button>` +
      (settings.registration === "accounts" ? `<span class="muted">${esc(t("tour.accountsOnly"))}</span>` : "") +
      `</form>` +
      (teams ? `<p class="muted" id="tour-team-hint">${esc(t("tour.teamHint"))}</p>` : "")
    );
  }

  organiser() {
    const d = this.doc;
    if (!d.organiser || (d.status === "over" && !d.invitation)) return "";
    const buttons = [];
    if (d.status === "registering") buttons.push("start");
    if (d.status === "running") buttons.push("pause");
    if (d.status === "paused") buttons.push("resume");
    if (d.status !== "over") buttons.push("end");
    const invite = d.invitation
      ? `<p class="tour-invite"><label>${esc(t("tour.invitation"))} <input id="tour-invitation" readonly value="${esc(location.origin + d.invitation.link)}"></label> ` +
        `<button type="button" data-act="copy-invitation">${esc(t("table.copy"))}</button></p>`
      : "";
    const bots =
      d.status === "registering"
        ? `<form id="tour-bot" class="tour-form"><label>${esc(t("tour.addBot"))} <select name="bot">` +
          ["heuristic", "random", "ismcts"].map((b) => `<option value="${b}">${esc(t(`bot.${b}`))}</option>`).join("") +
          `</select></label><button type="submit">${esc(t("tour.enterBot"))}</button></form>`
        : "";
    return (
      `<div class="tour-organiser" id="tour-organiser"><h3>${esc(t("tour.organiser"))}</h3>` +
      invite +
      `<p class="panel-buttons">${buttons.map((b) => `<button type="button" data-act="${b}" id="tour-${b}"${b === "start" ? ' class="primary"' : ""}>${esc(t(`tour.${b}`))}</button>`).join("")}</p>` +
      bots +
      `</div>`
    );
  }

  standings() {
    const d = this.doc;
    const rows = d.standings || [];
    const breaks = rows.length ? rows[0].tiebreaks.map((b) => b.name) : [];
    // a column's name in full, and short on a phone (the legend under the table says both)
    const label = (key) => `<span class="long">${esc(t(key))}</span><span class="short" aria-hidden="true">${esc(t(`${key}.short`))}</span>`;
    const head =
      `<tr><th scope="col">#</th><th scope="col">${esc(t(d.format === "passe" || !d.teams || !d.teams.length ? "tour.player" : "tour.entrant"))}</th>` +
      `<th scope="col" class="num">${label(`tour.score.${d.format}`)}</th>` +
      breaks.map((b) => `<th scope="col" class="num" title="${esc(t(`tour.break.${b}.about`))}">${label(`tour.break.${b}`)}</th>`).join("") +
      `<th scope="col" class="num">${label("tour.games")}</th></tr>`;
    const body = rows
      .map(
        (s) =>
          `<tr data-entrant="${esc(s.entrant)}"${d.final && s.rank === 1 ? ' class="winner"' : ""}><td class="num">${s.rank}</td>` +
          `<th scope="row">${esc(s.name)}${s.replaced ? ` <span class="tour-mark" title="${esc(t("tour.replacedAbout", { n: s.replaced }))}" aria-label="${esc(t("tour.replacedAbout", { n: s.replaced }))}">${icons.robot} ${s.replaced}</span>` : ""}</th>` +
          `<td class="num score">${esc(shown(s.score))}</td>` +
          s.tiebreaks.map((b) => `<td class="num">${esc(shown(b.value))}</td>`).join("") +
          `<td class="num">${s.games}${s.byes ? ` <span class="muted">(${esc(t("tour.byesShort", { n: s.byes }))})</span>` : ""}</td></tr>`,
      )
      .join("");
    const title = d.final ? t("tour.finalStandings") : t("tour.standings");
    const live = d.status === "running" ? ` <span class="tour-live">${esc(t("tour.live"))}</span>` : "";
    return (
      `<section class="panel" aria-labelledby="tour-standings-title"><h3 id="tour-standings-title">${esc(title)}${live}</h3>` +
      (rows.length
        ? `<div class="tour-scroll"><table class="leader-table tour-standings" id="tour-standings"><thead>${head}</thead><tbody>${body}</tbody></table></div>` +
          `<p class="muted tour-breaks">${breaks.map((b) => `<span class="short">${esc(t(`tour.break.${b}.short`))} = </span>${esc(t(`tour.break.${b}`))}: ${esc(t(`tour.break.${b}.about`))}`).join(" · ")}</p>` +
          (rows.some((s) => s.replaced) ? `<p class="muted tour-breaks" id="tour-replaced-legend">${icons.robot} ${esc(t("tour.replacedLegend"))}</p>` : "")
        : `<p class="muted">${esc(t((d.entrants || []).length ? "tour.noStandings" : "tour.noEntrants"))}</p>`) +
      `</section>`
    );
  }

  /** Jass: the players by points lost per card in the analysed games. */
  errors() {
    const label = (key) => `<span class="long">${esc(t(key))}</span><span class="short" aria-hidden="true">${esc(t(`${key}.short`))}</span>`;
    const rows = this.doc.jass_errors;
    if (!Array.isArray(rows)) return "";
    if (!rows.length) {
      return this.doc.final
        ? `<section class="panel" aria-labelledby="tour-errors-title"><h3 id="tour-errors-title">${esc(t("tour.errorsTitle"))}</h3><p class="muted">${esc(t("tour.errorsNone"))}</p></section>`
        : "";
    }
    const body = rows
      .map(
        (r, i) =>
          `<tr data-entrant="${esc(r.entrant)}"><td class="num">${i + 1}</td><th scope="row">${esc(r.name)}</th><td class="num">${esc(shown(r.per_card))}</td>` +
          `<td class="num">${r.lost}</td><td class="num">${r.cards}</td><td class="num">${r.games}</td></tr>`,
      )
      .join("");
    return (
      `<section class="panel" aria-labelledby="tour-errors-title"><h3 id="tour-errors-title">${esc(t("tour.errorsTitle"))}</h3>` +
      `<p class="muted">${esc(t("tour.errorsAbout"))}</p>` +
      `<div class="tour-scroll"><table class="leader-table tour-standings" id="tour-errors"><thead><tr><th>#</th><th>${esc(t("tour.player"))}</th>` +
      ["tour.perCard", "tour.lost", "tour.cards", "tour.games"].map((k) => `<th class="num">${label(k)}</th>`).join("") +
      `</tr></thead>` +
      `<tbody>${body}</tbody></table></div></section>`
    );
  }

  roundsHtml() {
    const rounds = [...(this.doc.rounds_played || [])].reverse();
    if (!rounds.length) return "";
    return (
      `<section class="panel" aria-labelledby="tour-rounds-title"><h3 id="tour-rounds-title">${esc(t("tour.roundsTitle"))}</h3>` +
      rounds.map((r) => this.round(r)).join("") +
      `</section>`
    );
  }

  round(r) {
    const sealed = r.status === "playing" && this.doc.format === "duplicate";
    const tables = r.tables
      .map((x) => {
        const dash = ` <span class="muted">–</span> `;
        const first = x.games.length ? x.games[0].seats : [];
        // Passe: the partners of the first game (seats 0+2 against 1+3), else the entrants
        const names =
          this.doc.format === "passe" && first.length === 4
            ? `${esc(first[0])} &amp; ${esc(first[2])}${dash}${esc(first[1])} &amp; ${esc(first[3])}`
            : x.entrants.map(esc).join(dash);
        const link = x.link ? ` <a href="${esc(x.link)}" class="tour-table-link">${esc(t("tour.toTable"))}</a>` : "";
        const games = x.games
          .map((g) => {
            const done = Array.isArray(g.scores);
            const scores = done ? g.seats.map((p, i) => `${esc(p)} ${esc(shown(g.scores[i]))}${g.replaced.includes(i) ? ` <span class="tour-mark" title="${esc(t("tour.replacedSeat"))}" aria-label="${esc(t("tour.replacedSeat"))}">${icons.robot}</span>` : ""}`).join(", ") : g.seats.map(esc).join(", ");
            const at = done && x.table && g.replay ? `/tables/${encodeURIComponent(x.table)}?replay=${g.game_no}` : null;
            // a Jass game's analysis (asked for in its replay) counts in the table of errors per card
            const replay = at
              ? ` <a href="${at}" class="tour-replay">${esc(t("profile.replay"))}</a>` +
                (g.analysis ? ` <a href="${at}&amp;analyse=1" class="tour-analyse">${esc(t("profile.analysis"))}</a>` : "")
              : "";
            return `<li>${esc(t("tour.gameNo", { n: g.game_no }))}: ${scores}${done ? "" : ` <span class="muted">(${esc(t("tour.playing"))})</span>`}${replay}</li>`;
          })
          .join("");
        return (
          `<li class="tour-table" data-table="${x.number}"><b>${esc(t("tour.tableNo", { n: x.number }))}</b>: ${names}${link}` +
          ` <span class="muted">${esc(t(`tour.tableStatus.${x.status}`))}</span>` +
          (games ? `<ul class="tour-games">${games}</ul>` : "") +
          `</li>`
        );
      })
      .join("");
    const byes = r.byes && r.byes.length ? `<p class="muted">${esc(t("tour.byes", { names: r.byes.join(", ") }))}</p>` : "";
    return (
      `<div class="tour-round" data-round="${r.number}"><h4>${esc(t("tour.roundNo", { n: r.number }))} <span class="muted">${esc(t(`tour.roundStatus.${r.status}`))}</span></h4>` +
      (sealed ? `<p class="muted">${esc(t("tour.sealed"))}</p>` : "") +
      `<ul class="tour-tables">${tables}</ul>${byes}</div>`
    );
  }

  entrants() {
    const list = this.doc.entrants || [];
    const items = list
      .map(
        (e) =>
          `<li>${esc(e.name)}${e.team ? ` <span class="muted">(${esc(e.team)})</span>` : ""}` +
          `${e.kind === "bot" ? ` <span class="tour-mark">${esc(t("tour.bot"))}</span>` : ""}` +
          `${e.replaced ? ` <span class="tour-mark" title="${esc(t("tour.replacedAbout", { n: "" }))}">${esc(t("tour.replacedFrom", { n: e.replaced.round }))}</span>` : ""}</li>`,
      )
      .join("");
    return (
      `<section class="panel" aria-labelledby="tour-entrants-title"><h3 id="tour-entrants-title">${esc(t("tour.entrants", { n: list.length }))}</h3>` +
      (items ? `<ul class="tour-entrants" id="tour-entrants">${items}</ul>` : `<p class="muted">${esc(t("tour.noEntrants"))}</p>`) +
      `</section>`
    );
  }
}
