// Accounts on the page: who is logged in (GET /api/account/session), and the account window. A guest
// logs in or registers there; a logged-in player sees the tables where the account sits (on any
// device), changes the password, logs out here or everywhere, or deletes the account. Guests go
// on playing without one. The login lives in an HttpOnly cookie the page never sees.

import { api } from "./api.js";
import { closeDialogs, dialog, esc, toast } from "./dom.js";
import { t, tableName } from "./i18n.js";
import { httpRefusal } from "./refusals.js";

// What the server allows (docs/server.md, "Accounts"), checked here first to say it at once.
const NAME = /^[\p{L}\p{Nd}](?:[\p{L}\p{M}\p{Nd}_.-]{1,18})[\p{L}\p{M}\p{Nd}]$/u;
const PASSWORD_MIN = 8;

let me = null; // {name, created_at, seats} or null (a guest)
const listeners = [];

/** The logged-in account, or null. */
export function current() {
  return me;
}

/** The name a seat is taken under: the account's (fixed) when logged in, else the one typed last. */
export function seatName(typed) {
  return me ? me.name : typed;
}

/** `f(account or null)` after every login, logout and change. */
export function onChange(f) {
  listeners.push(f);
}

function changed(next) {
  me = next;
  for (const f of listeners) f(me);
}

/** Ask the server who is logged in (a guest is `account: null`, not an error a browser logs). */
export async function load() {
  try {
    const r = await api.session();
    me = r.account ? { ...r.account, seats: r.seats } : null;
  } catch {
    me = null;
  }
  return me;
}

async function reload() {
  changed(await load());
}

function field(name, label, type = "text", extra = "") {
  return `<label class="row"><span class="row-label">${esc(t(label))}</span> <input name="${name}" type="${type}" ${extra}></label>`;
}

function form(id, title, fields, button) {
  return (
    `<form class="account-form" id="${id}" novalidate><h3>${esc(t(title))}</h3>${fields}` +
    `<p class="form-error" role="alert"></p><button type="submit" class="primary">${esc(t(button))}</button></form>`
  );
}

function guestBody() {
  const name = (id) => field("name", "acct.name", "text", `autocomplete="username" maxlength="20" required id="${id}"`);
  return (
    `<p>${esc(t("acct.why"))}</p><div class="account-forms">` +
    form("login-form", "acct.login", name("login-name") + field("password", "acct.password", "password", 'autocomplete="current-password" required'), "acct.loginButton") +
    form("register-form", "acct.register", name("register-name") + field("password", "acct.password", "password", 'autocomplete="new-password" required') +
      `<p class="muted">${esc(t("acct.rules"))}</p>`, "acct.registerButton") +
    `</div>`
  );
}

function accountBody(a) {
  const seats = a.seats || [];
  const list = seats.length
    ? `<ul class="table-list">${seats
        .map((s) => `<li><a href="/tables/${encodeURIComponent(s.table_id)}">${esc(tableName({ name: s.name, game: s.game }))}</a> <span class="muted">${esc(t(`game.${s.game}`))} · ${esc(t("table.seatN", { n: s.seat + 1 }))}</span></li>`)
        .join("")}</ul>`
    : `<p class="muted">${esc(t("acct.noSeats"))}</p>`;
  return (
    `<p>${esc(t("acct.loggedInAs"))} <b id="account-name">${esc(a.name)}</b></p>` +
    `<h3>${esc(t("acct.seats"))}</h3>${list}` +
    `<div class="account-actions"><button type="button" id="logout">${esc(t("acct.logout"))}</button> ` +
    `<button type="button" id="logout-everywhere">${esc(t("acct.logoutEverywhere"))}</button></div>` +
    `<div class="account-forms">` +
    form("password-form", "acct.changePassword", field("password", "acct.oldPassword", "password", 'autocomplete="current-password" required') +
      field("new_password", "acct.newPassword", "password", 'autocomplete="new-password" required'), "acct.changeButton") +
    form("delete-form", "acct.delete", `<p class="muted">${esc(t("acct.deleteWhat"))}</p>` +
      field("password", "acct.password", "password", 'autocomplete="current-password" required'), "acct.deleteButton") +
    `</div>`
  );
}

function fail(f, text) {
  f.querySelector(".form-error").textContent = text;
}

/** Check a form's fields before sending: a reason, or null. */
function check(f) {
  const name = f.elements.name;
  if (name && f.id === "register-form" && !NAME.test(name.value.normalize("NFKC"))) return t("acct.badName");
  if (name && !name.value.trim()) return t("acct.needName");
  const pw = f.elements.new_password || (f.id === "register-form" ? f.elements.password : null);
  if (pw && pw.value.length < PASSWORD_MIN) return t("acct.shortPassword", { n: PASSWORD_MIN });
  if (!f.elements.password.value) return t("acct.needPassword");
  return null;
}

async function submit(f) {
  const why = check(f);
  if (why) return fail(f, why);
  const v = (k) => (f.elements[k] ? f.elements[k].value : undefined);
  const button = f.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    if (f.id === "login-form") await api.login(v("name").trim(), v("password"));
    else if (f.id === "register-form") await api.register(v("name").normalize("NFKC"), v("password"));
    else if (f.id === "password-form") await api.changePassword(v("password"), v("new_password"));
    else if (f.id === "delete-form") {
      if (!confirm(t("acct.deleteConfirm"))) return;
      await api.deleteAccount(v("password"));
    }
  } catch (e) {
    const what = { "login-form": "login", "register-form": "register", "password-form": "password", "delete-form": "delete" }[f.id];
    return fail(f, httpRefusal(what, e));
  } finally {
    button.disabled = false;
  }
  const done = { "login-form": "acct.welcome", "register-form": "acct.welcome", "password-form": "acct.changed", "delete-form": "acct.deleted" }[f.id];
  await reload();
  toast(t(done, { name: me ? me.name : "" }));
  closeDialogs();
}

async function logout(everywhere) {
  try {
    await (everywhere ? api.logoutEverywhere() : api.logout());
  } catch (e) {
    if (e.status !== 401) return toast(httpRefusal("logout", e), "error");
  }
  await reload();
  toast(t(everywhere ? "acct.loggedOutEverywhere" : "acct.loggedOut"));
  closeDialogs();
}

/** The account window: log in or register, or the account's seats and settings. */
export async function accountDialog() {
  await load();
  const a = me;
  await dialog(esc(t(a ? "acct.title" : "acct.guestTitle")), a ? accountBody(a) : guestBody(), {
    id: "account",
    onOpen: (d) => {
      d.addEventListener("submit", (ev) => {
        ev.preventDefault();
        submit(ev.target);
      });
      const out = d.querySelector("#logout");
      if (out) out.addEventListener("click", () => logout(false));
      const all = d.querySelector("#logout-everywhere");
      if (all) all.addEventListener("click", () => logout(true));
    },
  });
}
