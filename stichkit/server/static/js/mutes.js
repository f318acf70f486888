// Names whose chat lines the page folds away. A logged-in player's are the account's, kept by the
// server (GET, POST and DELETE /api/mutes, docs/server.md), so they follow the login to every
// device; a guest's stay in this browser (the "muted" setting).

import * as account from "./account.js";
import { api } from "./api.js";
import * as prefs from "./prefs.js";

const MAX = 200; // names muted at once (the server's limit too)

let mine = []; // the account's muted names, as last loaded

/** The muted names: the account's when logged in, else this browser's. */
export function names() {
  return new Set(account.current() ? mine : prefs.get("muted") || []);
}

/** Ask the server for the account's muted names (a guest has none there). */
export async function load() {
  if (!account.current()) {
    mine = [];
    return;
  }
  try {
    mine = (await api.mutes()).muted;
  } catch {
    // no answer: the names last loaded stay
  }
}

/** Mute a name, or show it again: for the account (the server's answer is the new list), else
 * in this browser. Throws the server's refusal (ApiError). */
export async function set(name, muted) {
  if (!account.current()) {
    const list = (prefs.get("muted") || []).filter((x) => x !== name);
    if (muted) list.push(name);
    prefs.set("muted", list.slice(-MAX));
    return;
  }
  try {
    mine = (muted ? await api.mute(name) : await api.unmute(name)).muted;
  } catch (e) {
    if (!muted && e.status === 404) await load(); // shown again on another device already
    else throw e;
  }
}
