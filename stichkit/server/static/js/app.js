// The page's entry: the top bar (language, settings, help) and the screens:
//   /                       the lobby
//   /players/NAME           a player's profile
//   /leaderboard/GAME       a game's leaderboard
//   /tournaments            the tournaments, and the form that opens one
//   /tournaments/ID         a tournament (?invitation=SECRET: from its invitation link)
//   /tables/ID              a table (playing or watching; ?join=1 opens the join form)
//   /tables/ID?replay=N     the replay of the table's game N once it is over (&analyse=1: a Jass
//                           game's analysis begins at once)

import * as account from "./account.js";
import * as icons from "./icons.js";
import { api } from "./api.js";
import { cardSVG as jassCard } from "./cards/jass.js";
import { dialog, esc } from "./dom.js";
import { lang, t, tableTitle } from "./i18n.js";
import { Lobby } from "./lobby.js";
import { Leaderboard, Profile } from "./profile.js";
import * as prefs from "./prefs.js";
import { httpRefusal } from "./refusals.js";
import { Replay } from "./replay.js";
import { LiveTable } from "./table.js";
import { TournamentPage } from "./tournament.js";
import { TournamentList } from "./tournaments.js";

let screen = null;
let catalog = null;
/** What the top bar says beside the brand: a function, so a change of language redraws it. */
let crumb = () => "";

function topbar() {
  const bar = document.getElementById("topbar");
  const me = account.current();
  bar.innerHTML =
    `<a class="brand" href="/" title="${esc(t("nav.lobby"))}"><span class="logo" aria-hidden="true">♠</span> stichkit</a>` +
    `<span class="crumb" id="crumb">${esc(crumb())}</span>` +
    `<nav class="top-actions" aria-label="${esc(t("table.menu"))}">` +
    `<a class="top-link" href="/tournaments" id="nav-tournaments" title="${esc(t("tour.all"))}" aria-label="${esc(t("tour.all"))}">${icons.bracket}<span class="top-label"> ${esc(t("tour.all"))}</span></a>` +
    `<a class="top-link" href="/leaderboard" id="nav-leaders" title="${esc(t("leaders.short"))}" aria-label="${esc(t("leaders.short"))}">${icons.trophy}<span class="top-label"> ${esc(t("leaders.short"))}</span></a>` +
    `<div class="lang-switch" role="group" aria-label="${esc(t("nav.language"))}">` +
    ["de", "en"].map((l) => `<button type="button" data-lang="${l}" aria-pressed="${lang() === l}">${l.toUpperCase()}</button>`).join("") +
    `</div>` +
    `<button type="button" class="icon-button account-button" id="btn-account" title="${esc(t(me ? "acct.title" : "acct.guestTitle"))}">` +
    `${icons.person} <span class="label">${esc(me ? me.name : t("acct.loginShort"))}</span></button>` +
    `<button type="button" class="icon-button" id="btn-settings" aria-label="${esc(t("nav.settings"))}" title="${esc(t("nav.settings"))}">⚙</button>` +
    `<button type="button" class="icon-button" id="btn-help" aria-label="${esc(t("nav.help"))}" title="${esc(t("nav.help"))}">?</button>` +
    `</nav>`;
  document.documentElement.lang = lang();
}

function settings() {
  const deck = prefs.get("jassDeck");
  const body =
    `<form class="settings" id="settings-form">` +
    `<fieldset><legend>${esc(t("set.language"))}</legend>` +
    ["de", "en"].map((l) => `<label class="check"><input type="radio" name="lang" value="${l}"${lang() === l ? " checked" : ""}> ${l === "de" ? "Deutsch" : "English"}</label>`).join("") +
    `</fieldset>` +
    `<fieldset><legend>${esc(t("set.deck"))}</legend>` +
    ["seed", "swiss", "french"]
      .map(
        (d) =>
          `<label class="deck-choice${d === deck ? " chosen" : ""}"><input type="radio" name="deck" value="${d}"${d === deck ? " checked" : ""}>` +
          `<span class="tile-cards" aria-hidden="true">${["HJ", "D9", "CA", "SK"].map((c) => jassCard(c, { deck: d, lang: lang() })).join("")}</span>` +
          `<span>${esc(t(`set.deck.${d}`))}</span></label>`,
      )
      .join("") +
    `</fieldset>` +
    `<fieldset><legend>${esc(t("set.speed"))}</legend><select name="speed">` +
    ["slow", "normal", "fast", "instant"].map((s) => `<option value="${s}"${prefs.get("speed") === s ? " selected" : ""}>${esc(t(`set.speed.${s}`))}</option>`).join("") +
    `</select></fieldset>` +
    `<label class="check"><input type="checkbox" name="animations"${prefs.get("animations") ? " checked" : ""}> ${esc(t("set.animations"))}</label>` +
    `<label class="check"><input type="checkbox" name="tafel"${prefs.get("jassTafel") ? " checked" : ""}> ${esc(t("set.tafel"))}</label>` +
    `</form>`;
  dialog(esc(t("nav.settings")), body, {
    id: "settings",
    onOpen: (d) =>
      d.querySelector("form").addEventListener("change", (ev) => {
        const el = ev.target;
        if (el.name === "lang") prefs.set("lang", el.value);
        else if (el.name === "deck") prefs.set("jassDeck", el.value);
        else if (el.name === "speed") prefs.set("speed", el.value);
        else if (el.name === "animations") prefs.set("animations", el.checked);
        else if (el.name === "tafel") prefs.set("jassTafel", el.checked);
        if (el.name === "deck") for (const lab of d.querySelectorAll(".deck-choice")) lab.classList.toggle("chosen", lab.querySelector("input").checked);
      }),
  });
}

function help() {
  dialog(
    esc(t("nav.help")),
    `<h3>${esc(t("help.howto"))}</h3><p>${esc(t("help.text"))}</p>` +
      `<h3>${esc(t("help.keys"))}</h3><ul class="keys">` +
      ["help.arrows", "help.digits", "help.tricks", "help.hint", "help.takeBack", "help.escape", "help.replayKeys"].map((k) => `<li>${esc(t(k))}</li>`).join("") +
      `</ul>`,
    { id: "help" },
  );
}

function route() {
  const player = location.pathname.match(/^\/players\/([^/]+)\/?$/);
  if (player) return { name: "player", player: decodeURIComponent(player[1]) };
  const board = location.pathname.match(/^\/leaderboard(?:\/([^/]+))?\/?$/);
  if (board) return { name: "leaders", game: board[1] ? decodeURIComponent(board[1]) : null };
  const q = new URLSearchParams(location.search);
  const tour = location.pathname.match(/^\/tournaments(?:\/([^/]+))?\/?$/);
  if (tour) return tour[1] ? { name: "tournament", id: decodeURIComponent(tour[1]), invitation: q.get("invitation") } : { name: "tournaments" };
  const m = location.pathname.match(/^\/tables\/([^/]+)\/?$/);
  if (!m) return { name: "lobby" };
  const id = decodeURIComponent(m[1]);
  if (q.has("replay")) return { name: "replay", id, game: Number(q.get("replay")) || null, analyse: q.get("analyse") === "1" };
  return { name: "table", id, join: q.has("join") };
}

async function show() {
  const main = document.getElementById("main");
  if (screen && screen.destroy) screen.destroy();
  screen = null;
  topbar();
  const r = route();
  const setCrumb = (f) => {
    crumb = f;
    document.getElementById("crumb").textContent = f();
  };
  setCrumb(() => "");
  if (!catalog) {
    try {
      catalog = await api.games();
    } catch (e) {
      main.innerHTML = `<div class="panel notice"><p>${esc(httpRefusal("games", e))}</p></div>`;
      return;
    }
  }
  if (r.name === "lobby") {
    document.title = t("app.title");
    setCrumb(() => t("app.tagline"));
    screen = new Lobby(main, catalog);
  } else if (r.name === "player") {
    document.title = `${r.player} – stichkit`;
    setCrumb(() => t("profile.title"));
    screen = new Profile(main, r.player);
  } else if (r.name === "leaders") {
    document.title = `${t("leaders.short")} – stichkit`;
    setCrumb(() => t("leaders.short"));
    screen = new Leaderboard(main, r.game, catalog);
  } else if (r.name === "tournaments") {
    document.title = `${t("tour.all")} – stichkit`;
    setCrumb(() => t("tour.all"));
    screen = new TournamentList(main, catalog);
  } else if (r.name === "tournament") {
    setCrumb(() => t("tour.crumb"));
    screen = new TournamentPage(main, r.id, {
      invitation: r.invitation,
      onTitle: (name) => {
        document.title = `${name} – stichkit`;
        setCrumb(() => `${t("tour.crumb")} · ${name}`);
      },
    });
  } else if (r.name === "replay") {
    setCrumb(() => t("replay.title"));
    screen = new Replay(main, r.id, r.game, { catalog, analyse: r.analyse });
  } else {
    let info;
    try {
      info = await api.table(r.id);
    } catch (e) {
      main.innerHTML = `<div class="panel notice"><p>${esc(e.status === 404 ? t("table.notFound") : httpRefusal("table", e))}</p><p><a class="button" href="/">${esc(t("table.toLobby"))}</a></p></div>`;
      return;
    }
    setCrumb(() => tableTitle(info));
    screen = new LiveTable(main, r.id, { catalog, info });
    if (r.join && !prefs.seatFor(r.id) && info.status !== "waiting") screen.command("join-dialog");
  }
}

/**
 * Put `next` on the page as its screen (it is drawn again on a change of language or deck, and
 * destroyed when the page shows another). What `show` does for a URL; a page script or a test
 * that builds a screen of its own (a table fed by hand) uses it too.
 */
export function adopt(next, title = () => "") {
  if (screen && screen !== next && screen.destroy) screen.destroy();
  screen = next;
  crumb = title;
  const el = document.getElementById("crumb");
  if (el) el.textContent = title();
}

document.addEventListener("click", (ev) => {
  const b = ev.target.closest("button");
  if (!b) return;
  if (b.dataset.lang) prefs.set("lang", b.dataset.lang);
  else if (b.id === "btn-settings") settings();
  else if (b.id === "btn-account") account.accountDialog();
  else if (b.id === "btn-help") help();
});

document.addEventListener("keydown", (ev) => {
  const tag = ev.target && ev.target.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  if (ev.key === "?" && !document.querySelector("dialog[open]")) help();
});

prefs.onChange((name) => {
  if (name === "lang" || name === "jassDeck" || name === "jassTafel") {
    // redraw everything in the new language or deck; a live table keeps its connection
    if (screen && screen.relabel) {
      topbar();
      screen.relabel();
    } else show();
  }
  if (name === "animations") document.body.classList.toggle("no-anim", !prefs.get("animations"));
});

account.onChange(() => {
  topbar();
  if (screen && screen.onAccount) screen.onAccount();
});

document.body.classList.toggle("no-anim", !prefs.get("animations"));
account.load().then(show);
