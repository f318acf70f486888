"""A whole Stichwahl game, deal after deal, as the rulebook's "Spielvorbereitung" and "Spielablauf" run:

draw trump and marker (again on a 5) → shuffle, deal 9 each (the rest is the draw pile) → everyone
lays a first bonus card (hidden until all have chosen; a pearl bonus scores at once) → 8 tricks:
on your turn use any bonus cards, then play → the winner chooses the prize (takes as many cards
as it shows pearls, topping up from the draw pile; its player keeps it as a bonus card) → the
player of an unchosen 5 may choose who leads next → deal scoring → next deal, until someone has
`target` points after a deal and the lead is not tied.
"""

from __future__ import annotations

import random
from typing import Any

from stichkit.cards import bit_list, bits
from stichkit.core.action import Action
from stichkit.core.errors import IllegalActionError, Reason, UndoError
from stichkit.core.game import Entry

from . import refusals, sampling, views
from .actions import (
    BONUS_ACT,
    FLIP_ACT,
    LEAD,
    LEAD_ACT,
    OVER,
    PHASE_NAMES,
    PICK,
    PLAY,
    PRIZE,
    PRIZE_ACT,
    TRUMP_ACT,
    action_texts,
)
from .cards import FAMILY_OF, FIRST_FIVE, FLIP, PEARL, TRUMP, VALUE_OF, CardTable
from .deals import HAND_SIZE, TRICKS_PER_DEAL, Deal, deal_from_seed, deal_json
from .position import COPIED_FIELDS, SHARED_FIELDS, CardPlay, Snapshot, StichwahlFields, Trick, Undo, new_tuple
from .rules import deal_points, legal_cards, trick_winner


class StichwahlState(StichwahlFields):
    SEAT_SHIFT = 512  # 272 actions at most
    SHARED_FIELDS = SHARED_FIELDS
    COPIED_FIELDS = COPIED_FIELDS
    __slots__ = SHARED_FIELDS + COPIED_FIELDS

    def __init__(self, game: Any, seed: int, given: dict[int, Deal]) -> None:
        self.game = game
        self._table: CardTable = game.table
        self._n: int = game.num_players
        self._target: int = game.options["target"]
        self._rotate: bool = game.options["next_deal"] == "left"
        self._top_up_all: bool = game.options["top_up"] == "missing"
        self._seed = seed
        self._given = given
        self._log: list[Entry] = []
        self._undo: list[Undo] = []
        self._scores = [0] * self._n
        self._deals: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...] = ()  # pile, bonus, total
        self._winners: tuple[int, ...] = ()
        self._deal_no = -1
        self._starter = game.options["first_player"]
        self._prev_last: Trick | None = None  # the previous deal's last trick (`last_trick` shows it)
        self._start_deal()

    # -- the flow of a deal ---------------------------------------------------------------------

    def _start_deal(self) -> None:
        n = self._n
        self._deal_no += 1
        if self._deal_no > 0 and self._rotate:
            self._starter = (self._starter + 1) % n
        deal = self._given.get(self._deal_no) or deal_from_seed(self._seed, self._deal_no, n)
        self._log.append(("chance", deal))
        self._deal = deal
        last = deal.draws[-1]
        self._trump = FAMILY_OF[last]
        self._high = VALUE_OF[last] >= 6
        self._hands = list(deal.hands)
        self._pile_pos = 0
        self._picks = [-1] * n  # first bonus cards, hidden until everyone has chosen
        self._first: tuple[int, ...] = ()
        self._bonus: list[tuple[int, ...]] = [() for _ in range(n)]
        self._points = [0] * n  # cards in each point pile
        self._hidden = [0] * n  # of them, cards from the draw pile (nobody has seen them)
        self._used: tuple[tuple[int, int, int, int], ...] = ()  # (seat, card, family or -1 = flip, trick)
        self._trick: tuple[tuple[int, int], ...] = ()
        self._led = -1  # the family to follow in the current trick (-1: none yet)
        self._legal: list[int] | None = None  # the legal action ids, until the state changes
        self._tricks: tuple[Trick, ...] = ()
        self._voids = [0] * n  # families each seat has shown it does not hold (4-bit masks)
        self._leader = self._starter
        self._phase = PICK
        self._player = self._starter

    def _pick(self, card: int) -> None:
        p = self._player
        self._hands[p] &= ~(1 << card)
        self._picks[p] = card
        nxt = (p + 1) % self._n
        if self._picks[nxt] < 0:
            self._player = nxt
            return
        # Everyone has chosen: the cards are turned face up; a pearl bonus scores at once.
        self._first = tuple(self._picks)
        for s, c in enumerate(self._first):
            if self._table.kind[c] == PEARL:
                self._points[s] += 1
            else:
                self._bonus[s] = (c,)
        self._phase = PLAY
        self._player = self._leader = self._starter

    def _use(self, card: int, family: int) -> None:
        p = self._player
        b = self._bonus[p]
        i = b.index(card)
        self._bonus[p] = b[:i] + b[i + 1 :]
        if family < 0:
            self._high = not self._high
        else:
            self._trump = family
        self._used += ((p, card, family, len(self._tricks)),)

    def _play(self, card: int) -> None:
        p = self._player
        self._hands[p] &= ~(1 << card)
        led = self._led
        fam = FAMILY_OF[card]
        if led < 0:
            self._led = fam  # the first card that is not a 5 sets the family (a 5 leaves it open)
        elif fam >= 0 and fam != led:
            self._voids[p] |= 1 << led  # did not follow: holds no card of the led family
        self._trick += ((p, card),)
        if len(self._trick) < self._n:
            self._player = (p + 1) % self._n
            return
        w = trick_winner([c for _, c in self._trick], self._trump, self._high)
        self._phase = PRIZE
        self._player = self._trick[w][0]

    def _choose_prize(self, card: int) -> None:
        winner = self._player
        owner = next(s for s, c in self._trick if c == card)
        table = self._table
        bonus_to = pearl_to = -1
        if card >= FIRST_FIVE:
            taken, drawn = 1, 0  # the 5 itself: one point, and nobody gets a bonus
        else:
            want = table.pearls[card]
            taken = min(want, self._n - 1)  # the other trick cards, the winner's own included
            missing = want - taken if self._top_up_all else min(want - taken, 1)
            drawn = min(missing, len(self._deal.pile) - self._pile_pos)
            if table.kind[card] == PEARL:
                pearl_to = owner
                self._points[owner] += 1
            else:
                bonus_to = owner
                self._bonus[owner] += (card,)
        self._pile_pos += drawn
        self._points[winner] += taken + drawn
        self._hidden[winner] += drawn
        last = not any(self._hands)
        chooser = -1
        if not last:
            chooser = next((s for s, c in self._trick if c >= FIRST_FIVE and c != card and s != winner), -1)
        self._tricks += (
            Trick(
                self._leader, self._trick, self._trump, self._high, winner, card, taken, drawn,
                bonus_to, pearl_to, chooser, -1 if last or chooser >= 0 else winner,
            ),
        )  # fmt: skip
        self._trick = ()
        self._led = -1
        if last:
            self._end_deal()
        elif chooser >= 0:
            self._phase = LEAD
            self._player = chooser
        else:
            self._phase = PLAY
            self._player = self._leader = winner

    def _choose_leader(self, seat: int) -> None:
        t = self._tricks[-1]
        self._tricks = (*self._tricks[:-1], t._replace(next_leader=seat))
        self._phase = PLAY
        self._player = self._leader = seat

    def _end_deal(self) -> None:
        """Deal scoring: cards in the point pile + 1 for every 2 unused bonus cards."""
        n = self._n
        left = tuple(len(b) for b in self._bonus)
        totals = tuple(deal_points(self._points[s], left[s]) for s in range(n))
        self._deals += ((tuple(self._points), left, totals),)
        for s in range(n):
            self._scores[s] += totals[s]
        best = max(self._scores)
        leaders = tuple(s for s in range(n) if self._scores[s] == best)
        if best >= self._target and len(leaders) == 1:
            self._winners = leaders
            self._phase = OVER
            self._player = -1
            return
        self._prev_last = self._tricks[-1]
        self._start_deal()

    # -- the protocol ---------------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self._phase == OVER else self._player

    @property
    def deals_played(self) -> int:
        return self._deal_no + 1

    def _legal_ids(self) -> list[int]:
        phase = self._phase
        p = self._player
        if phase == PICK:
            return [BONUS_ACT + c for c in bits(self._hands[p])]
        if phase == PLAY:
            out = bit_list(legal_cards(self._hands[p], self._led))
            if not self._bonus[p]:
                return out
            table = self._table
            uses = []
            for c in self._bonus[p]:
                kind = table.kind[c]
                if kind == FLIP:
                    uses.append(FLIP_ACT + c)
                elif kind == TRUMP:
                    uses.extend(
                        TRUMP_ACT + 4 * c + f for f in range(4) if table.trump_to[c] >> f & 1 and f != self._trump
                    )
            return out + sorted(uses)
        if phase == PRIZE:
            return sorted(PRIZE_ACT + c for s, c in self._trick if s != p)
        if phase == LEAD:
            return [LEAD_ACT + s for s in range(self._n)]
        return []

    def legal_actions(self) -> list[Action]:
        ids = self._legal
        if ids is None:
            ids = self._legal = self._legal_ids()
        acts = self.game.actions
        return [acts[i] for i in ids]

    def apply(self, action: Action | str) -> None:
        game = self.game
        a = game.action_id_of(id(action), -1)
        if a < 0:
            a = game.action_id(action)
        ids = self._legal
        if ids is None:
            ids = self._legal_ids()
        if a not in ids:
            raise IllegalActionError(self._why_illegal(a))
        self._legal = None
        p = self._player
        if a < BONUS_ACT:
            # A card changes only its player's hand and voids and the trick: undo needs just those.
            self._undo.append(new_tuple(CardPlay, (p, a, self._voids[p], self._led)))
            self._log.append(p * self.SEAT_SHIFT + a)
            self._play(a)
            return
        self._undo.append(self._snapshot())
        self._log.append(p * self.SEAT_SHIFT + a)
        if a < FLIP_ACT:
            self._pick(a - BONUS_ACT)
        elif a < TRUMP_ACT:
            self._use(a - FLIP_ACT, -1)
        elif a < PRIZE_ACT:
            self._use((a - TRUMP_ACT) // 4, (a - TRUMP_ACT) % 4)
        elif a < LEAD_ACT:
            self._choose_prize(a - PRIZE_ACT)
        else:
            self._choose_leader(a - LEAD_ACT)

    def _why_illegal(self, a: int) -> Reason:
        return refusals.why_illegal(self, a)

    def _snapshot(self) -> Snapshot:
        """Every field that changes during a game, as immutable values (undo restores from it).

        Card plays, the most common action, are undone from a CardPlay instead (see `apply`)."""
        return new_tuple(Snapshot, (
            len(self._log), tuple(self._scores), self._deals, self._winners, self._deal_no, self._starter,
            self._deal, self._trump, self._high, tuple(self._hands), self._pile_pos, tuple(self._picks),
            self._first, tuple(self._bonus), tuple(self._points), tuple(self._hidden), self._used, self._trick,
            self._led, self._tricks, tuple(self._voids), self._leader, self._phase, self._player, self._prev_last,
        ))  # fmt: skip

    def _restore(self, u: Snapshot) -> None:
        (
            n_log, scores, self._deals, self._winners, self._deal_no, self._starter,
            self._deal, self._trump, self._high, hands, self._pile_pos, picks,
            self._first, bonus, points, hidden, self._used, self._trick,
            self._led, self._tricks, voids, self._leader, self._phase, self._player, self._prev_last,
        ) = u  # fmt: skip
        self._legal = None
        del self._log[n_log:]
        self._scores = list(scores)
        self._hands = list(hands)
        self._picks = list(picks)
        self._bonus = list(bonus)
        self._points = list(points)
        self._hidden = list(hidden)
        self._voids = list(voids)

    def undo(self) -> None:
        if not self._undo:
            raise UndoError("nothing to undo: no action has been taken")
        u = self._undo.pop()
        if isinstance(u, Snapshot):
            self._restore(u)
            return
        p, card, self._voids[p], self._led = u  # a card play (CardPlay): take it back
        self._hands[p] |= 1 << card
        self._trick = self._trick[:-1]
        self._log.pop()
        self._phase = PLAY
        self._player = p
        self._legal = None

    def is_terminal(self) -> bool:
        return self._phase == OVER

    def scores(self) -> list[int]:
        """Game points per seat: the totals of the finished deals."""
        return list(self._scores)

    def winners(self) -> list[int]:
        return list(self._winners)

    # -- what a seat may know (views.py, sampling.py) -----------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        self._check_seat(seat)
        return views.view(self, seat)

    def sample_hidden(self, seat: int, rng: random.Random) -> StichwahlState:
        """A state `seat` cannot tell from this one: the other hands, their first bonus cards not yet
        turned up, and the draw pile (also the cards already drawn from it face down) redealt at
        random, keeping hand sizes and the families each player has shown void; the draw piles of
        earlier deals reshuffled (their hands were all played face up, their piles never seen);
        later deals reshuffled from `rng`. A function of what `seat` knows and of `rng` only."""
        self._check_seat(seat)
        if seat is None:
            raise ValueError("sample_hidden needs a seat")
        return sampling.sample_hidden(self, seat, rng)

    def _position(self) -> tuple[Any, ...]:
        return (self._snapshot()._replace(log=-1), tuple(self._log))  # the log itself, not its length

    def _chance_json(self, outcome: Any) -> Any:
        return deal_json(outcome)

    def __repr__(self) -> str:
        return f"<StichwahlState deal {self._deal_no} {PHASE_NAMES[self._phase]} scores {self._scores}>"


# Names that code outside the package imports from here.
__all__ = [
    "HAND_SIZE", "TRICKS_PER_DEAL", "Deal", "StichwahlState", "Trick", "action_texts", "deal_from_seed", "deal_json",
    "deal_points",
]  # fmt: skip
