// Coiffeur on the table: two teams, the mode announced (and who pushed), the mode of the trick in
// progress under Slalom and Guschti, and both sheets: every row with its multiplier, the mode
// played there and what it scored. Only the announcing team writes; the higher total wins.
// Play runs counter-clockwise: the next player after seat s is s - 1.

import * as cards from "../cards/jass.js";
import { cardOf, esc, line, names, playsFrom, raw, seatOf, table, trickRow, tricksList } from "./common.js";

const TEAMS = [
  [0, 2],
  [1, 3],
];

function modeName(mode, ctx) {
  if (!mode) return "–";
  if (mode === "obe" || mode === "une") return ctx.t(`jass.${mode}`);
  if (mode.includes("-")) {
    const [kind, first] = mode.split("-");
    return ctx.t(`cf.${kind}`, { first: ctx.t(`jass.${first}`) });
  }
  if (mode === "slalom" || mode === "guschti") return ctx.t(`cf.${mode}Row`);
  if (mode === "joker") return ctx.t("cf.joker");
  return cards.suitName(ctx.deck, mode, ctx.lang);
}

function modeIcon(mode, ctx) {
  if (!mode) return "";
  if (mode === "obe") return `<span class="mode-icon" aria-hidden="true">⬇</span>`;
  if (mode === "une") return `<span class="mode-icon" aria-hidden="true">⬆</span>`;
  if (mode.startsWith("slalom")) return `<span class="mode-icon" aria-hidden="true">⇅</span>`;
  if (mode.startsWith("guschti")) return `<span class="mode-icon" aria-hidden="true">⇵</span>`;
  if (mode === "joker") return `<span class="mode-icon" aria-hidden="true">★</span>`;
  return cards.suitIcon(ctx.deck, mode, modeName(mode, ctx));
}

function teamLabel(team, ctx) {
  const members = names(ctx, TEAMS[team]);
  if (ctx.me === null || ctx.me === undefined) return `${ctx.t("jass.team", { n: team + 1 })} (${members})`;
  return `${ctx.t(ctx.me % 2 === team ? "jass.us" : "jass.them")} (${members})`;
}

function lastTrickOf(view) {
  if (view.tricks.length) return { ...view.tricks[view.tricks.length - 1], deal: view.deal_number };
  const d = view.previous_deals[view.previous_deals.length - 1];
  return d && d.last_trick ? { ...d.last_trick, deal: d.deal } : null;
}

/** Both sheets as one table: row (kind), multiplier, and per team what was written there. */
function sheetTable(view, ctx) {
  const head = [ctx.t("cf.row"), esc(teamLabel(0, ctx)), esc(teamLabel(1, ctx))];
  const rows = view.sheets[0].rows.map((row, r) => {
    const cell = (team) => {
      const c = view.sheets[team].rows[r];
      if (c.points === null) return raw(`<span class="muted" data-open="${team}">–</span>`);
      const shown = row.kind === c.mode ? "" : `${modeIcon(c.mode, ctx)} `;
      return raw(`${shown}<b data-row-score="${team}:${r}">${c.score}</b><small>${c.points} × ${row.multiplier}</small>`);
    };
    return [raw(`${modeIcon(row.kind, ctx)} ${esc(modeName(row.kind, ctx))} <small class="multiplier">×${row.multiplier}</small>`), cell(0), cell(1)];
  });
  rows.push({ cls: "total", cells: [ctx.t("table.total"), String(view.sheets[0].total), String(view.sheets[1].total)] });
  return `<div class="coiffeur-sheets">${table(head, rows)}</div>`;
}

/** Who pushed this deal, in order ("Anna, Ben"); views from before push="around": the forehand. */
function pushers(view, ctx) {
  return (view.pushed_by || [view.forehand]).map((s) => ctx.name(s)).join(", ");
}

/** What the seat asked to announce is told: push to the partner (the Schieber's way), or on round
 * the table (Swisslos: push="around"), where the first asked must announce once all have pushed. */
function choosePrompt(view, legal, ctx) {
  const around = view.options && view.options.push === "around";
  if (!around) return ctx.t(view.phase === "pushed" ? "cf.choosePushed" : "cf.choose");
  if (!legal.includes("push")) return ctx.t("cf.chooseForced");
  if (view.phase === "pushed") return ctx.t("cf.choosePushedAround", { name: ctx.name(view.pushed_by[view.pushed_by.length - 1]) });
  return ctx.t("cf.chooseAround");
}

export default {
  name: "coiffeur",
  cards,
  teams: () => TEAMS,
  step: -1,

  svg(card, ctx, opts = {}) {
    return cards.cardSVG(card, { deck: ctx.deck, lang: ctx.lang, trump: opts.trump });
  },
  back: (ctx) => cards.backSVG(ctx.t("table.trick")),
  cardName: (card, ctx) => cards.cardName(card, ctx.deck, ctx.lang),
  suitName: (suit, ctx) => cards.suitName(ctx.deck, suit, ctx.lang),
  isTrump: (view, card) => !!view.trick_mode && view.trick_mode.length === 1 && card[0] === view.trick_mode,
  dealKey: (view) => view.deal_number,
  dealLabel: (view, ctx) => ctx.t("dz.dealN", { n: view.deal_number + 1, of: view.deals }),

  trick: (view) => view.trick,

  info(view, ctx) {
    const mode = view.mode
      ? `${modeIcon(view.mode, ctx)} <b>${esc(modeName(view.mode, ctx))}</b>` +
        `<small>${esc(ctx.t("jass.chosenBy", { name: ctx.name(view.chooser) }))}` +
        (view.pushed ? `; ${esc(ctx.t("jass.pushedBy", { name: pushers(view, ctx) }))}` : "") +
        "</small>" +
        (view.trick_mode && view.trick_mode !== view.mode ? `<small>${esc(ctx.t("cf.thisTrick", { mode: modeName(view.trick_mode, ctx) }))}</small>` : "")
      : `<span class="muted">${esc(view.phase === "over" ? "–" : ctx.t("jass.choosing", { name: ctx.name(view.current_player ?? view.forehand) }))}</span>`;
    const teams = [0, 1]
      .map(
        (team) =>
          `<div class="team-score team-${team}${ctx.me !== null && ctx.me % 2 === team ? " mine" : ""}">` +
          `<div class="team-name">${esc(teamLabel(team, ctx))}</div>` +
          `<div class="team-points"><b data-score="${team}">${view.scores[team]}</b>` +
          `<small> (+${view.points[team]} ${esc(ctx.t("jass.thisDeal"))})</small></div></div>`,
      )
      .join("");
    return (
      `<div class="info-row"><span class="label">${esc(ctx.t("dz.dealN", { n: view.deal_number + 1, of: view.deals }))}</span>` +
      `<span>${esc(ctx.t("jass.forehand"))}: ${esc(ctx.name(view.forehand))}</span></div>` +
      `<div class="info-row trump-row" data-trump="${esc(view.mode || "")}"><span class="label">${esc(ctx.t("cf.mode"))}</span><span>${mode}</span></div>` +
      teams +
      sheetTable(view, ctx)
    );
  },

  seatBadges(view, seat, ctx) {
    const out = [`<span class="badge team-${seat % 2}">${esc(ctx.t("jass.team", { n: (seat % 2) + 1 }))}</span>`];
    if (view.forehand === seat && view.phase !== "over") out.push(`<span class="badge">${esc(ctx.t("jass.forehand"))}</span>`);
    if (view.chooser === seat) out.push(`<span class="badge trump">${modeIcon(view.mode, ctx)}</span>`);
    return out.join("");
  },

  scoreOf: (view, seat) => view.scores[seat % 2],

  interact(view, legal, ctx) {
    const out = { prompt: "", cards: new Map(), choices: [], natural: (card) => card };
    if (!legal.length) return out;
    if (view.phase === "trump" || view.phase === "pushed") {
      out.prompt = choosePrompt(view, legal, ctx);
      const sheet = view.sheets[view.current_player % 2];
      for (const a of legal) {
        if (a === "push") {
          out.choices.push({ action: a, html: `<span class="mode-icon">↪</span> ${esc(ctx.t("jass.push"))}`, cls: "secondary mode" });
          continue;
        }
        const mode = a.slice(6);
        // the row the mode would go in: its own while open, else the first open joker row
        const fits = (k) => k === mode || mode.startsWith(`${k}-`);
        const rows = sheet.rows.filter((r) => r.points === null);
        const row = rows.find((r) => r.kind !== "joker" && fits(r.kind)) || rows.find((r) => r.kind === "joker");
        const times = row ? ` <small class="multiplier">×${row.multiplier}</small>` : "";
        out.choices.push({ action: a, cls: "mode", html: `${modeIcon(mode, ctx)} ${esc(modeName(mode, ctx))}${times}` });
      }
      return out;
    }
    out.prompt = ctx.t("jass.playCard");
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
    if (sameDeal && next.pushed) {
      // who pushed, in order (push="around": up to every seat asked; views before the option: the forehand)
      const by = next.pushed_by || [next.forehand];
      const before = prev.pushed ? (prev.pushed_by || [prev.forehand]).length : 0;
      for (const s of by.slice(before)) ev.push(line("jass.pushes", { name: seatOf(s) }));
    }
    if (sameDeal && !prev.mode && next.mode) ev.push(line("jass.chose", { name: seatOf(next.chooser), trump: (c) => modeName(next.mode, c) }));
    const plays = held ? held.plays : next.trick;
    for (const p of plays.slice(prev.trick.length)) ev.push(line("table.played", { name: seatOf(p.seat), card: cardOf(p.card) }));
    if (held) ev.push(line("table.takesPts", { name: seatOf(held.winner), points: held.points }));
    if (next.previous_deals.length > prev.previous_deals.length) {
      const d = next.previous_deals[next.previous_deals.length - 1];
      const mult = next.sheets[d.team].rows[d.row].multiplier;
      ev.push(line("cf.dealResult", { n: d.deal + 1, team: (c) => teamLabel(d.team, c), mode: (c) => modeName(d.mode, c), points: d.written, times: mult, score: d.score }));
    }
    if (!sameDeal && next.phase !== "over") ev.push(line("table.newDeal", { n: next.deal_number + 1 }));
    return ev;
  },

  announce(held, ctx) {
    return line(held.winner === ctx.me ? "table.trickToMePts" : "table.trickToPts", { name: seatOf(held.winner), points: held.points });
  },

  settle(view, next) {
    return { ...view, scores: next.scores, sheets: next.sheets, previous_deals: next.previous_deals, current_player: null };
  },

  brief(view, ctx) {
    if (!view.mode) return `<span class="muted">${esc(ctx.t("cf.mode"))}: –</span>`;
    return `<span class="brief-label">${esc(ctx.t("cf.mode"))}</span> ${modeIcon(view.mode, ctx)} <b>${esc(modeName(view.mode, ctx))}</b>`;
  },

  dealEnd(prev, next, ctx) {
    if (!prev || next.previous_deals.length <= prev.previous_deals.length) return null;
    const d = next.previous_deals[next.previous_deals.length - 1];
    const mult = next.sheets[d.team].rows[d.row].multiplier;
    return (
      `<h3>${esc(ctx.t("table.dealSummary"))} – ${esc(ctx.t("dz.dealN", { n: d.deal + 1, of: next.deals }))}</h3>` +
      `<p>${modeIcon(d.mode, ctx)} ${esc(ctx.t("cf.written", { team: teamLabel(d.team, ctx), mode: modeName(d.mode, ctx), points: d.written, times: mult, score: d.score }))}</p>` +
      sheetTable(next, ctx)
    );
  },

  tricks(view, ctx) {
    return tricksList(ctx, view.tricks, (tr) =>
      trickRow(ctx, playsFrom(tr.leader, tr.cards, 4, -1), { winner: tr.winner }) +
      `<span class="trick-note">${esc(ctx.t("table.wonBy"))} <b>${esc(ctx.name(tr.winner))}</b>: ${tr.points} ${esc(ctx.t("table.points"))}</span>`,
    );
  },

  scores(view, ctx) {
    return sheetTable(view, ctx) + `<p class="muted">${esc(ctx.t("cf.rule"))}</p>`;
  },

  winnersText(view, ctx) {
    const w = view.winners || [];
    if (w.length === 4) return names(ctx, [0, 1, 2, 3]);
    return names(ctx, TEAMS[w[0] % 2]);
  },
};
