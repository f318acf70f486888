// The lobby's friends panel, for a logged-in player: add a friend by user name; friends (who
// added each other) show whether they are online and the tables they sit at, to watch or join;
// requests wait until the other adds back (docs/server.md, "Friends and reports").

import * as account from "./account.js";
import { api } from "./api.js";
import { esc } from "./dom.js";
import { t } from "./i18n.js";
import { httpRefusal } from "./refusals.js";

export class FriendsPanel {
  constructor(box) {
    this.box = box;
    this.data = null;
    this.box.className = "panel friends";
    this.box.addEventListener("click", (ev) => this.onClick(ev));
    this.box.addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.add(ev.target.elements.friend.value.trim());
    });
    this.refresh();
  }

  async refresh() {
    const who = account.current() ? account.current().name : null;
    if (who !== this.who) {
      this.who = who; // another login: the panel is drawn afresh
      this.box.innerHTML = "";
    }
    if (!account.current()) {
      this.data = null;
      this.render();
      return;
    }
    try {
      this.data = await api.friends();
    } catch {
      this.data = null;
    }
    this.render();
  }

  render() {
    const me = account.current();
    const head =
      `<div class="panel-head"><h2 id="friends-title">${esc(t("friends.title"))}</h2>` +
      (me ? `<a class="small" id="my-profile" href="/players/${encodeURIComponent(me.name)}">${esc(t("friends.myProfile"))}</a>` : "") +
      `</div>`;
    if (!account.current()) {
      this.box.innerHTML = `${head}<p class="muted small">${esc(t("friends.guest"))}</p>`;
      return;
    }
    const d = this.data || { friends: [], asked: [], asking: [] };
    const person = (name) => `<a href="/players/${encodeURIComponent(name)}">${esc(name)}</a>`;
    const where = (x) =>
      x.private
        ? esc(t("friends.private", { game: t(`game.${x.game}`) }))
        : `<a href="/tables/${encodeURIComponent(x.table)}">${esc(t("friends.at", { game: t(`game.${x.game}`), status: t(`status.${x.status}`) }))}</a>`;
    const friends = d.friends
      .map(
        (f) =>
          `<li data-friend="${esc(f.name)}"><span class="presence ${f.online ? "on" : "off"}" aria-hidden="true"></span> ${person(f.name)} ` +
          `<span class="muted small">${esc(f.online ? t("friends.online") : t("friends.offline"))}</span>` +
          (f.tables.length ? ` · ${f.tables.map(where).join(" · ")}` : "") +
          ` <button type="button" class="link small" data-remove="${esc(f.name)}">${esc(t("friends.remove"))}</button></li>`,
      )
      .join("");
    const asking = d.asking
      .map((n) => `<li>${person(n)} <button type="button" class="small primary" data-accept="${esc(n)}">${esc(t("friends.accept"))}</button></li>`)
      .join("");
    const asked = d.asked.map((n) => `<li>${person(n)} <span class="muted small">${esc(t("friends.waiting"))}</span> <button type="button" class="link small" data-remove="${esc(n)}">${esc(t("friends.withdraw"))}</button></li>`).join("");
    // the form is drawn once (a refresh every few seconds must not eat what is being typed)
    if (!this.box.querySelector(".friend-form")) {
      this.box.innerHTML =
        head +
        `<form class="friend-form" novalidate><label class="row"><span class="row-label">${esc(t("friends.add"))}</span> <input name="friend" maxlength="40" autocomplete="off" placeholder="${esc(t("friends.namePlaceholder"))}"></label>` +
        `<button type="submit" class="small">${esc(t("friends.addButton"))}</button><p class="form-error" id="friend-error" role="alert"></p></form>` +
        `<div id="friend-lists"></div>`;
    }
    this.box.querySelector("#friend-lists").innerHTML =
      (friends ? `<ul class="friend-list" id="friend-list">${friends}</ul>` : `<p class="muted small">${esc(t("friends.none"))}</p>`) +
      (asking ? `<h3>${esc(t("friends.asking"))}</h3><ul class="friend-list" id="friend-asking">${asking}</ul>` : "") +
      (asked ? `<h3>${esc(t("friends.asked"))}</h3><ul class="friend-list" id="friend-asked">${asked}</ul>` : "");
  }

  async add(name) {
    if (!name) return;
    const err = this.box.querySelector("#friend-error");
    try {
      this.data = await api.addFriend(name);
      const input = this.box.querySelector('input[name="friend"]');
      if (input) input.value = "";
      if (err) err.textContent = "";
      this.render();
    } catch (e) {
      if (err) err.textContent = httpRefusal("friend", e);
    }
  }

  async onClick(ev) {
    const b = ev.target.closest("button");
    if (!b) return;
    if (b.dataset.accept) await this.add(b.dataset.accept);
    else if (b.dataset.remove) {
      try {
        this.data = await api.removeFriend(b.dataset.remove);
      } catch {
        await this.refresh();
        return;
      }
      this.render();
    }
  }
}
