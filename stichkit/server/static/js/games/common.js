// Pieces every game's renderer uses: card elements, small card rows, score tables, names.
//
// A renderer gets a `ctx` from the table: {t, has(key), lang, me, n, name(seat), pos(seat), card(card, opts),
// back(), cardName(card), data (the catalog's game data), deck (Jass)}. It only ever reads views:
// what it draws is what the seat may see.

import { esc } from "../cards/common.js";

export { esc };

/**
 * A line of the log: a text's key and its params, written out in the page's language only when
 * shown, so the whole log follows a change of language (or of the Jass deck). A param may be a
 * function of ctx (a player's name, a card's name) or another line.
 */
export const line = (key, params = {}) => ({ key, params });
export const seatOf = (seat) => (ctx) => ctx.name(seat);
export const cardOf = (card) => (ctx) => ctx.cardName(card);

export function lineText(entry, ctx) {
  if (typeof entry === "string") return entry;
  const out = {};
  for (const [k, v] of Object.entries(entry.params || {}))
    out[k] = typeof v === "function" ? v(ctx) : v && typeof v === "object" && v.key ? lineText(v, ctx) : v;
  return ctx.t(entry.key, out);
}

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

/**
 * An illegal move's reason in the page's language, from the engine's `reason_code` and
 * `reason_params` (docs/api.md lists them); null for a code without a text here (the caller then
 * shows the engine's own message). A game's own text (`err.<game>.<code>`) comes first, for words
 * its players say differently (Jass players "angeben" where the other games' rules "bedienen").
 */
export function reasonText(game, ctx, code, params) {
  const own = `err.${game.name}.${code}`;
  const key = code && ctx.has(own) ? own : `err.${code}`;
  if (!code || !ctx.has(key)) return null;
  // a list of cards reads best by short names (Stichwahl's full names hold commas of their own)
  const card = (c) => (typeof c !== "string" ? String(c) : game.shortName ? game.shortName(c, ctx) : ctx.cardName(c));
  const suit = (s) => (game.suitName ? game.suitName(s, ctx) : s) || s;
  const seat = (s) => (Number.isInteger(s) && s >= 0 && s < ctx.n ? ctx.name(s) : String(s));
  const out = {};
  for (const [k, v] of Object.entries(params || {})) {
    if (k === "card" || k === "best") out[k] = card(v);
    else if (k === "cards" || k === "trumps") out[k] = Array.isArray(v) ? v.map(card).join(", ") : String(v);
    else if (k === "suit" || k === "led") out[k] = suit(v);
    else if ((k === "seat" || k === "turn") && code !== "no_such_seat") out[k] = seat(v);
    else if (k === "expected") out[k] = ctx.has(`err.expected.${v}`) ? ctx.t(`err.expected.${v}`) : String(v);
    else out[k] = Array.isArray(v) ? v.join(", ") : String(v);
  }
  return ctx.t(key, out);
}
