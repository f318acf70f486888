// The Jasstafel: a team's score as Swiss players chalk it, in strokes on a "Z". The bottom line
// holds a stroke for each 100, the diagonal one for each 50, the top line one for each 20; what
// is left (under 20) is written as a number beside it. Every fifth stroke on a line is drawn
// across the four before it, so the strokes are counted in fives.

const W = 168;
const H = 64;
const TOP = 10;
const BOTTOM = 54;
const LEFT = 10;
const RIGHT = 136;

/** The strokes of a score: hundreds, fifties, twenties, and the rest under 20. */
export function strokes(score) {
  const s = Math.max(0, Math.floor(score));
  const hundreds = Math.floor(s / 100);
  const fifties = Math.floor((s % 100) / 50);
  const twenties = Math.floor((s % 50) / 20);
  return { hundreds, fifties, twenties, rest: s % 50 % 20 };
}

/** Strokes along a line from (x0, y0) to (x1, y1): `n` of them, every fifth across its four. */
function strokeLine(kind, n, x0, y0, x1, y1) {
  const out = [];
  const len = Math.hypot(x1 - x0, y1 - y0);
  const step = Math.min(7, (len - 8) / Math.max(1, n + Math.floor(n / 5)));
  const ux = (x1 - x0) / len;
  const uy = (y1 - y0) / len;
  let at = 4;
  for (let i = 1; i <= n; i++) {
    const x = x0 + ux * at;
    const y = y0 + uy * at;
    if (i % 5 === 0) {
      // the fifth: across the four before it
      const back = step * 4;
      out.push(`<line class="stroke five" data-line="${kind}" x1="${(x - ux * back).toFixed(1)}" y1="${(y - uy * back + 6).toFixed(1)}" x2="${x.toFixed(1)}" y2="${(y - 6).toFixed(1)}"/>`);
      at += step * 1.5;
    } else {
      out.push(`<line class="stroke" data-line="${kind}" x1="${x.toFixed(1)}" y1="${(y - 6).toFixed(1)}" x2="${x.toFixed(1)}" y2="${(y + 6).toFixed(1)}"/>`);
      at += step;
    }
  }
  return out.join("");
}

/** The Jasstafel of one team's score, as an SVG; `label` names it for a screen reader. */
export function jasstafel(score, label) {
  const k = strokes(score);
  return (
    `<svg class="jasstafel" viewBox="0 0 ${W} ${H}" role="img" aria-label="${label}" data-score="${score}"` +
    ` data-hundreds="${k.hundreds}" data-fifties="${k.fifties}" data-twenties="${k.twenties}" data-rest="${k.rest}">` +
    `<path class="z" d="M${LEFT} ${TOP} H${RIGHT} L${LEFT} ${BOTTOM} H${RIGHT}"/>` +
    strokeLine("twenty", k.twenties, LEFT, TOP, RIGHT, TOP) +
    strokeLine("fifty", k.fifties, RIGHT, TOP, LEFT, BOTTOM) +
    strokeLine("hundred", k.hundreds, LEFT, BOTTOM, RIGHT, BOTTOM) +
    `<text class="rest" x="${RIGHT + 6}" y="${TOP + 5}">${k.rest}</text>` +
    `</svg>`
  );
}
