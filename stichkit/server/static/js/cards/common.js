// What every card face shares: the frame, the corner indices, the sprite of symbols.
//
// Symbols are drawn once as <symbol> elements in one hidden <svg> and placed with <use>, so a
// hand of fifteen cards is fifteen small SVGs, not fifteen copies of every drawing.

export const W = 100;
export const H = 150;

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ESCAPES[c]);

const symbols = new Map(); // id -> <symbol> markup
let sprite = null;

/** Define a symbol (a 100 x 100 drawing unless viewBox says otherwise) once, by id. It goes into
 * the page's sprite (for icons in text) and into every card image that uses it. */
export function defineSymbol(id, body, viewBox = "0 0 100 100") {
  if (symbols.has(id)) return id;
  symbols.set(id, `<symbol id="${id}" viewBox="${viewBox}">${body}</symbol>`);
  if (typeof document === "undefined") return id;
  if (!sprite) {
    sprite = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    sprite.setAttribute("aria-hidden", "true");
    sprite.setAttribute("id", "card-sprite");
    sprite.style.cssText = "position:absolute;width:0;height:0;overflow:hidden";
    sprite.innerHTML = "<defs></defs>";
    document.body.prepend(sprite);
  }
  const sym = document.createElementNS("http://www.w3.org/2000/svg", "symbol");
  sym.setAttribute("id", id);
  sym.setAttribute("viewBox", viewBox);
  sym.innerHTML = body;
  sprite.firstChild.appendChild(sym);
  return id;
}

/** Place a defined symbol centred on (cx, cy) with the given size; `flip` turns it upside down. */
export function use(id, cx, cy, size, flip = false) {
  const x = cx - size / 2;
  const y = cy - size / 2;
  const t = flip ? ` transform="rotate(180 ${cx} ${cy})"` : "";
  return `<use href="#${id}" x="${x}" y="${y}" width="${size}" height="${size}"${t}/>`;
}

/** A corner index: the rank in big letters and the suit symbol under it, top left and (turned) bottom right. */
export function corners(rank, colour, symbolId, { font = 24, symbol = 17, y = 25 } = {}) {
  const long = String(rank).length;
  const size = long > 3 ? font * 0.62 : long > 2 ? font * 0.7 : long > 1 ? font * 0.86 : font;
  const one = (extra) =>
    `<g${extra}><text x="12" y="${y}" text-anchor="middle" font-size="${size}" font-weight="700" ` +
    `font-family="Georgia, 'DejaVu Serif', serif" fill="${colour}"` +
    `${long > 2 ? ' textLength="20" lengthAdjust="spacingAndGlyphs"' : ""}>${esc(rank)}</text>` +
    (symbolId ? use(symbolId, 12, y + 3 + symbol / 2, symbol) : "") +
    "</g>";
  return one("") + one(` transform="rotate(180 ${W / 2} ${H / 2})"`);
}

/** The whole card: a rounded white card with `body` drawn on it. */
export function cardSVG(body, { label = "", bg = "#fffdf6", edge = "#8a8170", cls = "" } = {}) {
  return (
    `<svg class="card-svg ${cls}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(label)}" ` +
    `xmlns="http://www.w3.org/2000/svg">` +
    `<rect x="1" y="1" width="${W - 2}" height="${H - 2}" rx="8" fill="${bg}" stroke="${edge}" stroke-width="1.5"/>` +
    body +
    "</svg>"
  );
}

/** A card back: a coloured pattern with an emblem, the same for every game but its colours. */
export function backSVG({ colour = "#24527a", accent = "#f3e3b5", label = "" } = {}) {
  const pid = `back-${colour.slice(1)}-${accent.slice(1)}`;
  defineSymbol(
    pid,
    `<defs><pattern id="${pid}-p" width="12.5" height="12.5" patternUnits="userSpaceOnUse">` +
      `<path d="M6.25 2L10.25 6.25L6.25 10.5L2.25 6.25Z" fill="${accent}" opacity=".35"/></pattern></defs>` +
      `<rect width="100" height="150" fill="${colour}"/><rect width="100" height="150" fill="url(#${pid}-p)"/>` +
      `<circle cx="50" cy="75" r="20" fill="${colour}" stroke="${accent}" stroke-width="3"/>` +
      `<path d="M50 60L54 71L65 75L54 79L50 90L46 79L35 75L46 71Z" fill="${accent}"/>`,
    "0 0 100 150",
  );
  return (
    `<svg class="card-svg back" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(label)}" xmlns="http://www.w3.org/2000/svg">` +
    `<rect x="1" y="1" width="${W - 2}" height="${H - 2}" rx="8" fill="#fff" stroke="#555" stroke-width="1.5"/>` +
    `<svg x="6" y="6" width="88" height="138" viewBox="0 0 100 150" preserveAspectRatio="none"><use href="#${pid}"/></svg>` +
    `<rect x="6" y="6" width="88" height="138" rx="5" fill="none" stroke="${accent}" stroke-width="1.5"/>` +
    "</svg>"
  );
}

/** Pip positions (fractions of the face's middle area) for the numeral cards, French style. */
export const PIPS = {
  1: [[0.5, 0.5]],
  2: [[0.5, 0], [0.5, 1]],
  3: [[0.5, 0], [0.5, 0.5], [0.5, 1]],
  4: [[0, 0], [1, 0], [0, 1], [1, 1]],
  5: [[0, 0], [1, 0], [0.5, 0.5], [0, 1], [1, 1]],
  6: [[0, 0], [1, 0], [0, 0.5], [1, 0.5], [0, 1], [1, 1]],
  7: [[0, 0], [1, 0], [0.5, 0.25], [0, 0.5], [1, 0.5], [0, 1], [1, 1]],
  8: [[0, 0], [1, 0], [0.5, 0.25], [0, 0.5], [1, 0.5], [0.5, 0.75], [0, 1], [1, 1]],
  9: [[0, 0], [1, 0], [0, 1 / 3], [1, 1 / 3], [0.5, 0.5], [0, 2 / 3], [1, 2 / 3], [0, 1], [1, 1]],
  10: [[0, 0], [1, 0], [0.5, 1 / 6], [0, 1 / 3], [1, 1 / 3], [0, 2 / 3], [1, 2 / 3], [0.5, 5 / 6], [0, 1], [1, 1]],
};

/** Pips of `count` symbols in the box (x0, y0)-(x1, y1); with `turn`, the lower half upside down
 * (right for abstract pips, wrong for pictures such as a locomotive). */
export function pips(count, id, size, [x0, y0, x1, y1] = [32, 34, 68, 116], turn = true) {
  return PIPS[count]
    .map(([fx, fy]) => use(id, x0 + fx * (x1 - x0), y0 + fy * (y1 - y0), size, turn && fy > 0.5))
    .join("");
}

/** A card's SVG made self-contained: the symbols it uses copied into its own <defs>. */
export function standalone(svg) {
  const ids = new Set();
  for (const m of svg.matchAll(/href="#([^"]+)"/g)) ids.add(m[1]);
  if (!ids.size) return svg;
  const defs = `<defs>${[...ids].map((id) => symbols.get(id) || "").join("")}</defs>`;
  const at = svg.indexOf(">") + 1;
  return svg.slice(0, at) + defs + svg.slice(at);
}

const images = new Map();

/**
 * A card as an image URL, drawn once per key and kept: a hand of fifteen cards is then fifteen
 * <img> elements, which a phone lays out at once, instead of a few thousand SVG nodes.
 */
export function cardImage(key, make) {
  let url = images.get(key);
  if (!url) {
    const svg = standalone(make());
    url = typeof Blob !== "undefined" && typeof URL !== "undefined" && URL.createObjectURL
      ? URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }))
      : `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
    images.set(key, url);
  }
  return url;
}
