// Stich-Meister cards: Fächer (fan), Münze (coin), Koi and Torii, values 1-15; the 13s are the
// Samurai and show a helmet. Trump cards (which change every round) carry a gold star.

import { backSVG, cardSVG, defineSymbol, esc, use } from "./common.js";

export const SUITS = ["F", "M", "K", "T"];
export const INK = { F: "#a3206f", M: "#8f6a00", K: "#cf3a12", T: "#00727d" };
const FILL = { F: "#d0448f", M: "#e0b21a", K: "#f0652e", T: "#1597a3" };
const TINT = { F: "#fbedf5", M: "#fdf6df", K: "#fdeee7", T: "#e6f5f6" };
export const NAMES = {
  de: { F: "Fächer", M: "Münze", K: "Koi", T: "Torii" },
  en: { F: "Fan", M: "Coin", K: "Koi", T: "Torii" },
};

const SYMBOLS = {
  F:
    `<path d="M50 88L8 40A56 56 0 0 1 92 40Z" fill="${FILL.F}" stroke="#5a0f3b" stroke-width="3" stroke-linejoin="round"/>` +
    [18, 30, 42, 58, 70, 82].map((x) => `<path d="M50 88L${x} ${x < 50 ? 22 + (50 - x) * 0.45 : 22 + (x - 50) * 0.45}" stroke="#5a0f3b" stroke-width="1.8"/>`).join("") +
    `<path d="M20 38A44 44 0 0 1 80 38" fill="none" stroke="#fff" stroke-width="3" opacity=".7"/>` +
    `<circle cx="50" cy="86" r="5" fill="#5a0f3b"/>`,
  M:
    `<circle cx="50" cy="50" r="42" fill="${FILL.M}" stroke="#6b4f00" stroke-width="4"/>` +
    `<circle cx="50" cy="50" r="33" fill="none" stroke="#6b4f00" stroke-width="2"/>` +
    `<rect x="38" y="38" width="24" height="24" fill="#fdf6df" stroke="#6b4f00" stroke-width="3"/>`,
  K:
    `<path d="M14 58C20 30 52 20 74 34C82 40 84 48 80 54C86 50 94 52 96 58C88 60 84 64 84 70C78 64 72 62 66 64C50 74 26 74 14 58Z" fill="${FILL.K}" stroke="#6b1d05" stroke-width="3" stroke-linejoin="round"/>` +
    `<path d="M36 36C40 44 46 46 54 42C50 52 42 56 32 52Z" fill="#fff" opacity=".9"/>` +
    `<path d="M40 64L48 78L54 66" fill="${FILL.K}" stroke="#6b1d05" stroke-width="2.5"/>` +
    `<circle cx="24" cy="52" r="3.5" fill="#111"/>`,
  T:
    `<path d="M6 20Q50 32 94 20L92 30Q50 40 8 30Z" fill="${FILL.T}" stroke="#003c42" stroke-width="3" stroke-linejoin="round"/>` +
    `<rect x="16" y="44" width="68" height="8" fill="${FILL.T}" stroke="#003c42" stroke-width="3"/>` +
    `<rect x="24" y="34" width="10" height="60" fill="${FILL.T}" stroke="#003c42" stroke-width="3"/>` +
    `<rect x="66" y="34" width="10" height="60" fill="${FILL.T}" stroke="#003c42" stroke-width="3"/>` +
    `<rect x="46" y="34" width="8" height="12" fill="${FILL.T}" stroke="#003c42" stroke-width="2.5"/>`,
};
// The Samurai's helmet (kabuto), drawn in the card's suit colour.
const HELMET = (c) =>
  `<path d="M20 62Q20 26 50 24Q80 26 80 62Z" fill="#333" stroke="#111" stroke-width="2"/>` +
  `<path d="M50 26L28 4Q38 18 44 26ZM50 26L72 4Q62 18 56 26Z" fill="${FILL[c]}" stroke="#111" stroke-width="2"/>` +
  `<path d="M8 62Q50 52 92 62L86 78Q50 70 14 78Z" fill="${FILL[c]}" stroke="#111" stroke-width="2"/>` +
  `<circle cx="50" cy="40" r="7" fill="${FILL[c]}" stroke="#111" stroke-width="2"/>` +
  `<path d="M36 78H64L58 94H42Z" fill="#333"/>`;

export function suitSymbol(suit) {
  return defineSymbol(`sm-${suit}`, SYMBOLS[suit]);
}
function helmet(suit) {
  return defineSymbol(`sm-samurai-${suit}`, HELMET(suit));
}

export function parse(card) {
  return { suit: card[0], value: Number(card.slice(1)) };
}

export function cardName(card, lang) {
  const { suit, value } = parse(card);
  const samurai = value === 13 ? (lang === "de" ? " (Samurai)" : " (Samurai)") : "";
  return `${NAMES[lang][suit]} ${value}${samurai}`;
}

export function suitIcon(suit, label = "") {
  return `<svg class="suit-icon" viewBox="0 0 100 100" role="img" aria-label="${esc(label)}"><use href="#${suitSymbol(suit)}"/></svg>`;
}

export function cardSVG_(card, { lang = "de", trump = false } = {}) {
  const { suit, value } = parse(card);
  const ink = INK[suit];
  const sym = suitSymbol(suit);
  const corner = (x, anchor) =>
    `<text x="${x}" y="27" text-anchor="${anchor}" font-size="23" font-weight="800" font-family="'DejaVu Sans', Verdana, sans-serif" fill="${ink}">${value}</text>`;
  const art =
    value === 13
      ? use(helmet(suit), 50, 74, 52) + use(sym, 50, 120, 22)
      : use(sym, 50, 62, 48) +
        `<text x="50" y="126" text-anchor="middle" font-size="30" font-weight="800" font-family="'DejaVu Sans', Verdana, sans-serif" fill="${ink}">${value}</text>`;
  const star = trump
    ? `<circle cx="50" cy="16" r="8" fill="#f6c500" stroke="#7a5a00" stroke-width="1.2"/><path d="M50 9.5L51.9 14L56.7 14.3L53 17.4L54.2 22L50 19.4L45.8 22L47 17.4L43.3 14.3L48.1 14Z" fill="#7a5a00"/>`
    : "";
  const body =
    `<rect x="6" y="6" width="88" height="138" rx="5" fill="${TINT[suit]}" stroke="${ink}" stroke-width="2"/>` +
    corner(11, "start") +
    corner(89, "end") +
    art +
    star;
  return cardSVG(body, { label: cardName(card, lang) });
}
export { cardSVG_ as cardSVG };

export function backSVG_(label = "") {
  return backSVG({ colour: "#3b2a55", accent: "#f0d9a0", label });
}
export { backSVG_ as backSVG };
