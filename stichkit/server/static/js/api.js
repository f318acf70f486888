// Talking to `stich serve`: JSON over HTTP (docs/server.md, "HTTP routes") and the table's
// WebSocket, which reconnects by itself after a network drop or a server restart.

export class ApiError extends Error {
  constructor(status, message, code = null) {
    super(message);
    this.status = status;
    this.code = code; // the limit or rule that refused, where the server names one (e.g. client_tables)
  }
}

async function call(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, String(e.message || e));
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, (data && data.error) || `HTTP ${res.status}`, (data && data.code) || null);
  return data;
}

export const api = {
  games: () => call("GET", "/api/games"),
  tables: () => call("GET", "/api/tables"),
  table: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}`),
  open: (spec) => call("POST", "/api/tables", spec),
  join: (id, name, seat) => call("POST", `/api/tables/${encodeURIComponent(id)}/join`, seat === undefined ? { name } : { name, seat }),
  moveSeat: (id, token, seat) => call("POST", `/api/tables/${encodeURIComponent(id)}/seat`, { seat }, token),
  leave: (id, token) => call("POST", `/api/tables/${encodeURIComponent(id)}/leave`, {}, token),
  games_of: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}/games`),
  replay: (id, game) => call("GET", `/api/tables/${encodeURIComponent(id)}/replay${game ? `?game=${game}` : ""}`),
  report: (id, line, token, reason) =>
    call("POST", `/api/tables/${encodeURIComponent(id)}/chat/${encodeURIComponent(line)}/report`, reason ? { reason } : {}, token),
  friends: () => call("GET", "/api/friends"),
  addFriend: (name) => call("POST", "/api/friends", { name }),
  removeFriend: (name) => call("DELETE", `/api/friends/${encodeURIComponent(name)}`),
  mutes: () => call("GET", "/api/mutes"),
  mute: (name) => call("POST", "/api/mutes", { name }),
  unmute: (name) => call("DELETE", `/api/mutes/${encodeURIComponent(name)}`),
  player: (name) => call("GET", `/api/players/${encodeURIComponent(name)}`),
  leaderboard: (game) => call("GET", `/api/leaderboard/${encodeURIComponent(game)}`),
  quickQueues: () => call("GET", "/api/quick"),
  quickJoin: (spec) => call("POST", "/api/quick", spec),
  quickNews: (ticket) => call("GET", "/api/quick/me", undefined, ticket),
  quickBots: (ticket, bot) => call("POST", "/api/quick/bots", { bot }, ticket),
  quickLeave: (ticket) => call("POST", "/api/quick/leave", {}, ticket),
  // accounts: the login is an HttpOnly cookie, sent with every call of this page
  session: () => call("GET", "/api/account/session"),
  register: (name, password) => call("POST", "/api/account/register", { name, password }),
  login: (name, password) => call("POST", "/api/account/login", { name, password }),
  logout: () => call("POST", "/api/account/logout"),
  logoutEverywhere: () => call("POST", "/api/account/logout-everywhere"),
  changePassword: (password, newPassword) => call("POST", "/api/account/password", { password, new_password: newPassword }),
  deleteAccount: (password) => call("DELETE", "/api/account", { password }),
  // tournaments (docs/server.md): the page follows one by its revision
  tournaments: () => call("GET", "/api/tournaments"),
  tournament: (id) => call("GET", `/api/tournaments/${encodeURIComponent(id)}`),
  tournamentRev: (id) => call("GET", `/api/tournaments/${encodeURIComponent(id)}/rev`),
  openTournament: (spec) => call("POST", "/api/tournaments", spec),
  tournamentRegister: (id, body) => call("POST", `/api/tournaments/${encodeURIComponent(id)}/register`, body),
  tournamentLeave: (id) => call("POST", `/api/tournaments/${encodeURIComponent(id)}/unregister`, {}),
  tournamentBot: (id, body) => call("POST", `/api/tournaments/${encodeURIComponent(id)}/bots`, body),
  tournamentStep: (id, step) => call("POST", `/api/tournaments/${encodeURIComponent(id)}/${step}`, {}),
  analyse: (id, game) => call("POST", `/api/tables/${encodeURIComponent(id)}/analysis${game ? `?game=${game}` : ""}`),
};

/**
 * The live table. `onMessage(msg)` gets every server message; `onStatus(s)` gets "connecting",
 * "open", "closed" (with a close code) and "gone" (the table or seat is no more: no retry).
 */
export class TableSocket {
  constructor(id, token, { onMessage, onStatus }) {
    this.id = id;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.retry = 0;
    this.closed = false;
    this.nextId = 1;
    this.connect();
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws/tables/${encodeURIComponent(this.id)}`;
  }

  // The seat's token travels as a subprotocol, beside "stichkit": unlike a query string, no
  // server or proxy log records it (docs/server.md, "The WebSocket").
  protocols() {
    return this.token ? ["stichkit", `stichkit.token.${this.token}`] : ["stichkit"];
  }

  connect() {
    this.onStatus("connecting");
    const ws = new WebSocket(this.url(), this.protocols());
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.onStatus("open");
    };
    ws.onmessage = (ev) => {
      // a socket this page has closed or replaced (a join reconnects with the seat's token)
      // says nothing more: its spectator view must not undo the seat
      if (this.closed || this.ws !== ws) return;
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg && typeof msg === "object") this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.closed) return;
      if (ev.code === 4401 || ev.code === 4410) {
        this.onStatus("gone", ev.code);
        return;
      }
      this.onStatus("closed", ev.code, this.retry);
      const wait = Math.min(10000, 500 * 2 ** this.retry++);
      this.timer = setTimeout(() => this.connect(), wait);
    };
  }

  /** Send a message; answers the id it carries (errors echo it as `ref`). */
  send(msg) {
    const id = `m${this.nextId++}`;
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ ...msg, id }));
      return id;
    }
    return null;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
