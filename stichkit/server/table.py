"""A table in memory: its game state, seats, presence and connections. No input or output
happens here, and nothing is stored: the hub (hub.py) does that. What a request may not do now is
in refusals.py, and every message built from the table's views in messages.py.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from stichkit.core import Game, State

from .botrunner import SeatBot
from .connection import CLOSE_REVOKED, Client
from .model import Seat, StoredAction, StoredTable, TakebackRequest, rebuilt


@dataclass(frozen=True)
class TableSettings:
    takeover: str  # hand | game | off
    grace: float
    takeover_bot: str  # "bot:SPEC"
    move_time: float | None
    hints: bool = True  # players may ask the game's hint bot what it would play (tables stored before: yes)
    takebacks: bool = True  # players may take moves back (tables stored before: yes)
    # One screen for several players (a family): a person may hold several seats, and take another
    # seat of a game in play (tables stored before: no).
    shared_screen: bool = False
    rated: bool = False  # account holders only; each game changes their ratings (tables stored before: no)

    def as_dict(self) -> dict[str, Any]:
        return {"takeover": self.takeover, "grace": self.grace, "takeover_bot": self.takeover_bot,
                "move_time": self.move_time, "hints": self.hints, "takebacks": self.takebacks,
                "shared_screen": self.shared_screen, "rated": self.rated}  # fmt: skip

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TableSettings:
        return cls(d["takeover"], float(d["grace"]), d["takeover_bot"], d.get("move_time"),
                   bool(d.get("hints", True)), bool(d.get("takebacks", True)),
                   bool(d.get("shared_screen", False)), bool(d.get("rated", False)))  # fmt: skip


def hand_of(public_view: dict[str, Any]) -> int:
    """Which hand (deal, round) the game is in, from the spectator's view: `deal_number`
    (Jass, Stichwahl, Stichling) or `round` (Stich-Meister)."""
    return int(public_view.get("deal_number", public_view.get("round", 0)))


class LiveTable:
    """One table as this process holds it. `lock` orders everything that reads or changes it."""

    def __init__(self, stored: StoredTable, game: Game, seat_bots: list[SeatBot | None], takeover_bot: SeatBot,
                 now: float) -> None:  # fmt: skip
        self.id = stored.id
        self.name = stored.name
        self.game = game
        self.private = stored.private
        self.settings = TableSettings.from_dict(stored.settings)
        self.created_at = stored.created_at
        self.opened_by = stored.opened_by  # the client that opened it (clients.client_key)
        self.seat_bots = seat_bots
        self.takeover_bot = takeover_bot
        self.lock = asyncio.Lock()
        self.clients: set[Client] = set()
        n = game.num_players
        self.local = [0] * n  # this process's connections per seat
        self.local_watchers = 0
        self.peers: dict[str, tuple[list[int], int]] = {}  # other processes' connections: (per seat, spectators)
        self.away_since: list[float | None] = [None] * n
        self.pending: asyncio.Task[None] | None = None  # a bot or timer move being made
        self.last_hint: tuple[int, int, int, str] | None = None  # (game, version, seat, action), said again
        self.hints_due: set[tuple[int, int, int]] = set()  # (game, version, seat) of hints being worked out
        self.syncing = False
        self.chat_due = False  # another process said something at this table: read the new lines
        self.dropped = False  # swept (here or by another process): nothing may happen here any more
        self.resync = False
        # The newest chat line this process has passed on (or that was there when it read the
        # table): lines past it are new to the table's connections.
        self.last_chat_id = stored.last_chat
        self.load_game(stored, now)
        self.seen_at = now  # someone had the table open (any connection)
        self.refresh_presence(now)

    # -- the game ----------------------------------------------------------------------------

    def load_game(self, stored: StoredTable, now: float) -> None:
        """The current game from its seed and every stored action (the restart path)."""
        assert stored.complete
        self.status = stored.status
        self.game_no = stored.game_no
        self.seed = stored.seed
        self.line = stored.line
        self.set_takeback(stored.takeback)
        self.rev = stored.rev
        self.seats: list[Seat] = [Seat(**vars(s)) for s in stored.seats]
        self.updated_at = stored.updated_at
        self.state: State = self.game.new_state(seed=stored.seed)
        self.version = 0
        self.last: dict[str, Any] | None = None
        self.human_at = stored.started_at
        for a in stored.actions:
            self.apply_stored(a)
        self.moved_at = now  # a restarted server gives the move timer and the bots' pause afresh
        self._hand: tuple[tuple[int, int, int], int] = ((-1, -1, -1), 0)  # (game, line, version) -> hand
        self._movers: tuple[tuple[int, int, int], set[int]] = ((-1, -1, -1), set())

    def apply_stored(self, a: StoredAction) -> None:
        if a.version != self.version + 1:
            raise ValueError(f"table {self.id}: action {a.version} follows version {self.version}")
        self.state.apply(a.action)
        self.version = a.version
        self.last = {"seat": a.seat, "version": a.version, "by": a.by}
        self.moved_at = a.at
        if a.by == "human":
            self.human_at = max(self.human_at, a.at)

    def take_back_to(self, version: int) -> None:
        """The game as it was after `version` decisions: replayed from the seed, the way every
        process and every restart builds it from the stored actions."""
        self.state = rebuilt(self.game, self.seed, [a.text for _, a in self.state.history()[:version]])
        self.version = version
        self.line += 1
        self.set_takeback(None)  # done with, as the store does on a takeback

    def set_takeback(self, text: str | None) -> None:
        """The takeback request as stored (its text is what a change must be stored over)."""
        self.takeback_text = text
        self.takeback = TakebackRequest.parse(text)

    def shown_takeback(self) -> TakebackRequest | None:
        """The request of this game and line while it is played, open or declined (else None)."""
        r = self.takeback
        if r is None or self.status != "playing" or (r.game, r.line) != (self.game_no, self.line):
            return None
        return r

    def open_takeback(self) -> TakebackRequest | None:
        r = self.shown_takeback()
        return r if r is not None and r.no is None else None

    def takeback_voters(self, seat: int) -> list[int]:
        """Who must agree to `seat`'s takeback: every other seat a player holds (whether a bot
        plays it for them now or not). Nobody: `seat` takes back at once."""
        return [i for i, s in enumerate(self.seats) if i != seat and s.kind == "human" and s.token_hash is not None]

    @property
    def n(self) -> int:
        return self.game.num_players

    @property
    def turn(self) -> int | None:
        return self.state.current_player

    def hand(self) -> int:
        # Keyed by the whole position in the table's history: after a takeback, the same version
        # on the new line may be in another hand (a push is one decision more than naming trump).
        key = (self.game_no, self.line, self.version)
        if self._hand[0] != key:
            self._hand = (key, hand_of(self.state.view(None)))
        return self._hand[1]

    def bot_for(self, seat: int) -> SeatBot | None:
        """Who plays the seat when it is not a human: its own bot, or the takeover bot."""
        if self.seats[seat].kind == "bot":
            return self.seat_bots[seat]
        if self.seats[seat].takeover is not None:
            return self.takeover_bot
        return None

    def deadline(self) -> float | None:
        turn = self.turn
        if self.settings.move_time is None or self.status != "playing" or turn is None or self.bot_for(turn):
            return None
        return self.moved_at + self.settings.move_time

    def movers(self) -> set[int]:
        """The seats that have made a decision in this game: each has a move it may take back."""
        key = (self.game_no, self.line, self.version)
        if self._movers[0] != key:
            self._movers = (key, {who for who, _ in self.state.history()})
        return self._movers[1]

    def takeback_to(self, seat: int) -> int | None:
        """The version before `seat`'s last decision: a takeback undoes it and every later one."""
        for i, (who, _) in enumerate(reversed(self.state.history())):
            if who == seat:
                return self.version - i - 1
        return None

    def takeovers_ending(self) -> dict[int, dict[str, Any]]:
        """The seats whose takeover for a hand ends with the decision just applied: a new hand
        has begun and the human is back."""
        if self.state.is_terminal() or not any(s.takeover == "hand" for s in self.seats):
            return {}
        hand = hand_of(self.state.view(None))
        return {
            i: {"takeover": None, "takeover_hand": None}
            for i, s in enumerate(self.seats)
            if s.takeover == "hand" and s.takeover_hand is not None and s.takeover_hand != hand and self.connected(i)
        }

    def result(self) -> dict[str, Any] | None:
        if not self.state.is_terminal():
            return None
        return {"scores": self.state.scores(), "winners": self.state.winners()}

    # -- seats and presence ------------------------------------------------------------------

    def seat_of(self, token_hash: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and s.token_hash == token_hash:
                return i
        return None

    def count(self, client: Client, delta: int) -> None:
        """A connection of this process comes (+1) or goes (-1)."""
        if client.seat is None:
            self.local_watchers += delta
        else:
            self.local[client.seat] += delta

    def recount(self) -> set[int]:
        """After seats moved (a rematch, a lost seat, a seat changed): each connection as the seat
        its token holds now. The seats whose connections came from another seat."""
        self.local = [0] * self.n
        self.local_watchers = 0
        moved: set[int] = set()
        for c in list(self.clients):
            if c.token_hash is not None:
                seat = self.seat_of(c.token_hash)
                if seat is None:
                    c.close(CLOSE_REVOKED, "this token holds no seat at this table any more")
                    self.clients.discard(c)
                    continue
                if seat != c.seat:
                    moved.add(seat)
                c.seat = seat
            self.count(c, +1)
        return moved

    def free_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "human" and s.token_hash is None]

    def connected(self, seat: int) -> bool:
        if self.seats[seat].kind == "bot":
            return True
        return self.local[seat] > 0 or any(counts[seat] > 0 for counts, _ in self.peers.values())

    def spectators(self) -> int:
        return self.local_watchers + sum(w for _, w in self.peers.values())

    def anyone_here(self) -> bool:
        return any(self.local) or self.spectators() > 0 or any(any(c) for c, _ in self.peers.values())

    def humans_here(self) -> bool:
        return any(s.kind == "human" and s.token_hash and self.connected(i) for i, s in enumerate(self.seats))

    def refresh_presence(self, now: float) -> None:
        for i, s in enumerate(self.seats):
            if s.kind != "human" or s.token_hash is None or self.connected(i):
                self.away_since[i] = None
            elif self.away_since[i] is None:
                self.away_since[i] = now
        if self.anyone_here():
            self.seen_at = now
        if self.humans_here():
            self.human_at = now

    def rematch_info(self) -> dict[str, Any] | None:
        if self.status != "over" or not any(s.rematch for s in self.seats if s.kind == "human"):
            return None
        votes = [i for i, s in enumerate(self.seats) if s.rematch or s.kind == "bot"]
        needed = [i for i, s in enumerate(self.seats) if s.kind == "human" and s.token_hash and self.connected(i)]
        return {"votes": votes, "needed": needed}

    def rematch_ready(self) -> bool:
        info = self.rematch_info()
        return info is not None and all(i in info["votes"] for i in info["needed"])

    def rotated_seats(self) -> list[Seat]:
        """Everyone one seat further: seat s's player plays seat s+1 (partners stay partners)."""
        n = self.n
        return [
            Seat(kind=s.kind, bot=s.bot, name=s.name, token_hash=s.token_hash, account=s.account, person=s.person)
            for s in (self.seats[(i - 1) % n] for i in range(n))
        ]

    def takeback_info(self) -> dict[str, Any] | None:
        r = self.shown_takeback()
        if r is None:
            return None
        return {"seat": r.seat, "to": r.to, "undone": self.version - r.to, "votes": list(r.yes),
                "needed": self.takeback_voters(r.seat), "declined": r.no, "asked_at": r.at}  # fmt: skip

    def legal_for(self, seat: int | None) -> list[str]:
        if seat is None or self.status != "playing" or self.turn != seat or self.bot_for(seat) is not None:
            return []
        return [a.text for a in self.state.legal_actions()]

    def view_for(self, seat: int | None) -> dict[str, Any] | None:
        """What `seat` sees of the game: its view once the game is played; nothing while the table
        waits for players. The deal is made when the table is opened: a hand seen there, left and
        sat down again elsewhere, would tell two hands, and even the spectator's view would tell
        who holds the start card (Jass's forehand, the player to move)."""
        return None if self.status == "waiting" else self.state.view(seat)
