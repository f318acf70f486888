// The replay viewer for a finished game: step forward and back, jump to a deal, play it back;
// every hand is shown (a finished game's record is public). It draws the server's replay frames
// (GET /api/tables/{id}/replay) with the same table view as live play.

import { api } from "./api.js";
import { dialog, esc } from "./dom.js";
import { lineText } from "./games/common.js";
import { t } from "./i18n.js";
import { httpRefusal } from "./refusals.js";
import { TableView } from "./tableview.js";

// Steps are chevrons, the ends a bar with a double triangle, playing back a single triangle with
// its word beside it: "play" and "next" must never be mistaken for one another.
const ICON = {
  first: '<path d="M4 4h2.5v16H4zM14 4v16L7 12zM22 4v16l-8-8z"/>',
  prev: '<path d="M16 3.5l2.2 2.2L11.9 12l6.3 6.3-2.2 2.2L7.5 12z"/>',
  next: '<path d="M8 3.5L5.8 5.7l6.3 6.3-6.3 6.3 2.2 2.2 8.5-8.5z"/>',
  last: '<path d="M17.5 4H20v16h-2.5zM10 4v16l7-8zM2 4v16l8-8z"/>',
  play: '<path d="M6 3.5v17l14-8.5z"/>',
  pause: '<path d="M6 4h4v16H6zM14 4h4v16h-4z"/>',
};
const icon = (name) => `<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">${ICON[name]}</svg>`;
/** A replay button: its icon and its word (the word before the icon for the steps forward). */
const stepButton = (step, key, after = false, id = "") =>
  `<button type="button" data-step="${step}"${id ? ` id="${id}"` : ""} class="step step-${step}" aria-label="${esc(t(key))}" title="${esc(t(key))}">` +
  (after ? `<span class="step-word">${esc(t(key))}</span>${icon(step)}` : `${icon(step)}<span class="step-word">${esc(t(key))}</span>`) +
  `</button>`;

export class Replay {
  constructor(root, id, gameNo, { catalog, analyse = false }) {
    this.root = root;
    this.analyseAtOnce = analyse;
    this.id = id;
    this.gameNo = gameNo;
    this.catalog = catalog;
    this.keys = (ev) => this.onKey(ev);
    this.load();
  }

  relabel() {
    if (!this.view) return;
    this.view.mount();
    this.renderBar();
    this.show(this.i);
  }

  destroy() {
    document.removeEventListener("keydown", this.keys);
    clearInterval(this.player);
    clearTimeout(this.polling);
    this.gone = true;
  }

  async load() {
    let data;
    try {
      data = await api.replay(this.id, this.gameNo);
    } catch (e) {
      const text = e.status === 403 ? t("replay.notOver") : e.status === 404 ? t("table.notFound") : httpRefusal("replay", e);
      this.root.innerHTML = `<div class="panel notice"><p>${esc(text)}</p><p><a class="button" href="/tables/${encodeURIComponent(this.id)}">${esc(t("replay.back"))}</a></p></div>`;
      return;
    }
    this.data = data;
    this.frames = data.frames;
    const gameInfo = (this.catalog.games || []).find((g) => g.name === data.game) || {};
    this.root.innerHTML = `<div class="replay-page"><div class="replay-bar panel" id="replay-bar"></div><div id="replay-table" class="replay-table"></div></div>`;
    this.view = new TableView(this.root.querySelector("#replay-table"), {
      gameName: data.game,
      n: data.seats.length,
      data: gameInfo.data || null,
      mode: "replay",
      handlers: { dialog: (w) => this.openDialog(w) },
    });
    // A game's seats may have been written before its humans sat down: take their names from the
    // table while it is still at that game.
    let current = null;
    try {
      current = await api.table(this.id);
    } catch {
      current = null;
    }
    const sameGame = current && current.game_no === data.game_no;
    const named = (s) => (s.name || !sameGame || !current.seats[s.seat] ? s.name : current.seats[s.seat].name);
    this.view.info = { seats: data.seats.map((s) => ({ ...s, name: named(s), claimed: true, connected: s.kind === "human" })) };
    this.view.setSeat(null);
    const game = this.view.game;
    this.deals = [];
    this.frames.forEach((f, i) => {
      const key = game.dealKey(f.view);
      if (!this.deals.length || this.deals[this.deals.length - 1].key !== key) this.deals.push({ key, start: i, view: f.view });
    });
    // the log of every frame: what happened from the one before it, as the live table logs it
    const ctx = this.view.ctx();
    this.logAt = this.frames.map((f, i) => {
      if (!i) return [];
      const prev = this.frames[i - 1].view;
      return game.events(prev, f.view, ctx, game.hold(prev, f.view, ctx));
    });
    this.i = 0;
    this.renderBar();
    this.show(0);
    document.addEventListener("keydown", this.keys);
    document.title = `${t("replay.title")} – ${t(`game.${data.game}`)}`;
    if (this.analyseAtOnce && data.game === "jass") this.analyse();
  }

  /** Who took moves back in this game, and how often (nothing where nobody did). */
  takebacksHtml() {
    const counts = this.data.takebacks || [];
    const who = counts.map((n, s) => [n, s]).filter(([n]) => n > 0);
    if (!who.length) return "";
    const list = who.map(([n, s]) => `${this.view.seatName(s)} ${n}×`).join(", ");
    return `<p class="muted replay-takebacks">${esc(t("replay.takebacks", { list }))}</p>`;
  }

  renderBar() {
    const bar = this.root.querySelector("#replay-bar");
    const last = this.frames.length - 1;
    bar.innerHTML =
      `<h2>${esc(t("replay.title"))}: ${esc(t(`game.${this.data.game}`))}</h2>` +
      this.takebacksHtml() +
      `<div class="replay-controls" role="group" aria-label="${esc(t("replay.title"))}">` +
      stepButton("first", "replay.first") +
      stepButton("prev", "replay.prev") +
      stepButton("play", this.player ? "replay.pause" : "replay.play", false, "replay-play").replace(`${icon("play")}`, icon(this.player ? "pause" : "play")) +
      stepButton("next", "replay.next", true) +
      stepButton("last", "replay.last", true) +
      `<input type="range" id="replay-slider" min="0" max="${last}" value="0" aria-label="${esc(t("replay.step", { v: 0, n: last }))}">` +
      `<label>${esc(t("replay.jump"))} <select id="replay-deal">${this.deals.map((d, k) => `<option value="${k}">${esc(this.view.game.dealLabel(d.view, this.view.ctx()))}</option>`).join("")}</select></label>` +
      `<span id="replay-pos" class="muted"></span>` +
      (this.data.game === "jass"
        ? `<button type="button" class="small" id="replay-analyse" title="${esc(t("replay.analyseTitle"))}"${this.analysis && this.analysis.status !== "failed" ? " disabled" : ""}>${esc(t("replay.analyse"))}</button>`
        : "") +
      `<a class="button small" id="replay-download" href="/api/tables/${encodeURIComponent(this.id)}/record?game=${this.data.game_no}" download="stichkit-${esc(this.id)}-${this.data.game_no}.json" title="${esc(t("replay.downloadTitle"))}">${esc(t("replay.download"))}</a>` +
      `<a class="button small" href="/tables/${encodeURIComponent(this.id)}">${esc(t("replay.back"))}</a>` +
      `</div>` +
      `<div id="replay-analysis" class="replay-analysis" aria-live="polite"></div>`;
    bar.onclick = (ev) => {
      if (ev.target.closest("#replay-analyse")) {
        this.analyse();
        return;
      }
      if (ev.target.closest("#replay-next-error")) {
        this.nextError();
        return;
      }
      const b = ev.target.closest("[data-step]");
      if (!b) return;
      if (b.dataset.step === "play") this.togglePlay();
      else this.go(b.dataset.step);
    };
    bar.querySelector("#replay-slider").addEventListener("input", (ev) => this.show(Number(ev.target.value)));
    bar.querySelector("#replay-deal").addEventListener("change", (ev) => this.show(this.deals[Number(ev.target.value)].start));
  }

  go(step) {
    const last = this.frames.length - 1;
    const deal = this.dealIndex();
    const to = {
      first: 0,
      prev: this.i - 1,
      next: this.i + 1,
      last,
      prevDeal: this.i > this.deals[deal].start ? this.deals[deal].start : this.deals[Math.max(0, deal - 1)].start,
      nextDeal: deal + 1 < this.deals.length ? this.deals[deal + 1].start : last,
    }[step];
    this.show(Math.max(0, Math.min(last, to)));
  }

  dealIndex() {
    let k = 0;
    this.deals.forEach((d, j) => {
      if (d.start <= this.i) k = j;
    });
    return k;
  }

  show(i) {
    this.i = i;
    const f = this.frames[i];
    const prev = i > 0 ? this.frames[i - 1] : null;
    const game = this.view.game;
    const ctx = this.view.ctx();
    const held = prev ? game.hold(prev.view, f.view, ctx) : null;
    const mover = f.seat !== null && f.seat !== undefined ? this.view.seatName(f.seat) : null;
    let action = f.action || "";
    try {
      if (action && !action.includes(":") && !action.includes(">")) action = ctx.cardName(action);
    } catch {
      // not a card: keep the notation
    }
    // the move in words, as the log says it ("Anna spielt Rosen-Ass."); else who made it, and what
    const said = this.logAt[i].length ? lineText(this.logAt[i][0], ctx) : mover ? t("replay.moveBy", { name: mover, action }) : t("replay.start");
    const status = `<span class="replay-move">${esc(said)}</span>`;
    this.view.log = this.logAt.slice(1, i + 1).flat().slice(-200);
    this.view.renderLog();
    const view = held ? held.view : f.view;
    // a trick that closed a deal is shown with the hands as they were before the new deal
    const newDeal = held && prev && game.dealKey(prev.view) !== game.dealKey(f.view);
    const hands = newDeal ? prev.hands.map((h) => h.filter((c) => !held.plays.some((p) => p.card === c))) : f.hands;
    this.view.render(view, { legal: [], hands, held, winner: held ? held.winner : null, version: f.version, status, overlay: f.view.phase === "over" ? this.result(f.view) : null });
    const bar = this.root.querySelector("#replay-bar");
    bar.querySelector("#replay-slider").value = String(i);
    bar.querySelector("#replay-deal").value = String(this.dealIndex());
    bar.querySelector("#replay-pos").textContent = t("replay.step", { v: i, n: this.frames.length - 1 });
    this.root.dataset.frame = String(i);
    this.showAnalysis();
  }

  // -- the double-dummy analysis (Jass) -------------------------------------------------------

  /** Ask the server to solve the game's card decisions, then follow it deal by deal. */
  async analyse() {
    const b = this.root.querySelector("#replay-analyse");
    if (b) b.disabled = true;
    try {
      this.takeAnalysis(await api.analyse(this.id, this.data.game_no));
    } catch (e) {
      if (b) b.disabled = false;
      this.analysisNote(t("replay.analysisFailed", { reason: httpRefusal("analysis", e) }));
    }
  }

  takeAnalysis(a) {
    if (this.gone) return;
    clearTimeout(this.polling); // one follow-up at a time
    this.analysis = a;
    this.decisionAt = new Map();
    const decisions = (a.analysis && a.analysis.decisions) || [];
    let j = 0;
    this.frames.forEach((f, i) => {
      const d = decisions[j];
      if (d && f.seat === d.seat && f.action === d.played) {
        this.decisionAt.set(i, d);
        j += 1;
      }
    });
    const button = this.root.querySelector("#replay-analyse");
    if (button) button.disabled = a.status !== "failed"; // a failed one may be begun again
    if (a.status === "queued" || a.status === "working")
      this.polling = setTimeout(async () => {
        try {
          // POST again, not GET: it also takes over an analysis whose server process went silent
          this.takeAnalysis(await api.analyse(this.id, this.data.game_no));
        } catch (e) {
          this.analysisNote(t("replay.analysisFailed", { reason: httpRefusal("analysis", e) }));
        }
      }, 1500);
    this.showAnalysis();
  }

  analysisNote(text) {
    const box = this.root.querySelector("#replay-analysis");
    if (box) box.textContent = text;
  }

  /** The next card that lost points (after the last one: the first again). Key E. */
  nextError() {
    if (!this.decisionAt) return;
    const costly = [...this.decisionAt.entries()].filter(([, d]) => d.loss > 0).map(([i]) => i);
    if (!costly.length) return;
    this.show(costly.find((i) => i > this.i) ?? costly[0]);
  }

  /** What the solver says of this frame's card, and how far the analysis has come. */
  showAnalysis() {
    const a = this.analysis;
    const box = this.root.querySelector("#replay-analysis");
    if (!a || !box) return;
    const ctx = this.view.ctx();
    const name = (c) => {
      try {
        return ctx.cardName(c);
      } catch {
        return c;
      }
    };
    const parts = [];
    if (a.status === "failed") parts.push(esc(t("replay.analysisFailed", { reason: t("replay.solverFailed") })));
    else if (a.status !== "done") parts.push(esc(t("replay.analysing", { done: a.deals_done, n: a.deals })));
    const d = this.decisionAt.get(this.i);
    if (d) {
      const best = d.best.map(name).join(", ");
      parts.push(
        d.loss === 0
          ? `<b class="good">${esc(t("replay.bestMove", { card: name(d.played) }))}</b>`
          : `<b class="bad">${esc(t("replay.lostPoints", { card: name(d.played), n: d.loss, best }))}</b>`,
      );
    } else if (a.status === "done" && this.frames[this.i].seat !== null && this.frames[this.i].seat !== undefined) {
      parts.push(esc(t("replay.noCard")));
    }
    if (a.status === "done" && a.analysis) {
      const seats = a.analysis.seats.map((s) => t("replay.seatLost", { name: this.view.seatName(s.seat), n: s.lost, errors: s.errors }));
      parts.push(`<span class="muted">${esc(t("replay.lostTotal"))}: ${esc(seats.join(" · "))}</span>`);
      if (seats.length && a.analysis.seats.some((s) => s.errors > 0))
        parts.push(`<button type="button" class="small" id="replay-next-error" title="${esc(t("replay.nextErrorTitle"))}">${esc(t("replay.nextError"))}</button>`);
    }
    box.innerHTML = parts.join(" ");
    box.dataset.status = a.status;
  }

  result(view) {
    const ctx = this.view.ctx();
    return `<div class="result"><h2>${esc(t("table.gameOver"))}</h2>${this.view.game.scores(view, ctx)}</div>`;
  }

  togglePlay() {
    const b = this.root.querySelector("#replay-play");
    const label = (key, name) => {
      b.setAttribute("aria-label", t(key));
      b.title = t(key);
      b.innerHTML = `${icon(name)}<span class="step-word">${esc(t(key))}</span>`;
    };
    if (this.player) {
      clearInterval(this.player);
      this.player = null;
      label("replay.play", "play");
      return;
    }
    label("replay.pause", "pause");
    this.player = setInterval(() => {
      if (this.i >= this.frames.length - 1) this.togglePlay();
      else this.show(this.i + 1);
    }, 700);
  }

  openDialog(which) {
    const view = this.frames[this.i].view;
    const ctx = this.view.ctx();
    if (which === "tricks") dialog(esc(`${t("table.tricksThisDeal")} – ${this.view.game.dealLabel(view, ctx)}`), this.view.game.tricks(view, ctx), { wide: true });
    else if (which === "info") dialog(esc(t("table.info")), `<div class="info-dialog">${this.view.game.info(view, ctx)}${this.view.deckPicker(ctx)}</div>`, { wide: true });
    else if (which === "log") this.view.logDialog();
    else dialog(esc(t("table.scoreSheet")), this.view.game.scores(view, ctx), { wide: true });
  }

  onKey(ev) {
    const tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || document.querySelector("dialog[open]")) return;
    const step = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", PageUp: "prevDeal", PageDown: "nextDeal" }[ev.key];
    if (step) {
      this.go(step);
      ev.preventDefault();
    } else if (ev.key === " ") {
      this.togglePlay();
      ev.preventDefault();
    } else if (ev.key === "s" || ev.key === "S") this.openDialog("tricks");
    else if (ev.key === "p" || ev.key === "P") this.openDialog("scores");
    else if (ev.key === "e" || ev.key === "E") this.nextError();
  }
}
