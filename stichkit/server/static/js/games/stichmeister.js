// Stich-Meister on the table: the rule cards in force with their texts (German or English), the
// trump order they make, the secret rule-card choice, the setup picks (pass, face down, show,
// discard), rule 34's removal, face-down trick cards, and a summary per round that shows what the
// scoring cards did.

import * as cards from "../cards/stichmeister.js";
import { cardOf, esc, line, raw, seatOf, table, trickRow, tricksList } from "./common.js";

const KIND_ORDER = { trump: 0, basic: 1, scoring: 2 };

/** The rule card's text in the page's language, from the view or from the catalog. */
function ruleOf(ctx, rule) {
  if (typeof rule === "object" && rule) return rule;
  const known = ctx.data && ctx.data.rule_cards && ctx.data.rule_cards[rule];
  return known || { number: rule, kind: null, text_de: `Regel ${rule}`, text_en: `Rule ${rule}` };
}

export function ruleCard(ctx, rule, { cls = "" } = {}) {
  const r = ruleOf(ctx, rule);
  const text = ctx.lang === "en" ? r.text_en : r.text_de;
  return (
    `<div class="rule-card kind-${r.kind || "unknown"} ${cls}" data-rule="${r.number}">` +
    `<span class="rule-no">${r.number}</span>` +
    (r.kind ? `<span class="rule-kind">${esc(ctx.t(`sm.kind.${r.kind}`))}</span>` : "") +
    `<p>${esc(text)}</p></div>`
  );
}

function trumpChips(view, ctx) {
  if (!view.trump_order.length) return `<span class="muted">${esc(ctx.t("sm.noTrump"))}</span>`;
  return (
    `<div class="trump-order">` +
    view.trump_order
      .map((group) => `<span class="chip">${group.map((c) => `${cards.suitIcon(c[0], cards.NAMES[ctx.lang][c[0]])}${esc(c.slice(1))}`).join(" = ")}</span>`)
      .join(`<span class="gt">›</span>`) +
    "</div>"
  );
}

function setupPrompt(view, ctx) {
  const s = view.setup;
  const done = s.my_picks.length;
  const key = { pass: "sm.setup.pass", down: "sm.setup.down", show: "sm.setup.show", discard: "sm.setup.discard" }[s.action] || "sm.setup.show";
  return ctx.t(key, { count: s.count, done, to: s.to ? ctx.t(`sm.to.${s.to}`) : "" });
}

export default {
  name: "stichmeister",
  cards,
  step: 1,

  svg: (card, ctx, opts = {}) => cards.cardSVG(card, { lang: ctx.lang, trump: opts.trump }),
  back: (ctx) => cards.backSVG(ctx.t("sm.faceDown")),
  cardName: (card, ctx) => cards.cardName(card, ctx.lang),
  suitName: (suit, ctx) => (suit === "trump" ? ctx.t("err.trump") : cards.NAMES[ctx.lang][suit]),
  isTrump: (view, card) => view.trump.includes(card),
  dealKey: (view) => view.round,
  dealLabel: (view, ctx) => ctx.t("sm.round", { n: view.round + 1, m: view.rounds }),

  trick(view) {
    if (view.phase === "remove" && view.to_remove) return view.to_remove.cards;
    return view.trick.map((p) => ({ seat: p.seat, card: p.card, faceDown: p.face_down }));
  },
  trickWinner: (view) =>
    view.phase === "remove" && view.to_remove ? view.to_remove.winner : view.trick_winning ? view.trick_winning.seat : null,

  info(view, ctx) {
    const rules = view.active_rules
      ? `<div class="rules">${[...view.active_rules].sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.number - b.number).map((r) => ruleCard(ctx, r)).join("")}</div>`
      : `<p class="muted">${esc(ctx.t("sm.noRules"))}</p>`;
    const extra = [];
    if (view.second_trick_suit) extra.push(ctx.t("sm.secondSuit", { suit: cards.NAMES[ctx.lang][view.second_trick_suit] }));
    if (view.trumps_broken !== null && view.trumps_broken !== undefined) extra.push(ctx.t(view.trumps_broken ? "sm.trumpsBroken" : "sm.trumpsNotBroken"));
    const passed = (view.passed || []).map(
      (p) =>
        `<p>${esc(ctx.t("sm.passed", { given: p.given.map((c) => ctx.cardName(c)).join(", "), to: ctx.name(p.to), received: p.received.map((c) => ctx.cardName(c)).join(", "), from: ctx.name(p.from) }))}</p>`,
    );
    return (
      `<div class="info-row"><span class="label">${esc(ctx.t("sm.round", { n: view.round + 1, m: view.rounds }))}</span>` +
      `<span>${esc(ctx.t("sm.dealer", { name: ctx.name(view.dealer) }))} · ${esc(ctx.t("sm.direction"))}: ${view.direction === 1 ? "↻" : "↺"} ${esc(ctx.t(view.direction === 1 ? "sm.clockwise" : "sm.counter"))}</span></div>` +
      `<div class="info-row"><span class="label">${esc(ctx.t("sm.rules"))}</span>${rules}</div>` +
      `<div class="info-row"><span class="label">${esc(ctx.t("sm.trumpOrder"))}</span>${trumpChips(view, ctx)}${extra.map((e) => `<small>${esc(e)}</small>`).join("")}</div>` +
      passed.join("") +
      `<div class="info-row scores">` +
      view.scores
        .map(
          (s, seat) =>
            `<div class="player-score${seat === ctx.me ? " mine" : ""}"><span>${esc(ctx.name(seat))}</span><b data-score="${seat}">${s}</b>` +
            `<small>${esc(ctx.t("sm.tricksTaken"))}: ${view.tricks_taken[seat]}</small></div>`,
        )
        .join("") +
      "</div>"
    );
  },

  seatBadges(view, seat, ctx) {
    // while the rules are chosen and set up no trick is taken yet: the badge says who is done instead
    const before = view.phase === "choose" || view.phase === "setup";
    const out = before ? [] : [`<span class="badge">${esc(ctx.t("sm.tricksTaken"))}: ${view.tricks_taken[seat]}</span>`];
    if (view.dealer === seat) out.push(`<span class="badge">${esc(ctx.t("sm.dealer", { name: "" }).replace(/[:\s]+$/, ""))}</span>`);
    if (view.phase === "choose" && view.choosers.includes(seat)) {
      const done = view.chosen.includes(seat);
      out.push(`<span class="badge${done ? " done" : ""}">${esc(ctx.t(done ? "sm.chosen" : "sm.choosing"))}</span>`);
    }
    if (view.phase === "setup" && view.setup && view.setup.done.includes(seat)) out.push(`<span class="badge done">✓</span>`);
    if (view.face_down_counts[seat]) out.push(`<span class="badge">${esc(ctx.t("sm.faceDown"))}: ${view.face_down_counts[seat]}</span>`);
    return out.join("");
  },

  seatExtras(view, seat, ctx) {
    const parts = [];
    if (view.shown[seat].length)
      parts.push(`<span class="extras-label">${esc(ctx.t("sm.shown"))}</span><div class="card-row micro">${view.shown[seat].map((c) => ctx.card(c, { cls: "micro" })).join("")}</div>`);
    if (view.discarded[seat].length)
      parts.push(`<span class="extras-label">${esc(ctx.t("sm.discarded"))}</span><div class="card-row micro">${view.discarded[seat].map((c) => ctx.card(c, { cls: "micro" })).join("")}</div>`);
    return parts.length ? `<div class="extras">${parts.join("")}</div>` : "";
  },

  scoreOf: (view, seat) => view.scores[seat],

  interact(view, legal, ctx) {
    const out = {
      prompt: "",
      cards: new Map(),
      choices: [],
      trickActions: new Map(),
      picked: new Set(view.setup ? view.setup.my_picks : []),
      reasons: view.illegal_reasons || {},
      natural: (card) => (view.phase === "setup" && view.setup ? `${view.setup.action}:${card}` : card),
    };
    if (!legal.length) return out;
    if (view.phase === "choose") {
      out.prompt = ctx.t("sm.chooseRule");
      const hand = new Map(view.rule_hand.map((r) => [r.number, r]));
      for (const a of legal) {
        const n = Number(a.slice(5));
        out.choices.push({ action: a, html: ruleCard(ctx, hand.get(n) || n), cls: "rule-choice" });
      }
    } else if (view.phase === "setup") {
      out.prompt = setupPrompt(view, ctx);
      for (const a of legal) out.cards.set(a.slice(a.indexOf(":") + 1), [a]);
    } else if (view.phase === "remove") {
      out.prompt = ctx.t("sm.remove");
      for (const a of legal) {
        const card = a.slice(7);
        out.trickActions.set(card, a);
        out.choices.push({ action: a, html: esc(ctx.cardName(card)) });
      }
    } else {
      out.prompt = ctx.t("sm.playCard");
      for (const a of legal) out.cards.set(a, [a]);
    }
    return out;
  },

  lastTrick(view) {
    const tr = view.last_trick;
    if (!tr) return null;
    return { plays: tr.cards, winner: tr.taker, mark: tr.removed, points: tr.value };
  },

  hold(prev, next) {
    const a = prev && prev.last_trick;
    const b = next.last_trick;
    if (!prev || !b || (a && a.round === b.round && a.leader === b.leader && JSON.stringify(a.cards) === JSON.stringify(b.cards))) return null;
    const played = b.cards.map((c) => c.card);
    const base =
      prev.round === next.round ? next : { ...prev, hand: prev.hand.filter((c) => !played.includes(c)), hand_sizes: prev.hand_sizes.map((n) => Math.max(0, n - 1)) };
    const trick = b.cards.map((c) => ({ ...c, face_down: false }));
    return { view: { ...base, phase: "play", trick, trick_winning: null, to_remove: null }, winner: b.taker, plays: b.cards, mark: b.removed, value: b.value };
  },

  events(prev, next, ctx, held) {
    const ev = [];
    if (!prev) return ev;
    const sameRound = prev.round === next.round;
    if (sameRound && !prev.active_rules && next.active_rules) ev.push(line("sm.rulesShown", { rules: next.active_rules.map((r) => r.number).join(", ") }));
    if (sameRound || held) {
      const before = prev.trick.length;
      const plays = held ? held.plays : next.trick;
      for (const p of plays.slice(before)) ev.push(line("table.played", { name: seatOf(p.seat), card: p.card ? cardOf(p.card) : (x) => x.t("sm.faceDown") }));
      if (held) {
        ev.push(line("table.takes", { name: seatOf(held.winner) }));
        if (held.mark) ev.push(line("sm.removedLog", { card: cardOf(held.mark) }));
      }
    }
    if (next.previous_rounds.length > prev.previous_rounds.length) {
      const r = next.previous_rounds[next.previous_rounds.length - 1];
      ev.push(line("sm.roundResult", { n: r.round + 1, m: next.rounds, list: (x) => r.points.map((p, s) => `${x.name(s)} ${p}`).join(", ") }));
    }
    if (!sameRound && next.phase !== "over") ev.push(line("table.newRound", { n: next.round + 1 }));
    return ev;
  },

  /** Who took the trick, what it is worth, and the card that left the game (rule 34). */
  announce(held, ctx) {
    const who = held.winner === ctx.me ? "Me" : "";
    const base = held.value !== undefined && held.value !== null
      ? line(`sm.trickTo${who}`, { name: seatOf(held.winner), value: held.value })
      : line(`table.trickTo${who}`, { name: seatOf(held.winner) });
    return held.mark ? line("sm.trickRemoved", { trick: base, card: cardOf(held.mark) }) : base;
  },

  settle(view, next) {
    const r = next.last_round;
    const done = r ? { tricks_taken: r.tricks_taken } : {};
    return { ...view, ...done, scores: next.scores, previous_rounds: next.previous_rounds, last_round: next.last_round, current_player: null };
  },

  /** The rules in force (their numbers, by kind) and the trump order: a tap shows their texts. */
  brief(view, ctx) {
    const rules = view.active_rules
      ? [...view.active_rules]
          .sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.number - b.number)
          .map((r) => `<span class="rule-chip kind-${r.kind}" title="${esc(ctx.lang === "en" ? r.text_en : r.text_de)}">${r.number}</span>`)
          .join("")
      : `<span class="muted">${esc(ctx.t("sm.noRulesShort"))}</span>`;
    // the strongest trumps, as many as a phone's strip holds (four cards: five ran under the log's
    // button); the whole order is one tap away
    const strongest = [];
    let shown = 0;
    for (const group of view.trump_order) {
      if (strongest.length && shown + group.length > 4) break;
      strongest.push(group);
      shown += group.length;
    }
    const order = { ...view, trump_order: strongest };
    const more = strongest.length < view.trump_order.length ? `<span class="gt">› …</span>` : "";
    return (
      `<span class="brief-line"><span class="brief-label">${esc(ctx.t("sm.rulesShort"))}</span> ${rules}</span>` +
      `<span class="brief-line"><span class="brief-label">${esc(ctx.t("jass.trump"))}</span> ${trumpChips(order, ctx)}${more}</span>`
    );
  },

  /** A finished round: its rule cards, then per seat the tricks, what each scoring card gave
   * (from the view's `last_round`, while it is there) and the round's points. */
  roundSummary(view, ctx, r) {
    const n = view.scores.length;
    const head = ["", ...Array.from({ length: n }, (_, s) => ctx.name(s))];
    const signed = (p) => (p > 0 ? `+${p}` : String(p));
    const rows = [[ctx.t("sm.tricksTaken"), ...r.tricks_taken.map(String)]];
    if (r.scoring) {
      for (const sc of r.scoring) {
        const rule = ruleOf(ctx, sc.rule);
        rows.push([raw(`<b>${rule.number}</b> <small>${esc(ctx.lang === "en" ? rule.text_en : rule.text_de)}</small>`), ...sc.points.map(signed)]);
      }
    } else {
      rows.push([ctx.t("sm.effect"), ...r.points.map((p, s) => signed(p - r.tricks_taken[s]))]);
    }
    rows.push({ cls: "total", cells: [ctx.t("table.points"), ...r.points.map(String)] });
    return `<div class="rules compact">${r.rules.map((k) => ruleCard(ctx, k, { cls: "small" })).join("")}</div>` + table(head, rows);
  },

  dealEnd(prev, next, ctx) {
    const r = next.last_round;
    if (!prev || !r || (prev.last_round && prev.last_round.round === r.round)) return null;
    return `<h3>${esc(ctx.t("sm.roundSummary", { n: r.round + 1 }))}</h3>` + this.roundSummary(next, ctx, r);
  },

  tricks(view, ctx) {
    // right after a round, its tricks are in last_round until the next round begins
    const list = view.tricks.length || !view.last_round ? view.tricks : view.last_round.tricks;
    return tricksList(ctx, list, (tr) =>
      trickRow(ctx, tr.cards, { winner: tr.winner, mark: tr.removed }) +
      `<span class="trick-note">${esc(ctx.t("table.wonBy"))} <b>${esc(ctx.name(tr.taker))}</b>` +
      (tr.value !== undefined ? ` · ${esc(ctx.t("sm.value", { n: tr.value }))}` : "") +
      (tr.removed ? ` · ${esc(ctx.cardName(tr.removed))}: ${esc(ctx.t("sm.removed"))}` : "") +
      "</span>",
    );
  },

  scores(view, ctx) {
    const n = view.scores.length;
    const rounds = view.previous_rounds
      .map((r) => {
        const full = view.last_round && view.last_round.round === r.round ? view.last_round : r;
        return `<section class="round"><h3>${esc(ctx.t("sm.roundSummary", { n: r.round + 1 }))}</h3>${this.roundSummary(view, ctx, full)}</section>`;
      })
      .join("");
    const totals = table(["", ...Array.from({ length: n }, (_, s) => ctx.name(s))], [{ cls: "total", cells: [ctx.t("table.total"), ...view.scores.map(String)] }]);
    return rounds + totals;
  },
};
