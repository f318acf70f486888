// Quick play ("Schnell spielen"), a panel of the lobby: choose a game, a player count and how
// long to wait for people, then wait in the server's queue until it seats you with others at a
// new table. After the wait you chose, the empty seats can be filled with bots of a level you
// pick. The panel also shows how many wait in each queue. Waiting means asking the server every
// second (docs/server.md, "Quick play"): a closed page leaves the queue by itself.

import * as account from "./account.js";
import { api } from "./api.js";
import { esc } from "./dom.js";
import { t } from "./i18n.js";
import * as prefs from "./prefs.js";
import { httpRefusal } from "./refusals.js";

const WAITS = [15, 30, 60, 120];
const POLL_MS = 1000;

export class QuickPlay {
  /**
   * `box`: the panel's element (it keeps its state while the lobby around it is drawn again);
   * `games`: the catalog's games in the lobby's order; `levels(game)`: the bot levels offered.
   */
  constructor(box, games, levels) {
    this.box = box;
    this.games = games;
    this.levels = levels;
    this.game = games[0];
    this.players = this.game.default_players;
    this.wait = 30;
    this.ticket = null;
    this.news = null;
    this.queues = [];
    this.rated = false;
    // the logged-in user's name: rated queues open, and the seat is theirs (account.js knows
    // who is logged in; the lobby calls onAccount after a login or logout)
    this.account = account.current() ? account.current().name : null;
    this.render();
    this.refreshQueues();
  }

  onAccount() {
    this.account = account.current() ? account.current().name : null;
    if (!this.account) this.rated = false;
    if (!this.ticket) this.render();
  }

  destroy() {
    clearTimeout(this.timer);
    if (this.ticket) api.quickLeave(this.ticket).catch(() => {});
    this.ticket = null;
  }

  render() {
    const waiting = Boolean(this.ticket);
    this.box.className = "panel quick";
    this.box.setAttribute("aria-labelledby", "quick-title");
    this.box.innerHTML =
      `<div class="panel-head"><h2 id="quick-title">${esc(t("quick.title"))}</h2></div>` +
      `<p class="muted small">${esc(t("quick.about"))}</p>` +
      `<form id="quick-form" class="quick-form" novalidate${waiting ? " hidden" : ""}>` +
      (this.account
        ? `<p class="row" id="quick-as">${esc(t("quick.as", { name: this.account }))}</p>`
        : `<label class="row"><span class="row-label">${esc(t("lobby.yourName"))}</span> <input name="q_name" maxlength="40" autocomplete="nickname" value="${esc(prefs.get("name") || "")}" placeholder="${esc(t("lobby.namePlaceholder"))}"></label>`) +
      `<label class="row"><span class="row-label">${esc(t("lobby.game"))}</span> <select name="q_game">${this.games.map((g) => `<option value="${g.name}"${g === this.game ? " selected" : ""}>${esc(t(`game.${g.name}`))}</option>`).join("")}</select></label>` +
      `<label class="row"><span class="row-label">${esc(t("lobby.players"))}</span> <select name="q_players">${this.game.players.map((p) => `<option${p === this.players ? " selected" : ""}>${p}</option>`).join("")}</select></label>` +
      `<label class="row"><span class="row-label">${esc(t("quick.wait"))}</span> <select name="q_wait">${WAITS.map((w) => `<option value="${w}"${w === this.wait ? " selected" : ""}>${esc(t("quick.seconds", { n: w }))}</option>`).join("")}</select></label>` +
      `<label class="row check"><input type="checkbox" name="q_rated"${this.account ? (this.rated ? " checked" : "") : " disabled"}> ${esc(t(this.account ? "quick.ratedOn" : "quick.rated"))}</label>` +
      `<p class="form-error" id="quick-error" role="alert"></p>` +
      `<button type="submit" class="primary" id="quick-go">${esc(t("quick.go"))}</button>` +
      `</form>` +
      `<div id="quick-wait" class="quick-wait" role="status"${waiting ? "" : " hidden"}></div>` +
      `<div id="quick-queues" class="quick-queues"></div>`;
    const form = this.box.querySelector("#quick-form");
    form.addEventListener("change", (ev) => this.onChange(ev));
    // the name is kept as it is typed: choosing another game draws the form again
    if (form.elements.q_name) form.elements.q_name.addEventListener("input", (ev) => prefs.set("name", ev.target.value.trim()));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.join(form);
    });
    this.drawWait();
    this.drawQueues();
  }

  onChange(ev) {
    const el = ev.target;
    if (el.name === "q_game") {
      this.game = this.games.find((g) => g.name === el.value) || this.game;
      this.players = this.game.default_players;
      this.render();
    } else if (el.name === "q_players") this.players = Number(el.value);
    else if (el.name === "q_wait") this.wait = Number(el.value);
    else if (el.name === "q_rated") this.rated = el.checked;
  }

  async join(form) {
    const err = this.box.querySelector("#quick-error");
    const name = this.account || form.elements.q_name.value.trim(); // logged in: the server uses the user name
    if (!name) {
      err.textContent = t("lobby.needName");
      form.elements.q_name.focus();
      return;
    }
    if (!this.account) prefs.set("name", name);
    this.name = name;
    const button = this.box.querySelector("#quick-go");
    button.disabled = true;
    try {
      const answer = await api.quickJoin({ name, game: this.game.name, players: this.players, rated: Boolean(this.account && this.rated), wait: this.wait });
      this.ticket = answer.ticket;
      this.render();
      this.onNews(answer);
    } catch (e) {
      err.textContent = httpRefusal("quick", e);
      button.disabled = false;
    }
  }

  onNews(news) {
    if (news.status === "matched") {
      this.ticket = null;
      prefs.saveSeat(news.table, news.seat, news.token, news.name || this.name);
      location.href = `/tables/${encodeURIComponent(news.table)}`;
      return;
    }
    this.news = news;
    this.drawWait();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.poll(), POLL_MS);
  }

  async poll() {
    if (!this.ticket) return;
    try {
      this.onNews(await api.quickNews(this.ticket));
    } catch (e) {
      if (e.status === 404) {
        // the server forgot this place (the page slept too long): back to the form, saying so
        this.ticket = null;
        this.render();
        this.box.querySelector("#quick-error").textContent = t("quick.lost");
        return;
      }
      this.timer = setTimeout(() => this.poll(), POLL_MS * 3); // no answer: try again a little later
    }
  }

  drawWait() {
    const box = this.box.querySelector("#quick-wait");
    if (!box) return;
    box.hidden = !this.ticket;
    if (!this.ticket || !this.news) return;
    const n = this.news;
    const levels = this.levels(n.game);
    const offer = n.bots_offered
      ? `<div class="quick-bots"><p>${esc(t("quick.offer"))}</p>` +
        `<label class="row"><span class="row-label">${esc(t("quick.botLevel"))}</span> <select name="q_bot">${levels.map((lv) => `<option value="${esc(lv)}"${lv === "heuristic" ? " selected" : ""}>${esc(t(`level.${lv}`))}</option>`).join("")}</select></label>` +
        `<button type="button" class="primary" id="quick-fill">${esc(t("quick.fill"))}</button></div>`
      : "";
    const keep = box.querySelector('select[name="q_bot"]');
    const chosen = keep ? keep.value : null;
    box.innerHTML =
      `<p class="quick-searching"><span class="spinner" aria-hidden="true"></span> ${esc(t("quick.searching", { game: t(`game.${n.game}`), n: n.players }))}</p>` +
      `<p class="muted" id="quick-count">${esc(t("quick.count", { n: n.waiting, s: Math.floor(n.waited) }))}</p>` +
      offer +
      `<p class="form-error" id="quick-wait-error" role="alert"></p>` +
      `<button type="button" id="quick-cancel">${esc(t("quick.cancel"))}</button>`;
    if (chosen && box.querySelector('select[name="q_bot"]')) box.querySelector('select[name="q_bot"]').value = chosen;
    box.querySelector("#quick-cancel").addEventListener("click", () => this.cancel());
    const fill = box.querySelector("#quick-fill");
    if (fill) fill.addEventListener("click", () => this.fill());
  }

  async fill() {
    const select = this.box.querySelector('select[name="q_bot"]');
    try {
      this.onNews(await api.quickBots(this.ticket, select ? select.value : "heuristic"));
    } catch (e) {
      const err = this.box.querySelector("#quick-wait-error");
      if (err) err.textContent = httpRefusal("quick", e);
    }
  }

  async cancel() {
    clearTimeout(this.timer);
    const ticket = this.ticket;
    this.ticket = null;
    this.news = null;
    try {
      const answer = await api.quickLeave(ticket);
      if (answer.status === "matched") {
        this.onNews(answer); // matched a moment before: the seat is there, take it
        return;
      }
    } catch {
      // gone already: nothing to leave
    }
    this.render();
  }

  async refreshQueues() {
    try {
      this.queues = (await api.quickQueues()).queues || [];
    } catch {
      this.queues = [];
    }
    this.drawQueues();
  }

  drawQueues() {
    const box = this.box.querySelector("#quick-queues");
    if (!box) return;
    box.innerHTML = this.queues.length
      ? `<h3>${esc(t("quick.queues"))}</h3><ul class="quick-list">${this.queues
          .map(
            (q) =>
              `<li data-queue="${esc(`${q.game}:${q.players}:${q.rated ? "rated" : "unrated"}`)}">${esc(t(`game.${q.game}`))} · ${esc(t("lobby.nPlayers", { n: q.players }))}${q.rated ? ` · ${esc(t("quick.ratedShort"))}` : ""}: ` +
              `<b>${esc(t("quick.waitingN", { n: q.waiting }))}</b></li>`,
          )
          .join("")}</ul>`
      : `<p class="muted small">${esc(t("quick.nobody"))}</p>`;
  }
}
