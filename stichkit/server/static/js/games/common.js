// Pieces every game's renderer uses: card elements, small card rows, score tables, names.
//
// A renderer gets a `ctx` from the table: {t, lang, me, n, name(seat), pos(seat), card(card, opts),
// back(), cardName(card), data (the catalog's game data), deck (Jass)}. It only ever reads views:
// what it draws is what the seat may see.

import { esc } from "../cards/common.js";

export { esc };

/** A row of small cards, e.g. a trick in a list, bonus cards, shown cards. */
export function cardRow(ctx, cards, { cls = "mini", label = "" } = {}) {
  if (!cards || !cards.length) return "";
  return (
    `<div class="card-row ${cls}"${label ? ` aria-label="${esc(label)}"` : ""}>` +
    cards.map((c) => (c === null ? ctx.back({ cls }) : ctx.card(c, { cls }))).join("") +
    "</div>"
  );
}

/** A trick as a row of small cards, each with the player's name under it. */
export function trickRow(ctx, plays, { winner = null, mark = null } = {}) {
  return (
    `<div class="trick-row">` +
    plays
      .map(
        (p) =>
          `<figure class="played${p.seat === winner ? " winner" : ""}${mark && p.card === mark ? " marked" : ""}">` +
          (p.card ? ctx.card(p.card, { cls: "mini" }) : ctx.back({ cls: "mini" })) +
          `<figcaption>${esc(ctx.name(p.seat))}</figcaption></figure>`,
      )
      .join("") +
    "</div>"
  );
}

/** A table of numbers: head cells, rows of cells (strings are escaped unless wrapped by raw()). */
export function table(head, rows, { cls = "" } = {}) {
  const cell = (c, tag) => `<${tag}${c && c.cls ? ` class="${c.cls}"` : ""}>${c && c.html !== undefined ? c.html : esc(c ?? "")}</${tag}>`;
  return (
    `<table class="score-table ${cls}"><thead><tr>${head.map((h) => cell(h, "th")).join("")}</tr></thead>` +
    `<tbody>${rows.map((r) => `<tr${r.cls ? ` class="${r.cls}"` : ""}>${(r.cells || r).map((c) => cell(c, "td")).join("")}</tr>`).join("")}</tbody></table>`
  );
}

export const raw = (html, cls) => ({ html, cls });

/** Names of the given seats joined with "und"/"and". */
export function names(ctx, seats) {
  const list = seats.map((s) => ctx.name(s));
  if (list.length <= 1) return list.join("");
  return list.slice(0, -1).join(", ") + ctx.t("and") + list[list.length - 1];
}

/** The plays of a trick as [{seat, card}] from a leader, its cards and the seat order step. */
export function playsFrom(leader, cards, n, step = 1) {
  return cards.map((card, i) => ({ seat: (((leader + step * i) % n) + n) % n, card }));
}

/** The deals list dialog: one section per finished trick. */
export function tricksList(ctx, tricks, describe) {
  if (!tricks.length) return `<p class="muted">${esc(ctx.t("table.noTricks"))}</p>`;
  return (
    `<ol class="tricks-list">` +
    tricks.map((tr, i) => `<li><span class="trick-no">${i + 1}</span>${describe(tr, i)}</li>`).join("") +
    "</ol>"
  );
}

/** A bar that shows a score against a target. */
export function scoreBar(value, target, cls = "") {
  const pct = Math.max(0, Math.min(100, (100 * value) / Math.max(1, target)));
  return `<div class="bar ${cls}" role="progressbar" aria-valuemin="0" aria-valuemax="${target}" aria-valuenow="${value}"><span style="width:${pct.toFixed(1)}%"></span></div>`;
}
