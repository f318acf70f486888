// Drawing a table from a view: the seats around you, the trick (or Stichling's places) in the
// middle, your hand at the bottom with the legal cards highlighted, the choices as buttons, and
// the side panels. Used by the live table (table.js) and by the replay viewer (replay.js).
//
// Everything drawn comes from one view (and, in a replay of a finished game, every hand), so the
// page cannot show what its seat may not see.

import { cardImage } from "./cards/common.js";
import { dialog, esc, refocus } from "./dom.js";
import { lineText, trickRow } from "./games/common.js";
import { gameFor } from "./games/index.js";
import { has, lang, t } from "./i18n.js";
import * as prefs from "./prefs.js";

/** Where each seat sits, counted from the bottom seat onwards (seat + 1 sits on the left). */
export const POSITIONS = {
  2: ["bottom", "top"],
  3: ["bottom", "left", "right"],
  4: ["bottom", "left", "top", "right"],
  5: ["bottom", "left", "topl", "topr", "right"],
};
const BOT_NAMES = ["Vreni", "Ueli", "Heidi", "Sepp", "Luzia"];
const ROBOT =
  `<svg class="robot" viewBox="0 0 24 24" aria-hidden="true"><path d="M12 2v3" stroke="currentColor" stroke-width="2"/>` +
  `<circle cx="12" cy="2.5" r="1.5" fill="currentColor"/><rect x="4" y="6" width="16" height="12" rx="3" fill="currentColor"/>` +
  `<circle cx="9" cy="11" r="2" fill="#fff"/><circle cx="15" cy="11" r="2" fill="#fff"/><rect x="8" y="14.5" width="8" height="1.6" rx=".8" fill="#fff"/>` +
  `<rect x="1.5" y="9" width="2" height="5" rx="1" fill="currentColor"/><rect x="20.5" y="9" width="2" height="5" rx="1" fill="currentColor"/></svg>`;

/** "Bot (Mittel)" for a bot spec such as "heuristic" or "ismcts:time=0.3". */
export function botLevel(spec) {
  const base = String(spec || "").replace(/^bot:/, "").split(":")[0];
  const key = `bot.${base}`;
  const text = t(key);
  return text === key ? t("bot.other", { name: base }) : text;
}

export class TableView {
  constructor(root, { gameName, n, data = null, mode = "live", handlers = {} }) {
    this.root = root;
    this.game = gameFor(gameName);
    this.gameName = gameName;
    this.n = n;
    this.data = data;
    this.mode = mode;
    this.handlers = handlers;
    this.me = null;
    this.info = null;
    this.shownTrick = new Set();
    this.message = null;
    this.overlay = null;
    this.log = []; // entries (games/common.js `line`): written out in the language of the moment
    this.handDeal = null;
    this.handMax = 0;
    this.root.addEventListener("click", (ev) => this.onClick(ev));
    this.root.addEventListener("input", (ev) => ev.target.matches && ev.target.matches(".number-input") && this.checkNumber());
    this.root.addEventListener("keydown", (ev) => ev.target.matches && ev.target.matches(".number-input") && this.numberKey(ev));
    if (typeof ResizeObserver !== "undefined") this.resizer = new ResizeObserver(() => this.fitHand());
    this.mount();
  }

  // -- seats and names --------------------------------------------------------------------------

  setSeat(me) {
    this.me = me === undefined ? null : me;
  }

  get bottom() {
    return this.me ?? 0;
  }

  pos(seat) {
    return POSITIONS[this.n][(seat - this.bottom + this.n) % this.n];
  }

  seatName(seat) {
    if (seat === null || seat === undefined) return "?";
    const s = this.info && this.info.seats ? this.info.seats[seat] : null;
    if (!s) return t("table.seatN", { n: seat + 1 });
    if (s.kind === "bot") return BOT_NAMES[seat % BOT_NAMES.length];
    if (s.name) return s.name;
    return t("table.seatN", { n: seat + 1 });
  }

  /** The <img> of a card (or of a back, card = null), drawn once per look. */
  img(ctx, card, trump = false, alt = "") {
    const key = `${this.gameName}|${card}|${ctx.deck}|${ctx.lang}|${trump ? 1 : 0}|${this.data ? 1 : 0}`;
    const url = cardImage(key, () => (card === null ? this.game.back(ctx) : this.game.svg(card, ctx, { trump })));
    return `<img class="card-svg" src="${url}" alt="${esc(alt)}" draggable="false">`;
  }

  ctx() {
    const ctx = {
      t,
      has,
      lang: lang(),
      me: this.me,
      n: this.n,
      deck: prefs.get("jassDeck"),
      data: this.data,
      name: (s) => this.seatName(s),
      pos: (s) => this.pos(s),
      cardName: (c) => this.game.cardName(c, ctx),
      card: (c, { cls = "", trump = false } = {}) => {
        const name = this.game.cardName(c, ctx);
        return `<div class="card ${cls}" data-card="${esc(c)}" title="${esc(name)}">${this.img(ctx, c, trump, name)}</div>`;
      },
      back: ({ cls = "" } = {}) => `<div class="card back ${cls}" data-back="1">${this.img(ctx, null, false, t("sm.faceDown"))}</div>`,
    };
    return ctx;
  }

  // -- the page's frame -------------------------------------------------------------------------

  mount() {
    this.root.innerHTML =
      `<div class="table-page game-${this.gameName} n${this.n} mode-${this.mode}">` +
      `<section class="felt" id="felt" aria-label="${esc(t("table.info"))}"></section>` +
      `<aside class="sidebar" id="sidebar">` +
      `<section class="panel info-panel" aria-labelledby="info-title"><h2 id="info-title">${esc(t("table.info"))}</h2><div id="info"></div></section>` +
      `<section class="panel last-panel" aria-labelledby="last-title"><div class="panel-head"><h2 id="last-title">${esc(t("table.lastTrick"))}</h2>` +
      `<div class="panel-buttons"><button type="button" class="small" id="btn-tricks" data-dialog="tricks">${esc(t("table.tricks"))}</button>` +
      `<button type="button" class="small" id="btn-scores" data-dialog="scores">${esc(t("table.scores"))}</button></div></div>` +
      `<div id="last"></div></section>` +
      `<section class="panel log-panel" aria-labelledby="log-title"><h2 id="log-title">${esc(t("table.log"))}</h2>` +
      `<ol class="log" id="log" aria-live="off"></ol><div id="chat-box"></div></section>` +
      `</aside></div>`;
    this.felt = this.root.querySelector("#felt");
    this.skeletonKey = null;
    this.htmlCache = new Map();
    this.shownTrick = new Set();
    if (this.resizer) {
      this.resizer.disconnect();
      this.resizer.observe(this.felt);
    }
    this.renderLog();
  }

  /** The log's lines in the current language (and deck). */
  logLines() {
    const ctx = this.ctx();
    return this.log.map((entry) => lineText(entry, ctx));
  }

  renderLog() {
    const log = this.root.querySelector("#log");
    if (!log) return;
    log.innerHTML = this.logLines().map((l) => `<li>${esc(l)}</li>`).join("");
    log.scrollTop = log.scrollHeight;
  }

  onClick(ev) {
    const h = this.handlers;
    const el = ev.target.closest("button, .place[data-place], [data-trick-action]");
    if (!el || !this.root.contains(el)) return;
    if (el.matches(".hand-card")) h.card && h.card(el.dataset.card, el);
    else if (el.dataset.step) this.stepNumber(Number(el.dataset.step));
    else if (el.matches(".choice")) h.choice && h.choice(el.dataset.action || null, el);
    else if (el.dataset.trickAction) h.action && h.action(el.dataset.trickAction, el);
    else if (el.matches(".place[data-place]")) h.place && h.place(el.dataset.place, el);
    else if (el.dataset.deck) prefs.set("jassDeck", el.dataset.deck);
    else if (el.dataset.dialog) h.dialog && h.dialog(el.dataset.dialog);
    else if (el.dataset.cmd) h.command && h.command(el.dataset.cmd, el);
  }

  // -- drawing ----------------------------------------------------------------------------------

  /**
   * Draw `view`. opts: legal (the seat's legal actions), interact (from the game), held (a full
   * trick being shown before it is taken), hands (replay: every hand), overlay (HTML of a panel
   * over the table: a deal's summary, the result), banner (what the table announces, over the
   * trick), noTurn (nobody is to move: a trick or a summary is being shown), status (HTML of the
   * status line), selected (a picked card).
   */
  render(view, opts = {}) {
    const ctx = this.ctx();
    this.view = view;
    const game = this.game;
    const focus = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.focusKey : null;
    const inter = opts.interact || { cards: new Map(), choices: [], prompt: "" };
    // nobody is to move while a table waits for its players, or while a taken trick is shown
    const turn = opts.noTurn || (this.info && this.info.status === "waiting") ? null : view.current_player;
    this.skeleton();
    this.trackHand(view, opts);
    this.region("brief", this.brief(view, ctx));
    for (let s = 0; s < this.n; s++) if (s !== this.bottom) this.region(`seat-${s}`, this.plate(view, s, ctx, opts, turn));
    this.region("center", `<div class="center" id="center" data-region="center">${this.center(view, ctx, opts, inter)}</div>`);
    this.region("choices", this.choices(inter));
    this.region("banner", this.bannerHtml(opts.banner));
    this.region("overlay", this.overlayHtml(opts.overlay));
    this.region("plate", this.plate(view, this.bottom, ctx, opts, turn, true));
    this.region("status", `<div class="status" id="status" data-region="status" aria-live="polite">${opts.status || ""}</div>`);
    this.region("message", this.messageHtml());
    this.region("hand", this.hand(view, ctx, opts, inter));
    const page = this.root.querySelector(".table-page");
    page.dataset.version = opts.version ?? "";
    page.dataset.phase = view.phase;
    page.classList.toggle("holding", !!opts.banner);
    this.setHtml("#info", game.info(view, ctx) + this.deckPicker(ctx));
    this.renderLast(view, ctx);
    if (this.handDirty) this.fitHand();
    refocus(this.felt, focus);
  }

  /** Only `html` on the table (a table waiting for its players: nothing of the deal is shown). */
  showOnly(html, info = "") {
    this.skeletonKey = null;
    this.regions = new Map();
    this.felt.innerHTML = `<div class="overlay" data-region="overlay"><div class="center-overlay panel">${html}</div></div>`;
    this.setHtml("#info", info);
    this.setHtml("#last", `<p class="muted">${esc(t("table.noLastTrick"))}</p>`);
    const page = this.root.querySelector(".table-page");
    page.dataset.phase = "waiting";
    page.dataset.version = "";
  }

  /** The felt's regions, made once per seat layout; `region` then replaces only what changed,
   * so a move redraws a card or two, not the whole table (and focus stays where it was). */
  skeleton() {
    const key = `${this.bottom}/${this.n}`;
    if (this.skeletonKey === key && this.felt.firstChild) return;
    this.skeletonKey = key;
    this.regions = new Map();
    const seats = [];
    for (let s = 0; s < this.n; s++) if (s !== this.bottom) seats.push(`<div data-region="seat-${s}"></div>`);
    this.felt.style.setProperty("--opp", String(this.n - 1));
    this.felt.dataset.players = String(this.n); // five players: narrower plates, taller on a phone
    this.felt.innerHTML =
      `<div data-region="brief"></div>` +
      seats.join("") +
      `<div class="middle" id="middle"><div data-region="center"></div><div data-region="choices"></div>` +
      `<div data-region="banner"></div><div data-region="message"></div></div>` +
      `<div class="me-area" id="me-area"><div data-region="plate"></div><div data-region="status"></div><div data-region="hand"></div></div>` +
      `<div data-region="overlay"></div>`;
  }

  region(key, html) {
    if (this.regions.get(key) === html) return;
    const el = this.felt.querySelector(`[data-region="${key}"]`);
    if (!el) return;
    this.regions.set(key, html);
    el.outerHTML = html;
    if (key === "hand") this.handDirty = true;
  }

  /** Set an element's HTML unless it already is that (a layout saved on every move). */
  setHtml(sel, html) {
    const el = this.root.querySelector(sel);
    if (!el || this.htmlCache.get(sel) === html) return;
    this.htmlCache.set(sel, html);
    el.innerHTML = html;
  }

  messageHtml() {
    const m = this.message;
    return `<div class="message${m ? ` ${m.kind}` : ""}" id="message" data-region="message" role="alert">${m ? esc(m.text) : ""}</div>`;
  }

  /** Above the table where the side panel is not beside it (a phone): trump, or the rules in
   * force, always in view; a tap opens the whole panel; the log is one tap away. */
  brief(view, ctx) {
    const what = this.game.brief ? this.game.brief(view, ctx) : "";
    return (
      `<div class="brief" id="brief" data-region="brief">` +
      `<button type="button" class="brief-info" data-dialog="info" title="${esc(t("table.info"))}">${what}</button>` +
      `<button type="button" class="small brief-log" data-dialog="log">${esc(t("table.log"))}</button></div>`
    );
  }

  bannerHtml(banner) {
    if (!banner) return `<div class="banner" id="banner" data-region="banner" hidden></div>`;
    return (
      `<div class="banner" id="banner" data-region="banner" role="status"><span class="banner-text">${esc(banner)}</span>` +
      `<span class="banner-go">${esc(t("table.tapToGoOn"))}</span></div>`
    );
  }

  overlayHtml(html) {
    if (!html) return `<div class="overlay" data-region="overlay" hidden></div>`;
    return `<div class="overlay" data-region="overlay"><div class="center-overlay panel">${html}</div></div>`;
  }

  /** Jass and Differenzler: the deck the cards are drawn in, chosen at the table (a setting of this browser). */
  deckPicker(ctx) {
    if (!["jass", "differenzler", "coiffeur"].includes(this.gameName)) return "";
    return (
      `<div class="info-row deck-row"><span class="label">${esc(t("set.deckShort"))}</span><span class="deck-pick" role="group" aria-label="${esc(t("set.deck"))}">` +
      ["swiss", "french", "seed"]
        .map((d) => `<button type="button" class="small" data-deck="${d}" aria-pressed="${ctx.deck === d}">${esc(t(`set.deckName.${d}`))}</button>`)
        .join("") +
      `</span></div>`
    );
  }

  plate(view, seat, ctx, opts, turn, isBottom = false) {
    const s = this.info && this.info.seats ? this.info.seats[seat] : null;
    const pos = this.pos(seat);
    const order = (seat - this.bottom + this.n) % this.n;
    const free = !!s && s.kind === "human" && !s.claimed;
    const presence = !s ? "" : s.kind === "bot" ? "bot" : s.takeover ? "bot" : s.connected ? "on" : s.claimed ? "off" : "free";
    const presenceText = !s
      ? ""
      : s.kind === "bot"
        ? botLevel(s.bot)
        : s.takeover
          ? t("table.botPlays", { name: this.seatName(seat) })
          : s.claimed
            ? t(s.connected ? "table.online" : "table.away")
            : t("table.free");
    const size = view.hand_sizes ? view.hand_sizes[seat] : 0;
    const classes = ["seat", `pos-${pos}`, isBottom ? "bottom-seat" : "opp"];
    if (turn === seat) classes.push("turn");
    if (seat === this.me) classes.push("mine");
    if (opts.winner === seat) classes.push("winner");
    const you = seat === this.me ? ` <span class="you">(${esc(t("you"))})</span>` : "";
    const score = this.game.scoreOf ? this.game.scoreOf(view, seat) : null;
    const countLabel = size === 1 ? t("table.card1") : t("table.cards", { n: size });
    const handRow =
      opts.hands && !isBottom && opts.hands[seat]
        ? `<div class="card-row micro open-hand" aria-label="${esc(countLabel)}">${opts.hands[seat].map((c) => ctx.card(c, { cls: "micro" })).join("")}</div>`
        : "";
    // a spectator may take a seat nobody holds (its player left; a bot plays it meanwhile)
    const join =
      free && this.mode === "live" && this.me === null
        ? `<button type="button" class="small primary take-seat" data-cmd="join-dialog" data-seat="${seat}">${esc(t("table.join"))}</button>`
        : "";
    return (
      `<div class="${classes.join(" ")}" data-seat="${seat}" data-pos="${pos}" data-region="${isBottom ? "plate" : `seat-${seat}`}" style="--col:${order}">` +
      `<div class="seat-head"><span class="presence ${presence}" title="${esc(presenceText)}" aria-label="${esc(presenceText)}"></span>` +
      `<span class="seat-name">${esc(this.seatName(seat))}${you}</span>` +
      (s && s.kind === "bot" ? `<span class="bot-tag" title="${esc(presenceText)}">${ROBOT}</span>` : "") +
      // a registered player: a guest may take any name, an account's is its own
      (s && s.account ? `<span class="account-tag" title="${esc(t("table.accountSeat"))}" aria-label="${esc(t("table.accountSeat"))}">✓</span>` : "") +
      (score !== null ? `<span class="seat-score" title="${esc(t("table.points"))}">${score}</span>` : "") +
      `</div>` +
      (turn === seat ? `<span class="turn-tag">${esc(t("table.toMove"))}</span>` : "") +
      `<div class="seat-line"><span class="hand-count" title="${esc(countLabel)}"><span class="back-icon" aria-hidden="true"></span><span>${size}</span></span>` +
      join +
      `<span class="badges">${this.game.seatBadges(view, seat, ctx)}</span></div>` +
      (this.game.seatExtras ? this.game.seatExtras(view, seat, ctx) : "") +
      handRow +
      `</div>`
    );
  }

  center(view, ctx, opts, inter) {
    if (this.game.center) {
      return this.game.center(view, ctx, { targets: opts.selected && inter.targets ? inter.targets : null, held: opts.held });
    }
    const plays = this.game.trick(view) || [];
    const winner = opts.held ? opts.held.winner : this.game.trickWinner ? this.game.trickWinner(view) : null;
    const anim = prefs.get("animations");
    const before = this.shownTrick;
    const now = new Set();
    const figs = plays.map((p, i) => {
      const pos = this.pos(p.seat);
      const key = `${p.seat}:${p.card}`;
      now.add(key);
      const enter = anim && !before.has(key) && !opts.held ? ` enter from-${pos}` : "";
      const act = inter.trickActions && p.card && inter.trickActions.get(p.card);
      const trump = p.card && this.game.isTrump ? this.game.isTrump(view, p.card) : false;
      const face = p.card ? ctx.card(p.card, { cls: "trick-card", trump }) : ctx.back({ cls: "trick-card" });
      const body = act
        ? `<button type="button" class="trick-pick legal" data-trick-action="${esc(act)}" data-focus-key="trick:${esc(p.card)}" aria-label="${esc(ctx.cardName(p.card))}">${face}</button>`
        : face;
      const mark = opts.held && opts.held.mark && opts.held.mark === p.card ? " marked" : "";
      // the trick's first card: who led it
      const led = i === 0 ? `<span class="led-mark" title="${esc(t("table.led"))}" aria-label="${esc(t("table.led"))}">▸</span>` : "";
      return (
        `<figure class="played slot-${pos}${p.seat === winner ? " winner" : ""}${i === 0 ? " led" : ""}${enter}${mark}" data-seat="${p.seat}" style="--order:${i}">` +
        body +
        `<figcaption>${led}${esc(this.seatName(p.seat))}</figcaption></figure>`
      );
    });
    this.shownTrick = now;
    return `<div class="trick n${this.n}" aria-label="${esc(t("table.trick"))}">${figs.join("")}</div>`;
  }

  choices(inter) {
    this.number = inter.number || null;
    if (inter.number) return this.numberChoice(inter.number);
    if (!inter.choices || !inter.choices.length) return `<div class="choices" id="choices" data-region="choices"></div>`;
    return (
      `<div class="choices" id="choices" data-region="choices" role="group" aria-label="${esc(t("table.choose"))}">` +
      inter.choices
        .map(
          (c, i) =>
            `<button type="button" class="choice ${c.cls || ""}" ${c.action ? `data-action="${esc(c.action)}"` : 'data-cancel="1"'} data-focus-key="act:${esc(c.action || "cancel")}"` +
            ` data-key="${i + 1}">${i < 9 ? `<kbd>${i + 1}</kbd>` : ""}${c.html}</button>`,
        )
        .join("") +
      "</div>"
    );
  }

  /**
   * A number chosen with − and + (by 1 and by 10), or typed: Differenzler's prediction. `n` (from
   * the game's interact): min, max, start, legal (the legal actions), action(n), label, range,
   * confirm, less(k), more(k), refusal(text). The HTML depends on the decision only, so a number
   * being typed stays while the table is drawn again; the confirm button carries the action of a
   * legal number and is disabled otherwise, with the refusal said under it.
   */
  numberChoice(n) {
    const step = (d) =>
      `<button type="button" class="step" data-step="${d}" aria-label="${esc(d < 0 ? n.less(-d) : n.more(d))}">${d < 0 ? "−" : "+"}${Math.abs(d)}</button>`;
    return (
      `<div class="choices number-choice" id="choices" data-region="choices" data-number="${esc(n.key)}" role="group" aria-label="${esc(n.label)}">` +
      `<div class="stepper">${step(-10)}${step(-1)}` +
      `<input class="number-input" type="text" inputmode="numeric" enterkeyhint="done" autocomplete="off" maxlength="4" value="${n.start}"` +
      ` aria-label="${esc(`${n.label}, ${n.range}`)}" aria-describedby="number-range number-error" data-focus-key="number">` +
      `${step(1)}${step(10)}</div>` +
      `<div class="number-range" id="number-range">${esc(n.range)}</div>` +
      `<button type="button" class="choice confirm primary" data-action="${esc(n.action(n.start))}" data-focus-key="act:confirm">` +
      `<kbd>↵</kbd> ${esc(n.confirm)} <b class="number-shown">${n.start}</b></button>` +
      `<div class="number-error" id="number-error" role="alert"></div>` +
      "</div>"
    );
  }

  /** The number typed or stepped to: the confirm button takes it when legal; else it is disabled
   * and the refusal is said. Answers whether it is legal. */
  checkNumber() {
    const n = this.number;
    const box = this.root.querySelector(".number-choice");
    if (!n || !box) return false;
    const input = box.querySelector(".number-input");
    const confirm = box.querySelector(".confirm");
    const text = input.value.trim();
    const value = /^\d{1,4}$/.test(text) ? Number(text) : null;
    const ok = value !== null && value >= n.min && value <= n.max && n.legal.has(n.action(value));
    confirm.disabled = !ok;
    if (ok) confirm.dataset.action = n.action(value);
    else delete confirm.dataset.action;
    confirm.querySelector(".number-shown").textContent = ok ? String(value) : "";
    input.setAttribute("aria-invalid", ok ? "false" : "true");
    box.querySelector(".number-error").textContent = ok ? "" : n.refusal(text);
    return ok;
  }

  /** Step the number by `d` from the one shown (from the start when none is), within the range. */
  stepNumber(d) {
    const n = this.number;
    const input = this.root.querySelector(".number-choice .number-input");
    if (!n || !input) return;
    const now = /^\d{1,4}$/.test(input.value.trim()) ? Number(input.value.trim()) : n.start;
    this.setNumber(Math.min(n.max, Math.max(n.min, now + d)));
  }

  /** Show `value` in the number choice (a hint does too); answers whether there is one. */
  setNumber(value) {
    const input = this.root.querySelector(".number-choice .number-input");
    if (!this.number || !input || value === null || Number.isNaN(value)) return false;
    input.value = String(value);
    this.checkNumber();
    return true;
  }

  /** The number's keys: ↑/↓ by 1, Page Up/Down (or Shift+↑/↓) by 10, Home/End the ends, Enter sends. */
  numberKey(ev) {
    const n = this.number;
    if (!n) return;
    const big = ev.shiftKey ? 10 : 1;
    const steps = { ArrowUp: big, ArrowDown: -big, PageUp: 10, PageDown: -10 };
    if (ev.key in steps) this.stepNumber(steps[ev.key]);
    else if (ev.key === "Home") this.setNumber(n.min);
    else if (ev.key === "End") this.setNumber(n.max);
    else if (ev.key === "Enter") {
      const confirm = this.root.querySelector(".number-choice .confirm");
      if (this.checkNumber() && confirm) confirm.click();
    } else return;
    ev.preventDefault();
  }

  hand(view, ctx, opts, inter) {
    const cards = opts.hands && this.me === null ? opts.hands[this.bottom] || [] : view.hand || [];
    if (!cards.length) return `<div class="hand empty" id="hand" data-region="hand"></div>`;
    const myTurn = opts.legal && opts.legal.length > 0;
    const interactive = this.mode === "live" && this.me !== null;
    const picked = inter.picked || new Set();
    const reasons = inter.reasons || {};
    const items = cards.map((c) => {
      const trump = this.game.isTrump ? this.game.isTrump(view, c) : false;
      const legal = inter.cards.has(c);
      const cls = ["card", "hand-card"];
      if (myTurn && inter.cards.size) cls.push(legal ? "legal" : "illegal");
      if (picked.has(c)) cls.push("picked");
      if (opts.selected === c) cls.push("selected");
      const name = ctx.cardName(c);
      const title = reasons[c] ? `${name}: ${reasons[c]}` : name;
      if (!interactive)
        return `<div class="${cls.join(" ")}" data-card="${esc(c)}" title="${esc(title)}">${this.img(ctx, c, trump, name)}</div>`;
      return (
        `<button type="button" class="${cls.join(" ")}" data-card="${esc(c)}" data-focus-key="card:${esc(c)}" data-legal="${legal ? 1 : 0}"` +
        ` aria-label="${esc(myTurn && inter.cards.size && !legal ? `${name} (${t("table.notPlayable")})` : name)}" title="${esc(title)}">${this.img(ctx, c, trump)}</button>`
      );
    });
    return `<div class="hand" id="hand" data-region="hand" role="group" aria-label="${esc(t("table.hand"))}" style="--n:${cards.length}">${items.join("")}</div>`;
  }

  /** The most cards the hand has held in this deal: the cards keep the size they began it with. */
  trackHand(view, opts) {
    const deal = this.game.dealKey(view);
    const cards = opts.hands && this.me === null ? (opts.hands[this.bottom] || []).length : (view.hand || []).length;
    if (deal !== this.handDeal) {
      this.handDeal = deal;
      this.handMax = 0;
    }
    if (cards > this.handMax) {
      this.handMax = cards;
      this.handDirty = true;
    }
  }

  /**
   * Size the hand's cards: as tall as a share of the window allows (on a phone, the room left
   * below the table), the same all deal long, whatever buttons a decision brings (they take the
   * middle of the table, not the hand's room). Too many for one row: first the gaps close, then
   * (where cards would go under 80 px, 56 on a phone) they take two rows.
   */
  fitHand() {
    this.handDirty = false;
    const area = this.felt && this.felt.querySelector("#me-area");
    const hand = this.felt && this.felt.querySelector("#hand");
    if (!area || !hand) return;
    const n = Math.max(this.handMax, hand.children.length);
    const width = area.clientWidth;
    if (!width || !n) return;
    const phone = window.innerWidth < 700;
    const gap = 4;
    const across = (count, g) => (width - g * (count - 1)) / count;
    // the room for the hand: on a phone, what the window leaves below the table (the layout
    // above has fixed heights there, so it is the same all deal); else a share of the window
    const top = hand.getBoundingClientRect().top + window.scrollY + 10;
    // (a replay's hand is only looked at: it leaves the trick more room)
    const share = this.mode === "replay" ? 0.11 : 0.15;
    const room = phone ? Math.max(56, window.innerHeight - top - 10) : Math.min(156, Math.max(this.mode === "replay" ? 60 : 84, window.innerHeight * share));
    let w = Math.min(room, 111 * (phone ? 1 : 2)) / 1.5;
    let g = gap;
    let rows = 1;
    const least = phone ? 52 : 54;
    if (across(n, gap) < w) {
      if (across(n, 1) >= least) {
        w = across(n, gap) >= least ? across(n, gap) : across(n, 1);
        g = Math.max(1, Math.min(gap, (width - n * w) / Math.max(1, n - 1)));
      } else {
        rows = 2;
        const perRow = Math.ceil(n / 2);
        const fit = phone ? (room - 8) / 2 / 1.5 : w;
        w = Math.min(fit, across(perRow, gap));
      }
    }
    w = Math.floor(Math.max(phone ? 38 : 40, Math.min(phone ? 74 : 104, w)));
    area.style.setProperty("--card-w", `${w}px`);
    area.style.setProperty("--hand-h", `${Math.ceil(10 + rows * w * 1.5 + (rows - 1) * 8)}px`);
    area.style.setProperty("--hand-gap", `${Math.floor(g * 10) / 10}px`);
    area.dataset.handRows = String(rows);
  }

  renderLast(view, ctx) {
    const last = this.game.lastTrick(view);
    if (!last) {
      this.setHtml("#last", `<p class="muted">${esc(t("table.noLastTrick"))}</p>`);
      return;
    }
    const points = last.points !== undefined ? `: ${last.points}` : "";
    this.setHtml(
      "#last",
      trickRow(ctx, last.plays, { winner: last.winner, mark: last.mark }) +
        `<span class="trick-note">${esc(t("table.wonBy"))} <b>${esc(ctx.name(last.winner))}</b>${points}</span>`,
    );
  }

  /** Add log entries (lines of games/common.js, or plain text such as a player's own words). */
  addLog(entries) {
    if (!entries.length) return;
    this.log.push(...entries);
    if (this.log.length > 200) this.log.splice(0, this.log.length - 200);
    const el = this.root.querySelector("#log");
    if (!el) return;
    const ctx = this.ctx();
    el.insertAdjacentHTML("beforeend", entries.map((e) => `<li>${esc(lineText(e, ctx))}</li>`).join(""));
    while (el.children.length > 200) el.firstChild.remove();
    el.scrollTop = el.scrollHeight;
  }

  /** The log in a window (a phone's way to it: one tap on "Verlauf" above the table). */
  logDialog() {
    const lines = this.logLines();
    const body = lines.length ? `<ol class="log log-all">${lines.map((l) => `<li>${esc(l)}</li>`).join("")}</ol>` : `<p class="muted">${esc(t("table.logEmpty"))}</p>`;
    dialog(esc(t("table.log")), body, {
      id: "log-dialog",
      onOpen: (d) => {
        const list = d.querySelector(".log");
        if (list) list.scrollTop = list.scrollHeight;
      },
    });
  }

  clearLog() {
    this.log = [];
    this.renderLog();
  }

  /** Move the cards of the trick in the middle to the winner's seat. */
  async animateTake(winner) {
    if (!prefs.get("animations")) return;
    const pos = this.pos(winner);
    const els = this.felt.querySelectorAll(".center .played, .center .place.taking .played");
    if (!els.length) return;
    for (const el of els) el.classList.add("take", `to-${pos}`);
    await new Promise((r) => setTimeout(r, 380));
  }

  /** Shake a card or button that was refused. */
  shake(el) {
    if (!el || !prefs.get("animations")) return;
    el.classList.remove("shake");
    void el.offsetWidth;
    el.classList.add("shake");
  }

  setMessage(text, kind = "error") {
    this.message = text ? { text, kind } : null;
    if (this.regions) this.region("message", this.messageHtml());
  }
}
