// A player's profile (/players/NAME) and the leaderboards (/leaderboard/GAME): what
// GET /api/players/{name} and GET /api/leaderboard/{game} answer (docs/server.md, "Profiles and
// leaderboards"), drawn for people: games per game, wins, the rating with a small chart of its
// history, the recent games with their replay and analysis, and in Jass the points lost per card.

import { api } from "./api.js";
import { esc } from "./dom.js";
import { lang, t } from "./i18n.js";
import { httpRefusal } from "./refusals.js";

const ORDER = ["jass", "stichwahl", "stichling", "stichmeister"];

function num(x, digits = 1) {
  return Number(x).toLocaleString(lang() === "de" ? "de-CH" : "en-GB", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function day(ts) {
  return new Date(ts * 1000).toLocaleDateString(lang() === "de" ? "de-CH" : "en-GB", { day: "numeric", month: "short", year: "numeric" });
}

/** The rating after each rated game, as a small line chart (an inline SVG, no library). */
export function ratingChart(history) {
  if (!history.length) return "";
  const w = 240;
  const h = 60;
  const pad = 4;
  const values = [0, ...history.map((x) => x.rating)];
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = hi - lo || 1;
  const pts = values.map((v, i) => {
    const x = pad + (values.length === 1 ? 0 : (i * (w - 2 * pad)) / (values.length - 1));
    const y = h - pad - ((v - lo) * (h - 2 * pad)) / span;
    return `${x.toFixed(1)},${y.toFixed(1)}`;
  });
  const last = pts[pts.length - 1].split(",");
  return (
    `<svg class="rating-chart" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="${esc(t("profile.chart", { n: history.length }))}">` +
    `<polyline points="${pts.join(" ")}" fill="none" stroke="currentColor" stroke-width="2"/>` +
    `<circle cx="${last[0]}" cy="${last[1]}" r="3" fill="currentColor"/></svg>`
  );
}

export class Profile {
  constructor(root, name) {
    this.root = root;
    this.name = name;
    this.data = null;
    this.root.innerHTML = `<div class="panel profile"><p class="muted">${esc(t("profile.loading"))}</p></div>`;
    this.load();
  }

  async load() {
    try {
      this.data = await api.player(this.name);
    } catch (e) {
      this.root.innerHTML = `<div class="panel notice"><p>${esc(e.status === 404 ? t("profile.notFound", { name: this.name }) : httpRefusal("profile", e))}</p><p><a class="button" href="/">${esc(t("table.toLobby"))}</a></p></div>`;
      return;
    }
    this.render();
  }

  relabel() {
    if (this.data) this.render();
  }

  render() {
    const d = this.data;
    const rank = (g) => (ORDER.includes(g) ? ORDER.indexOf(g) : ORDER.length); // a game added later: after these
    const games = [...d.games].sort((a, b) => rank(a.game) - rank(b.game) || a.game.localeCompare(b.game));
    const rows = games
      .map(
        (g) =>
          `<tr data-game="${esc(g.game)}"><th scope="row"><a href="/leaderboard/${encodeURIComponent(g.game)}">${esc(t(`game.${g.game}`))}</a></th>` +
          `<td class="num">${g.played}</td><td class="num">${g.won}</td>` +
          `<td class="num">${g.win_share === null ? "–" : `${num(g.win_share * 100, 0)} %`}</td>` +
          `<td class="num rating">${g.rating ? esc(num(g.rating.rating)) : "–"}</td>` +
          `<td>${ratingChart(g.history)}</td>` +
          `<td class="num">${g.left}</td></tr>`,
      )
      .join("");
    const recent = d.recent
      .map(
        (r) =>
          `<li data-table="${esc(r.table)}"><b>${esc(t(`game.${r.game}`))}</b> · ${esc(day(r.finished_at))} · ` +
          `${esc(r.left ? t("profile.left") : t("profile.place", { place: r.place, n: r.players }))}` +
          `${r.won ? ` · <span class="won">${esc(t("profile.won"))}</span>` : ""}` +
          `${r.rated ? ` · ${esc(t("quick.ratedShort"))} ${r.change === null ? "" : `<span class="change">${r.change >= 0 ? "+" : ""}${esc(num(r.change, 2))}</span>`}` : ""}` +
          ` <a href="${esc(r.replay)}">${esc(t("profile.replay"))}</a>` +
          `${r.analysis ? ` <a href="${esc(r.analysis)}">${esc(t("profile.analysis"))}</a>` : ""}</li>`,
      )
      .join("");
    const j = d.jass_errors;
    const errors = j
      ? `<p id="jass-errors">${esc(t("profile.errors", { per: num(j.per_card, 2), lost: j.lost, cards: j.cards, errors: j.errors, games: j.games }))}</p>`
      : `<p class="muted" id="jass-errors">${esc(t("profile.noErrors"))}</p>`;
    this.root.innerHTML =
      `<div class="profile">` +
      `<section class="panel"><h2 id="profile-name">${esc(d.name)}</h2><p class="muted">${esc(t("profile.since", { day: day(d.since) }))}</p>` +
      (games.length
        ? `<table class="profile-games"><thead><tr><th>${esc(t("lobby.game"))}</th><th>${esc(t("profile.played"))}</th><th>${esc(t("profile.wins"))}</th>` +
          `<th>${esc(t("profile.share"))}</th><th>${esc(t("profile.rating"))}</th><th>${esc(t("profile.history"))}</th><th>${esc(t("profile.leftN"))}</th></tr></thead><tbody>${rows}</tbody></table>`
        : `<p class="muted">${esc(t("profile.noGames"))}</p>`) +
      `</section>` +
      `<section class="panel"><h3>${esc(t("profile.recent"))}</h3>${recent ? `<ul class="recent-games">${recent}</ul>` : `<p class="muted">${esc(t("profile.noGames"))}</p>`}</section>` +
      `<section class="panel"><h3>${esc(t("profile.errorsTitle"))}</h3>${errors}</section>` +
      `</div>`;
  }
}

export class Leaderboard {
  constructor(root, game, catalog) {
    this.root = root;
    const names = catalog.games.map((x) => x.name);
    this.games = [...ORDER.filter((g) => names.includes(g)), ...names.filter((g) => !ORDER.includes(g))];
    this.game = this.games.includes(game) ? game : this.games[0];
    this.data = null;
    this.load();
  }

  async load() {
    try {
      this.data = await api.leaderboard(this.game);
    } catch (e) {
      this.root.innerHTML = `<div class="panel notice"><p>${esc(httpRefusal("leaderboard", e))}</p></div>`;
      return;
    }
    this.render();
  }

  relabel() {
    if (this.data) this.render();
  }

  render() {
    const d = this.data;
    const tabs = this.games
      .map((g) => `<a class="button${g === this.game ? " primary" : ""}" href="/leaderboard/${g}" aria-current="${g === this.game}">${esc(t(`game.${g}`))}</a>`)
      .join(" ");
    const rows = d.players
      .map(
        (p) =>
          `<tr><td class="num">${p.rank}</td><th scope="row"><a href="/players/${encodeURIComponent(p.name)}">${esc(p.name)}</a></th>` +
          `<td class="num">${esc(num(p.rating))}</td><td class="num">${p.games}</td><td class="num">${p.wins}</td></tr>`,
      )
      .join("");
    this.root.innerHTML =
      `<section class="panel leaderboard"><h2>${esc(t("leaders.title", { game: t(`game.${this.game}`) }))}</h2>` +
      `<nav class="leader-tabs">${tabs}</nav>` +
      `<p class="muted">${esc(t("leaders.about", { n: d.min_games }))}</p>` +
      (rows
        ? `<table class="leader-table"><thead><tr><th>#</th><th>${esc(t("leaders.player"))}</th><th>${esc(t("profile.rating"))}</th><th>${esc(t("profile.played"))}</th><th>${esc(t("profile.wins"))}</th></tr></thead><tbody>${rows}</tbody></table>`
        : `<p class="muted">${esc(t("leaders.empty"))}</p>`) +
      `</section>`;
  }
}
