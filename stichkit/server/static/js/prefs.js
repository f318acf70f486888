// The player's settings and seat tokens, kept in localStorage so a reload (or a closed laptop)
// finds them again. Nothing here is sent anywhere but the token, to its own table.

const KEY = "stichkit.prefs";
const SEATS = "stichkit.seats";

const DEFAULTS = {
  lang: "de",
  jassDeck: "swiss",
  jassTafel: false, // the Jass score also as a Jasstafel (strokes for 100, 50 and 20)
  animations: true,
  speed: "normal",
  name: "",
  sidebar: true,
  muted: [], // a guest's muted names, whose chat lines this browser folds away (an account's: mutes.js)
};

function read(key, fallback) {
  try {
    const v = JSON.parse(localStorage.getItem(key) || "null");
    return v && typeof v === "object" ? v : fallback;
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // private mode or full storage: settings last for this page only
  }
}

const listeners = new Set();
let prefs = { ...DEFAULTS, ...read(KEY, {}) };
if (!read(KEY, null) && typeof navigator !== "undefined" && !/^de\b/i.test(navigator.language || "de")) {
  // German is the default; a browser that asks for another language gets English.
  prefs.lang = "en";
}
if (typeof matchMedia !== "undefined" && !read(KEY, null) && matchMedia("(prefers-reduced-motion: reduce)").matches) {
  prefs.animations = false;
}

export function get(name) {
  return prefs[name];
}

export function set(name, value) {
  prefs = { ...prefs, [name]: value };
  write(KEY, prefs);
  for (const f of listeners) f(name, value);
}

export function onChange(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

/**
 * Pacing in milliseconds: after another player's move, how long a taken trick stays on the table
 * with its winner announced, and how long a deal's summary stays. A tap on the table goes on at
 * once; "instant" shows every move at once and holds nothing.
 */
const PACES = {
  slow: { card: 900, hold: 3000, summary: 9000 },
  normal: { card: 550, hold: 2000, summary: 6000 },
  fast: { card: 250, hold: 1200, summary: 4000 },
  instant: { card: 0, hold: 0, summary: 0 },
};
export function pace() {
  return PACES[prefs.speed] || PACES.normal;
}

// -- seats: table id -> {seat, token, name} ---------------------------------------------------

export function seatFor(table) {
  const all = read(SEATS, {});
  const s = all[table];
  return s && typeof s.token === "string" && Number.isInteger(s.seat) ? s : null;
}

export function saveSeat(table, seat, token, name) {
  const all = read(SEATS, {});
  all[table] = { seat, token, name, at: Date.now() };
  // keep the newest 50 tables
  const keep = Object.entries(all)
    .sort((a, b) => (b[1].at || 0) - (a[1].at || 0))
    .slice(0, 50);
  write(SEATS, Object.fromEntries(keep));
}

/** [[table id, {seat, token, name, at}], ...], newest first. */
export function mySeats() {
  return Object.entries(read(SEATS, {})).sort((a, b) => (b[1].at || 0) - (a[1].at || 0));
}

export function forgetSeat(table) {
  const all = read(SEATS, {});
  delete all[table];
  write(SEATS, all);
}
