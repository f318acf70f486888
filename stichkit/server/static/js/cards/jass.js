// Jass cards in three decks, the player's choice (the engine's letters D H S C never change):
//   seed:   the rule sheet's suits Käse, Zug, Schokolade, Berg;
//   swiss:  Swiss German Jass cards: Schellen, Rosen, Schilten, Eicheln (Banner, Under, Ober);
//   french: French suits as in western Switzerland: diamonds, hearts, spades, clubs.
// The pairing of the Swiss and French suits with the sheet's (D = Schellen = diamonds, ...) is
// the one Swiss Jass software uses; it is presentation only.

import { backSVG, cardSVG, corners, defineSymbol, esc, pips, use } from "./common.js";

export const SUITS = ["D", "H", "S", "C"];
export const RANKS = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"];
export const DECKS = ["seed", "swiss", "french"];

const N = (t, n = 5) => Array.from({ length: n }, (_, i) => t(i));

// -- the suit symbols (100 x 100) --------------------------------------------------------------

const SYMBOLS = {
  french: {
    D: `<path d="M50 3L89 50L50 97L11 50Z" fill="#d42a2a"/>`,
    H: `<path d="M50 90C22 68 5 50 5 29C5 14 16 5 29 5C39 5 46 11 50 20C54 11 61 5 71 5C84 5 95 14 95 29C95 50 78 68 50 90Z" fill="#d42a2a"/>`,
    S: `<path d="M50 5C60 25 94 40 94 62C94 76 84 84 72 84C64 84 57 80 54 74C55 84 60 92 70 97H30C40 92 45 84 46 74C43 80 36 84 28 84C16 84 6 76 6 62C6 40 40 25 50 5Z" fill="#1d1d1d"/>`,
    C: `<circle cx="50" cy="27" r="21" fill="#1d1d1d"/><circle cx="27" cy="60" r="21" fill="#1d1d1d"/><circle cx="73" cy="60" r="21" fill="#1d1d1d"/><path d="M46 50C46 78 40 90 30 97H70C60 90 54 78 54 50Z" fill="#1d1d1d"/>`,
  },
  swiss: {
    // Schellen: a golden bell with a red band
    D:
      `<circle cx="50" cy="15" r="6" fill="none" stroke="#6b4f00" stroke-width="3"/>` +
      `<circle cx="50" cy="56" r="36" fill="#e9b500" stroke="#6b4f00" stroke-width="3"/>` +
      `<path d="M14.6 49Q50 41 85.4 49L85.6 61Q50 53 14.4 61Z" fill="#c62828" stroke="#6b4f00" stroke-width="1.5"/>` +
      `<path d="M50 75V91" stroke="#3a2a00" stroke-width="3.5"/><circle cx="50" cy="75" r="5" fill="#3a2a00"/>` +
      `<ellipse cx="36" cy="36" rx="8" ry="5" fill="#fff4b8" opacity=".8"/>`,
    // Rosen: a five-petalled rose
    H:
      N((i) => {
        const a = ((i * 72 + 36) * Math.PI) / 180;
        const x = 50 + Math.sin(a) * 40;
        const y = 50 - Math.cos(a) * 40;
        return `<path d="M50 50L${(50 + Math.sin(a - 0.35) * 30).toFixed(1)} ${(50 - Math.cos(a - 0.35) * 30).toFixed(1)}L${x.toFixed(1)} ${y.toFixed(1)}L${(50 + Math.sin(a + 0.35) * 30).toFixed(1)} ${(50 - Math.cos(a + 0.35) * 30).toFixed(1)}Z" fill="#3d8b2f" stroke="#1f4d16" stroke-width="1.5"/>`;
      }).join("") +
      N((i) => {
        const a = (i * 72 * Math.PI) / 180;
        return `<circle cx="${(50 + Math.sin(a) * 22).toFixed(1)}" cy="${(50 - Math.cos(a) * 22).toFixed(1)}" r="19" fill="#d32f2f" stroke="#7f0000" stroke-width="2"/>`;
      }).join("") +
      `<circle cx="50" cy="50" r="16" fill="#fff" stroke="#b71c1c" stroke-width="2"/>` +
      `<circle cx="50" cy="50" r="8" fill="#f6c500" stroke="#9a6f00" stroke-width="1.5"/>`,
    // Schilten: a heraldic shield, red and yellow with a black bar
    S:
      `<path d="M12 8H88V48C88 74 70 88 50 96C30 88 12 74 12 48Z" fill="#f2c200"/>` +
      `<path d="M12 8H50V96C30 88 12 74 12 48Z" fill="#c62828"/>` +
      `<path d="M12 40H88V54H12Z" fill="#1d1d1d"/>` +
      `<path d="M12 8H88V48C88 74 70 88 50 96C30 88 12 74 12 48Z" fill="none" stroke="#1d1d1d" stroke-width="4"/>`,
    // Eicheln: an acorn
    C:
      `<path d="M50 4C53 9 51 14 50 20" stroke="#2f5a17" stroke-width="5" fill="none" stroke-linecap="round"/>` +
      `<ellipse cx="50" cy="64" rx="25" ry="31" fill="#d3922a" stroke="#5d3a0a" stroke-width="3"/>` +
      `<ellipse cx="41" cy="62" rx="6" ry="14" fill="#f0c26a" opacity=".8"/>` +
      `<path d="M21 45C21 21 79 21 79 45C79 53 21 53 21 45Z" fill="#587b27" stroke="#2d4312" stroke-width="3"/>` +
      `<path d="M30 30L38 50M42 25L48 50M56 25L56 50M68 29L64 50M26 40L74 40" stroke="#2d4312" stroke-width="1.5"/>`,
  },
  seed: {
    // Käse: a wedge of cheese with holes
    D:
      `<path d="M6 54L62 18L94 38Z" fill="#ffe07a" stroke="#a57800" stroke-width="2.5" stroke-linejoin="round"/>` +
      `<path d="M6 54L94 38V78L6 90Z" fill="#f4c430" stroke="#a57800" stroke-width="2.5" stroke-linejoin="round"/>` +
      `<ellipse cx="28" cy="70" rx="7" ry="6" fill="#cf9800"/><ellipse cx="58" cy="60" rx="9" ry="8" fill="#cf9800"/>` +
      `<ellipse cx="80" cy="68" rx="4" ry="4" fill="#cf9800"/><ellipse cx="47" cy="80" rx="4" ry="3.5" fill="#cf9800"/>` +
      `<ellipse cx="58" cy="34" rx="7" ry="3" fill="#e9b400"/>`,
    // Zug: a red Swiss electric locomotive
    H:
      `<path d="M36 22L50 9L64 22M40 9H60" stroke="#333" stroke-width="3" fill="none"/>` +
      `<path d="M6 32Q6 22 17 22H83Q94 22 94 32V70H6Z" fill="#d52b1e" stroke="#7a1009" stroke-width="2.5"/>` +
      `<rect x="10" y="29" width="13" height="13" rx="2" fill="#d6ecff"/><rect x="77" y="29" width="13" height="13" rx="2" fill="#d6ecff"/>` +
      `<rect x="29" y="29" width="9" height="9" rx="1.5" fill="#d6ecff"/><rect x="62" y="29" width="9" height="9" rx="1.5" fill="#d6ecff"/>` +
      `<rect x="43" y="38" width="14" height="14" fill="#fff"/><rect x="48" y="40" width="4" height="10" fill="#d52b1e"/><rect x="45" y="43" width="10" height="4" fill="#d52b1e"/>` +
      `<rect x="6" y="58" width="88" height="4" fill="#fff" opacity=".85"/>` +
      `<rect x="4" y="70" width="92" height="6" fill="#333"/>` +
      [20, 34, 66, 80].map((x) => `<circle cx="${x}" cy="82" r="7" fill="#333"/><circle cx="${x}" cy="82" r="2.5" fill="#bbb"/>`).join("") +
      `<path d="M0 92H100" stroke="#666" stroke-width="3"/>`,
    // Schokolade: a bar of chocolate in its wrapper
    S:
      `<g transform="rotate(-14 50 50)">` +
      `<rect x="20" y="46" width="60" height="46" rx="3" fill="#2f5fa5" stroke="#173463" stroke-width="2.5"/>` +
      `<path d="M20 50L26 45L32 50L38 45L44 50L50 45L56 50L62 45L68 50L74 45L80 50V56H20Z" fill="#d8dde3"/>` +
      `<rect x="20" y="6" width="60" height="48" rx="3" fill="#6b3b1f" stroke="#3b1d0c" stroke-width="2.5"/>` +
      N((i) => `<rect x="${24 + (i % 3) * 18.5}" y="${10 + Math.floor(i / 3) * 20.5}" width="15" height="17" rx="2" fill="#7e4726" stroke="#4e2812" stroke-width="1.5"/>`, 6).join("") +
      `<text x="50" y="80" text-anchor="middle" font-size="13" font-weight="700" fill="#fff" font-family="sans-serif">CHOC</text>` +
      `</g>`,
    // Berg: a mountain with snow on its peaks
    C:
      `<path d="M3 90L35 32L49 52L65 12L97 90Z" fill="#6f829a" stroke="#34465c" stroke-width="3" stroke-linejoin="round"/>` +
      `<path d="M65 12L76 36L69 32L63 40L57 32L52 37Z" fill="#fff"/><path d="M35 32L43 46L38 43L33 48L29 43Z" fill="#fff"/>` +
      `<path d="M3 90Q28 74 50 82Q74 72 97 90Z" fill="#4c9a3a" stroke="#2b6420" stroke-width="2"/>`,
  },
};

// Ink for indices and figures, per deck and suit (yellow suits get a darker ink to be readable).
const INK = {
  french: { D: "#c62828", H: "#c62828", S: "#1d1d1d", C: "#1d1d1d" },
  swiss: { D: "#9a6f00", H: "#b71c1c", S: "#1d1d1d", C: "#6b4210" },
  seed: { D: "#a57800", H: "#c62828", S: "#5a2f17", C: "#2e5b8a" },
};
const COAT = {
  french: { D: "#c62828", H: "#c62828", S: "#263238", C: "#263238" },
  swiss: { D: "#c9a000", H: "#c62828", S: "#2e4d8a", C: "#4f7a24" },
  seed: { D: "#e2ad10", H: "#c62828", S: "#6b3b1f", C: "#2e6da4" },
};

// Rank letters on the corners: Swiss cards count in Roman numerals and say U(nder), O(ber).
const RANK_LABELS = {
  swiss: { de: ["VI", "VII", "VIII", "IX", "X", "U", "O", "K", "A"], en: ["VI", "VII", "VIII", "IX", "X", "U", "O", "K", "A"] },
  french: { de: ["6", "7", "8", "9", "10", "B", "D", "K", "A"], en: ["6", "7", "8", "9", "10", "J", "Q", "K", "A"] },
  seed: { de: ["6", "7", "8", "9", "10", "B", "D", "K", "A"], en: ["6", "7", "8", "9", "10", "J", "Q", "K", "A"] },
};

export const SUIT_NAMES = {
  seed: { de: { D: "Käse", H: "Zug", S: "Schokolade", C: "Berg" }, en: { D: "Käse (cheese)", H: "Zug (train)", S: "Schokolade (chocolate)", C: "Berg (mountain)" } },
  swiss: { de: { D: "Schellen", H: "Rosen", S: "Schilten", C: "Eicheln" }, en: { D: "Bells", H: "Roses", S: "Shields", C: "Acorns" } },
  french: { de: { D: "Ecken", H: "Herz", S: "Schaufel", C: "Kreuz" }, en: { D: "Diamonds", H: "Hearts", S: "Spades", C: "Clubs" } },
};
const RANK_NAMES = {
  de: { 6: "Sechs", 7: "Sieben", 8: "Acht", 9: "Neun", 10: "Zehn", J: "Bube", Q: "Dame", K: "König", A: "Ass" },
  en: { 6: "Six", 7: "Seven", 8: "Eight", 9: "Nine", 10: "Ten", J: "Jack", Q: "Queen", K: "King", A: "Ace" },
};
const SWISS_RANK_NAMES = {
  de: { 10: "Banner", J: "Under", Q: "Ober" },
  en: { 10: "Banner", J: "Under", Q: "Ober" },
};

export function parse(card) {
  return { suit: card[0], rank: card.slice(1) };
}

export function suitSymbol(deck, suit) {
  return defineSymbol(`jass-${deck}-${suit}`, SYMBOLS[deck][suit]);
}

/** The suit's name in the chosen deck, e.g. "Rosen" for H in the Swiss deck. */
export function suitName(deck, suit, lang) {
  return SUIT_NAMES[deck][lang][suit];
}

/** A rank's name in the deck: "Ober" (Swiss) or "Dame" for Q. */
export function rankName(rank, deck, lang) {
  return (deck === "swiss" && SWISS_RANK_NAMES[lang][rank]) || RANK_NAMES[lang][rank];
}

// In German a card is one word, as Jass players write it: "Rosen-Ober", "Eichel-Ass", "Herz-Bube".
const SUIT_STEMS = {
  seed: { D: "Käse", H: "Zug", S: "Schokolade", C: "Berg" },
  swiss: { D: "Schellen", H: "Rosen", S: "Schilten", C: "Eichel" },
  french: { D: "Ecken", H: "Herz", S: "Schaufel", C: "Kreuz" },
};

/** A card's name to read out: "Rosen-Ober", "Käse-Sieben"; in English "Ober of Roses". */
export function cardName(card, deck, lang) {
  const { suit, rank } = parse(card);
  const rn = rankName(rank, deck, lang);
  return lang === "de" ? `${SUIT_STEMS[deck][suit]}-${rn}` : `${rn} of ${SUIT_NAMES[deck][lang][suit]}`;
}

/** A small inline suit symbol for text (trump badges, logs). */
export function suitIcon(deck, suit, label = "") {
  const id = suitSymbol(deck, suit);
  return `<svg class="suit-icon" viewBox="0 0 100 100" role="img" aria-label="${esc(label)}"><use href="#${id}"/></svg>`;
}

function court(rank, suit, deck, sym) {
  const coat = COAT[deck][suit];
  const ink = INK[deck][suit];
  const female = rank === "Q" && deck !== "swiss";
  const hair = female ? "#c8902a" : "#5b3a1e";
  const skin = "#f3cfa6";
  const gold = "#e2b100";
  let head = "";
  if (rank === "K") {
    head = `<path d="M38 52V37L44 44L50 33L56 44L62 37V52Z" fill="${gold}" stroke="#7a5a00" stroke-width="1.5"/>`;
  } else if (female) {
    head = `<path d="M40 48L44 40L50 46L56 40L60 48Z" fill="${gold}" stroke="#7a5a00" stroke-width="1.2"/>`;
  } else if (rank === "Q") {
    head = `<path d="M36 55Q38 40 50 40Q62 40 64 55Z" fill="${coat}" stroke="#222" stroke-width="1.2"/><path d="M60 44Q72 30 76 38Q68 38 62 48Z" fill="${gold}"/>`;
  } else {
    head = `<path d="M37 56Q40 44 52 45Q63 46 64 56Z" fill="${coat}" stroke="#222" stroke-width="1.2"/><path d="M62 50Q74 40 78 46Q70 47 63 54Z" fill="#fff" stroke="#777"/>`;
  }
  const hairPath = female
    ? `<path d="M39 62Q38 48 50 47Q62 48 61 62L63 80Q56 72 50 73Q44 72 37 80Z" fill="${hair}"/>`
    : `<path d="M40 60Q40 49 50 49Q60 49 60 60Q56 54 50 54Q44 54 40 60Z" fill="${hair}"/>`;
  const beard = rank === "K" ? `<path d="M42 66Q50 82 58 66Q50 71 42 66Z" fill="${hair}"/>` : "";
  const body =
    `<path d="M30 128L34 86Q36 76 50 74Q64 76 66 86L70 128Z" fill="${coat}" stroke="#222" stroke-width="1.5"/>` +
    `<path d="M42 76Q50 88 58 76" fill="none" stroke="${gold}" stroke-width="3"/>` +
    `<path d="M50 84V128" stroke="${gold}" stroke-width="2"/>`;
  // Swiss Under holds his suit low, the Ober high; the others hold it at the chest.
  const held =
    deck === "swiss" && rank === "J" ? use(sym, 50, 114, 22) : deck === "swiss" && rank === "Q" ? use(sym, 70, 36, 18) : use(sym, 62, 100, 18);
  return (
    `<rect x="26" y="22" width="48" height="108" rx="4" fill="#fff8e6" stroke="${ink}" stroke-width="1.5"/>` +
    `<svg x="26" y="22" width="48" height="108" viewBox="26 22 48 108">` +
    hairPath +
    `<circle cx="50" cy="62" r="10" fill="${skin}" stroke="#8a6a50" stroke-width="1"/>` +
    `<circle cx="46.5" cy="61" r="1.2" fill="#222"/><circle cx="53.5" cy="61" r="1.2" fill="#222"/>` +
    `<path d="M47 66Q50 68 53 66" stroke="#8a4a3a" stroke-width="1.2" fill="none"/>` +
    beard +
    head +
    body +
    held +
    `</svg>`
  );
}

function face(rank, suit, deck, sym) {
  const ink = INK[deck][suit];
  if (rank === "A") {
    const frame =
      deck === "swiss"
        ? `<ellipse cx="50" cy="75" rx="33" ry="46" fill="none" stroke="${ink}" stroke-width="1.5" stroke-dasharray="4 3"/>`
        : "";
    return frame + use(sym, 50, 75, deck === "french" ? 46 : 54);
  }
  if (rank === "J" || rank === "Q" || rank === "K") return court(rank, suit, deck, sym);
  if (rank === "10" && deck === "swiss") {
    return (
      `<rect x="29" y="24" width="4" height="108" rx="2" fill="#6b4f2a"/>` +
      `<path d="M33 28H80Q71 52 80 76H33Z" fill="#fff8e6" stroke="${ink}" stroke-width="2"/>` +
      use(sym, 55, 52, 30) +
      `<text x="56" y="118" text-anchor="middle" font-size="20" font-weight="700" font-family="Georgia, serif" fill="${ink}">X</text>`
    );
  }
  const n = Number(rank);
  return pips(n, sym, n >= 9 ? 20 : 22, [35, 30, 65, 120], deck === "french");
}

/** The SVG of a Jass card in the chosen deck. */
export function cardSVG_(card, { deck = "seed", lang = "de", trump = false } = {}) {
  const { suit, rank } = parse(card);
  const sym = suitSymbol(deck, suit);
  const label = RANK_LABELS[deck][lang][RANKS.indexOf(rank)];
  const badge = trump ? `<circle cx="88" cy="12" r="7" fill="#f6c500" stroke="#7a5a00" stroke-width="1.2"/><path d="M88 6.5L89.7 10.5L94 10.8L90.7 13.6L91.8 17.8L88 15.5L84.2 17.8L85.3 13.6L82 10.8L86.3 10.5Z" fill="#7a5a00"/>` : "";
  return cardSVG(corners(label, INK[deck][suit], sym) + face(rank, suit, deck, sym) + badge, {
    label: cardName(card, deck, lang),
  });
}
export { cardSVG_ as cardSVG };

export function backSVG_(label = "") {
  return backSVG({ colour: "#8c1d18", accent: "#f3e3b5", label });
}
export { backSVG_ as backSVG };
