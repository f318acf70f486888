// Small DOM helpers: escaping, dialogs, copying a link. The page builds its HTML from strings;
// everything that comes from outside (names, chat, reasons) goes through `esc`.

import { esc } from "./cards/common.js";
import { t } from "./i18n.js";

export { esc };

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

/** Show a modal dialog with a title and HTML body; resolves when it is closed. */
export function dialog(title, body, { id = "dialog", wide = false, onOpen = null } = {}) {
  const old = document.getElementById(id);
  if (old) old.remove();
  const d = document.createElement("dialog");
  d.id = id;
  d.className = wide ? "panel dialog wide" : "panel dialog";
  d.setAttribute("aria-labelledby", `${id}-title`);
  d.innerHTML =
    `<div class="dialog-head"><h2 id="${id}-title">${title}</h2>` +
    `<button type="button" class="icon-button close" data-close aria-label="${esc(t("close"))}">✕</button></div>` +
    `<div class="dialog-body">${body}</div>`;
  document.body.appendChild(d);
  d.addEventListener("click", (ev) => {
    if (ev.target === d || ev.target.closest("[data-close]")) d.close();
  });
  const done = new Promise((resolve) => d.addEventListener("close", () => { d.remove(); resolve(d.returnValue); }));
  d.showModal();
  if (onOpen) onOpen(d);
  return done;
}

export function closeDialogs() {
  let closed = false;
  for (const d of $$("dialog[open]")) {
    d.close();
    closed = true;
  }
  return closed;
}

/** Copy text to the clipboard; falls back to selecting it in a field. */
export async function copy(text, field = null) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (field) {
      field.focus();
      field.select();
      try {
        return document.execCommand("copy");
      } catch {
        return false;
      }
    }
    return false;
  }
}

let toastTimer = null;
/** A short message at the bottom of the window. */
export function toast(text, kind = "info") {
  let el = document.getElementById("toast");
  if (!el) {
    el = document.createElement("div");
    el.id = "toast";
    el.setAttribute("role", "status");
    document.body.appendChild(el);
  }
  el.className = `toast ${kind} show`;
  el.textContent = text;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el.classList.remove("show"), 3500);
}

export function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Give focus back to the element drawn again under the key `focus` (data-focus-key), so a redraw
 * does not take the keyboard away; a text field gets its caret at the end of what was typed.
 */
export function refocus(root, focus) {
  if (!focus) return;
  const el = root.querySelector(`[data-focus-key="${CSS.escape(focus)}"]`);
  if (!el) return;
  el.focus({ preventScroll: true });
  if (el.tagName === "INPUT" && el.type === "text") el.setSelectionRange(el.value.length, el.value.length);
}
