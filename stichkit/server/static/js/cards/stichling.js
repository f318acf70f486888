// Stichling cards (values 1-15 in green, yellow, purple and blue) and its score tiles.
// The stickleback (Stichling) on every card is drawn in its colour.

import { backSVG, cardSVG, defineSymbol, esc, use } from "./common.js";

export const COLOURS = ["G", "Y", "P", "B"];
export const INK = { G: "#2f7d22", Y: "#b88600", P: "#7a3b9e", B: "#1f66b3" };
const FILL = { G: "#4caf3a", Y: "#f3c21b", P: "#9c56c4", B: "#3a86d6" };
const TINT = { G: "#eef8ea", Y: "#fff8de", P: "#f5ecfa", B: "#e9f2fc" };
export const NAMES = {
  de: { G: "Grün", Y: "Gelb", P: "Violett", B: "Blau" },
  en: { G: "Green", Y: "Yellow", P: "Purple", B: "Blue" },
};

function fish(c) {
  return defineSymbol(
    `sl-fish-${c}`,
    `<path d="M30 44L34 30L38 44M44 42L48 26L52 42M58 42L61 32L64 43" stroke="#333" stroke-width="2.5" fill="${FILL[c]}" stroke-linejoin="round"/>` +
      `<path d="M8 52C18 38 44 36 64 42C72 44 78 47 82 50L96 38L92 52L96 66L82 56C74 62 60 66 44 66C26 66 14 62 8 52Z" fill="${FILL[c]}" stroke="#333" stroke-width="2.5"/>` +
      `<path d="M40 58L46 68L50 58" fill="${FILL[c]}" stroke="#333" stroke-width="2"/>` +
      `<circle cx="20" cy="49" r="3.5" fill="#fff" stroke="#333" stroke-width="1.5"/><circle cx="19.5" cy="49" r="1.5" fill="#111"/>` +
      `<path d="M30 44C32 50 32 56 29 61" stroke="#333" stroke-width="1.5" fill="none"/>`,
  );
}

export function parse(card) {
  return { colour: card[0], value: Number(card.slice(1)) };
}

export function cardName(card, lang) {
  const { colour, value } = parse(card);
  return lang === "de" ? `${NAMES.de[colour]} ${value}` : `${NAMES.en[colour]} ${value}`;
}

export function cardSVG_(card, { lang = "de" } = {}) {
  const { colour, value } = parse(card);
  const ink = INK[colour];
  const corner = (x, anchor) =>
    `<text x="${x}" y="26" text-anchor="${anchor}" font-size="22" font-weight="800" font-family="'DejaVu Sans', Verdana, sans-serif" fill="${ink}">${value}</text>`;
  const body =
    `<rect x="6" y="6" width="88" height="138" rx="5" fill="${TINT[colour]}" stroke="${ink}" stroke-width="2"/>` +
    corner(11, "start") +
    corner(89, "end") +
    `<circle cx="50" cy="66" r="28" fill="${FILL[colour]}" stroke="${ink}" stroke-width="2.5"/>` +
    `<text x="50" y="${value >= 10 ? 77 : 78}" text-anchor="middle" font-size="${value >= 10 ? 30 : 34}" font-weight="800" font-family="'DejaVu Sans', Verdana, sans-serif" fill="#fff" stroke="${ink}" stroke-width="1.2">${value}</text>` +
    use(fish(colour), 50, 118, 46);
  return cardSVG(body, { label: cardName(card, lang) });
}
export { cardSVG_ as cardSVG };

/** A score tile: face up with its value, or face down (value hidden). */
export function tileSVG(value, { faceUp = true, active = false, label = "" } = {}) {
  const fill = faceUp ? "#fdf3d0" : "#6b4e2e";
  const stroke = active ? "#d35400" : "#5a4225";
  const inner = faceUp
    ? `<text x="30" y="41" text-anchor="middle" font-size="30" font-weight="800" font-family="'DejaVu Sans', Verdana, sans-serif" fill="#5a4225">${esc(value)}</text>`
    : `<path d="M30 16L44 30L30 44L16 30Z" fill="none" stroke="#c9a56a" stroke-width="3"/>`;
  return (
    `<svg class="tile-svg" viewBox="0 0 60 60" role="img" aria-label="${esc(label)}" xmlns="http://www.w3.org/2000/svg">` +
    `<rect x="2" y="2" width="56" height="56" rx="9" fill="${fill}" stroke="${stroke}" stroke-width="${active ? 5 : 2.5}"/>` +
    inner +
    "</svg>"
  );
}

export function backSVG_(label = "") {
  return backSVG({ colour: "#2f6b3a", accent: "#e7f5c8", label });
}
export { backSVG_ as backSVG };
