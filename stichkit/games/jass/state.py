"""A whole Jass game, deal after deal, as the rule sheet's "Ablauf einer Partie" runs:
deal → trump choice (or push) → nine tricks (Weis after the first, Stöck when shown) → next deal.

Points are claimed the moment they arise, in the Swiss order Stöck → Weis → tricks, and the game
ends as soon as a team reaches the target.
"""

from __future__ import annotations

import hashlib
import random
import struct
from typing import Any, NamedTuple

from stichkit.cards import bits
from stichkit.core.action import Action
from stichkit.core.errors import IllegalActionError, Reason, UndoError
from stichkit.core.game import Entry, State
from stichkit.core.sampling import deal_constrained

from .cards import (
    DECK,
    LAST_TRICK_BONUS,
    MATCH_BONUS,
    MODE_NAMES,
    MODES,
    POINTS,
    STOECK_PAIR,
    STOECK_POINTS,
    STRENGTH,
)
from .rules import cannot_hold, legal_cards, next_reference, why_not
from .scoring import EMPTY_TALLY, STOECK, TRICKS, VOIDED, WEIS, DealSummary, tally_total
from .weis import Weis, best_weis, scoring_teams, weis_json

TRUMP, PUSHED, PLAY, OVER = range(4)
PHASE_NAMES = ("trump", "pushed", "play", "over")
TRUMP_ACTION = 36  # trump:D .. trump:C, trump:obe, trump:une = 36..41
PUSH = 42
ACTION_TEXTS = (*DECK.names, *(f"trump:{m}" for m in MODES), "push")
ACTIONS = tuple(Action(i, t) for i, t in enumerate(ACTION_TEXTS))
START_CARD = DECK.parse("D7")  # its holder chooses trump in the first deal

_ID_OF = {id(a): a.id for a in ACTIONS}  # canonical Action objects resolve by identity

# Card actions of one suit for each 9-bit pattern: legal_actions is four lookups.
_BY_SUIT = tuple(tuple([ACTIONS[s * 9 + r] for r in range(9) if m >> r & 1] for m in range(512)) for s in range(4))

Hands = tuple[int, int, int, int]


_SHUFFLE_KEYS = struct.Struct(">36I").unpack
_BIT = tuple(1 << c for c in range(36))


def deal_hands(seed: int, number: int) -> Hands:
    """Deal `number` of the game with this seed: independent of what was played before, so undo
    and redo give the same deal, and the same on every platform (a hash, not the Mersenne Twister)."""
    keys = _SHUFFLE_KEYS(hashlib.shake_128(b"jass/%d/%d" % (seed, number)).digest(144))
    order = sorted(range(36), key=keys.__getitem__)
    bit = _BIT.__getitem__
    return (
        sum(map(bit, order[0:9])),
        sum(map(bit, order[9:18])),
        sum(map(bit, order[18:27])),
        sum(map(bit, order[27:36])),
    )


class PlayPosition(NamedTuple):
    """The card play of a deal at a card decision (`JassState.play_position`)."""

    trump: int  # mode 0-5
    lowest_plain: bool  # undertrump option "jass-kit" (see rules.next_reference)
    hands: Hands
    trick: tuple[int, ...]  # cards of the trick in progress, in order
    leader: int  # seat that led the trick in progress (or leads the next)
    led: int  # suit led, or -1
    win_seat: int  # seat winning the trick so far, or -1
    win_str: int  # its STRENGTH, or -1
    best_trump: int  # the trick's reference trump for the undertrump ban, or -1
    tricks_done: int  # tricks of this deal already taken
    tricks_won: tuple[int, int]  # tricks each team has taken in this deal
    player: int  # seat to play


class JassState(State):
    SEAT_SHIFT = 64  # 43 actions: seat * 64 + id stays a cached small int
    __slots__ = (
        "game", "_log", "_profile", "_target", "_weis_on", "_stoeck_on", "_seed", "_given",
        "_scores", "_winner", "_deal_no", "_summaries", "_tally", "_match", "_undo", "_legal",
        "_phase", "_player", "_forehand", "_trump", "_chooser", "_pushed",
        "_start", "_hands", "_trick", "_leader", "_led", "_win_seat", "_win_str", "_win_card",
        "_best_trump", "_tricks", "_deal_tricks", "_voids", "_weis", "_weis_teams",
        "_stoeck_seat", "_stoeck_done", "_fixed", "_first_forehand", "_lowest_plain",
    )  # fmt: skip

    def __init__(self, game: Any, seed: int, given: dict[int, Hands]) -> None:
        self.game = game
        self._log: list[Entry] = []
        self._profile = game.profile
        self._target: int = game.options["target"]
        self._weis_on = game.options["weis"] == "auto"
        self._stoeck_on: bool = game.options["stoeck"]
        self._first_forehand: int | str = game.options["first_forehand"]
        self._lowest_plain = game.options["undertrump"] == "jass-kit"
        self._seed = seed
        self._given = given
        self._scores = [0, 0]
        self._winner = -1
        self._deal_no = -1
        self._summaries: list[DealSummary] = []
        self._undo: list[tuple[Any, ...]] = []
        self._legal = -1
        self._forehand = -1
        self._start_deal()

    # -- the flow of a deal -------------------------------------------------------------------

    def _start_deal(self) -> None:
        self._deal_no += 1
        n = self._deal_no
        hands = self._given.get(n) or deal_hands(self._seed, n)
        self._log.append(("chance", hands))
        self._start: Hands = hands
        self._hands = list(hands)
        if n == 0:
            first = self._first_forehand
            self._forehand = (
                next(s for s in range(4) if hands[s] >> START_CARD & 1) if first == "start-card" else int(first)
            )
        else:
            self._forehand = (self._forehand + 3) & 3  # the player right of the last chooser
        self._phase = TRUMP
        self._player = self._forehand
        self._trump = -1
        self._chooser = -1
        self._pushed = False
        self._trick: list[int] = []
        self._leader = self._forehand
        self._led = -1
        self._win_seat = -1
        self._win_str = -1
        self._win_card = -1
        self._best_trump = -1
        self._tricks: tuple[tuple[int, tuple[int, ...], int, int], ...] = ()
        self._deal_tricks = [0, 0]
        self._voids = [0, 0, 0, 0]
        self._weis: tuple[tuple[Weis, ...], ...] = ((), (), (), ())
        self._weis_teams: tuple[int, ...] | None = None  # None until shown after the first trick
        self._stoeck_seat = -1
        self._stoeck_done = False
        self._tally = list(EMPTY_TALLY)
        self._match = -1
        self._legal = -1
        self._fix()

    def _fix(self) -> None:
        """Bundle the fields that change only with the deal or the trump choice: one snapshot slot."""
        self._fixed = (
            self._deal_no, self._forehand, self._start, self._trump, self._chooser, self._pushed,
            self._weis, self._stoeck_seat,
        )  # fmt: skip

    def _choose_trump(self, mode: int) -> None:
        self._trump = mode
        self._chooser = self._player
        self._phase = PLAY
        self._player = self._forehand
        if self._weis_on:
            prof = self._profile
            self._weis = tuple(best_weis(h, prof) for h in self._start)
        self._stoeck_seat = self._stoeck_holder()
        self._fix()

    def _stoeck_holder(self) -> int:
        """The seat dealt both trump King and Queen, or -1."""
        mode = self._trump
        if self._stoeck_on and 0 <= mode < 4:
            pair = STOECK_PAIR[mode]
            for seat in range(4):
                if self._start[seat] & pair == pair:
                    return seat
        return -1

    def _play(self, card: int) -> None:
        p = self._player
        hand = self._hands[p]
        self._hands[p] = hand ^ (1 << card)
        trick = self._trick
        mode = self._trump
        if not trick:
            self._leader = p
            led = self._led = card // 9
            self._win_seat, self._win_card = p, card
            self._win_str = STRENGTH[mode][led][card]
            self._best_trump = card if card // 9 == mode else -1
        else:
            led = self._led
            suit = card // 9
            if suit != led:  # what everybody learns about this hand from the card it did not play
                self._voids[p] |= cannot_hold(card, led, mode, self._best_trump)
            st = STRENGTH[mode][led][card]
            if st > self._win_str:
                self._win_seat, self._win_card, self._win_str = p, card, st
            if suit == mode:
                self._best_trump = next_reference(self._best_trump, card, self._lowest_plain)
        trick.append(card)
        if p == self._stoeck_seat and not self._stoeck_done and not self._hands[p] & STOECK_PAIR[mode]:
            self._stoeck_done = True  # the second of the pair is played: "Stöck!"
            self._tally[STOECK + (p & 1)] += STOECK_POINTS
            if self._claim(p & 1, STOECK_POINTS):
                return
        if len(trick) == 4:
            self._end_trick()
        else:
            self._player = (p + 3) & 3

    def _end_trick(self) -> None:
        trick = self._trick
        pts_table = POINTS[self._trump]
        pts = pts_table[trick[0]] + pts_table[trick[1]] + pts_table[trick[2]] + pts_table[trick[3]]
        winner = self._win_seat
        team = winner & 1
        number = len(self._tricks)
        if number == 8:
            pts += LAST_TRICK_BONUS
        self._tricks += ((self._leader, tuple(trick), winner, pts),)
        self._trick = []
        self._led = self._win_seat = self._win_str = self._win_card = self._best_trump = -1
        self._deal_tricks[team] += 1
        if number == 0 and self._weis_on and self._show_weis():
            return  # Weis are claimed before the first trick's points, and ended the game
        self._tally[TRICKS + team] += pts
        if number == 8:
            self._end_deal(team, pts)
            return
        score = self._scores[team] + pts
        self._scores[team] = score
        if score >= self._target:
            self._game_over(team)
        else:
            self._player = self._leader = winner

    def _end_deal(self, team: int, pts: int) -> None:
        """After the last trick: the match bonus (voiding the other team's bonus in `seed`),
        then the next deal, unless the points end the game."""
        tally = self._tally
        if self._deal_tricks[team] == 9:
            self._match = team
            pts += MATCH_BONUS
            if self._profile.match_voids_opponents_bonus:
                other = team ^ 1
                void = tally[WEIS + other] + tally[STOECK + other]
                tally[VOIDED + other] = void
                self._scores[other] -= void
        if not self._claim(team, pts):
            self._summaries.append(self._summary(True))
            self._start_deal()

    def _show_weis(self) -> bool:
        """Score the Weis after the first trick. True if that ends the game."""
        teams = scoring_teams(self._weis, self._trump, self._forehand, self._profile)
        self._weis_teams = teams
        order = sorted(teams, key=lambda t: (self._forehand - t) % 2)  # forehand's team claims first
        for team in order:
            pts = sum(w.points for seat in range(4) if seat & 1 == team for w in self._weis[seat])
            self._tally[WEIS + team] += pts
            if self._claim(team, pts):
                return True
        return False

    def _claim(self, team: int, pts: int) -> bool:
        """Write points for a team; True (and the game is over) once it reaches the target."""
        self._scores[team] += pts
        if self._scores[team] >= self._target:
            self._game_over(team)
            return True
        return False

    def _game_over(self, team: int) -> None:
        self._winner = team
        self._phase = OVER
        self._player = -1
        self._summaries.append(self._summary(len(self._tricks) == 9))

    def _summary(self, complete: bool) -> DealSummary:
        return DealSummary(
            self._deal_no, self._forehand, self._chooser, self._pushed, self._trump,
            tuple(self._tally), self._match, complete, self._tricks[-1] if self._tricks else None,
        )  # fmt: skip

    # -- the protocol ---------------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self._phase == OVER else self._player

    @property
    def deals_played(self) -> int:
        """Deals begun so far (the one in progress included)."""
        return self._deal_no + 1

    def _legal_mask(self) -> int:
        """Legal action ids as a bitmask (cards are ids 0-35)."""
        if self._legal >= 0:
            return self._legal
        phase = self._phase
        if phase == PLAY:
            m = legal_cards(self._hands[self._player], len(self._trick), self._led, self._trump, self._best_trump)
        elif phase == OVER:
            m = 0
        else:
            m = 0
            for mode in self._profile.trump_modes:
                m |= 1 << (TRUMP_ACTION + mode)
            if phase == TRUMP:
                m |= 1 << PUSH
        self._legal = m
        return m

    def legal_actions(self) -> list[Action]:
        m = self._legal
        if self._phase == PLAY:
            if m < 0:
                trick = self._trick
                hand = self._hands[self._player]
                m = legal_cards(hand, len(trick), self._led, self._trump, self._best_trump) if trick else hand
                self._legal = m
            t = _BY_SUIT
            return t[0][m & 511] + t[1][(m >> 9) & 511] + t[2][(m >> 18) & 511] + t[3][m >> 27]
        return [ACTIONS[i] for i in bits(self._legal_mask())]

    def legal_action_mask(self) -> list[int]:
        m = self._legal_mask()
        return [(m >> i) & 1 for i in range(len(ACTIONS))]

    def apply(self, action: Action | str) -> None:
        a = _ID_OF.get(id(action), -1)
        if a < 0:
            a = self.game.parse_action(action).id  # type: ignore[arg-type]  # parse_action takes both
        m = self._legal
        if m < 0:
            m = self._legal_mask()
        if not m >> a & 1:
            raise IllegalActionError(self._why_illegal(a))
        p = self._player
        if not self._trick:
            # Undo keeps one snapshot per trick (and per trump decision); a later card of the
            # trick is undone by restoring it and playing the trick's earlier cards again.
            self._undo.append(self._snapshot())
        self._log.append(p * 64 + a)  # = p * SEAT_SHIFT + a; small ints are cached, nothing allocated
        self._legal = -1
        if a < 36:
            self._play(a)
        elif a == PUSH:
            self._pushed = True
            self._phase = PUSHED
            self._player = (self._forehand + 2) & 3
            self._fix()
        else:
            self._choose_trump(a - TRUMP_ACTION)

    def _why_illegal(self, a: int) -> Reason:
        phase = self._phase
        text = ACTION_TEXTS[a]
        if phase == OVER:
            return Reason(f"{text}: the game is over", "game_over")
        p = self._player
        who = f"seat {p}"
        if phase in (TRUMP, PUSHED):
            if a < 36:
                return Reason(f"{text}: {who} must first choose trump ({self._choices_text()})", "not_legal_now",
                              expected="trump", seat=p)  # fmt: skip
            if a == PUSH:
                return Reason(f"push: {who}'s partner already pushed; {who} must choose trump ({self._choices_text()})",
                              "already_pushed", seat=p)  # fmt: skip
            return Reason(f"{text}: {MODE_NAMES[a - TRUMP_ACTION]} is not played in the {self._profile.name} profile",
                          "mode_not_played", mode=MODES[a - TRUMP_ACTION], profile=self._profile.name)  # fmt: skip
        if a >= 36:
            return Reason(f"{text}: trump is already chosen ({MODE_NAMES[self._trump]}); play a card", "not_legal_now",
                          expected="play", seat=p)  # fmt: skip
        hand = self._hands[p]
        if not hand >> a & 1:  # usually a card of another seat, played out of turn
            return Reason(f"{text}: seat {p}, whose turn it is, does not hold {text}", "not_held", card=text, seat=p)
        return why_not(a, hand, len(self._trick), self._led, self._trump, self._best_trump).prefixed(f"{text}: ")

    def _choices_text(self) -> str:
        return ", ".join(ACTION_TEXTS[i] for i in bits(self._legal_mask()))

    def _snapshot(self) -> tuple[Any, ...]:
        """The state between tricks, as immutable values: undo restores from it, clones share it.

        Taken only when no trick is in progress, so the trick's own fields need no saving."""
        return (
            self._phase, self._player, self._fixed, tuple(self._hands), self._leader, self._tricks,
            self._deal_tricks[0], self._deal_tricks[1], tuple(self._voids), self._weis_teams, self._stoeck_done,
            self._scores[0], self._scores[1], self._winner, len(self._summaries), len(self._log),
            tuple(self._tally), self._match,
        )  # fmt: skip

    def undo(self) -> None:
        if not self._undo:
            raise UndoError("nothing to undo: no action has been taken")
        u = self._undo[-1]
        log = self._log
        last = len(log) - 1 if type(log[-1]) is int else len(log) - 2  # skip the next deal's chance entry
        again = log[u[15] : last]  # the snapshot is from before the trick's first card
        if not again:
            self._undo.pop()
        self._restore(u)
        for e in again:
            log.append(e)
            self._play(e & 63)  # type: ignore[operator]  # cards of one trick: always decisions
        self._legal = -1

    def _restore(self, u: tuple[Any, ...]) -> None:
        (
            self._phase, self._player, fixed, hands, self._leader, self._tricks,
            dt0, dt1, voids, self._weis_teams, self._stoeck_done,
            s0, s1, self._winner, n_summaries, n_log, tally, self._match,
        ) = u  # fmt: skip
        self._fixed = fixed
        (
            self._deal_no, self._forehand, self._start, self._trump, self._chooser, self._pushed,
            self._weis, self._stoeck_seat,
        ) = fixed  # fmt: skip
        self._hands = list(hands)
        self._trick = []
        self._led = self._win_seat = self._win_str = self._win_card = self._best_trump = -1
        self._deal_tricks = [dt0, dt1]
        self._voids = list(voids)
        self._scores = [s0, s1]
        self._tally = list(tally)
        del self._summaries[n_summaries:]
        del self._log[n_log:]
        self._legal = -1

    def play_position(self) -> PlayPosition | None:
        """The card play of the deal as plain values, read-only, for solvers that search it (see
        stichkit.analysis); None unless a card is to be played (trump phases, game over)."""
        if self._phase != PLAY:
            return None
        h = self._hands
        return PlayPosition(
            self._trump, self._lowest_plain, (h[0], h[1], h[2], h[3]), tuple(self._trick), self._leader,
            self._led, self._win_seat, self._win_str, self._best_trump, len(self._tricks),
            (self._deal_tricks[0], self._deal_tricks[1]), self._player,
        )  # fmt: skip

    def pending_claims(self) -> tuple[int, tuple[int, int], int]:
        """What the deal may still claim besides the tricks, for solvers of the race to the target
        (stichkit.analysis.race): the seat that claims Stöck with its second card of the pair (-1:
        none), the Weis points each team claims when the first trick is complete ((0, 0) once shown
        or without Weis), and the team that claims its Weis first (the forehand's). Read-only."""
        stoeck = self._stoeck_seat if not self._stoeck_done and self._phase == PLAY else -1
        weis = [0, 0]
        if self._weis_on and self._weis_teams is None and self._phase == PLAY:
            for team in scoring_teams(self._weis, self._trump, self._forehand, self._profile):
                weis[team] = sum(w.points for seat in range(4) if seat & 1 == team for w in self._weis[seat])
        return stoeck, (weis[0], weis[1]), self._forehand & 1

    def is_terminal(self) -> bool:
        return self._phase == OVER

    def scores(self) -> list[int]:
        s = self._scores
        return [s[0], s[1], s[0], s[1]]

    def winners(self) -> list[int]:
        if self._phase != OVER:
            return []
        return [self._winner, self._winner + 2]

    # -- what a seat may know -------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        self._check_seat(seat)
        names = DECK.names
        trick_seats = [(self._leader - i) & 3 for i in range(len(self._trick))]
        shown: list[dict[str, object]] = []
        if self._weis_teams is not None:
            for s in range(4):
                if s & 1 in self._weis_teams:
                    shown.extend(weis_json(s, w) for w in self._weis[s])
        tricks = [
            {"leader": lead, "cards": [names[c] for c in cards], "winner": win, "points": pts}
            for lead, cards, win, pts in self._tricks
        ]
        tally, match = self._tally, self._match
        v: dict[str, Any] = {
            "game": "jass",
            "seat": seat,
            "options": dict(self.game.options),
            "profile": self._profile.name,
            "target": self._target,
            "phase": PHASE_NAMES[self._phase],
            "current_player": self.current_player,
            "deal_number": self._deal_no,
            "forehand": self._forehand,
            "hand": [] if seat is None else DECK.notation(self._hands[seat]),
            "hand_sizes": [h.bit_count() for h in self._hands],
            "trump": None if self._trump < 0 else MODES[self._trump],
            "trump_chosen_by": None if self._chooser < 0 else self._chooser,
            "pushed": self._pushed,
            "trick": [{"seat": s, "card": names[c]} for s, c in zip(trick_seats, self._trick, strict=True)],
            "trick_leader": self._leader if self._trick else None,
            "tricks": tricks,
            "last_trick": self._last_trick_json(),
            "cannot_hold": [DECK.notation(v) for v in self._voids],  # what everybody has inferred
            "weis": shown,
            "weis_scored_by": None if self._weis_teams is None else list(self._weis_teams),
            "stoeck": self._stoeck_seat if self._stoeck_done else None,
            "deal_points": [tally_total(tally, match, 0), tally_total(tally, match, 1)],
            "scores": [self._scores[0], self._scores[1]],
            "previous_deals": [d.to_json() for d in self._summaries],
            "winners": self.winners() or None,
        }
        if seat is not None and seat == self.current_player:
            v["legal_actions"] = [a.text for a in self.legal_actions()]
        return v

    def _last_trick_json(self) -> dict[str, Any] | None:
        """The trick taken last, even when it closed the previous deal."""
        if self._tricks:
            deal, (lead, cards, win, pts) = self._deal_no, self._tricks[-1]
        elif self._summaries and self._summaries[-1].last_trick is not None:
            deal, (lead, cards, win, pts) = self._summaries[-1].number, self._summaries[-1].last_trick
        else:
            return None
        return {"deal": deal, "leader": lead, "cards": [DECK.names[c] for c in cards], "winner": win, "points": pts}

    def clone(self) -> JassState:
        new = object.__new__(JassState)
        for name in JassState.__slots__:
            setattr(new, name, getattr(self, name))
        new._log = list(self._log)
        new._scores = list(self._scores)
        new._undo = list(self._undo)
        new._summaries = list(self._summaries)
        new._hands = list(self._hands)
        new._trick = list(self._trick)
        new._deal_tricks = list(self._deal_tricks)
        new._voids = list(self._voids)
        new._tally = list(self._tally)
        new._given = dict(self._given)
        return new

    def sample_hidden(self, seat: int, rng: random.Random) -> JassState:
        """A state that `seat` cannot tell from this one: the other hands redealt at random,
        keeping hand sizes, revealed voids and shown Weis; later deals reshuffled from `rng`."""
        self._check_seat(seat)
        if seat is None:
            raise ValueError("sample_hidden needs a seat")
        new = self.clone()
        new._undo = []  # the old snapshots would hold the real hands
        new._seed = rng.getrandbits(63)
        new._given = {k: v for k, v in self._given.items() if k < self._deal_no}
        others = [s for s in range(4) if s != seat]
        fixed = [0, 0, 0, 0]
        if self._deal_no == 0 and self._forehand != seat and self._first_forehand == "start-card":
            fixed[self._forehand] |= self._hands[self._forehand] & (1 << START_CARD)  # D7 chose trump
        if self._weis_teams is not None:
            for s in others:
                if s & 1 in self._weis_teams:
                    for w in self._weis[s]:
                        fixed[s] |= w.cards & self._hands[s]
        unknown = 0
        for s in others:
            unknown |= self._hands[s] & ~fixed[s]
        cards = list(bits(unknown))
        need = [(self._hands[s] & ~fixed[s]).bit_count() for s in others]
        allowed = [sum(1 << i for i, s in enumerate(others) if not self._voids[s] >> c & 1) for c in cards]
        played = [0, 0, 0, 0]
        for s in range(4):
            played[s] = self._start[s] & ~self._hands[s]
        for _ in range(50):  # rarely more than one: only a hidden better Weis is refused
            dealt = deal_constrained(cards, allowed, need, rng)
            hands = list(self._hands)
            for i, s in enumerate(others):
                hands[s] = dealt[i] | fixed[s]
            start = tuple(hands[s] | played[s] for s in range(4))
            weis = self._sampled_weis(start)
            if weis is not None:
                break
        if weis is None:  # the shown Weis could not be matched: keep them, the rest as dealt
            found = tuple(best_weis(h, self._profile) for h in start)
            teams = self._weis_teams or ()
            weis = tuple(self._weis[s] if s & 1 in teams else found[s] for s in range(4))
        new._hands = hands
        new._start = (start[0], start[1], start[2], start[3])
        for i in range(len(new._log) - 1, -1, -1):
            if not isinstance(new._log[i], int):
                new._log[i] = ("chance", new._start)
                break
        if new._trump >= 0:
            new._weis = weis
            if not new._stoeck_done:
                new._stoeck_seat = new._stoeck_holder()
        new._fix()
        new._legal = -1
        return new

    def _sampled_weis(self, start: tuple[int, ...]) -> tuple[tuple[Weis, ...], ...] | None:
        """The Weis of sampled hands, or None if they contradict what was shown after the first
        trick: the scoring team must hold exactly its shown Weis, and nobody a better one."""
        if not self._weis_on or self._trump < 0:
            return self._weis
        weis = tuple(best_weis(h, self._profile) for h in start)
        teams = self._weis_teams
        if teams is None:
            return weis
        if scoring_teams(weis, self._trump, self._forehand, self._profile) != teams:
            return None
        if any(weis[s] != self._weis[s] for s in range(4) if s & 1 in teams):
            return None
        return weis

    def _position(self) -> tuple[Any, ...]:
        snap = self._snapshot()
        trick = (tuple(self._trick), self._led, self._win_seat, self._win_str, self._win_card, self._best_trump)
        return snap[:15] + snap[16:] + trick + (tuple(self._log),)  # the log itself, not its length

    def _chance_json(self, outcome: Any) -> Any:
        return {"hands": [DECK.notation(h) for h in outcome]}

    def __repr__(self) -> str:
        # The same score form as scores(): one entry per seat, partners carrying their team's.
        return f"<JassState deal {self._deal_no} {PHASE_NAMES[self._phase]} scores {self.scores()}>"


__all__ = ["ACTIONS", "ACTION_TEXTS", "JassState", "PlayPosition", "deal_hands"]
