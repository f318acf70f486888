// Stichling on the table: the four trick places with their led colour, owner (the marker) and
// cards; every player's three score tiles, face up where they have been turned, face down where
// not (your own face-down tiles show you their values); the tile order as six buttons; a card is
// played by picking it, then its place (or "new trick").

import * as cards from "../cards/stichling.js";
import { cardOf, esc, line, raw, seatOf, table, trickRow, tricksList } from "./common.js";

function colourName(c, ctx) {
  return cards.NAMES[ctx.lang][c];
}

/** Tile values from left to right for an order action ("order:231" with tiles 2 4 6 -> 4 6 2). */
export function orderTiles(action, tiles) {
  const sorted = [...tiles].sort((a, b) => a - b);
  return action
    .slice(6)
    .split("")
    .map((r) => sorted[Number(r) - 1]);
}

function tilesOf(view, seat, ctx) {
  const seen = view.tiles_seen[seat] || [];
  const taken = view.taken[seat];
  const current = taken > 0 ? (taken - 1) % 3 : -1;
  const mine = seat === ctx.me && view.tile_order;
  const slots = [0, 1, 2].map((i) => {
    if (i < seen.length) {
      const label = `${ctx.t("sl.tile")} ${seen[i]}${i === current ? ` (${ctx.t("sl.faceUp")})` : ""}`;
      return `<span class="tile${i === current ? " current" : ""}" data-tile="${seen[i]}">${cards.tileSVG(seen[i], { faceUp: true, active: i === current, label })}</span>`;
    }
    if (mine) return `<span class="tile secret" data-tile="${view.tile_order[i]}">${cards.tileSVG(view.tile_order[i], { faceUp: true, label: `${ctx.t("sl.tile")} ${view.tile_order[i]}` })}</span>`;
    return `<span class="tile down">${cards.tileSVG("", { faceUp: false, label: ctx.t("sl.tile") })}</span>`;
  });
  return `<div class="tiles" aria-label="${esc(ctx.t("sl.tile"))}">${slots.join("")}</div>`;
}

export default {
  name: "stichling",
  cards,
  step: 1,

  svg: (card, ctx) => cards.cardSVG(card, { lang: ctx.lang }),
  back: (ctx) => cards.backSVG(ctx.t("table.trick")),
  cardName: (card, ctx) => cards.cardName(card, ctx.lang),
  suitName: (suit, ctx) => colourName(suit, ctx),
  dealKey: (view) => view.deal_number,
  dealLabel: (view, ctx) => ctx.t("sl.deal", { n: view.deal_number + 1, m: view.deals }),

  /** The four trick places instead of one trick. */
  center(view, ctx, { targets = null, held = null } = {}) {
    return (
      `<div class="places">` +
      view.places
        .map((p, i) => {
          const n = i + 1;
          const target = targets && targets.has(String(n)) ? " target" : "";
          const taking = held && held.place === n ? " taking" : "";
          if (!p)
            return (
              `<div class="place free${target}" data-place="${n}"><div class="place-head"><b>${esc(ctx.t("sl.place", { n }))}</b>` +
              `<span class="muted">${esc(ctx.t("sl.free"))}</span></div><div class="place-cards"></div></div>`
            );
          return (
            `<div class="place${target}${taking}" data-place="${n}" data-led="${p.led}" style="--led:${cards.INK[p.led]}">` +
            `<div class="place-head"><b>${esc(ctx.t("sl.place", { n }))}</b><span class="led-dot" aria-label="${esc(colourName(p.led, ctx))}"></span>` +
            `<span class="owner" data-owner="${p.owner}">${esc(ctx.t("sl.owner", { name: ctx.name(p.owner) }))}</span></div>` +
            `<div class="place-cards">` +
            p.cards
              .map(
                (c) =>
                  `<figure class="played${c.card === p.best ? " winner" : ""}" data-seat="${c.seat}">${ctx.card(c.card, { cls: "mini" })}<figcaption>${esc(ctx.name(c.seat))}</figcaption></figure>`,
              )
              .join("") +
            // the places still open in this trick: it is full (and taken) at four cards
            `<span class="slot" aria-hidden="true"></span>`.repeat(Math.max(0, 4 - p.cards.length)) +
            "</div></div>"
          );
        })
        .join("") +
      "</div>"
    );
  },

  info(view, ctx) {
    const order = view.tile_order
      ? `<div class="info-row"><span class="label">${esc(ctx.t("sl.yourOrder"))}</span><div class="tiles">${view.tile_order.map((v) => cards.tileSVG(v, { label: String(v) })).join("")}</div></div>`
      : "";
    return (
      `<div class="info-row"><span class="label">${esc(ctx.t("sl.deal", { n: view.deal_number + 1, m: view.deals }))}</span>` +
      `<span>${esc(ctx.t("sl.tiles", { tiles: view.tiles.join(", ") }))}</span></div>` +
      order +
      `<div class="info-row scores">` +
      view.scores
        .map(
          (s, seat) =>
            `<div class="player-score${seat === ctx.me ? " mine" : ""}"><span>${esc(ctx.name(seat))}</span><b data-score="${seat}">${s}</b>` +
            `<small>${esc(ctx.t("sl.taken"))}: ${view.taken[seat]}${view.face_up[seat] ? ` · ${esc(ctx.t("sl.faceUp"))} ${view.face_up[seat]}` : ""}</small></div>`,
        )
        .join("") +
      "</div>"
    );
  },

  seatBadges(view, seat, ctx) {
    // while the tiles are laid no trick is taken yet: who has laid them takes the tricks' place
    const out = view.phase === "order" ? [] : [`<span class="badge">${esc(ctx.t("sl.taken"))}: ${view.taken[seat]}</span>`];
    if (view.phase === "order")
      out.push(`<span class="badge${view.tiles_laid[seat] ? " done" : ""}">${esc(ctx.t(view.tiles_laid[seat] ? "sl.tilesLaid" : "sl.tilesNotLaid"))}</span>`);
    if (view.starter === seat) out.push(`<span class="badge">▶</span>`);
    return out.join("");
  },

  seatExtras: (view, seat, ctx) => tilesOf(view, seat, ctx),

  scoreOf: (view, seat) => view.scores[seat],

  interact(view, legal, ctx, selected = null) {
    const out = { prompt: "", cards: new Map(), choices: [], select: true, natural: () => null };
    if (!legal.length) return out;
    if (view.phase === "order") {
      out.prompt = ctx.t("sl.chooseOrder");
      for (const a of legal) {
        const tiles = orderTiles(a, view.tiles);
        out.choices.push({
          action: a,
          html: `<span class="tiles inline">${tiles.map((v) => cards.tileSVG(v, { label: String(v) })).join("")}</span><span class="sr-only">${esc(ctx.t("sl.orderLabel", { tiles: tiles.join(" ") }))}</span>`,
        });
      }
      return out;
    }
    out.prompt = ctx.t("sl.playCard");
    for (const a of legal) {
      const [card] = a.split(">");
      if (!out.cards.has(card)) out.cards.set(card, []);
      out.cards.get(card).push(a);
    }
    if (selected) {
      const mine = out.cards.get(selected) || [];
      out.prompt = ctx.t("sl.pickTarget", { card: ctx.cardName(selected) });
      out.targets = new Map(mine.map((a) => [a.split(">")[1], a]));
      out.placeAction = (n) => `${selected}>${n}`;
      for (const a of mine) {
        const where = a.split(">")[1];
        const p = where === "new" ? null : view.places[Number(where) - 1];
        const off = p && p.led !== selected[0];
        out.choices.push({
          action: a,
          html: esc(where === "new" ? ctx.t("sl.newTrick") : ctx.t(off ? "sl.ontoOff" : "sl.onto", { n: where })),
        });
      }
      out.choices.push({ action: null, cancel: true, html: esc(ctx.t("table.cancel")), cls: "secondary" });
    }
    return out;
  },

  lastTrick(view) {
    // The trick taken last, also the previous deal's until a trick of the new deal is taken.
    const tr = view.last_trick;
    if (!tr) return null;
    const best = tr.cards.find((c) => c.seat === tr.winner && c.card[0] === tr.led);
    return { plays: tr.cards, winner: tr.winner, mark: best ? best.card : null, place: tr.place };
  },

  hold(prev, next) {
    const tr = next.last_trick;
    const was = prev && prev.last_trick;
    if (!prev || !tr || (was && was.deal === tr.deal && JSON.stringify(was.cards) === JSON.stringify(tr.cards))) return null;
    // A trick just taken: on its place once more. The deal's last one is shown on the deal's table,
    // whose hands are empty by then.
    const sameDeal = prev.deal_number === next.deal_number;
    const base = sameDeal ? next : { ...prev, hand: [], hand_sizes: prev.hand_sizes.map(() => 0), last_trick: tr };
    const places = base.places.slice();
    places[tr.place - 1] = { place: tr.place, led: tr.led, owner: tr.winner, best: null, cards: tr.cards };
    return { view: { ...base, places }, winner: tr.winner, plays: tr.cards, place: tr.place, tile: tr.tile };
  },

  events(prev, next, ctx, held) {
    const ev = [];
    const took = () => line("sl.tookTrick", { name: seatOf(held.winner), n: held.place, tile: held.tile });
    if (!prev || prev.deal_number !== next.deal_number) {
      if (held) ev.push(took());
      if (prev && next.phase !== "over") ev.push(line("sl.newDeal", { n: next.deal_number + 1 }));
      return ev;
    }
    const shown = held ? held.view.places : next.places;
    shown.forEach((p, i) => {
      if (!p) return;
      const before = prev.places[i] && prev.places[i].led === p.led ? prev.places[i].cards.length : 0;
      p.cards.slice(before).forEach((c, k) => {
        const key = before === 0 && k === 0 ? "sl.opened" : "sl.placed";
        ev.push(line(key, { name: seatOf(c.seat), card: cardOf(c.card), n: i + 1 }));
      });
    });
    if (held) ev.push(took());
    return ev;
  },

  /** Who took the trick on which place, and the score tile it turned up. */
  announce(held, ctx) {
    return line(held.winner === ctx.me ? "sl.trickToMe" : "sl.trickTo", { name: seatOf(held.winner), n: held.place, tile: held.tile });
  },

  settle(view, next) {
    const d = next.previous_deals[next.previous_deals.length - 1];
    const done = d ? { taken: d.taken, face_up: d.face_up } : {};
    return { ...view, ...done, scores: next.scores, previous_deals: next.previous_deals, current_player: null };
  },

  brief(view, ctx) {
    // once laid, the player's own order says the deal's tiles too (the whole strip fits a phone)
    const tiles = view.tile_order
      ? `${esc(ctx.t("sl.yourTilesShort"))} <b>${view.tile_order.join(" ")}</b>`
      : esc(ctx.t("sl.tilesShort", { tiles: view.tiles.join(" ") }));
    return `<span class="brief-label">${esc(ctx.t("sl.dealShort", { n: view.deal_number + 1, m: view.deals }))}</span> ${tiles}`;
  },

  dealEnd(prev, next, ctx) {
    if (!prev || next.previous_deals.length <= prev.previous_deals.length) return null;
    const d = next.previous_deals[next.previous_deals.length - 1];
    return `<h3>${esc(ctx.t("table.dealSummary"))} – ${esc(ctx.t("sl.deal", { n: d.deal + 1, m: next.deals }))}</h3>` + this.dealTable(next, ctx, [d]);
  },

  dealTable(view, ctx, deals) {
    const n = view.scores.length;
    const rows = deals.map((d) => [
      ctx.t("sl.deal", { n: d.deal + 1, m: view.deals }),
      ...d.points.map((p, s) => raw(`<b>${p}</b><small>${esc(ctx.t("sl.taken"))} ${d.taken[s]}, ${esc(ctx.t("sl.tile"))} ${d.face_up[s] ?? "–"}</small>`)),
    ]);
    rows.push({ cls: "total", cells: [ctx.t("table.total"), ...view.scores.map(String)] });
    return table(["", ...Array.from({ length: n }, (_, s) => ctx.name(s))], rows);
  },

  tricks(view, ctx) {
    const list = tricksList(ctx, view.tricks, (tr) => {
      const best = tr.cards.find((c) => c.seat === tr.owner && c.card[0] === tr.led);
      return (
        trickRow(ctx, tr.cards, { winner: tr.owner, mark: best ? best.card : null }) +
        `<span class="trick-note">${esc(ctx.t("sl.place", { n: tr.place }))} · ${esc(ctx.t("table.wonBy"))} <b>${esc(ctx.name(tr.owner))}</b></span>`
      );
    });
    const discarded = view.discarded && view.discarded.length
      ? `<h3>${esc(ctx.t("sl.discarded"))}</h3>` + view.discarded.map((tr) => trickRow(ctx, tr.cards)).join("")
      : "";
    return list + discarded;
  },

  scores(view, ctx) {
    return this.dealTable(view, ctx, view.previous_deals);
  },
};
