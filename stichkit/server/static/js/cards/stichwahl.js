// Stichwahl cards: four whale families (Orca, Pottwal, Narwal, Blauwal) and four colourless 5s.
// Every card shows its value, its whale, its pearls (bottom left) and its bonus (bottom right),
// as on the printed cards. Pearls and bonus come from the game's card table (served by
// /api/games), so a corrected table shows corrected cards.

import { backSVG, cardSVG, defineSymbol, esc, use } from "./common.js";

export const FAMILIES = ["O", "P", "N", "B"];
export const COLOURS = { O: "#1f2326", P: "#7a5548", N: "#1f8a7c", B: "#2361b3", 5: "#7d7d7d" };
const TINT = { O: "#eef1f3", P: "#f6eee9", N: "#e6f5f2", B: "#e8f0fb", 5: "#fbfbf7" };
export const NAMES = {
  de: { O: "Orca", P: "Pottwal", N: "Narwal", B: "Blauwal" },
  en: { O: "Orca", P: "Sperm whale", N: "Narwhal", B: "Blue whale" },
};

// Whales facing left, in a 100 x 100 box (drawn in its middle band).
const WHALES = {
  O:
    `<path d="M4 56C8 40 28 34 52 36C66 37 78 42 87 46L97 35L94 50L98 63L87 56C76 63 60 66 44 66C26 66 9 63 4 56Z" fill="#1f2326"/>` +
    `<path d="M45 37L52 14L60 38Z" fill="#1f2326"/>` +
    `<ellipse cx="21" cy="47" rx="7" ry="3.2" fill="#fff"/>` +
    `<path d="M8 59C24 66 42 66 58 61C42 62 24 62 8 59Z" fill="#fff"/><path d="M62 56C68 58 72 56 76 52C72 54 66 55 62 56Z" fill="#fff"/>`,
  P:
    `<path d="M4 40C4 32 10 30 20 30L50 32C64 34 77 40 87 46L97 35L94 50L98 63L86 56C74 64 56 66 40 66L12 63C6 61 4 56 4 50Z" fill="#6f5b53"/>` +
    `<path d="M58 35L64 29L70 38Z" fill="#6f5b53"/>` +
    `<path d="M10 60L36 61" stroke="#e9dfd9" stroke-width="2"/><circle cx="30" cy="44" r="2" fill="#fff"/>`,
  N:
    `<path d="M2 40L31 49" stroke="#c9b88f" stroke-width="3.5" stroke-linecap="round"/>` +
    `<path d="M8 41.8L10 44.5M14 43.6L16 46.3M20 45.4L22 48" stroke="#8a7a55" stroke-width="1.2"/>` +
    `<path d="M30 50C36 40 52 38 66 40C76 42 84 44 90 46L98 38L96 50L99 60L90 56C78 60 62 62 48 62C38 62 31 56 30 50Z" fill="#6b8f8a"/>` +
    `<circle cx="50" cy="46" r="2.5" fill="#3f5e59"/><circle cx="62" cy="50" r="3" fill="#3f5e59"/><circle cx="74" cy="47" r="2" fill="#3f5e59"/><circle cx="56" cy="56" r="2" fill="#3f5e59"/>` +
    `<circle cx="38" cy="48" r="1.6" fill="#fff"/>`,
  B:
    `<path d="M3 50C8 42 22 40 40 40C60 40 78 44 90 47L98 40L96 50L99 59L90 55C76 60 54 62 34 61C16 60 6 56 3 50Z" fill="#3a6fb0"/>` +
    `<path d="M74 44L78 38L81 45Z" fill="#3a6fb0"/>` +
    `<path d="M8 54C22 58 38 59 52 58M10 56.5C24 60.5 38 61 50 60" stroke="#bcd3ef" stroke-width="1.2" fill="none"/>` +
    `<circle cx="16" cy="47" r="1.6" fill="#fff"/>`,
};

const PEARL = `<circle cx="50" cy="50" r="44" fill="#f4f1ea" stroke="#8b8577" stroke-width="6"/><circle cx="36" cy="36" r="13" fill="#fff"/>`;
const FLIP =
  `<circle cx="50" cy="50" r="46" fill="#fff8e1" stroke="#8a6d00" stroke-width="5"/>` +
  `<path d="M27 42A25 25 0 0 1 72 36" fill="none" stroke="#8a6d00" stroke-width="7"/><path d="M76 22L78 44L58 38Z" fill="#8a6d00"/>` +
  `<path d="M73 58A25 25 0 0 1 28 64" fill="none" stroke="#8a6d00" stroke-width="7"/><path d="M24 78L22 56L42 62Z" fill="#8a6d00"/>`;

export function whale(family) {
  return defineSymbol(`sw-whale-${family}`, WHALES[family]);
}
const pearlId = () => defineSymbol("sw-pearl", PEARL);
const flipId = () => defineSymbol("sw-flip", FLIP);

export function parse(card) {
  return card[0] === "5" ? { family: null, value: 5 } : { family: card[0], value: Number(card.slice(1)) };
}

/** The bonus in words: "Trumpf: Narwal oder Blauwal", "Marker drehen", "Perle (+1)". */
export function bonusText(bonus, t) {
  if (!bonus || bonus === "none") return t("sw.bonus.none");
  if (bonus === "flip") return t("sw.bonus.flip");
  if (bonus === "pearl") return t("sw.bonus.pearl");
  const fams = bonus.slice(6).split("/");
  return t("sw.bonus.trump", { families: fams.map((f) => t(`sw.family.${f}`)).join(t("or")) });
}

export function cardName(card, info, lang, t) {
  const { family, value } = parse(card);
  const base = family ? `${NAMES[lang][family]} ${value}` : `5 (${t("sw.colourless")})`;
  if (!info) return base;
  return `${base}, ${t(info.pearls === 1 ? "sw.pearl1" : "sw.pearls", { n: info.pearls })}, ${bonusText(info.bonus, t)}`;
}

function bonusArt(bonus) {
  if (!bonus || bonus === "none") return "";
  if (bonus === "flip") return use(flipId(), 83, 133, 22);
  if (bonus === "pearl")
    return (
      `<circle cx="83" cy="133" r="12" fill="#fff8e1" stroke="#8a6d00" stroke-width="1.5"/>` +
      use(pearlId(), 80, 134, 13) +
      `<text x="88.5" y="130" font-size="9" font-weight="700" fill="#8a6d00" font-family="sans-serif">+1</text>`
    );
  const fams = bonus.slice(6).split("/");
  const w = fams.length === 1 ? 24 : 30;
  const body = fams
    .map((f, i) => {
      const cx = fams.length === 1 ? 83 : 76 + i * 14;
      return `<circle cx="${cx}" cy="133" r="7.5" fill="#fff" stroke="${COLOURS[f]}" stroke-width="2"/>` + use(whale(f), cx, 133, 13);
    })
    .join("");
  return `<rect x="${fams.length === 1 ? 70 : 66}" y="122" width="${w}" height="22" rx="11" fill="${COLOURS[fams[0]]}" opacity=".15"/>` + body;
}

/** The SVG of a Stichwahl card; `info` is its row of the card table ({pearls, bonus}). */
export function cardSVG_(card, { info = null, lang = "de", t = (k) => k } = {}) {
  const { family, value } = parse(card);
  const key = family ?? 5;
  const ink = COLOURS[key];
  const num = (x, anchor) =>
    `<text x="${x}" y="27" text-anchor="${anchor}" font-size="26" font-weight="800" font-family="'DejaVu Sans', Verdana, sans-serif" fill="${ink}">${value}</text>`;
  let art;
  if (family) {
    art = `<circle cx="50" cy="72" r="34" fill="#fff" stroke="${ink}" stroke-width="2"/>` + use(whale(family), 50, 76, 70);
  } else {
    art =
      `<circle cx="50" cy="72" r="34" fill="#fff" stroke="#9a9a9a" stroke-width="2" stroke-dasharray="5 3"/>` +
      FAMILIES.map((f, i) => use(whale(f), 35 + (i % 2) * 30, 64 + Math.floor(i / 2) * 22, 34)).join("");
  }
  const pearls = info
    ? Array.from({ length: info.pearls }, (_, i) => use(pearlId(), 16 + i * 13, 132, 13)).join("")
    : "";
  const band = `<rect x="6" y="6" width="88" height="138" rx="5" fill="${TINT[key]}" stroke="${ink}" stroke-width="2"/>`;
  return cardSVG(band + num(10, "start") + num(90, "end") + art + pearls + (info ? bonusArt(info.bonus) : ""), {
    label: cardName(card, info, lang, t),
  });
}
export { cardSVG_ as cardSVG };

/** A whale icon for text: the family of trump, the families a bonus offers. */
export function familyIcon(family, label = "") {
  return `<svg class="suit-icon whale" viewBox="0 0 100 100" role="img" aria-label="${esc(label)}"><use href="#${whale(family)}"/></svg>`;
}

export function backSVG_(label = "") {
  return backSVG({ colour: "#12476b", accent: "#bfe6ff", label });
}
export { backSVG_ as backSVG };
