// Jass (Schieber) on the table: trump and who chose it (and who pushed), Weis and Stöck as they
// are announced, both teams' scores against the target, the last trick, a summary per deal.
// Play runs counter-clockwise: the next player after seat s is s - 1.

import * as cards from "../cards/jass.js";
import * as prefs from "../prefs.js";
import { jasstafel } from "./jasstafel.js";
import { cardOf, esc, line, names, playsFrom, raw, scoreBar, seatOf, table, trickRow, tricksList } from "./common.js";

const TEAMS = [
  [0, 2],
  [1, 3],
];

function trumpName(mode, ctx) {
  if (!mode) return ctx.t("jass.noTrump");
  if (mode === "obe" || mode === "une") return ctx.t(`jass.${mode}`);
  return cards.suitName(ctx.deck, mode, ctx.lang);
}

function trumpIcon(mode, ctx) {
  if (!mode) return "";
  if (mode === "obe") return `<span class="mode-icon" aria-hidden="true">⬇</span>`;
  if (mode === "une") return `<span class="mode-icon" aria-hidden="true">⬆</span>`;
  return cards.suitIcon(ctx.deck, mode, trumpName(mode, ctx));
}

function teamLabel(team, ctx) {
  const members = names(ctx, TEAMS[team]);
  if (ctx.me === null || ctx.me === undefined) return `${ctx.t("jass.team", { n: team + 1 })} (${members})`;
  return `${ctx.t(ctx.me % 2 === team ? "jass.us" : "jass.them")} (${members})`;
}

/** "Spiel 3"; in a game of fixed deals (option deals, a Passe) "Spiel 3 von 12". */
function dealLabel(deal, view, ctx) {
  return view.deals ? ctx.t("dz.dealN", { n: deal + 1, of: view.deals }) : ctx.t("jass.dealN", { n: deal + 1 });
}

/** The trump suit's order in the deck's names: "Under (Puur) > Neun (Nell) > Ass > …". */
function trumpOrder(ctx) {
  const rank = (r) => cards.rankName(r, ctx.deck, ctx.lang);
  return [`${rank("J")} (${ctx.t("jass.puur")})`, `${rank("9")} (${ctx.t("jass.nell")})`, ...["A", "K", "Q", "10", "8", "7", "6"].map(rank)].join(" > ");
}

const SEQUENCE = {
  de: ["", "", "", "Dreiblatt", "Vierblatt", "Fünfblatt", "Sechsblatt", "Siebenblatt", "Achtblatt", "Neunblatt"],
  en: ["", "", "", "three in sequence", "four in sequence", "five in sequence", "six in sequence", "seven in sequence", "eight in sequence", "nine in sequence"],
};
const FOUR = {
  de: { 6: "Sechser", 7: "Siebner", 8: "Achter", 9: "Neuner", 10: "Zehner", J: "Buben", Q: "Damen", K: "Könige", A: "Asse" },
  en: { 6: "Sixes", 7: "Sevens", 8: "Eights", 9: "Nines", 10: "Tens", J: "Jacks", Q: "Queens", K: "Kings", A: "Aces" },
};

/** A Weis in words in the page's language and deck: "Dreiblatt Käse Bube – König (20)". */
export function weisText(w, ctx) {
  if (w.kind === "four") {
    const rank = cards.parse(w.cards[0]).rank;
    return `${ctx.lang === "de" ? "vier" : "four"} ${FOUR[ctx.lang][rank]} (${w.points})`;
  }
  const first = w.cards[0];
  const last = w.cards[w.cards.length - 1];
  const suit = cards.suitName(ctx.deck, first[0], ctx.lang);
  const rankOf = (c) => cards.rankName(cards.parse(c).rank, ctx.deck, ctx.lang);
  return `${SEQUENCE[ctx.lang][w.cards.length] || w.cards.length} ${suit} ${rankOf(first)} – ${rankOf(last)} (${w.points})`;
}

function sameTrick(a, b) {
  return a && b && a.deal === b.deal && a.leader === b.leader && a.cards.join() === b.cards.join();
}

function dealSummary(d, ctx) {
  const cell = (team) => {
    const parts = [`${ctx.t("jass.tricksPts")} ${d.trick_points[team]}`];
    if (d.weis[team]) parts.push(`${ctx.t("jass.weis")} ${d.weis[team]}`);
    if (d.stoeck[team]) parts.push(`${ctx.t("jass.stoeck")} ${d.stoeck[team]}`);
    if (d.match === team) parts.push(`${ctx.t("jass.match")} +100`);
    if (d.voided[team]) parts.push(`${ctx.t("jass.voided")} −${d.voided[team]}`);
    if ((d.multiplier || 1) > 1) parts.push(ctx.t("jass.counts", { n: d.multiplier }));
    return raw(`<b>${d.total[team]}</b><small>${esc(parts.join(" · "))}</small>`);
  };
  const chooser = d.pushed
    ? `${ctx.t("jass.chosenBy", { name: ctx.name(d.chooser) })}; ${ctx.t("jass.pushedBy", { name: ctx.name(d.forehand) })}`
    : ctx.t("jass.chosenBy", { name: ctx.name(d.chooser) });
  return { trump: raw(`${trumpIcon(d.trump, ctx)} ${esc(trumpName(d.trump, ctx))}<small>${esc(chooser)}</small>`), cells: [cell(0), cell(1)] };
}

export default {
  name: "jass",
  cards,
  teams: () => TEAMS,
  step: -1,

  svg(card, ctx, opts = {}) {
    return cards.cardSVG(card, { deck: ctx.deck, lang: ctx.lang, trump: opts.trump });
  },
  back: (ctx) => cards.backSVG(ctx.t("table.trick")),
  cardName: (card, ctx) => cards.cardName(card, ctx.deck, ctx.lang),
  suitName: (suit, ctx) => cards.suitName(ctx.deck, suit, ctx.lang),
  isTrump: (view, card) => view.trump && view.trump.length === 1 && card[0] === view.trump,
  dealKey: (view) => view.deal_number,
  dealLabel: (view, ctx) => dealLabel(view.deal_number, view, ctx),

  trick: (view) => view.trick,

  info(view, ctx) {
    const trump = view.trump
      ? `${trumpIcon(view.trump, ctx)} <b>${esc(trumpName(view.trump, ctx))}</b>` +
        ((view.multiplier || 1) > 1 ? ` <span class="badge multiplier" data-multiplier="${view.multiplier}">${esc(ctx.t("jass.counts", { n: view.multiplier }))}</span>` : "") +
        `<small>${esc(ctx.t("jass.chosenBy", { name: ctx.name(view.trump_chosen_by) }))}` +
        (view.pushed ? `; ${esc(ctx.t("jass.pushedBy", { name: ctx.name(view.forehand) }))}` : "") +
        "</small>"
      : `<span class="muted">${esc(
          view.phase === "over" ? ctx.t("jass.noTrump") : ctx.t("jass.choosing", { name: ctx.name(view.current_player ?? view.forehand) }),
        )}</span>`;
    const teams = [0, 1]
      .map(
        (team) =>
          `<div class="team-score team-${team}${ctx.me !== null && ctx.me % 2 === team ? " mine" : ""}">` +
          `<div class="team-name">${esc(teamLabel(team, ctx))}</div>` +
          // against the target; a game of fixed deals has none (the deals are counted above)
          `<div class="team-points"><b data-score="${team}">${view.scores[team]}</b>${view.target ? ` / ${view.target}` : ""}` +
          `<small> (+${view.deal_points[team]} ${esc(ctx.t("jass.thisDeal"))})</small></div>` +
          (view.target ? scoreBar(view.scores[team], view.target, `team-${team}`) : "") +
          // the player's choice: the score chalked as on a Jasstafel, beside the numbers
          (prefs.get("jassTafel") ? jasstafel(view.scores[team], esc(ctx.t("jass.tafelOf", { team: teamLabel(team, ctx), n: view.scores[team] }))) : "") +
          "</div>",
      )
      .join("");
    const weis = view.weis.length
      ? `<ul class="weis-list">${view.weis.map((w) => `<li><b>${esc(ctx.name(w.seat))}</b>: ${esc(weisText(w, ctx))}</li>`).join("")}</ul>`
      : view.weis_scored_by && view.options.weis !== "off"
        ? `<p class="muted">${esc(ctx.t("jass.noWeisScored"))}</p>`
        : "";
    const stoeck = view.stoeck !== null ? `<p>${esc(ctx.t("jass.stoeckBy", { name: ctx.name(view.stoeck) }))}</p>` : "";
    // announced Weis: the points at once, the cards (above) once the first trick shows them
    const said =
      view.announced && view.announced.length && view.weis_scored_by === null
        ? `<ul class="weis-list announced">${view.announced.map((a) => `<li data-announced="${a.seat}"><b>${esc(ctx.name(a.seat))}</b>: ${esc(ctx.t("jass.announcedPts", { points: a.points.join(" + ") }))}</li>`).join("")}</ul>`
        : "";
    return (
      `<div class="info-row"><span class="label">${esc(dealLabel(view.deal_number, view, ctx))}</span>` +
      `<span>${esc(ctx.t("jass.forehand"))}: ${esc(ctx.name(view.forehand))}</span></div>` +
      `<div class="info-row trump-row" data-trump="${esc(view.trump || "")}"><span class="label">${esc(ctx.t("jass.trump"))}</span><span>${trump}</span></div>` +
      teams +
      (weis || stoeck || said ? `<div class="info-row"><span class="label">${esc(ctx.t("jass.weis"))}</span><div>${said}${weis}${stoeck}</div></div>` : "")
    );
  },

  seatBadges(view, seat, ctx) {
    const out = [`<span class="badge team-${seat % 2}">${esc(ctx.t("jass.team", { n: (seat % 2) + 1 }))}</span>`];
    if (view.forehand === seat && view.phase !== "over") out.push(`<span class="badge">${esc(ctx.t("jass.forehand"))}</span>`);
    if (view.trump_chosen_by === seat) out.push(`<span class="badge trump">${trumpIcon(view.trump, ctx)}</span>`);
    const said = view.weis_scored_by === null && (view.announced || []).find((a) => a.seat === seat);
    if (said) out.push(`<span class="badge weis announced" data-announced-badge="${seat}">${esc(ctx.t("jass.weis"))} ${said.points.join(" + ")}</span>`);
    const weis = view.weis.filter((w) => w.seat === seat);
    if (weis.length) out.push(`<span class="badge weis" title="${esc(weis.map((w) => weisText(w, ctx)).join(", "))}">${esc(ctx.t("jass.weis"))} ${weis.reduce((a, w) => a + w.points, 0)}</span>`);
    if (view.stoeck === seat) out.push(`<span class="badge weis">${esc(ctx.t("jass.stoeck"))}</span>`);
    return out.join("");
  },

  scoreOf: (view, seat) => view.scores[seat % 2],

  interact(view, legal, ctx) {
    const out = { prompt: "", cards: new Map(), choices: [], natural: (card) => card };
    if (!legal.length) return out;
    if (view.phase === "trump" || view.phase === "pushed") {
      out.prompt = ctx.t(view.phase === "pushed" ? "jass.choosePushed" : "jass.chooseTrump");
      // with multipliers, each mode says what it counts (a doubled suit is worth twice its points)
      const factors = view.multipliers || {};
      const counted = legal.some((a) => a !== "push" && (factors[a.slice(6)] || 1) > 1);
      for (const a of legal) {
        if (a === "push") out.choices.push({ action: a, html: `<span class="mode-icon">↪</span> ${esc(ctx.t("jass.push"))}`, cls: "secondary" });
        else {
          const mode = a.slice(6);
          const times = counted ? ` <small class="multiplier">×${factors[mode] || 1}</small>` : "";
          out.choices.push({ action: a, html: `${trumpIcon(mode, ctx)} ${esc(trumpName(mode, ctx))}${times}` });
        }
      }
      return out;
    }
    out.prompt = ctx.t("jass.playCard");
    for (const a of legal) if (a !== "weis" && a !== "stoeck") out.cards.set(a, [a]);
    // stoeck="announce": "Stöck!" is said before the second of trump King and Queen
    if (legal.includes("stoeck")) out.choices.push({ action: "stoeck", html: esc(ctx.t("jass.callStoeck")) });
    if (legal.includes("weis")) {
      // weis="announce": say the Weis before the first card, or play it silently
      const pts = (view.own_weis || []).map((w) => w.points).sort((a, b) => b - a);
      out.prompt = ctx.t("jass.announcePrompt");
      out.choices.push({ action: "weis", html: `${esc(ctx.t("jass.announce", { points: pts.join(" + ") }))}` });
    }
    return out;
  },

  lastTrick(view) {
    const lt = view.last_trick;
    if (!lt) return null;
    return { plays: playsFrom(lt.leader, lt.cards, 4, -1), winner: lt.winner, points: lt.points };
  },

  hold(prev, next) {
    if (!prev || !next.last_trick || sameTrick(prev.last_trick, next.last_trick)) return null;
    const lt = next.last_trick;
    const plays = playsFrom(lt.leader, lt.cards, 4, -1);
    const sameDeal = prev.deal_number === next.deal_number;
    const base = sameDeal ? next : { ...prev, hand: prev.hand.filter((c) => !lt.cards.includes(c)), hand_sizes: prev.hand_sizes.map((n) => Math.max(0, n - 1)) };
    // the side panel shows this trick too (the previous deal's view would still hold the one before)
    return { view: { ...base, trick: plays, last_trick: lt }, winner: lt.winner, points: lt.points, plays };
  },

  events(prev, next, ctx, held) {
    const ev = [];
    if (!prev) return ev;
    const sameDeal = prev.deal_number === next.deal_number;
    if (sameDeal && !prev.pushed && next.pushed) ev.push(line("jass.pushes", { name: seatOf(next.forehand) }));
    if (sameDeal && !prev.trump && next.trump)
      ev.push(line("jass.chose", { name: seatOf(next.trump_chosen_by), trump: (c) => trumpName(next.trump, c) }));
    const before = prev.trick.length;
    const plays = held ? held.plays : next.trick;
    for (const p of plays.slice(before)) ev.push(line("table.played", { name: seatOf(p.seat), card: cardOf(p.card) }));
    const saidBefore = new Set((prev.announced || []).map((a) => a.seat));
    if (sameDeal)
      for (const a of next.announced || [])
        if (!saidBefore.has(a.seat)) ev.push(line("jass.announces", { name: seatOf(a.seat), points: a.points.join(" + ") }));
    if (sameDeal && prev.weis_scored_by === null && next.weis_scored_by !== null)
      for (const w of next.weis) ev.push(line("jass.weisShown", { name: seatOf(w.seat), text: (c) => weisText(w, c) }));
    if (sameDeal && prev.stoeck === null && next.stoeck !== null) ev.push(line("jass.stoeckBy", { name: seatOf(next.stoeck) }));
    if (held) ev.push(line("table.takesPts", { name: seatOf(held.winner), points: held.points }));
    if (next.previous_deals.length > prev.previous_deals.length) {
      const d = next.previous_deals[next.previous_deals.length - 1];
      ev.push(line("jass.dealResult", { n: d.deal + 1, a: (c) => teamLabel(0, c), x: d.total[0], b: (c) => teamLabel(1, c), y: d.total[1] }));
    }
    if (!sameDeal && next.phase !== "over") ev.push(line("table.newDeal", { n: next.deal_number + 1 }));
    return ev;
  },

  /** What the table says of a trick just taken: who took it, and for how much. */
  announce(held, ctx) {
    return line(held.winner === ctx.me ? "table.trickToMePts" : "table.trickToPts", { name: seatOf(held.winner), points: held.points });
  },

  /** The table at a deal's end, drawn from the deal's last view (`view`): every number as the
   * engine's view after the deal (`next`) has it, the deal's points as scored, nobody to move. */
  settle(view, next) {
    const d = next.previous_deals[next.previous_deals.length - 1];
    return { ...view, scores: next.scores, deal_points: d ? d.total : view.deal_points, previous_deals: next.previous_deals, current_player: null };
  },

  /** The line a phone shows above the table: trump (and who chose it). */
  brief(view, ctx) {
    // on a phone the strip is all there is of the side panel in view: what the deal counts (with
    // multipliers) and, in a game of fixed deals, which deal of how many
    const deals = view.deals ? ` <span class="brief-label">${esc(ctx.t("jass.dealShort", { n: Math.min(view.deal_number + 1, view.deals), m: view.deals }))}</span>` : "";
    if (!view.trump) return `<span class="muted">${esc(ctx.t("jass.trump"))}: ${esc(view.phase === "over" ? "–" : ctx.t("jass.noTrump"))}</span>${deals}`;
    const factor = (view.multiplier || 1) > 1 ? ` <span class="brief-marker" data-multiplier="${view.multiplier}">×${view.multiplier}</span>` : "";
    return `<span class="brief-label">${esc(ctx.t("jass.trump"))}</span> ${trumpIcon(view.trump, ctx)} <b>${esc(trumpName(view.trump, ctx))}</b>${factor}${deals}`;
  },

  /** The summary shown when a deal ends (the deal just finished), or null. */
  dealEnd(prev, next, ctx) {
    if (!prev || next.previous_deals.length <= prev.previous_deals.length) return null;
    const d = next.previous_deals[next.previous_deals.length - 1];
    const s = dealSummary(d, ctx);
    return (
      `<h3>${esc(ctx.t("table.dealSummary"))} – ${esc(dealLabel(d.deal, next, ctx))}</h3>` +
      table(["", esc(teamLabel(0, ctx)), esc(teamLabel(1, ctx))], [[s.trump, ...s.cells], [ctx.t("table.total"), String(next.scores[0]), String(next.scores[1])]])
    );
  },

  tricks(view, ctx) {
    return tricksList(ctx, view.tricks, (tr) =>
      trickRow(ctx, playsFrom(tr.leader, tr.cards, 4, -1), { winner: tr.winner }) +
      `<span class="trick-note">${esc(ctx.t("table.wonBy"))} <b>${esc(ctx.name(tr.winner))}</b>: ${tr.points} ${esc(ctx.t("table.points"))}</span>`,
    );
  },

  scores(view, ctx) {
    const run = [0, 0];
    const rows = view.previous_deals.map((d) => {
      const s = dealSummary(d, ctx);
      run[0] += d.total[0];
      run[1] += d.total[1];
      return [String(d.deal + 1) + (d.complete ? "" : "*"), s.trump, ...s.cells, `${run[0]} : ${run[1]}`];
    });
    if (view.phase !== "over" && view.deal_points.some((p) => p))
      rows.push({ cls: "running", cells: [String(view.deal_number + 1), raw(`${trumpIcon(view.trump, ctx)} ${esc(trumpName(view.trump, ctx))}`), String(view.deal_points[0]), String(view.deal_points[1]), `${view.scores[0]} : ${view.scores[1]}`] });
    const note = view.previous_deals.some((d) => !d.complete) ? `<p class="muted">* ${esc(ctx.t("jass.incomplete"))}</p>` : "";
    return (
      table(["#", ctx.t("jass.trump"), teamLabel(0, ctx), teamLabel(1, ctx), ctx.t("table.total")], rows) +
      note +
      `<p class="muted">${esc(view.deals ? ctx.t("jass.deals", { n: view.deals, played: view.deals_played }) : ctx.t("jass.target", { n: view.target }))} · ${esc(ctx.t("jass.orderTrump", { order: trumpOrder(ctx) }))}</p>`
    );
  },

  winnersText(view, ctx) {
    const w = view.winners || [];
    if (w.length === 4) return names(ctx, [0, 1, 2, 3]); // a game of fixed deals, equal totals: a draw
    return names(ctx, TEAMS[w[0] % 2]);
  },
};
