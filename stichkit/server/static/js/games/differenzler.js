// Differenzler on the table: four players each for themselves, the trump suit (and the turned-up
// card in the dealer's hand), every prediction as this seat may know it, the points taken in the
// deal, the penalties. The prediction is a decision of its own: a number with − and + (by 1 and
// by 10) that may be typed, the allowed range beside it (tableview.js draws it from `number`).
// A hidden prediction is never drawn: the view does not hold it before the deal ends.
// Play runs counter-clockwise: the next player after seat s is s - 1.

import * as cards from "../cards/jass.js";
import { cardOf, esc, line, playsFrom, raw, reasonText, seatOf, table, trickRow, tricksList } from "./common.js";

const SEATS = [[0], [1], [2], [3]];
const START = 40; // the stepper's first number: about a quarter of the deal's 157 points

function trumpName(suit, ctx) {
  return cards.suitName(ctx.deck, suit, ctx.lang);
}

function trumpIcon(suit, ctx) {
  return cards.suitIcon(ctx.deck, suit, trumpName(suit, ctx));
}

/** A prediction as this seat sees it: the number, "hidden", or "–" (not made yet). */
function predictionText(view, seat, ctx) {
  const p = view.predictions[seat];
  if (p !== null && p !== undefined) return String(p);
  return view.predicted[seat] ? ctx.t("dz.hidden") : "–";
}

function lastTrickOf(view) {
  if (view.tricks.length) {
    const tr = view.tricks[view.tricks.length - 1];
    return { ...tr, deal: view.deal_number };
  }
  const d = view.previous_deals[view.previous_deals.length - 1];
  return d && d.last_trick ? { ...d.last_trick, deal: d.deal } : null;
}

export default {
  name: "differenzler",
  cards,
  teams: () => SEATS,
  step: -1,

  svg(card, ctx, opts = {}) {
    return cards.cardSVG(card, { deck: ctx.deck, lang: ctx.lang, trump: opts.trump });
  },
  back: (ctx) => cards.backSVG(ctx.t("table.trick")),
  cardName: (card, ctx) => cards.cardName(card, ctx.deck, ctx.lang),
  suitName: (suit, ctx) => cards.suitName(ctx.deck, suit, ctx.lang),
  isTrump: (view, card) => card[0] === view.trump,
  dealKey: (view) => view.deal_number,
  dealLabel: (view, ctx) => ctx.t("dz.dealN", { n: view.deal_number + 1, of: view.deals }),

  trick: (view) => view.trick,

  info(view, ctx) {
    const shown = view.trump_card
      ? `<small>${esc(ctx.t("dz.turnedUp", { card: ctx.cardName(view.trump_card), name: ctx.name(view.dealer) }))}</small>`
      : "";
    const rows = [0, 1, 2, 3]
      .map(
        (s) =>
          `<div class="player-score${s === ctx.me ? " mine" : ""}"><span>${esc(ctx.name(s))}</span>` +
          `<b data-score="${s}">${view.penalties[s]}</b>` +
          `<small>${esc(ctx.t("dz.predicted"))} ${esc(predictionText(view, s, ctx))} · ${esc(ctx.t("dz.took"))} ${view.points[s]}</small></div>`,
      )
      .join("");
    return (
      `<div class="info-row"><span class="label">${esc(ctx.t("dz.dealN", { n: view.deal_number + 1, of: view.deals }))}</span>` +
      `<span>${esc(ctx.t("jass.forehand"))}: ${esc(ctx.name(view.forehand))}</span></div>` +
      `<div class="info-row trump-row" data-trump="${esc(view.trump)}"><span class="label">${esc(ctx.t("jass.trump"))}</span>` +
      `<span>${trumpIcon(view.trump, ctx)} <b>${esc(trumpName(view.trump, ctx))}</b>${shown}</span></div>` +
      `<div class="info-row"><span class="label">${esc(ctx.t("dz.penalties"))}</span><span class="muted">${esc(ctx.t("dz.lowestWins"))}</span></div>` +
      `<div class="info-row scores">${rows}</div>`
    );
  },

  seatBadges(view, seat, ctx) {
    const out = [`<span class="badge prediction" title="${esc(ctx.t("dz.predicted"))}">${esc(ctx.t("dz.predictionShort"))} ${esc(predictionText(view, seat, ctx))}</span>`];
    out.push(`<span class="badge pile" title="${esc(ctx.t("dz.took"))}">▮ ${view.points[seat]}</span>`);
    if (view.dealer === seat && view.phase !== "over") out.push(`<span class="badge">${esc(ctx.t("dz.dealer"))}</span>`);
    return out.join("");
  },

  /** The seat's chip shows its total penalty (the lowest wins). */
  scoreOf: (view, seat) => view.penalties[seat],

  interact(view, legal, ctx) {
    const out = { prompt: "", cards: new Map(), choices: [], natural: (card) => card };
    if (!legal.length) return out;
    if (view.phase === "predict") {
      out.prompt = ctx.t("dz.predictPrompt");
      const values = legal.filter((a) => a.startsWith("predict:")).map((a) => Number(a.slice(8)));
      if (!values.length) return out;
      const min = Math.min(...values);
      const max = Math.max(...values);
      const game = this;
      // Only a legal prediction can be sent; anything else is said as the engine refuses it
      // (unknown_action), in the page's words.
      out.number = {
        key: `predict:${view.deal_number}`,
        min,
        max,
        start: Math.min(max, Math.max(min, START)),
        legal: new Set(legal),
        action: (n) => `predict:${n}`,
        parse: (a) => (typeof a === "string" && a.startsWith("predict:") ? Number(a.slice(8)) : null),
        label: ctx.t("dz.predictLabel"),
        range: ctx.t("dz.range", { min, max }),
        confirm: ctx.t("dz.confirm"),
        less: (n) => ctx.t("dz.less", { n }),
        more: (n) => ctx.t("dz.more", { n }),
        refusal: (text) => reasonText(game, ctx, "unknown_action", { action: text }),
      };
      return out;
    }
    out.prompt = ctx.t("dz.playCard");
    for (const a of legal) out.cards.set(a, [a]);
    return out;
  },

  lastTrick(view) {
    const lt = lastTrickOf(view);
    if (!lt) return null;
    return { plays: playsFrom(lt.leader, lt.cards, 4, -1), winner: lt.winner, points: lt.points };
  },

  hold(prev, next) {
    if (!prev) return null;
    const before = lastTrickOf(prev);
    const lt = lastTrickOf(next);
    if (!lt || (before && before.deal === lt.deal && before.cards.join() === lt.cards.join())) return null;
    const plays = playsFrom(lt.leader, lt.cards, 4, -1);
    const sameDeal = prev.deal_number === next.deal_number;
    const base = sameDeal ? next : { ...prev, hand: prev.hand.filter((c) => !lt.cards.includes(c)), hand_sizes: prev.hand_sizes.map((n) => Math.max(0, n - 1)) };
    return { view: { ...base, trick: plays }, winner: lt.winner, points: lt.points, plays };
  },

  events(prev, next, ctx, held) {
    const ev = [];
    if (!prev) return ev;
    const sameDeal = prev.deal_number === next.deal_number;
    if (sameDeal)
      for (let s = 0; s < 4; s++) {
        if (prev.predicted[s] || !next.predicted[s]) continue;
        const p = next.predictions[s];
        ev.push(p === null ? line("dz.hasPredicted", { name: seatOf(s) }) : line("dz.predicts", { name: seatOf(s), points: p }));
      }
    const plays = held ? held.plays : next.trick;
    for (const p of plays.slice(prev.trick.length)) ev.push(line("table.played", { name: seatOf(p.seat), card: cardOf(p.card) }));
    if (held) ev.push(line("table.takesPts", { name: seatOf(held.winner), points: held.points }));
    if (next.previous_deals.length > prev.previous_deals.length) {
      const d = next.previous_deals[next.previous_deals.length - 1];
      ev.push(line("dz.dealResult", { n: d.deal + 1, list: (c) => [0, 1, 2, 3].map((s) => `${c.name(s)} ${d.predictions[s]}/${d.points[s]}: ${d.penalties[s]}`).join(", ") }));
    }
    if (!sameDeal && next.phase !== "over") ev.push(line("table.newDeal", { n: next.deal_number + 1 }));
    return ev;
  },

  announce(held, ctx) {
    return line(held.winner === ctx.me ? "table.trickToMePts" : "table.trickToPts", { name: seatOf(held.winner), points: held.points });
  },

  settle(view, next) {
    const d = next.previous_deals[next.previous_deals.length - 1];
    const revealed = d ? { predictions: d.predictions, points: d.points } : {};
    return { ...view, ...revealed, penalties: next.penalties, previous_deals: next.previous_deals, current_player: null };
  },

  brief(view, ctx) {
    return `<span class="brief-label">${esc(ctx.t("jass.trump"))}</span> ${trumpIcon(view.trump, ctx)} <b>${esc(trumpName(view.trump, ctx))}</b>`;
  },

  dealEnd(prev, next, ctx) {
    if (!prev || next.previous_deals.length <= prev.previous_deals.length) return null;
    const d = next.previous_deals[next.previous_deals.length - 1];
    return `<h3>${esc(ctx.t("table.dealSummary"))} – ${esc(ctx.t("dz.dealN", { n: d.deal + 1, of: next.deals }))}</h3>` + this.dealTable(next, ctx, [d]);
  },

  dealTable(view, ctx, deals) {
    const head = ["", ...[0, 1, 2, 3].map((s) => ctx.name(s))];
    const rows = deals.map((d) => [
      raw(`${trumpIcon(d.trump, ctx)} ${esc(ctx.t("dz.dealShort", { n: d.deal + 1 }))}`),
      ...[0, 1, 2, 3].map((s) => raw(`<b>${d.penalties[s]}</b><small>${esc(ctx.t("dz.predictedTook", { p: d.predictions[s], t: d.points[s] }))}</small>`)),
    ]);
    rows.push({ cls: "total", cells: [ctx.t("table.total"), ...view.penalties.map(String)] });
    return table(head, rows);
  },

  tricks(view, ctx) {
    return tricksList(ctx, view.tricks, (tr) =>
      trickRow(ctx, playsFrom(tr.leader, tr.cards, 4, -1), { winner: tr.winner }) +
      `<span class="trick-note">${esc(ctx.t("table.wonBy"))} <b>${esc(ctx.name(tr.winner))}</b>: ${tr.points} ${esc(ctx.t("table.points"))}</span>`,
    );
  },

  scores(view, ctx) {
    return this.dealTable(view, ctx, view.previous_deals) + `<p class="muted">${esc(ctx.t("dz.lowestWins"))}</p>`;
  },

  winnersText(view, ctx) {
    return (view.winners || []).map((s) => ctx.name(s)).join(ctx.t("and"));
  },
};
