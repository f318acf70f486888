// Stichwahl on the table: the trump board (trump family and the marker, 9 or 1), pearls and
// bonus symbols on every card, each player's bonus cards and point pile, the prize choice and
// the next leader's choice as buttons, a summary per deal.

import * as cards from "../cards/stichwahl.js";
import { esc, line, raw, seatOf, table, trickRow, tricksList } from "./common.js";

function info(ctx, card) {
  return (ctx.data && ctx.data.cards && ctx.data.cards[card]) || null;
}

/** A card's name without its pearls and bonus: "Narwal 2". */
function short(card, ctx) {
  return cards.cardName(card, null, ctx.lang, ctx.t);
}

function familyName(f, ctx) {
  return ctx.t(`sw.family.${f}`);
}

function effectText(effect, ctx) {
  if (effect === "flip") return ctx.t("sw.bonus.flip");
  if (effect && effect.startsWith("trump:")) return ctx.t("sw.bonus.trump", { families: familyName(effect.slice(6), ctx) });
  return effect || "";
}

function board(view, ctx) {
  return (
    `<div class="trump-board" role="img" aria-label="${esc(`${ctx.t("jass.trump")}: ${familyName(view.trump, ctx)}, ${ctx.t(view.marker === 9 ? "sw.high" : "sw.low")}`)}">` +
    cards.FAMILIES.map(
      (f) =>
        `<div class="family${f === view.trump ? " trump" : ""}" data-family="${f}" style="--fam:${cards.COLOURS[f]}">` +
        cards.familyIcon(f, familyName(f, ctx)) +
        `<span>${esc(familyName(f, ctx))}</span>` +
        (f === view.trump ? `<b class="marker" data-marker="${view.marker}">${view.marker}</b>` : "") +
        "</div>",
    ).join("") +
    "</div>" +
    `<p class="marker-text"><b>${esc(familyName(view.trump, ctx))}</b> – ${esc(ctx.t(view.marker === 9 ? "sw.high" : "sw.low"))}</p>`
  );
}

function prizeOwner(tr) {
  const p = tr.plays.find((x) => x.card === tr.prize);
  return p ? p.seat : null;
}

export default {
  name: "stichwahl",
  cards,
  step: 1,

  svg: (card, ctx) => cards.cardSVG(card, { info: info(ctx, card), lang: ctx.lang, t: ctx.t }),
  back: (ctx) => cards.backSVG(ctx.t("table.trick")),
  cardName: (card, ctx) => cards.cardName(card, info(ctx, card), ctx.lang, ctx.t),
  shortName: short,
  suitName: (suit, ctx) => ctx.t(`sw.family.${suit}`),
  isTrump: (view, card) => card[0] === view.trump,
  dealKey: (view) => view.deal_number,
  dealLabel: (view, ctx) => ctx.t("sw.dealN", { n: view.deal_number + 1 }),

  trick: (view) => view.trick,
  trickWinner: (view) => view.trick_winner,

  info(view, ctx) {
    const draws = view.draws && view.draws.length > 1 ? `<small>${esc(ctx.t("sw.drawn", { cards: view.draws.map((c) => short(c, ctx)).join(", ") }))}</small>` : "";
    return (
      `<div class="info-row"><span class="label">${esc(ctx.t("sw.dealN", { n: view.deal_number + 1 }))}</span>` +
      `<span>${esc(ctx.t("sw.target", { n: view.target }))}</span></div>` +
      `<div class="info-row"><span class="label">${esc(ctx.t("sw.trumpBoard"))}</span><div>${board(view, ctx)}${draws}</div></div>` +
      (view.draw_pile ? `<div class="info-row"><span>${esc(ctx.t("sw.drawPile", { n: view.draw_pile }))}</span></div>` : "") +
      `<div class="info-row scores">` +
      view.scores
        .map(
          (s, seat) =>
            `<div class="player-score${seat === ctx.me ? " mine" : ""}"><span>${esc(ctx.name(seat))}</span>` +
            `<b data-score="${seat}">${s}</b><small>+${view.deal_points[seat]} ${esc(ctx.t("sw.dealPoints"))}</small></div>`,
        )
        .join("") +
      "</div>"
    );
  },

  seatBadges(view, seat, ctx) {
    const out = [`<span class="badge pile" title="${esc(ctx.t("sw.pointPile"))}">▮ ${view.point_piles[seat]}</span>`];
    if (view.phase === "first_bonus")
      out.push(`<span class="badge${view.first_bonus_chosen[seat] ? " done" : ""}">${esc(ctx.t(view.first_bonus_chosen[seat] ? "sw.hasChosen" : "sw.choosingFirst"))}</span>`);
    if (view.starter === seat) out.push(`<span class="badge">▶</span>`);
    return out.join("");
  },

  seatExtras(view, seat, ctx) {
    const bonus = view.bonus_cards[seat] || [];
    if (!bonus.length) return "";
    return `<div class="extras" aria-label="${esc(ctx.t("sw.bonusCards"))}"><span class="extras-label">${esc(ctx.t("sw.bonusCards"))}</span><div class="card-row micro">${bonus.map((c) => ctx.card(c, { cls: "micro" })).join("")}</div></div>`;
  },

  scoreOf: (view, seat) => view.scores[seat],

  interact(view, legal, ctx) {
    const out = { prompt: "", cards: new Map(), choices: [], trickActions: new Map(), natural: (card) => (view.phase === "first_bonus" ? `bonus:${card}` : card) };
    if (!legal.length) return out;
    if (view.phase === "first_bonus") {
      out.prompt = ctx.t("sw.chooseFirst");
      for (const a of legal) out.cards.set(a.slice(6), [a]);
    } else if (view.phase === "play") {
      out.prompt = ctx.t("sw.playCard");
      for (const a of legal) {
        if (!a.startsWith("use:")) {
          out.cards.set(a, [a]);
          continue;
        }
        const [, card, fam] = a.split(":");
        out.choices.push({
          action: a,
          html: fam
            ? `${cards.familyIcon(fam, familyName(fam, ctx))} ${esc(ctx.t("sw.useTrump", { card: short(card, ctx), family: familyName(fam, ctx) }))}`
            : `<span class="mode-icon">⇅</span> ${esc(ctx.t("sw.useFlip", { card: short(card, ctx) }))}`,
          cls: "secondary",
        });
      }
    } else if (view.phase === "prize") {
      out.prompt = ctx.t("sw.choosePrize");
      for (const a of legal) {
        const card = a.slice(6);
        out.trickActions.set(card, a);
        const p = view.trick.find((x) => x.card === card);
        const facts = info(ctx, card);
        const what = facts ? [ctx.t(facts.pearls === 1 ? "sw.pearl1" : "sw.pearls", { n: facts.pearls }), cards.bonusText(facts.bonus, ctx.t)] : [];
        const whose = p ? ctx.t("sw.ofPlayer", { name: ctx.name(p.seat) }) : "";
        out.choices.push({ action: a, cls: "prize", html: `<b>${esc(short(card, ctx))}</b><small>${esc([whose, ...what].join(" · "))}</small>` });
      }
    } else if (view.phase === "lead") {
      out.prompt = ctx.t("sw.chooseLead");
      for (const a of legal) {
        const seat = Number(a.slice(5));
        out.choices.push({ action: a, html: esc(seat === ctx.me ? ctx.t("sw.leadMe") : ctx.t("sw.lead", { name: ctx.name(seat) })) });
      }
    }
    return out;
  },

  lastTrick(view) {
    // The trick taken last, also the previous deal's while the next deal's first trick is played.
    const tr = view.last_trick;
    if (!tr) return null;
    return { plays: tr.plays, winner: tr.winner, mark: tr.prize };
  },

  hold(prev, next) {
    if (!prev) return null;
    if (prev.deal_number === next.deal_number) {
      if (next.tricks.length <= prev.tricks.length) return null;
      const tr = next.tricks[next.tricks.length - 1];
      return { view: { ...next, trick: tr.plays, trick_winner: tr.winner }, winner: tr.winner, plays: tr.plays, mark: tr.prize };
    }
    // The deal's last trick, its prize chosen: shown on the table once more before the next deal.
    const lt = next.last_trick;
    if (lt && lt.deal === prev.deal_number)
      return { view: { ...prev, trick: lt.plays, trick_winner: lt.winner, last_trick: lt }, winner: lt.winner, plays: lt.plays, mark: lt.prize };
    if (prev.trick.length && prev.trick_winner !== null && prev.trick_winner !== undefined)
      return { view: prev, winner: prev.trick_winner, plays: prev.trick };
    return null;
  },

  events(prev, next, ctx, held) {
    const ev = [];
    if (!prev) return ev;
    const sameDeal = prev.deal_number === next.deal_number;
    const sh = (c) => (x) => short(c, x);
    if (sameDeal && !prev.first_bonus && next.first_bonus)
      ev.push(line("sw.firstBonusLog", { list: (x) => next.first_bonus.map((c, s) => `${x.name(s)} ${short(c, x)}`).join(", ") }));
    if (sameDeal)
      for (const u of next.used_bonus.slice(prev.used_bonus.length))
        ev.push(line("sw.usedBonus", { name: seatOf(u.seat), card: sh(u.card), effect: (x) => effectText(u.effect, x) }));
    const plays = held ? held.plays : next.trick;
    if (sameDeal || held) for (const p of plays.slice(prev.trick.length)) ev.push(line("table.played", { name: seatOf(p.seat), card: sh(p.card) }));
    if (sameDeal && next.tricks.length > prev.tricks.length) {
      const tr = next.tricks[next.tricks.length - 1];
      const owner = prizeOwner(tr);
      ev.push(line("sw.tookPrize", { winner: seatOf(tr.winner), card: sh(tr.prize), name: owner === null ? "?" : seatOf(owner), taken: tr.taken }));
    }
    if (next.previous_deals.length > prev.previous_deals.length) {
      const d = next.previous_deals[next.previous_deals.length - 1];
      ev.push(line("sw.dealResult", { n: d.deal + 1, list: (x) => d.points.map((p, s) => `${x.name(s)} ${p}`).join(", ") }));
    }
    if (!sameDeal && next.phase !== "over") ev.push(line("sw.newDeal", { n: next.deal_number + 1 }));
    return ev;
  },

  /** Who took the trick, and which card was chosen as the prize (from whom). */
  announce(held, ctx) {
    const owner = held.mark ? (held.plays.find((p) => p.card === held.mark) || {}).seat : undefined;
    const who = held.winner === ctx.me ? "Me" : "";
    if (!held.mark || owner === undefined) return line(`table.trickTo${who}`, { name: seatOf(held.winner) });
    return line(`sw.trickTo${who}`, { name: seatOf(held.winner), card: (x) => short(held.mark, x), owner: seatOf(owner) });
  },

  settle(view, next) {
    const d = next.previous_deals[next.previous_deals.length - 1];
    const done = d ? { deal_points: d.points, point_piles: d.point_piles } : {};
    return { ...view, ...done, scores: next.scores, previous_deals: next.previous_deals, current_player: null };
  },

  brief(view, ctx) {
    return (
      `<span class="brief-label">${esc(ctx.t("jass.trump"))}</span> ${cards.familyIcon(view.trump, familyName(view.trump, ctx))} <b>${esc(familyName(view.trump, ctx))}</b>` +
      ` <span class="brief-marker" data-marker="${view.marker}">${esc(ctx.t(view.marker === 9 ? "sw.highShort" : "sw.lowShort"))}</span>`
    );
  },

  dealEnd(prev, next, ctx) {
    if (!prev || next.previous_deals.length <= prev.previous_deals.length) return null;
    const d = next.previous_deals[next.previous_deals.length - 1];
    return `<h3>${esc(ctx.t("table.dealSummary"))} – ${esc(ctx.t("sw.dealN", { n: d.deal + 1 }))}</h3>` + this.dealTable(next, ctx, [d]);
  },

  dealTable(view, ctx, deals) {
    const n = view.scores.length;
    const head = ["", ...Array.from({ length: n }, (_, s) => ctx.name(s))];
    const rows = [];
    for (const d of deals) {
      rows.push([ctx.t("sw.dealN", { n: d.deal + 1 }), ...d.points.map((p, s) => raw(`<b>${p}</b><small>${d.point_piles[s]} + ${Math.floor(d.unused_bonus[s] / 2)} (${esc(ctx.t("sw.unusedBonus"))}: ${d.unused_bonus[s]})</small>`))]);
    }
    rows.push({ cls: "total", cells: [ctx.t("table.total"), ...view.scores.map(String)] });
    return table(head, rows);
  },

  tricks(view, ctx) {
    return tricksList(ctx, view.tricks, (tr) => {
      const owner = prizeOwner(tr);
      const notes = [
        `${ctx.t("table.wonBy")} <b>${esc(ctx.name(tr.winner))}</b>`,
        `${esc(ctx.t("sw.prizeShort"))}: ${esc(short(tr.prize, ctx))}${owner !== null ? ` (${esc(ctx.name(owner))})` : ""}`,
        `${tr.taken} ${esc(ctx.t("sw.taken"))}${tr.from_draw_pile ? `, ${tr.from_draw_pile} ${esc(ctx.t("sw.fromPile"))}` : ""}`,
        `${cards.familyIcon(tr.trump, familyName(tr.trump, ctx))} ${tr.marker}`,
      ];
      return trickRow(ctx, tr.plays, { winner: tr.winner, mark: tr.prize }) + `<span class="trick-note">${notes.join(" · ")}</span>`;
    });
  },

  scores(view, ctx) {
    const running = view.phase !== "over" ? `<p class="muted">${esc(ctx.t("sw.dealPoints"))}: ${view.deal_points.map((p, s) => `${esc(ctx.name(s))} ${p}`).join(", ")}</p>` : "";
    return this.dealTable(view, ctx, view.previous_deals) + running + `<p class="muted">${esc(ctx.t("sw.target", { n: view.target }))}</p>`;
  },
};
