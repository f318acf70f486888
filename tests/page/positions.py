"""Games at every kind of decision, and whole deals, as the server sends them to a seat.

A browser test that waits for bots to bring up each decision would wait long, and some decisions
(Stich-Meister's setup picks, rule 34's removal) come only with the rule cards that call for them.
Here the engine plays from a seed with random legal moves until seat 0 faces the decision wanted;
`state_message` then writes what the server would send that seat (the engine's `view(0)`, its
legal actions, the table info beside them: docs/server.md, "The WebSocket"), and `Stage` feeds it
to the page's own live table (`LiveTable` with its socket replaced), which draws it as it draws
every message from a server.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import stichkit
from stichkit.core import State

NAMES = ["Anna", "Ueli", "Heidi", "Sepp", "Luzia"]

# The games as the page tests play them: a full table of each (Stich-Meister with three players
# has the biggest hand, sixteen cards; with five the most seats).
TABLES: dict[str, dict[str, Any]] = {
    "jass": {"profile": "schieber"},
    # the Schieber as Swisslos plays it: every decision a Jass seat can face, a Weis announced at
    # the first card and Stöck called, each mode's factor on its button, a Passe of 12 deals
    "jass-swisslos": {
        "profile": "schieber",
        "weis": "announce",
        "stoeck": "announce",
        "multipliers": "swisslos",
        "deals": 12,
    },
    "differenzler": {"deals": 2},
    "differenzler-open": {"deals": 2, "predictions": "open"},  # everybody's prediction on the plates
    "coiffeur": {"sheet": "10-rows"},
    "coiffeur-around": {"push": "around"},  # a pushed seat may push on
    "stichwahl": {"players": 4},
    "stichling": {"players": 4},
    "stichmeister": {"players": 3},
    "stichmeister-5": {"players": 5},
}


def game_of(table: str) -> str:
    return table.split("-")[0]


def decision(view: dict[str, Any], legal: list[str]) -> str:
    """The kind of decision a seat faces, in the page's terms."""
    phase = str(view["phase"])
    if phase == "setup":
        return f"setup:{view['setup']['action']}"
    if phase == "play" and any(a.startswith("use:") for a in legal):
        return "use"
    if phase == "play" and "weis" in legal:  # Jass weis="announce": a Weis to announce at the first card
        return "weis"
    if phase == "play" and "stoeck" in legal:  # Jass stoeck="announce": Stöck to call
        return "stoeck"
    return phase


# Every kind of decision of each game (Stichling's second step, the place for a picked card, is
# the page's own: the test picks a card to get there).
DECISIONS: dict[str, list[str]] = {
    "jass": ["trump", "pushed", "play"],
    "jass-swisslos": ["trump", "pushed", "weis", "stoeck", "play"],
    "differenzler": ["predict", "play"],
    "differenzler-open": ["predict", "play"],
    "coiffeur": ["trump", "pushed", "play"],
    "coiffeur-around": ["trump", "pushed"],
    "stichwahl": ["first_bonus", "play", "use", "prize", "lead"],
    "stichling": ["order", "play"],
    "stichmeister": ["choose", "setup:pass", "setup:down", "setup:show", "setup:discard", "remove", "play"],
    "stichmeister-5": ["choose", "play"],
}


def new_state(table: str, seed: int) -> State:
    return stichkit.load_game(game_of(table), **TABLES[table]).new_state(seed=seed)


def find(table: str, want: Callable[[State], bool], seeds: int = 400, moves: int = 400) -> State:
    """The first state, over seeds and random play, where `want` holds at seat 0's turn."""
    for seed in range(seeds):
        state = new_state(table, seed)
        rng = random.Random(seed)
        for _ in range(moves):
            if state.is_terminal():
                break
            if state.current_player == 0 and want(state):
                return state
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError(f"{table}: no such position in {seeds} seeds")


def at_decision(table: str, kind: str) -> State:
    def want(state: State) -> bool:
        view = state.view(0)
        legal = [a.text for a in state.legal_actions()]
        if decision(view, legal) != kind:
            return False
        if kind != "play":
            return True
        if game_of(table) == "stichling":  # a card that may go to more than one place
            return two_ways(legal) is not None
        return len(view.get("trick") or []) >= 2  # a trick before the decision: the fullest middle

    return find(table, want)


def two_ways(legal: list[str]) -> str | None:
    """A Stichling card with more than one place to go (picking it brings the place buttons)."""
    cards = [a.split(">")[0] for a in legal]
    return next((c for c in cards if cards.count(c) > 1), None)


def table_info(table: str, state: State, *, status: str = "playing", spectators: int = 0) -> dict[str, Any]:
    """The table info a server sends beside a view (docs/server.md, "Table info"): seat 0 a
    person, the others bots."""
    n = state.game.num_players
    moved = {seat for seat, _ in state.history()}
    seats = [
        {"seat": s, "kind": "human" if s == 0 else "bot", "name": NAMES[0] if s == 0 else "heuristic",
         "bot": None if s == 0 else "heuristic", "claimed": True, "connected": True, "away_since": None,
         "takeover": None, "rematch": s != 0, "moved": s in moved}
        for s in range(n)
    ]  # fmt: skip
    return {
        "id": f"stage-{table}", "name": "", "game": state.game.name, "options": dict(state.game.options),
        "players": n, "private": False, "invite": f"/tables/stage-{table}", "status": status, "game_no": 1,
        "version": len(state.history()), "turn": state.current_player, "deadline": None, "time_left": None,
        "settings": {"takeover": "hand", "grace": 60, "takeover_bot": "bot:heuristic", "move_time": None,
                     "hints": True, "takebacks": True},
        "seats": seats, "spectators": spectators, "rematch": None, "created_at": 0.0, "result": None,
        "takeback": None,
    }  # fmt: skip


def state_message(table: str, state: State, seat: int | None = 0, game_no: int = 1) -> dict[str, Any]:
    history = state.history()
    legal = [a.text for a in state.legal_actions()] if seat is not None and state.current_player == seat else []
    last = {"seat": history[-1][0], "version": len(history), "by": "bot"} if history else None
    info = {**table_info(table, state), "game_no": game_no}
    return {
        "type": "state", "seat": seat, "game_no": game_no, "line": 0, "version": len(history),
        "view": state.view(seat), "legal": legal, "last": last, "table": info,
    }  # fmt: skip


def deal_of(state: State) -> int:
    view = state.view(None)
    return int(view.get("deal_number", view.get("round", 0)))


def one_deal(table: str, seed: int) -> Iterator[State]:
    """Every state of the seed's first deal, and the first of the next (or the game's end)."""
    state = new_state(table, seed)
    rng = random.Random(seed)
    yield state.clone()
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
        yield state.clone()
        if deal_of(state) != 0:
            return


def deal_ends(table: str, seed: int, most: int = 3) -> Iterator[tuple[State, State]]:
    """(the state before a deal's last decision, the state after it) for up to `most` deal ends
    of a random game from `seed`."""
    state = new_state(table, seed)
    rng = random.Random(seed)
    found = 0
    while not state.is_terminal() and found < most:
        before = state.clone()
        state.apply(rng.choice(state.legal_actions()))
        if deal_of(state) != deal_of(before) or state.is_terminal():
            found += 1
            yield before, state.clone()


# The page's own live table, its socket replaced by one that hands the test what the page sends.
STAGE = """async ({ info, seat }) => {
  const { LiveTable } = await import('/static/js/table.js');
  const { adopt } = await import('/static/js/app.js');
  const { api } = await import('/static/js/api.js');
  const prefs = await import('/static/js/prefs.js');
  if (seat !== null) prefs.saveSeat(info.id, seat, 'stage-token', 'Anna');
  window.stageSent = [];
  const connect = (id, token, handlers) => {
    setTimeout(() => handlers.onStatus('open'), 0);
    return { send: (m) => { window.stageSent.push(m); return 'm' + window.stageSent.length; }, close() {} };
  };
  const main = document.querySelector('#main');
  const catalog = await api.games();
  window.stage = new LiveTable(main, info.id, { catalog, info, connect });
  adopt(window.stage);
}"""


class Stage:
    """A page whose table is fed by the test."""

    def __init__(self, page: Any, server_url: str, table: str, state: State, seat: int | None = 0) -> None:
        self.page = page
        self.table = table
        self.game_no = 1
        page.goto(server_url + "/")
        page.wait_for_selector(".lobby")
        page.evaluate(STAGE, {"info": table_info(table, state), "seat": seat})
        page.wait_for_selector(".table-page")

    def feed(self, state: State, seat: int | None = 0, wait: bool = True, fresh: bool = False) -> None:
        """Send the page `state`; `fresh`: as the first state of another game (it does not follow
        from the one shown)."""
        self.game_no += fresh
        msg = state_message(self.table, state, seat, self.game_no)
        self.page.evaluate("m => window.stage.onMessage(m)", json.loads(json.dumps(msg)))
        if wait:
            self.settle(msg["version"])

    def frame(self) -> None:
        """Wait until the page has drawn a frame (after a change of the window's size, say)."""
        self.page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")

    def settle(self, version: int, each: Callable[[], None] | None = None) -> None:
        """Wait until the page shows `version`, tapping the table through any pause on the way
        (a taken trick, a deal's summary); `each` is called at every step shown, pauses too."""
        measured = False  # a pause is tapped away once `each` has seen it
        for _ in range(200):
            if each:
                each()
            step = self.page.evaluate(
                """([v, tap]) => { const s = window.stage;
                  if (tap && s.skipWait) s.skipWait();
                  const shown = s.shown && s.shown.version === v && !s.pumping && !s.queue.length;
                  return { shown, waiting: !!s.skipWait }; }""",
                [version, measured],
            )
            if step["shown"] and not step["waiting"]:
                if each:
                    each()  # the version itself
                return
            measured = step["waiting"]
            if not step["waiting"]:
                self.page.wait_for_timeout(20)
        raise AssertionError(f"the page did not show version {version}")
