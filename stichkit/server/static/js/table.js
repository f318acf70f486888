// The live table: connects to the table's WebSocket (with the seat's token, or as a spectator),
// shows every version in order at a pace a person can follow, sends the player's moves, and
// shows the server's answer when a move is refused (for an illegal card: the engine's reason).

import * as account from "./account.js";
import { api, TableSocket } from "./api.js";
import { $, copy, dialog, esc, refocus, sleep, toast } from "./dom.js";
import * as icons from "./icons.js";
import * as mutes from "./mutes.js";
import { line, lineText, reasonText } from "./games/common.js";
import { t, tableTitle } from "./i18n.js";
import * as prefs from "./prefs.js";
import { httpRefusal, refusalText } from "./refusals.js";
import { TableView } from "./tableview.js";

/** The state's line: one more with each takeback in its game (servers before takebacks: 0). */
const lineOf = (msg) => msg.line || 0;

/** Two states of the same game and line: their versions compare (a takeback starts a new line). */
const sameLine = (a, b) => a.game_no === b.game_no && lineOf(a) === lineOf(b);

/** Is this state the one a takeback went back to? */
const isTakeback = (msg) => !!(msg.last && msg.last.by === "takeback");

/** The seat's connection to the table: the one place the page connects (api.js TableSocket). */
const connectTo = (id, token, handlers) => new TableSocket(id, token, handlers);

export class LiveTable {
  constructor(root, id, { catalog, info, connect = connectTo }) {
    this.root = root;
    this.id = id;
    this.catalog = catalog;
    this.info = info;
    this.queue = [];
    this.shown = null; // the state message on screen
    this.latest = null; // the newest state message received
    this.selected = null;
    this.busy = false;
    this.chat = [];
    this.held = null;
    this.connectWith = connect;
    this.skipWait = null; // goes on at once from a pause (a taken trick, a deal's summary)
    const gameInfo = (catalog.games || []).find((g) => g.name === info.game) || {};
    this.view = new TableView(root, {
      gameName: info.game,
      n: info.players,
      data: gameInfo.data || null,
      handlers: {
        card: (c, el) => this.onCard(c, el),
        choice: (a, el) => this.onChoice(a, el),
        action: (a, el) => this.act(a, el),
        place: (n, el) => this.onPlace(n, el),
        dialog: (which) => this.openDialog(which),
        command: (cmd, el) => this.command(cmd, el),
      },
    });
    this.view.info = info;
    this.seat = prefs.seatFor(id);
    this.view.setSeat(this.seat ? this.seat.seat : null);
    this.renderChat();
    mutes.load().then(() => this.renderChat()); // a logged-in player's mutes are the account's
    // a tap on the table goes on at once from a taken trick or a deal's summary
    root.addEventListener("click", (ev) => {
      if (this.skipWait && ev.target.closest("#felt") && !ev.target.closest("button:not(.banner), a, input, select")) this.skipWait();
    });
    root.addEventListener("submit", (ev) => {
      const form = ev.target.closest('form[data-form="join"]');
      if (!form) return;
      ev.preventDefault();
      this.join(form.elements.name.value.trim(), Number(form.elements.seat.value));
    });
    this.connect();
    this.keys = (ev) => this.onKey(ev);
    document.addEventListener("keydown", this.keys);
    this.timer = setInterval(() => this.tick(), 1000);
    this.renderWaitingOnly();
    window.stichkitTable = this; // for the browser console
  }

  /** Draw everything again in the current language and deck. */
  relabel() {
    this.view.mount();
    this.renderChat();
    if (this.shown) this.renderNow();
    else this.renderWaitingOnly();
  }

  destroy() {
    document.removeEventListener("keydown", this.keys);
    clearInterval(this.timer);
    if (this.socket) this.socket.close();
  }

  connect() {
    if (this.socket) this.socket.close();
    this.socket = this.connectWith(this.id, this.seat ? this.seat.token : null, {
      onMessage: (m) => this.onMessage(m),
      onStatus: (s, code, tries) => this.onStatus(s, code, tries),
    });
  }

  get me() {
    return this.view.me;
  }

  get gameView() {
    return this.shown ? this.shown.view : null;
  }

  // -- messages ---------------------------------------------------------------------------------

  onStatus(status, code, tries) {
    this.connection = status;
    if (status === "open") {
      this.view.setMessage(null);
      this.everOpen = true;
    } else if (status === "closed") {
      this.view.setMessage(t("table.reconnecting"), "info");
      if (!this.everOpen && tries >= 3) this.checkGone();
    } else if (status === "gone") {
      if (code === 4401) this.dropSeat();
      else this.view.setMessage(t("table.notFound"), "error");
    }
  }

  /** The socket never opened: is the table gone, or our token no longer good? */
  async checkGone() {
    try {
      await api.table(this.id);
    } catch (e) {
      if (e.status === 404) {
        this.socket.close();
        this.root.innerHTML = `<div class="panel notice"><p>${esc(t("table.notFound"))}</p><p><a href="/">${esc(t("table.toLobby"))}</a></p></div>`;
      }
      return;
    }
    if (this.seat) this.dropSeat();
  }

  dropSeat() {
    prefs.forgetSeat(this.id);
    this.seat = null;
    this.view.setSeat(null);
    toast(t("table.seatGone"), "error");
    this.everOpen = false;
    this.connect();
  }

  onMessage(msg) {
    switch (msg.type) {
      case "state":
        this.onState(msg);
        break;
      case "table":
        this.setInfo(msg.table);
        this.renderNow();
        break;
      case "chat":
        // a line said through another server process may come again right after the history
        if (this.chat.some((m) => m.id === msg.id)) break;
        this.chat.push(msg);
        this.renderChat();
        break;
      case "chat_history":
        this.chat = Array.isArray(msg.messages) ? msg.messages : [];
        this.renderChat();
        break;
      case "error":
        if (msg.ref === "hint" || msg.ref === "takeback") {
          // a hint or takeback refused (the turn passed meanwhile, turned off, the server busy): say why
          if (msg.ref === "hint") this.hintWait = false;
          else this.takebackWait = false;
          if (msg.code !== "stale") this.view.setMessage(t("table.refused", { reason: refusalText(msg.code) }), "error");
          this.renderNow();
        } else this.onError(msg);
        break;
      case "hint":
        this.hintWait = false;
        // an answer for a move already made (the player did not wait) is of no use any more
        if (this.shown && msg.game === this.shown.game_no && msg.version === this.shown.version) {
          this.hint = msg;
          this.renderNow();
        }
        break;
      default:
        break;
    }
  }

  setInfo(info) {
    if (!info) return;
    const before = this.info;
    this.info = info;
    this.view.info = info;
    if (before && before.seats)
      for (const s of info.seats)
        if (s.kind === "human" && s.claimed && before.seats[s.seat] && !before.seats[s.seat].claimed)
          this.view.addLog([line("table.joined", { name: s.name || ((c) => c.t("table.seatN", { n: s.seat + 1 })) })]);
    this.logTakebackRequest(info);
    document.title = `${tableTitle(info)} – stichkit`;
  }

  onState(msg) {
    // Versions of one game grow, except where moves are taken back: that starts a new line.
    const latest = this.latest;
    if (latest && msg.game_no === latest.game_no && (lineOf(msg) < lineOf(latest) || (sameLine(msg, latest) && msg.version < latest.version))) return;
    if (this.seat && msg.seat !== null && msg.seat !== undefined && msg.seat !== this.seat.seat) {
      // a rematch moves every player one seat on
      this.seat = { ...this.seat, seat: msg.seat };
      prefs.saveSeat(this.id, msg.seat, this.seat.token, this.seat.name);
    }
    if (!this.seat && Number.isInteger(msg.seat)) {
      // seated by the account's login (a seat taken on another device): no token here, the
      // login speaks for the seat
      const a = account.current();
      this.seat = { seat: msg.seat, token: null, name: a ? a.name : "" };
      this.renderChat();
    }
    if (msg.seat !== undefined && msg.seat !== this.view.me) this.view.setSeat(msg.seat);
    this.latest = msg;
    this.busy = false;
    this.takebackWait = false; // a new state is the answer (also after a reconnect that lost it)
    this.queue.push(msg);
    this.pump();
  }

  onError(msg) {
    this.busy = false;
    if (msg.code === "stale") return;
    // An illegal move: the reason in the page's language from the engine's code and params; the
    // engine's English message for a code the page has no text for.
    const own = msg.code === "illegal" ? reasonText(this.view.game, this.view.ctx(), msg.reason_code, msg.reason_params) : null;
    const text = msg.code === "illegal" ? t("table.illegal", { reason: own || msg.reason || "" }) : t("table.refused", { reason: refusalText(msg.code) });
    this.view.setMessage(text, "error");
    this.view.shake(this.lastClicked);
  }

  async pump() {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length) {
        const msg = this.queue.shift();
        await this.present(msg);
      }
    } finally {
      this.pumping = false;
    }
  }

  /** Wait `ms`, or less when the player taps the table (then at once). */
  pause(ms) {
    if (!ms) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.skipWait === done) this.skipWait = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.skipWait = done;
    });
  }

  /**
   * Show one version: first the full trick it completed (if any), announced ("Stich für Sepp –
   * 12 Punkte") and held for a moment; then, where a deal ended, its summary; then the version.
   * A tap on the table goes on at once. At a deal's end every number drawn is the engine's
   * after the deal: the summary, the side panel and the seats' chips agree.
   */
  async present(msg) {
    const game = this.view.game;
    const prevMsg = this.shown;
    if (prevMsg && prevMsg.game_no !== msg.game_no) this.view.clearLog();
    this.setInfo(msg.table);
    if (!msg.view || this.info.status === "waiting") {
      // nothing of the deal is shown before play begins (the server sends no view then)
      this.shown = null;
      this.renderWaitingOnly();
      return;
    }
    // a takeback is shown as it is, not as moves from the previous version (prev: null)
    const prev = prevMsg && prevMsg.view && sameLine(prevMsg, msg) && prevMsg.version < msg.version ? prevMsg.view : null;
    const pace = prefs.pace();
    const behind = this.queue.length > 6;
    const fast = behind || !prev;
    const ctx = this.view.ctx();
    const held = prev ? game.hold(prev, msg.view, ctx) : null;
    this.view.addLog(game.events(prev, msg.view, ctx, held));
    if (isTakeback(msg) && prevMsg) {
      const who = msg.last.seat === null || msg.last.seat === undefined ? null : msg.last.seat;
      this.view.addLog([who === null ? line("table.takenBackAnon") : line("table.takenBack", { name: (c) => c.name(who) })]);
    }
    const summary = prev && game.dealEnd ? game.dealEnd(prev, msg.view, ctx) : null;
    // the deal's last view, with the numbers of the engine's view after it
    const settled = summary && game.settle ? game.settle(held ? held.view : prev, msg.view) : null;
    if (held && !fast && pace.hold) {
      this.held = held;
      const view = settled || held.view;
      const banner = game.announce ? lineText(game.announce(held, ctx), ctx) : "";
      this.renderState(msg, { view, legal: [], held, winner: held.winner, banner, noTurn: true, status: `<span class="announce">${esc(banner)}</span>` });
      await this.pause(pace.hold);
      await this.view.animateTake(held.winner);
      this.held = null;
    }
    if (summary && !fast && pace.summary) {
      const view = settled || (held ? held.view : prev);
      const go = `<p class="summary-go"><button type="button" class="primary" data-cmd="go-on">${esc(t("table.goOn"))}</button></p>`;
      this.renderState(msg, { view, legal: [], overlay: `<div class="deal-summary">${summary}${go}</div>`, noTurn: true, status: "" });
      await this.pause(pace.summary);
    }
    const moved = !prevMsg || !sameLine(prevMsg, msg) || prevMsg.version !== msg.version;
    this.shown = msg;
    if (moved || (this.selected && !(msg.view.hand || []).includes(this.selected))) this.selected = null;
    if (moved) {
      if (this.hint) this.view.setMessage(null);
      this.hint = null;
      this.hintWait = false;
    }
    this.renderNow();
    const byOther = msg.last && msg.last.seat !== this.me;
    if (byOther && !fast && pace.card) await this.pause(pace.card);
  }

  /**
   * The seat's legal actions. A state message lists them; but when a waiting table starts, or a
   * seat is given back after a takeover, only the table info changes (no new version), and the
   * view of the seat to move still carries its `legal_actions`.
   */
  legalFor(msg) {
    if (msg.legal && msg.legal.length) return msg.legal;
    const info = this.info;
    const v = msg.view;
    if (!info || info.status !== "playing" || this.me === null || v.current_player !== this.me || !Array.isArray(v.legal_actions)) return [];
    const seat = info.seats[this.me];
    return seat && !seat.takeover ? v.legal_actions : [];
  }

  isLatest() {
    const [a, b] = [this.shown, this.latest];
    return a && b && sameLine(a, b) && a.version === b.version;
  }

  // -- drawing ----------------------------------------------------------------------------------

  interactFor(msg, legal) {
    return this.view.game.interact(msg.view, legal, this.view.ctx(), this.selected);
  }

  renderState(msg, { view, legal, held = null, overlay = null, winner = null, banner = null, noTurn = false, status = null }) {
    const inter = this.interactFor({ view }, legal);
    status = status ?? this.statusHtml(view, legal, inter);
    this.view.render(view, { legal, interact: inter, held, winner, overlay, banner, noTurn, version: msg.version, status });
  }

  renderNow() {
    const msg = this.shown;
    if (!msg || !msg.view || this.info.status === "waiting") {
      this.renderWaitingOnly();
      return;
    }
    const legal = this.isLatest() ? this.legalFor(msg) : [];
    const inter = this.interactFor(msg, legal);
    this.inter = inter;
    this.view.render(msg.view, {
      legal,
      interact: inter,
      selected: this.selected,
      version: msg.version,
      overlay: this.overlay(msg),
      status: this.statusHtml(msg.view, legal, inter),
    });
    if (legal.length) this.showHint(inter);
    document.title = (legal.length ? "● " : "") + `${tableTitle(this.info)} – stichkit`;
  }

  /** Before play begins (and before the first state arrives): the seats and the invite, and
   * nothing of the deal. */
  renderWaitingOnly() {
    const felt = this.root.querySelector("#felt");
    if (!felt) return;
    const focus = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.focusKey : null;
    this.view.showOnly(this.waitingBox(), `<p class="muted">${esc(t("table.beginsWhenFull"))}</p>`);
    refocus(felt, focus);
  }

  /** The line under the player's seat: what to do now, or whose turn it is, each thing said in
   * a sentence of its own (drawn as separate items). */
  statusHtml(view, legal, inter) {
    const info = this.info;
    const parts = [];
    const item = (text, cls = "") => `<span class="${cls}">${esc(text)}</span>`;
    if (info.status === "waiting") {
      const free = info.seats.filter((s) => s.kind === "human" && !s.claimed).length;
      parts.push(item(t(free === 1 ? "table.waiting" : "table.waitingMany", { n: free })));
    } else if (view.phase === "over" || info.status === "over") {
      parts.push(`<b>${esc(t("table.gameOver"))}</b>`);
    } else if (legal.length) {
      parts.push(`<b class="prompt">${esc(inter.prompt || t("table.yourTurn"))}</b>`);
      if (this.hintsOn() && legal.length > 1)
        parts.push(
          `<button type="button" class="small" data-cmd="hint" title="${esc(t("table.hintTitle"))}"${this.hintWait ? " disabled" : ""}>${esc(t(this.hintWait ? "table.hintWait" : "table.hint"))}</button>`,
        );
    } else if (view.current_player !== null && view.current_player !== undefined) {
      parts.push(item(t("table.turnOf", { name: this.view.seatName(view.current_player) })));
    }
    if (info.time_left !== null && info.time_left !== undefined && info.status === "playing")
      parts.push(`<span class="timer" id="timer" data-deadline="${Date.now() + info.time_left * 1000}">${esc(t("table.timeLeft", { s: Math.ceil(info.time_left) }))}</span>`);
    if (this.canTakeBack(view)) {
      const title = t(this.othersSeated() ? "table.takeBackAskTitle" : "table.takeBackTitle");
      parts.push(
        `<button type="button" class="small" data-cmd="takeback" title="${esc(title)}"${this.takebackWait ? " disabled" : ""}>${esc(t("table.takeBack"))}</button>`,
      );
    }
    const request = this.takebackHtml();
    if (request) parts.push(request);
    const mine = this.me !== null && info.seats[this.me];
    if (mine && mine.takeover)
      parts.push(`${item(t("table.botPlaysYou"))} <button type="button" class="small" data-cmd="reclaim">${esc(t("table.reclaim"))}</button>`);
    if (this.me === null) {
      const others = Math.max(0, (info.spectators || 1) - 1);
      parts.push(item(others ? t(others === 1 ? "table.watchingWith1" : "table.watchingWith", { n: others }) : t("table.watching"), "muted"));
      if (info.seats.some((s) => s.kind === "human" && !s.claimed) && info.status !== "waiting")
        parts.push(`<button type="button" class="small primary" data-cmd="join-dialog">${esc(t("table.join"))}</button>`);
    } else if (info.spectators) {
      parts.push(item(t(info.spectators === 1 ? "table.spectators1" : "table.spectators", { n: info.spectators }), "muted"));
    }
    return parts.join("");
  }

  overlay(msg) {
    if (msg.view.phase === "over") return this.resultBox(msg.view);
    return null;
  }

  inviteUrl() {
    return `${location.origin}${this.info.invite || `/tables/${this.id}`}`;
  }

  waitingBox() {
    const info = this.info;
    const free = info.seats.filter((s) => s.kind === "human" && !s.claimed);
    // a seated player may move to a free seat before play (to sit beside a friend)
    const moveHere = (s) =>
      this.me !== null && info.status === "waiting" && s.kind === "human" && !s.claimed
        ? ` <button type="button" class="small" data-cmd="move-seat" data-seat="${s.seat}">${esc(t("table.moveHere"))}</button>`
        : "";
    const seats = info.seats
      .map(
        (s) =>
          `<li class="${s.claimed ? "taken" : "free"}"><span class="seat-no">${s.seat + 1}</span> ${esc(
            s.kind === "bot" ? `${this.view.seatName(s.seat)} – ${this.botText(s.bot)}` : s.claimed ? s.name || t("table.seatN", { n: s.seat + 1 }) : t("table.free"),
          )}${s.seat === this.me ? ` (${esc(t("you"))})` : ""}${moveHere(s)}</li>`,
      )
      .join("");
    // The box is drawn again whenever a message comes (the first state, someone else joining): it
    // keeps the name being typed and the seat picked, or the form would be emptied under the typing.
    const typed = this.root.querySelector('form[data-form="join"]');
    const name = account.seatName(typed ? typed.elements.name.value : prefs.get("name") || "");
    const picked = typed ? Number(typed.elements.seat.value) : null;
    const join =
      this.me === null && free.length
        ? `<form class="join-form" data-form="join"><label>${esc(t("lobby.yourName"))} <input name="name" required maxlength="40" data-focus-key="join:name" value="${esc(name)}" placeholder="${esc(t("lobby.namePlaceholder"))}"></label>` +
          `<label>${esc(t("lobby.seatPick"))} <select name="seat" data-focus-key="join:seat">${free.map((s) => `<option value="${s.seat}"${s.seat === picked ? " selected" : ""}>${esc(t("table.seatN", { n: s.seat + 1 }))}</option>`).join("")}</select></label>` +
          `<button type="submit" class="primary">${esc(t("table.join"))}</button></form>`
        : "";
    const html =
      `<h2>${esc(info.name || t(`game.${info.game}`))}</h2>` +
      `<p>${esc(t(free.length === 1 ? "table.waiting" : "table.waitingMany", { n: free.length }))}</p>` +
      `<ol class="seat-list">${seats}</ol>` +
      join +
      `<div class="invite"><label for="invite-link">${esc(t("table.inviteText"))}</label>` +
      `<div class="invite-row"><input id="invite-link" readonly value="${esc(this.inviteUrl())}">` +
      `<button type="button" data-cmd="copy">${esc(t("table.copy"))}</button></div></div>`;
    return html;
  }

  botText(spec) {
    const base = String(spec || "").split(":")[0];
    const key = `bot.${base}`;
    const txt = t(key);
    return txt === key ? t("bot.other", { name: spec }) : txt;
  }

  resultBox(view) {
    const game = this.view.game;
    const ctx = this.view.ctx();
    const winners = view.winners || [];
    const who = game.winnersText ? game.winnersText(view, ctx) : winners.map((s) => ctx.name(s)).join(", ");
    const mine = this.me !== null && winners.includes(this.me);
    // two teams with equal totals (a Jass of fixed deals, Coiffeur): both are winners, a draw
    const draw = !!game.teams && game.teams().length === 2 && winners.length === this.view.n;
    const rm = this.info.rematch;
    const votes = rm ? `<p class="muted">${esc(t("table.rematchVotes", { have: rm.votes.length, need: rm.votes.length + rm.needed.filter((s) => !rm.votes.includes(s)).length }))}</p>` : "";
    const rematch = this.me !== null ? `<button type="button" class="primary" data-cmd="rematch">${esc(t("table.rematch"))}</button>` : "";
    return (
      `<div class="result"><h2>${esc(t("table.gameOver"))}</h2>` +
      `<p class="winners">${esc(draw ? t("table.draw") : t(winners.length > 1 ? "table.winners" : "table.winner", { names: who }))}</p>` +
      (this.me !== null && !draw ? `<p>${esc(t(mine ? "table.youWon" : "table.youLost"))}</p>` : "") +
      game.scores(view, ctx) +
      votes +
      `<div class="result-buttons">${rematch}` +
      `<a class="button" href="/tables/${encodeURIComponent(this.id)}?replay=${this.shown ? this.shown.game_no : 1}" data-link>${esc(t("table.replay"))}</a>` +
      (this.info.game === "jass"
        ? `<a class="button" href="/tables/${encodeURIComponent(this.id)}?replay=${this.shown ? this.shown.game_no : 1}&analyse=1" data-link title="${esc(t("replay.analyseTitle"))}">${esc(t("replay.analyse"))}</a>`
        : "") +
      `<a class="button" href="/" data-link>${esc(t("table.toLobby"))}</a></div></div>`
    );
  }

  renderChat() {
    const box = this.root.querySelector("#chat-box");
    if (!box) return;
    const seated = this.me !== null;
    if (!box.dataset.ready) {
      box.dataset.ready = "1";
      box.innerHTML =
        `<h3>${esc(t("table.chat"))}</h3><ol class="chat" id="chat"></ol>` +
        `<form class="chat-form" data-form="chat"${seated ? "" : " hidden"}><input name="text" maxlength="500" autocomplete="off" placeholder="${esc(t("table.say"))}" aria-label="${esc(t("table.say"))}">` +
        `<button type="submit">${esc(t("table.send"))}</button></form>` +
        `<div class="side-actions"><button type="button" class="small" data-cmd="invite">${esc(t("table.invite"))}</button>` +
        `<button type="button" class="small danger" data-cmd="leave"${seated ? "" : " hidden"}>${esc(t("table.leave"))}</button></div>`;
      box.querySelector("form").addEventListener("submit", (ev) => {
        ev.preventDefault();
        const input = ev.target.elements.text;
        const text = input.value.trim();
        if (!text) return;
        this.socket.send({ type: "chat", text });
        input.value = "";
      });
    }
    box.querySelector("form").hidden = !seated;
    box.querySelector('[data-cmd="leave"]').hidden = !seated;
    const list = box.querySelector("#chat");
    // a muted name's lines stay folded (the account's mutes, else this browser's); a player (or
    // anyone logged in) may report a line to the operator
    const muted = mutes.names();
    const canReport = seated || Boolean(account.current());
    list.innerHTML = this.chat
      .slice(-50)
      .map((m) => {
        const name = m.name || "?";
        if (muted.has(name))
          return `<li class="chat-muted" data-line="${esc(m.id)}">${esc(t("chat.mutedLine", { name }))} <button type="button" class="link small" data-cmd="unmute" data-name="${esc(name)}">${esc(t("chat.unmute"))}</button></li>`;
        const mine = seated && m.seat === this.me;
        const tools = mine
          ? ""
          : `<span class="chat-tools"><button type="button" class="link small" data-cmd="mute" data-name="${esc(name)}" title="${esc(t("chat.mute", { name }))}" aria-label="${esc(t("chat.mute", { name }))}">${icons.mute}</button>` +
            (canReport ? `<button type="button" class="link small" data-cmd="report" data-line="${esc(m.id)}" title="${esc(t("chat.report"))}" aria-label="${esc(t("chat.report"))}">⚑</button>` : "") +
            `</span>`;
        return `<li data-line="${esc(m.id)}"><b>${esc(name)}:</b> ${esc(m.text)}${tools}</li>`;
      })
      .join("");
    list.scrollTop = list.scrollHeight;
  }

  tick() {
    const el = this.root.querySelector("#timer");
    if (!el) return;
    const left = Math.max(0, Math.ceil((Number(el.dataset.deadline) - Date.now()) / 1000));
    el.textContent = t("table.timeLeft", { s: left });
    el.classList.toggle("urgent", left <= 10);
  }

  // -- acting -----------------------------------------------------------------------------------

  act(action, el = null) {
    if (!action || this.me === null) return;
    if (!this.isLatest()) return; // still showing earlier moves
    if (this.busy) return;
    this.lastClicked = el;
    this.view.setMessage(null);
    const id = this.socket.send({ type: "act", action, version: this.latest.version, game: this.latest.game_no });
    if (id) this.busy = true;
    else this.view.setMessage(t("table.reconnecting"), "info");
  }

  onCard(card, el) {
    if (this.me === null || !this.shown) return;
    const inter = this.inter || { cards: new Map() };
    const legal = this.isLatest() ? this.legalFor(this.shown) : [];
    if (inter.select) {
      if (!legal.length) {
        const turn = this.shown.view.current_player;
        if (turn !== null && turn !== undefined && turn !== this.me) this.view.setMessage(t("table.turnOf", { name: this.view.seatName(turn) }), "info");
        return;
      }
      const actions = inter.cards.get(card) || [];
      if (actions.length === 1 && !this.selected) {
        this.act(actions[0], el);
        return;
      }
      this.selected = this.selected === card ? null : card;
      this.renderNow();
      return;
    }
    const actions = inter.cards.get(card);
    const action = actions && actions.length === 1 ? actions[0] : inter.natural ? inter.natural(card) : card;
    if (action) this.act(action, el);
  }

  onChoice(action) {
    if (!action) {
      this.selected = null;
      this.renderNow();
      return;
    }
    this.act(action);
  }

  onPlace(n, el) {
    if (!this.selected || !this.inter || !this.inter.placeAction) return;
    this.act(this.inter.placeAction(n), el);
  }

  /** Logged in or out: a seat the login spoke for (no token here) is given up, and the table
   * connects again, as the account's seat if it holds one. */
  onAccount() {
    mutes.load().then(() => this.renderChat());
    if (this.seat && this.seat.token) return;
    this.seat = null;
    this.view.setSeat(null);
    this.queue = [];
    this.shown = null;
    this.latest = null;
    this.connect();
  }

  async join(name, seat) {
    if (!name) return;
    if (!account.current()) prefs.set("name", name);
    try {
      const res = await api.join(this.id, name, seat);
      prefs.saveSeat(this.id, res.seat, res.token, name);
      this.seat = prefs.seatFor(this.id);
      this.view.setSeat(res.seat);
      const box = this.root.querySelector("#chat-box");
      if (box) delete box.dataset.ready;
      this.renderChat();
      this.queue = [];
      this.shown = null;
      this.latest = null;
      this.connect();
    } catch (e) {
      toast(httpRefusal("join", e), "error");
    }
  }

  async command(cmd, el) {
    if (cmd === "copy" || cmd === "invite") {
      if (cmd === "invite") {
        await dialog(
          esc(t("table.invite")),
          `<p>${esc(t("table.inviteText"))}</p><div class="invite-row"><input id="invite-dialog-link" readonly value="${esc(this.inviteUrl())}"><button type="button" data-cmd="copy-dialog">${esc(t("table.copy"))}</button></div>`,
          {
            onOpen: (d) =>
              d.querySelector('[data-cmd="copy-dialog"]').addEventListener("click", async () => {
                if (await copy(this.inviteUrl(), d.querySelector("input"))) toast(t("table.copied"));
              }),
          },
        );
        return;
      }
      if (await copy(this.inviteUrl(), $("#invite-link", this.root))) toast(t("table.copied"));
    } else if (cmd === "move-seat") {
      if (!this.seat || !el) return;
      try {
        await api.moveSeat(this.id, this.seat.token, Number(el.dataset.seat)); // the state as the new seat follows
      } catch (e) {
        toast(httpRefusal("seat", e), "error");
      }
    } else if (cmd === "rematch") {
      this.socket.send({ type: "rematch" });
    } else if (cmd === "reclaim") {
      this.socket.send({ type: "reclaim" });
    } else if (cmd === "hint") {
      this.askHint();
    } else if (cmd === "takeback") {
      this.takeBack();
    } else if (cmd === "takeback-yes" || cmd === "takeback-no" || cmd === "takeback-withdraw") {
      this.answerTakeback(cmd === "takeback-yes");
    } else if (cmd === "mute" || cmd === "unmute") {
      try {
        await mutes.set(el.dataset.name, cmd === "mute");
      } catch (e) {
        toast(httpRefusal("mute", e), "error");
      }
      this.renderChat();
    } else if (cmd === "report") {
      const reason = prompt(t("chat.reportWhy"));
      if (reason === null) return; // cancelled
      try {
        await api.report(this.id, el.dataset.line, this.seat ? this.seat.token : null, reason.trim().slice(0, 300));
        toast(t("chat.reported"));
      } catch (e) {
        toast(httpRefusal("report", e), "error");
      }
    } else if (cmd === "leave") {
      // at a rated table, leaving during play counts as a loss: say so before the player goes
      const rated = this.info && this.info.settings && this.info.settings.rated && this.info.status === "playing";
      if (!this.seat || !confirm(t(rated ? "table.leaveRated" : "table.leaveConfirm"))) return;
      try {
        await api.leave(this.id, this.seat.token);
      } catch (e) {
        toast(httpRefusal("leave", e), "error");
      }
      prefs.forgetSeat(this.id);
      location.href = "/";
    } else if (cmd === "go-on") {
      if (this.skipWait) this.skipWait();
    } else if (cmd === "join-dialog") {
      const free = this.info.seats.filter((s) => s.kind === "human" && !s.claimed);
      const wanted = el && el.dataset.seat !== undefined ? Number(el.dataset.seat) : null;
      await dialog(
        esc(t("table.join")),
        `<form class="join-form" data-form="join-dialog"><label>${esc(t("lobby.yourName"))} <input name="name" required maxlength="40" value="${esc(prefs.get("name") || "")}"></label>` +
          `<label>${esc(t("lobby.seatPick"))} <select name="seat">${free.map((s) => `<option value="${s.seat}"${s.seat === wanted ? " selected" : ""}>${esc(t("table.seatN", { n: s.seat + 1 }))}</option>`).join("")}</select></label>` +
          `<button type="submit" class="primary">${esc(t("table.join"))}</button></form>`,
        {
          onOpen: (d) =>
            d.querySelector("form").addEventListener("submit", (ev) => {
              ev.preventDefault();
              const f = ev.target.elements;
              d.close();
              this.join(f.name.value.trim(), Number(f.seat.value));
            }),
        },
      );
    }
  }

  // -- hints ------------------------------------------------------------------------------------

  /** Does this table give hints? (Tables opened before hints existed do.) */
  hintsOn() {
    const s = this.info && this.info.settings;
    return this.me !== null && !(s && s.hints === false);
  }

  /** Ask the server what the game's hint bot would play here; it answers this page alone. */
  askHint() {
    if (!this.hintsOn() || this.hintWait || !this.isLatest() || !this.legalFor(this.shown).length) return;
    if (this.hint) {
      this.renderNow();
      return;
    }
    if (!this.socket.send({ type: "hint", version: this.latest.version, game: this.latest.game_no, id: "hint" })) return;
    this.hintWait = true;
    this.renderNow();
  }

  // -- taking a move back -----------------------------------------------------------------------

  /** May this seat take its last move back now, or ask to? (The server says if there is none.) */
  canTakeBack(view) {
    const info = this.info;
    if (this.me === null || !info || info.status !== "playing" || view.phase === "over" || !this.isLatest()) return false;
    if (info.settings && info.settings.takebacks === false) return false;
    if (!this.latest || this.openTakeback()) return false;
    // only a move of this seat's own can be taken back (the table info says whether it made one)
    const mine = info.seats[this.me];
    return !!mine && mine.moved === true && !mine.takeover;
  }

  /** Are other players at the table (who must agree to a takeback)? */
  othersSeated() {
    return this.info.seats.some((s) => s.seat !== this.me && s.kind === "human" && s.claimed);
  }

  /** Undo this seat's last decision and every later one: at once alone with bots (the server
   * sends the earlier state), else the other players are asked (the table shows the request). */
  takeBack() {
    if (this.takebackWait || !this.shown || !this.canTakeBack(this.shown.view)) return;
    if (!this.socket.send({ type: "takeback", version: this.latest.version, game: this.latest.game_no, id: "takeback" })) return;
    this.takebackWait = true;
    this.renderNow();
  }

  /** The takeback request waiting for answers, or null. */
  openTakeback() {
    const r = this.info && this.info.takeback;
    return r && (r.declined === null || r.declined === undefined) ? r : null;
  }

  answerTakeback(accept) {
    if (this.openTakeback()) this.socket.send({ type: "takeback_answer", accept, id: "takeback-answer" });
  }

  /** The open request in the status line: what was asked, who is still to answer, and this
   * seat's buttons (agree or decline; the asker: withdraw). */
  takebackHtml() {
    const r = this.openTakeback();
    if (!r) return "";
    const waiting = r.needed.filter((s) => !r.votes.includes(s));
    const names = waiting.map((s) => this.view.seatName(s)).join(", ");
    const button = (cmd, key, cls = "small") => `<button type="button" class="${cls}" data-cmd="${cmd}">${esc(t(key))}</button>`;
    const n = r.undone;
    if (r.seat === this.me)
      return `<span class="takeback-ask">${esc(t("table.takeBackYours", { names }))}</span> ${button("takeback-withdraw", "table.takeBackWithdraw")}`;
    const asked = t(n === 1 ? "table.takeBackAskedOne" : "table.takeBackAsked", { name: this.view.seatName(r.seat), n });
    if (this.me !== null && waiting.includes(this.me))
      return `<span class="takeback-ask">${esc(asked)}</span> ${button("takeback-yes", "table.takeBackYes", "small primary")} ${button("takeback-no", "table.takeBackNo")}`;
    return `<span class="takeback-ask">${esc(asked)} ${esc(t("table.takeBackWaiting", { names }))}</span>`;
  }

  /** A line in the log when a request is asked for, declined or withdrawn (once each: states
   * queued for showing carry older table info). */
  logTakebackRequest(info) {
    const r = info.takeback;
    if (!r) return;
    const key = `${info.game_no}:${r.asked_at}:${r.declined}`;
    this.takebackLogged = this.takebackLogged || new Set();
    if (this.takebackLogged.has(key)) return;
    this.takebackLogged.add(key);
    if (r.seat === this.me) this.takebackWait = false; // the request is the answer
    const name = (s) => this.view.seatName(s);
    if (r.declined === null || r.declined === undefined) this.view.addLog([t("table.takeBackRequested", { name: name(r.seat) })]);
    else if (r.declined === r.seat) this.view.addLog([t("table.takeBackWithdrawn", { name: name(r.seat) })]);
    else this.view.addLog([t("table.takeBackDeclined", { name: name(r.declined) })]);
  }

  /** Outline the hinted card (or button) and say it in words. */
  showHint(inter) {
    const h = this.hint;
    if (!h || !this.shown || h.version !== this.shown.version || h.game !== this.shown.game_no) return;
    const ctx = this.view.ctx();
    let words = null;
    if (inter.number) this.view.setNumber(inter.number.parse(h.action)); // the hinted number, ready to send
    for (const [card, actions] of inter.cards || []) {
      if (!actions.includes(h.action)) continue;
      const el = this.root.querySelector(`.hand-card[data-card="${CSS.escape(card)}"]`);
      if (el) el.classList.add("hinted");
      words = ctx.cardName(card);
    }
    for (const el of this.root.querySelectorAll(`[data-action="${CSS.escape(h.action)}"], [data-trick-action="${CSS.escape(h.action)}"]`)) {
      el.classList.add("hinted");
      const label = el.getAttribute("aria-label") || buttonWords(el);
      words = words ? `${words} – ${label}` : label;
    }
    this.view.setMessage(t("table.hintIs", { move: words || h.action }), "info");
  }

  openDialog(which) {
    const view = this.gameView;
    if (!view) return;
    const ctx = this.view.ctx();
    if (which === "tricks") dialog(esc(`${t("table.tricksThisDeal")} – ${this.view.game.dealLabel(view, ctx)}`), this.view.game.tricks(view, ctx), { wide: true });
    else if (which === "scores") dialog(esc(t("table.scoreSheet")), this.view.game.scores(view, ctx), { wide: true });
    else if (which === "info") dialog(esc(t("table.info")), `<div class="info-dialog">${this.view.game.info(view, ctx)}${this.view.deckPicker(ctx)}</div>`, { wide: true });
    else if (which === "log") this.view.logDialog();
  }

  // -- keyboard ---------------------------------------------------------------------------------

  onKey(ev) {
    if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    if (document.querySelector("dialog[open]")) return;
    const key = ev.key;
    if (key === "ArrowLeft" || key === "ArrowRight") {
      const cards = Array.from(this.root.querySelectorAll(".hand .hand-card"));
      if (!cards.length) return;
      const i = cards.indexOf(document.activeElement);
      const start = i < 0 ? cards.findIndex((c) => c.classList.contains("legal")) : i;
      const next = i < 0 ? Math.max(0, start) : (i + (key === "ArrowRight" ? 1 : -1) + cards.length) % cards.length;
      cards[next].focus();
      ev.preventDefault();
    } else if (/^[0-9]$/.test(key) && this.root.querySelector(".number-choice .number-input")) {
      // a digit typed at the table goes into the number being chosen (Differenzler's prediction)
      const input = this.root.querySelector(".number-choice .number-input");
      input.focus();
      input.value = key;
      this.view.checkNumber();
      ev.preventDefault();
    } else if (/^[1-9]$/.test(key)) {
      const b = this.root.querySelector(`.choices .choice[data-key="${key}"]`);
      if (b) {
        b.focus();
        b.click();
        ev.preventDefault();
      }
    } else if (key === "s" || key === "S") {
      this.openDialog("tricks");
    } else if (key === "p" || key === "P") {
      this.openDialog("scores");
    } else if (key === "t" || key === "T") {
      this.askHint();
    } else if (key === "z" || key === "Z") {
      this.takeBack();
    } else if (key === "l" || key === "L") {
      const last = this.root.querySelector(".last-panel");
      if (last) {
        last.scrollIntoView({ block: "nearest" });
        last.classList.add("flash");
        setTimeout(() => last.classList.remove("flash"), 900);
      }
    } else if ((key === " " || key === "Enter") && this.skipWait) {
      this.skipWait();
      ev.preventDefault();
    } else if (key === "Escape") {
      if (this.selected) {
        this.selected = null;
        this.renderNow();
      }
      this.view.setMessage(null);
    }
  }
}

/** A button's words as a player reads them: without its key number (`<kbd>`) or its icons. */
function buttonWords(el) {
  const copy = el.cloneNode(true);
  for (const k of copy.querySelectorAll("kbd, svg, img, [aria-hidden=\"true\"]")) k.remove();
  return copy.textContent.replace(/\s+/g, " ").trim();
}
