// The server's refusals in the page's language. The server says why in English for programs; a
// player reads the page's own words, chosen by the refusal's code (WebSocket) or by what was asked
// and the HTTP status (docs/server.md lists both), never the server's English.

import { has, t } from "./i18n.js";

/** A refused WebSocket message, from its code. */
export function refusalText(code) {
  const key = `refuse.${code}`;
  return has(key) ? t(key) : t("refuse.other", { code: code || "?" });
}

/** A refused HTTP call: by the limit it names (`refuse.limit.CODE`, e.g. a visitor's tables), else
 * from what was asked (`join`, `seat`, `leave`, `open`, `analysis`, `table`) and the answer's
 * status (0: no answer at all). */
export function httpRefusal(what, e) {
  const status = e && typeof e.status === "number" ? e.status : 0;
  if (e && e.code && has(`refuse.limit.${e.code}`)) return t(`refuse.limit.${e.code}`);
  const key = `refuse.${what}.${status}`;
  if (has(key)) return t(key);
  if (status === 0) return t("refuse.noAnswer");
  return t("refuse.http", { status });
}
