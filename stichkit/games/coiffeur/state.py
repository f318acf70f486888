"""A whole Coiffeur game, deal after deal, as the players run it:
deal → the forehand announces a mode still open on its team's sheet, or pushes (to the partner,
who must announce; or, with push="around", on round the table: pushing.py) → nine tricks → the
announcing team writes its points × the row's multiplier → next deal, the forehand to the right,
until both sheets are full. The higher total wins.
"""

from __future__ import annotations

import random
from typing import Any

from stichkit.cards import bits
from stichkit.core.action import Action
from stichkit.core.errors import IllegalActionError, Reason, UndoError, game_over, not_held
from stichkit.games.jass.trick_play import TrickPlay

from . import sampling, views
from .actions import (
    ACTION_ID_OF,
    ACTION_TEXTS,
    ACTIONS,
    BY_SUIT,
    OVER,
    PHASE_NAMES,
    PLAY,
    PUSH,
    PUSHED,
    TRUMP,
    TRUMP_ACTION,
)
from .cards import PLAY_MODE_NAMES, PLAY_MODES, TRICK_MODES
from .deals import Hands, deal_hands, deal_json
from .position import COPIED_FIELDS, SHARED_FIELDS, CoiffeurFields, DealFacts, DealSummary, Snapshot, Trick, new_tuple
from .pushing import asked, chooser_after, may_push
from .rules import (
    Sheet,
    forehand_of,
    legal_cards,
    open_modes,
    row_for,
    sheet_of,
    why_not,
    written,
)

SHIFT = 64  # 47 actions: seat * 64 + id


class CoiffeurState(TrickPlay, CoiffeurFields):
    SEAT_SHIFT = SHIFT
    SHARED_FIELDS = SHARED_FIELDS
    COPIED_FIELDS = COPIED_FIELDS
    __slots__ = SHARED_FIELDS + COPIED_FIELDS

    def __init__(self, game: Any, seed: int, given: dict[int, Hands]) -> None:
        self._begin(game, seed, given)
        self._sheet: Sheet = sheet_of(game.options["sheet"], game.options["rows"])
        self._around = game.options["push"] == "around"  # Swisslos: push on to the next player
        self._filled = [0, 0]
        self._entries: list[tuple[int, ...]] = [(-1,) * len(self._sheet), (-1,) * len(self._sheet)]
        self._start_deal()

    # -- the flow of a deal -------------------------------------------------------------------

    def _deal_from_seed(self, seed: int, n: int) -> Hands:
        return deal_hands(seed, n)

    def _start_deal(self) -> None:
        hands = self._next_deal()
        n = self._deal_no
        self._forehand = forehand_of(n)
        self._start: Hands = hands
        self._hands = list(hands)
        self._phase = TRUMP
        self._pushed = False
        self._pushes = 0
        self._asked = self._who_is_asked()
        self._player = self._asked[0]
        self._chooser = self._play_mode = self._row = -1
        self._trick: list[int] = []
        self._leader = self._forehand
        self._led = self._win_seat = self._win_str = self._best_trump = -1
        self._tricks: tuple[Trick, ...] = ()
        self._taken = [0, 0]
        self._won = [0, 0]
        self._voids = [0, 0, 0, 0]
        self._legal = -1
        self._fix()

    def _fix(self) -> None:
        self._fixed = new_tuple(DealFacts, (self._deal_no, self._forehand, self._start, self._pushed, self._chooser,
                                            self._play_mode, self._row, self._pushes, self._asked))  # fmt: skip

    def _who_is_asked(self) -> tuple[int, ...]:
        """The seats asked to announce this deal, in order (pushing.asked), from the sheets as the
        deal begins."""
        filled = self._filled
        teams = (open_modes(self._sheet, filled[0]) != 0, open_modes(self._sheet, filled[1]) != 0)
        return asked(self._forehand, teams, self._around)

    def pushed_by(self) -> list[int]:
        """The seats that pushed this deal, in order."""
        return [chooser_after(k, self._asked) for k in range(self._pushes)]

    def _choose(self, play_mode: int) -> None:
        """The mode is announced: it is written in its row on the chooser's team's sheet, and the
        chooser leads (Swisslos: "Derjenige Spieler, welcher die Trumpfart bestimmt hat, startet")."""
        p = self._player
        self._chooser = p
        self._play_mode = play_mode
        self._row = row_for(self._sheet, self._filled[p & 1], play_mode)
        self._phase = PLAY
        self._leader = p
        self._fix()

    def _trick_mode(self) -> int:
        """The Jass mode of the trick being played (Slalom and Guschti switch from trick to trick)."""
        return TRICK_MODES[self._play_mode][len(self._tricks)]

    def _take(self, winner: int, points: int) -> None:
        self._taken[winner & 1] += points
        self._won[winner & 1] += 1

    def _end_deal(self) -> None:
        """After the last trick: the choosing team writes its points × the row's multiplier."""
        team = self._chooser & 1
        row = self._row
        points = written(self._taken[team], self._won[team])
        score = points * self._sheet[row][1]
        entries = list(self._entries[team])
        entries[row] = points
        self._entries[team] = tuple(entries)
        self._filled[team] |= 1 << row
        self._summaries.append(DealSummary(
            self._deal_no, self._forehand, self._chooser, self._pushed, self._play_mode, row, (self._taken[0],
            self._taken[1]), (self._won[0], self._won[1]), points, score, self._tricks[-1], self._pushes,
        ))  # fmt: skip
        if self._deal_no + 1 >= 2 * len(self._sheet):
            self._phase = OVER
            self._player = -1
        else:
            self._start_deal()

    # -- the protocol ---------------------------------------------------------------------------

    @property
    def sheet(self) -> Sheet:
        """The rows both teams must play: (kind, multiplier) each."""
        return self._sheet

    def open_modes(self, team: int) -> list[str]:
        """The play modes `team` may still announce (PLAY_MODES names)."""
        m = open_modes(self._sheet, self._filled[team])
        return [PLAY_MODES[i] for i in bits(m)]

    def totals(self) -> list[int]:
        """Each team's sheet total: the sum of its written points × multipliers."""
        return [sum(e * self._sheet[r][1] for r, e in enumerate(self._entries[t]) if e >= 0) for t in range(2)]

    def _legal_mask(self) -> int:
        """Legal action ids as a bitmask (cards 0-35, modes 36-45, push 46)."""
        if self._legal >= 0:
            return self._legal
        phase = self._phase
        if phase == PLAY:
            m = legal_cards(self._hands[self._player], len(self._trick), self._led, self._trick_mode(),
                            self._best_trump)  # fmt: skip
        elif phase == OVER:
            m = 0
        else:
            m = open_modes(self._sheet, self._filled[self._player & 1]) << TRUMP_ACTION
            if may_push(self._pushes, self._asked, self._around):
                m |= 1 << PUSH
        self._legal = m
        return m

    def legal_actions(self) -> list[Action]:
        m = self._legal_mask()
        if self._phase == PLAY:
            t = BY_SUIT
            return t[0][m & 511] + t[1][(m >> 9) & 511] + t[2][(m >> 18) & 511] + t[3][m >> 27]
        return [ACTIONS[i] for i in bits(m)]

    def apply(self, action: Action | str) -> None:
        a = ACTION_ID_OF(id(action), -1)  # the canonical Actions by identity: the hot path
        if a < 0:
            a = self.game.action_id(action)
        if not self._legal_mask() >> a & 1:
            raise IllegalActionError(self._why_illegal(a))
        self._undo.append(self._snapshot())
        self._log.append(self._player * SHIFT + a)
        self._legal = -1
        if a < TRUMP_ACTION:
            self._play(a)
        elif a == PUSH:
            self._pushed = True
            self._pushes += 1
            self._phase = PUSHED
            self._player = chooser_after(self._pushes, self._asked)
            self._fix()
        else:
            self._choose(a - TRUMP_ACTION)

    def _why_illegal(self, a: int) -> Reason:
        phase = self._phase
        text = ACTION_TEXTS[a]
        if phase == OVER:
            return game_over(text)
        p = self._player
        if phase in (TRUMP, PUSHED):
            choices = ", ".join(ACTION_TEXTS[i] for i in bits(self._legal_mask()))
            if a < TRUMP_ACTION:
                return Reason(f"{text}: seat {p} must first announce a mode ({choices})", "not_legal_now",
                              expected="trump", seat=p)  # fmt: skip
            if a == PUSH and self._around:
                return Reason(f"push: every player asked has pushed, so the choice is back with seat {p}, who may not "
                              f"push again and must announce a mode ({choices})", "must_announce", seat=p)  # fmt: skip
            if a == PUSH:
                return Reason(f"push: seat {p}'s partner already pushed; seat {p} must announce a mode ({choices})",
                              "already_pushed", seat=p)  # fmt: skip
            mode = a - TRUMP_ACTION
            return Reason(
                f"{text}: team {p & 1} has no open row for {PLAY_MODE_NAMES[mode]} on its sheet; open: {choices}",
                "mode_played", mode=PLAY_MODES[mode], team=p & 1,
            )  # fmt: skip
        if a >= TRUMP_ACTION:
            return Reason(f"{text}: the mode is announced ({PLAY_MODE_NAMES[self._play_mode]}); seat {p} plays a card",
                          "not_legal_now", expected="play", seat=p)  # fmt: skip
        hand = self._hands[p]
        if not hand >> a & 1:  # usually a card of another seat, played out of turn
            return not_held(text, p, text)
        return why_not(a, hand, len(self._trick), self._led, self._trick_mode(), self._best_trump).prefixed(f"{text}: ")

    def _snapshot(self) -> Snapshot:
        h = self._hands
        return new_tuple(Snapshot, (
            self._phase, self._player, self._fixed, (h[0], h[1], h[2], h[3]), tuple(self._trick), self._leader,
            self._led, self._win_seat, self._win_str, self._best_trump, self._tricks, (self._taken[0],
            self._taken[1]), (self._won[0], self._won[1]), tuple(self._voids), (self._filled[0], self._filled[1]),
            (self._entries[0], self._entries[1]), len(self._summaries), len(self._log),
        ))  # fmt: skip

    def undo(self) -> None:
        if not self._undo:
            raise UndoError("nothing to undo: no action has been taken")
        (
            self._phase, self._player, fixed, hands, trick, self._leader, self._led, self._win_seat, self._win_str,
            self._best_trump, self._tricks, taken, won, voids, filled, entries, n_summaries, n_log,
        ) = self._undo.pop()  # fmt: skip
        self._fixed = fixed
        (self._deal_no, self._forehand, self._start, self._pushed, self._chooser, self._play_mode,
         self._row, self._pushes, self._asked) = fixed  # fmt: skip
        self._hands = list(hands)
        self._trick = list(trick)
        self._taken = list(taken)
        self._won = list(won)
        self._voids = list(voids)
        self._filled = list(filled)
        self._entries = list(entries)
        self._forget_after(n_summaries, n_log)

    def scores(self) -> list[int]:
        """Each seat's team total (partners carry the same)."""
        t = self.totals()
        return [t[0], t[1], t[0], t[1]]

    def winners(self) -> list[int]:
        """The seats of the team with the higher total (all four on a tie)."""
        if self._phase != OVER:
            return []
        t = self.totals()
        return [s for s in range(4) if t[s & 1] == max(t)]

    # -- what a seat may know (views.py, sampling.py) -----------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        self._check_seat(seat)
        return views.view(self, seat)

    def sample_hidden(self, seat: int, rng: random.Random) -> CoiffeurState:
        """A state that `seat` cannot tell from this one: the other hands redealt at random,
        keeping hand sizes and revealed voids; later deals reshuffled from `rng`."""
        self._check_seat(seat)
        if seat is None:
            raise ValueError("sample_hidden needs a seat")
        return sampling.sample_hidden(self, seat, rng)

    def _position(self) -> tuple[Any, ...]:
        return (self._snapshot()._replace(log=-1), tuple(self._log))

    def _chance_json(self, outcome: Any) -> Any:
        return deal_json(outcome)

    def __repr__(self) -> str:
        return f"<CoiffeurState deal {self._deal_no} {PHASE_NAMES[self._phase]} totals {self.totals()}>"


__all__ = ["SHIFT", "CoiffeurState"]
