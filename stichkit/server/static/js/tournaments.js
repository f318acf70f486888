// The tournaments (/tournaments): the newest ones, each with a link to its page, and the form
// that opens one (its organiser is whoever opens it). The rules of each format are the arena's
// (docs/tournaments.md); the server refuses a setting a format cannot play, and the page says so.

import { api } from "./api.js";
import { esc } from "./dom.js";
import { t } from "./i18n.js";
import { httpRefusal } from "./refusals.js";

const TEAM_FORMATS = ["swiss", "passe", "duplicate"];
const FREE_FORMATS = ["free", "duplicate"];

/** The formats the form offers for a game at its usual player count (a two-player game's Swiss
 * system is opened through the API, with the game's `players` option). */
export function formatsOf(game) {
  return ["jass", "coiffeur"].includes(game) ? TEAM_FORMATS : FREE_FORMATS;
}

/** The games whose round can be a number of deals (the tournament setting deals_per_round). */
export const DEALT_GAMES = ["jass", "differenzler"];

export class TournamentList {
  constructor(root, catalog) {
    this.root = root;
    this.games = catalog.games.map((g) => g.name);
    this.game = this.games.includes("jass") ? "jass" : this.games[0];
    this.list = [];
    this.error = "";
    this.root.addEventListener("change", (ev) => {
      if (ev.target.name === "game") {
        // the formats this game plays; what is typed in the form stays
        this.game = ev.target.value;
        const formats = formatsOf(this.game);
        this.root.querySelector("select[name=format]").innerHTML = formats.map((f) => `<option value="${f}">${esc(t(`tour.format.${f}`))}</option>`).join("");
        this.root.querySelector("#tour-open-rule").textContent = t(`tour.rule.${formats[0]}`);
        this.root.querySelector("#tour-deals").hidden = !DEALT_GAMES.includes(this.game);
      } else if (ev.target.name === "format") {
        this.root.querySelector("#tour-open-rule").textContent = t(`tour.rule.${ev.target.value}`);
      }
    });
    this.root.addEventListener("submit", (ev) => this.submit(ev));
    this.render();
    this.refresh();
    this.poll = setInterval(() => this.refresh(), 5000);
  }

  destroy() {
    clearInterval(this.poll);
  }

  relabel() {
    this.render();
  }

  async refresh() {
    try {
      this.list = (await api.tournaments()).tournaments;
    } catch (e) {
      this.error = httpRefusal("tournaments", e);
    }
    const box = this.root.querySelector("#tour-list");
    if (box) box.outerHTML = this.listHtml();
  }

  listHtml() {
    if (!this.list.length) return `<div id="tour-list"><p class="muted">${esc(this.error || t("tour.none"))}</p></div>`;
    return (
      `<div id="tour-list"><ul class="tour-list">` +
      this.list
        .map(
          (x) =>
            `<li><a href="/tournaments/${encodeURIComponent(x.id)}"><b>${esc(x.name)}</b></a> · ${esc(t(`game.${x.game}`))} · ${esc(t(`tour.format.${x.format}`))}` +
            ` · ${esc(t("tour.entrants", { n: x.entrants }))} · ${esc(t(`tour.status.${x.status}`))}</li>`,
        )
        .join("") +
      `</ul></div>`
    );
  }

  render() {
    const formats = formatsOf(this.game);
    this.root.innerHTML =
      `<div class="tournament">` +
      `<section class="panel" aria-labelledby="tour-list-title"><h2 id="tour-list-title">${esc(t("tour.all"))}</h2>${this.listHtml()}</section>` +
      `<section class="panel" aria-labelledby="tour-open-title"><h2 id="tour-open-title">${esc(t("tour.open"))}</h2>` +
      `<form id="tour-open" class="tour-open" novalidate>` +
      `<label>${esc(t("tour.name"))} <input name="name" required maxlength="40" value="${esc(t("tour.defaultName"))}"></label>` +
      `<label>${esc(t("lobby.game"))} <select name="game">${this.games.map((g) => `<option value="${g}"${g === this.game ? " selected" : ""}>${esc(t(`game.${g}`))}</option>`).join("")}</select></label>` +
      `<label>${esc(t("tour.format"))} <select name="format">${formats.map((f) => `<option value="${f}">${esc(t(`tour.format.${f}`))}</option>`).join("")}</select></label>` +
      `<label>${esc(t("tour.roundsLabel"))} <input name="rounds" type="number" min="1" max="50" value="3"></label>` +
      `<label>${esc(t("tour.gamesPerRound"))} <input name="games_per_round" type="number" min="1" max="20" value="1"></label>` +
      `<label id="tour-deals"${DEALT_GAMES.includes(this.game) ? "" : " hidden"}>${esc(t("tour.dealsPerRound"))} ` +
      `<input name="deals_per_round" type="number" min="1" max="100" placeholder="${esc(t("tour.dealsOpen"))}"></label>` +
      `<label>${esc(t("tour.registration"))} <select name="registration">${["anyone", "accounts", "invitation"].map((r) => `<option value="${r}">${esc(t(`tour.reg.${r}`))}</option>`).join("")}</select></label>` +
      `<label>${esc(t("tour.moveTime"))} <input name="move_time" type="number" min="1" max="3600" placeholder="${esc(t("tour.noClock"))}"></label>` +
      `<label class="check"><input type="checkbox" name="rated"> ${esc(t("tour.rated"))}</label>` +
      `<p class="muted" id="tour-open-rule">${esc(t(`tour.rule.${formats[0]}`))}</p>` +
      `<button type="submit" class="primary" id="tour-open-button">${esc(t("tour.openButton"))}</button>` +
      `<p id="tour-open-message" class="tour-message bad" role="status"></p>` +
      `</form></section></div>`;
  }

  async submit(ev) {
    ev.preventDefault();
    const data = new FormData(ev.target);
    const body = {
      name: data.get("name").toString().trim(),
      game: data.get("game").toString(),
      format: data.get("format").toString(),
      rounds: Number(data.get("rounds")),
      games_per_round: Number(data.get("games_per_round")),
      registration: data.get("registration").toString(),
      rated: data.get("rated") === "on",
    };
    const deals = (data.get("deals_per_round") || "").toString().trim();
    if (deals && DEALT_GAMES.includes(body.game)) body.deals_per_round = Number(deals);
    const clock = data.get("move_time").toString().trim();
    if (clock) body.move_time = Number(clock);
    try {
      const made = await api.openTournament(body);
      location.assign(`/tournaments/${encodeURIComponent(made.id)}`);
    } catch (e) {
      this.root.querySelector("#tour-open-message").textContent = httpRefusal("tourOpen", e);
    }
  }
}
