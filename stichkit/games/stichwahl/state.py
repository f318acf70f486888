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
from functools import lru_cache
from typing import Any, NamedTuple

from stichkit.cards import bit_list, bits
from stichkit.core.action import Action
from stichkit.core.errors import IllegalActionError, Reason, UndoError
from stichkit.core.game import Entry, State
from stichkit.core.sampling import deal_constrained

from .cards import (
    ALL_CARDS,
    DECK,
    FAMILIES,
    FAMILY_NAMES,
    FAMILY_OF,
    FIRST_FIVE,
    FLIP,
    NAMES,
    NO_FIVES,
    PEARL,
    TRUMP,
    VALUE_OF,
    CardTable,
)
from .rules import led_family, legal_cards, trick_winner, why_not

PICK, PLAY, PRIZE, LEAD, OVER = range(5)
PHASE_NAMES = ("first_bonus", "play", "prize", "lead", "over")

# The action table: the same for every card table, so RL ids never depend on the data file.
BONUS_ACT = 36  # bonus:X  choose X as the first bonus card (36 actions)
FLIP_ACT = 72  # use:X    use X's flip bonus (32 family cards)
TRUMP_ACT = 104  # use:X:F  use X's trump bonus, naming family F (32 cards x 4 families)
PRIZE_ACT = 232  # prize:X  choose X as the prize (36)
LEAD_ACT = 268  # lead:S   seat S leads the next trick (one per seat)


def action_texts(players: int) -> list[str]:
    texts = list(NAMES)
    texts += [f"bonus:{n}" for n in NAMES]
    texts += [f"use:{n}" for n in NAMES[:FIRST_FIVE]]
    texts += [f"use:{n}:{f}" for n in NAMES[:FIRST_FIVE] for f in FAMILIES]
    texts += [f"prize:{n}" for n in NAMES]
    texts += [f"lead:{s}" for s in range(players)]
    return texts


HAND_SIZE = 9
TRICKS_PER_DEAL = 8


class Deal(NamedTuple):
    """One deal's chance outcomes: the trump draws (redraws on a 5, the last decides), the hands
    as dealt, and the draw pile top first."""

    draws: tuple[int, ...]
    hands: tuple[int, ...]
    pile: tuple[int, ...]


class Trick(NamedTuple):
    """A finished trick of the current deal, all public."""

    leader: int
    plays: tuple[tuple[int, int], ...]  # (seat, card) in play order
    trump: int  # trump family and marker when the trick was decided
    high: bool
    winner: int
    prize: int
    taken: int  # cards the winner took from the trick
    from_pile: int  # cards the winner took from the draw pile
    bonus_to: int  # the prize's player, now holding it as a bonus card; -1 for a 5
    pearl_to: int  # the prize's player, scored at once for a pearl bonus; -1 otherwise
    chooser: int  # who chose the next leader (the player of an unchosen 5), -1: nobody
    next_leader: int  # -1 after the deal's last trick, or while the choice is open


@lru_cache(maxsize=512)
def deal_from_seed(seed: int, number: int, players: int) -> Deal:
    """Deal `number` of the game with this seed: a pure function of both (string-seeded
    random.Random hashes its seed with SHA-512: the same on every platform and Python run).

    Cached: search bots replay the same determinizations into the same next deal many times."""
    rng = random.Random(f"stichwahl/{seed}/{number}")
    deck = list(bits(NO_FIVES if players == 2 else ALL_CARDS))
    draws = []
    while True:
        c = rng.choice(deck)
        draws.append(c)
        if FAMILY_OF[c] >= 0:
            break
    rng.shuffle(deck)
    hands = tuple(sum(1 << c for c in deck[HAND_SIZE * s : HAND_SIZE * (s + 1)]) for s in range(players))
    return Deal(tuple(draws), hands, tuple(deck[HAND_SIZE * players :]))


class StichwahlState(State):
    SEAT_SHIFT = 512  # 272 actions at most

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
        self._undo: list[tuple[Any, ...]] = []
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
            a = game.parse_action(action).id  # type: ignore[arg-type]  # parse_action takes both
        ids = self._legal
        if ids is None:
            ids = self._legal_ids()
        if a not in ids:
            raise IllegalActionError(self._why_illegal(a))
        self._legal = None
        p = self._player
        if a < BONUS_ACT:
            # A card changes only its player's hand and voids and the trick: undo needs just those.
            self._undo.append((p, a, self._voids[p], self._led))
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
        text = self.game.actions[a].text
        phase = self._phase
        if phase == OVER:
            return Reason(f"{text}: the game is over", "game_over")
        p = self._player
        who = f"seat {p}"
        need = {
            PICK: f"{who} must first choose a first bonus card (bonus:CARD from the hand)",
            PLAY: f"{who} is to play a card (or use a bonus card first)",
            PRIZE: f"{who} won the trick and must choose the prize (prize:CARD, a card another player played)",
            LEAD: f"{who} played an unchosen 5 and must choose who leads next (lead:SEAT)",
        }[phase]

        def not_now(why: str) -> Reason:
            return Reason(f"{text}: {why}", "not_legal_now", expected=PHASE_NAMES[phase], seat=p)

        if a < BONUS_ACT:
            if phase != PLAY:
                return not_now(need)
            if not self._hands[p] >> a & 1:
                return Reason(f"{text}: {who}, whose turn it is, does not hold {text}", "not_held", card=text, seat=p)
            return why_not(a, self._hands[p], led_family([c for _, c in self._trick])).prefixed(f"{text}: ")
        if a < FLIP_ACT:
            if phase != PICK:
                return not_now(f"the first bonus cards are chosen only at the start of a deal; {need}")
            name = NAMES[a - BONUS_ACT]
            return Reason(f"{text}: {who} does not hold {name}", "not_held", card=name, seat=p)
        if a < PRIZE_ACT:
            if phase != PLAY:
                return not_now(f"bonus cards are used only on your turn before playing a card; {need}")
            card = a - FLIP_ACT if a < TRUMP_ACT else (a - TRUMP_ACT) // 4
            name = NAMES[card]
            if card not in self._bonus[p]:
                return Reason(f"{text}: {name} is not one of {who}'s bonus cards", "not_your_bonus", card=name, seat=p)
            kind = self._table.kind[card]
            if a < TRUMP_ACT:
                return Reason(f"{text}: {self._table.describe(card)} does not flip the marker", "bonus_no_flip",
                              card=name)  # fmt: skip
            fam = (a - TRUMP_ACT) % 4
            if kind != TRUMP or not self._table.trump_to[card] >> fam & 1:
                return Reason(f"{text}: {self._table.describe(card)} does not change trump to {FAMILY_NAMES[fam]}",
                              "bonus_no_trump", card=name, suit=FAMILIES[fam])  # fmt: skip
            return Reason(f"{text}: {FAMILY_NAMES[fam]} is trump already", "already_trump", suit=FAMILIES[fam])
        if a < LEAD_ACT:
            if phase != PRIZE:
                return not_now(f"no trick waits for its prize; {need}")
            card = a - PRIZE_ACT
            if any(c == card for s, c in self._trick if s == p):
                return Reason(f"{text}: the winner may not choose their own card", "own_card_prize", card=NAMES[card])
            return Reason(f"{text}: {NAMES[card]} is not in the trick", "not_in_trick", card=NAMES[card])
        if phase != LEAD:
            return not_now(need)
        return Reason(f"{text}: there is no seat {a - LEAD_ACT}", "no_such_seat", seat=a - LEAD_ACT)

    def _snapshot(self) -> tuple[Any, ...]:
        """Every field that changes during a game, as immutable values (undo restores from it).

        Card plays, the most common action, are undone from a 4-tuple instead (see `apply`)."""
        return (
            len(self._log), tuple(self._scores), self._deals, self._winners, self._deal_no, self._starter,
            self._deal, self._trump, self._high, tuple(self._hands), self._pile_pos, tuple(self._picks),
            self._first, tuple(self._bonus), tuple(self._points), tuple(self._hidden), self._used, self._trick,
            self._led, self._tricks, tuple(self._voids), self._leader, self._phase, self._player, self._prev_last,
        )  # fmt: skip

    def _restore(self, u: tuple[Any, ...]) -> None:
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
        if len(u) != 4:
            self._restore(u)
            return
        p, card, self._voids[p], self._led = u  # a card play: take it back
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

    # -- what a seat may know -------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        self._check_seat(seat)
        n = self._n
        revealed = self._phase != PICK
        v: dict[str, Any] = {
            "game": "stichwahl",
            "seat": seat,
            "options": dict(self.game.options),
            "target": self._target,
            "phase": PHASE_NAMES[self._phase],
            "current_player": self.current_player,
            "deal_number": self._deal_no,
            "starter": self._starter,
            "draws": [NAMES[c] for c in self._deal.draws],
            "trump": FAMILIES[self._trump],
            "marker": 9 if self._high else 1,
            "hand": [] if seat is None else DECK.notation(self._hands[seat]),
            "hand_sizes": [h.bit_count() for h in self._hands],
            "first_bonus_chosen": [c >= 0 for c in self._picks] if not revealed else [True] * n,
            "my_first_bonus": NAMES[self._picks[seat]] if seat is not None and self._picks[seat] >= 0 else None,
            "first_bonus": [NAMES[c] for c in self._first] if revealed else None,
            "bonus_cards": [[NAMES[c] for c in b] for b in self._bonus],
            "used_bonus": [
                {"seat": s, "card": NAMES[c], "effect": "flip" if f < 0 else f"trump:{FAMILIES[f]}", "trick": t}
                for s, c, f, t in self._used
            ],
            "trick": [{"seat": s, "card": NAMES[c]} for s, c in self._trick],
            "trick_leader": self._leader if self._phase in (PLAY, PRIZE) else None,
            "led_family": _fam(led_family([c for _, c in self._trick])),
            "trick_winner": self._player if self._phase == PRIZE else None,
            "tricks": [self._trick_json(t) for t in self._tricks],
            "last_trick": self._last_trick_json(),
            "point_piles": list(self._points),
            "from_draw_pile": list(self._hidden),
            "draw_pile": len(self._deal.pile) - self._pile_pos,
            "void_families": [[FAMILIES[f] for f in range(4) if m >> f & 1] for m in self._voids],
            "deal_points": [deal_points(self._points[s], len(self._bonus[s])) for s in range(n)],
            "scores": list(self._scores),
            "previous_deals": [
                {"deal": i, "point_piles": list(pile), "unused_bonus": list(left), "points": list(total)}
                for i, (pile, left, total) in enumerate(self._deals)
            ],
            "winners": self.winners() or None,
        }
        if seat is not None and seat == self.current_player:
            v["legal_actions"] = [a.text for a in self.legal_actions()]
        return v

    def _last_trick_json(self) -> dict[str, Any] | None:
        """The trick taken last (its prize chosen), even when it closed the previous deal (as Jass)."""
        if self._tricks:
            return {**self._trick_json(self._tricks[-1]), "deal": self._deal_no}
        if self._prev_last is not None:
            return {**self._trick_json(self._prev_last), "deal": self._deal_no - 1}
        return None

    @staticmethod
    def _trick_json(t: Trick) -> dict[str, Any]:
        return {
            "leader": t.leader,
            "plays": [{"seat": s, "card": NAMES[c]} for s, c in t.plays],
            "cards": [NAMES[c] for _, c in t.plays],  # play order; also what bots.base.view_key reads
            "trump": FAMILIES[t.trump],
            "marker": 9 if t.high else 1,
            "winner": t.winner,
            "prize": NAMES[t.prize],
            "taken": t.taken,
            "from_draw_pile": t.from_pile,
            "bonus_to": None if t.bonus_to < 0 else t.bonus_to,
            "pearl_to": None if t.pearl_to < 0 else t.pearl_to,
            "leader_chosen_by": None if t.chooser < 0 else t.chooser,
            "next_leader": None if t.next_leader < 0 else t.next_leader,
        }

    def clone(self) -> StichwahlState:
        new = object.__new__(StichwahlState)
        new.__dict__.update(self.__dict__)
        new._log = list(self._log)
        new._undo = list(self._undo)
        new._given = dict(self._given)
        new._restore(self._snapshot())
        return new

    def sample_hidden(self, seat: int, rng: random.Random) -> StichwahlState:
        """A state `seat` cannot tell from this one: the other hands, their first bonus cards not yet
        turned up, and the draw pile (also the cards already drawn from it face down) redealt at
        random, keeping hand sizes and the families each player has shown void; the draw piles of
        earlier deals reshuffled (their hands were all played face up, their piles never seen);
        later deals reshuffled from `rng`. A function of what `seat` knows and of `rng` only."""
        self._check_seat(seat)
        if seat is None:
            raise ValueError("sample_hidden needs a seat")
        n = self._n
        new = self.clone()
        new._undo = []  # the old snapshots would hold the real hands
        new._seed = rng.getrandbits(63)
        others = [s for s in range(n) if s != seat]
        pending = [self._picks[s] if self._phase == PICK and self._picks[s] >= 0 else -1 for s in others]
        pools = [self._hands[s] | (1 << pending[i] if pending[i] >= 0 else 0) for i, s in enumerate(others)]
        pile = self._deal.pile
        unknown = sum(pools) | sum(1 << c for c in pile)
        cards = list(bits(unknown))
        need = [p.bit_count() for p in pools] + [len(pile)]
        pile_bit = 1 << len(others)
        allowed = []
        for c in cards:
            fam = FAMILY_OF[c]
            a = pile_bit
            for i, s in enumerate(others):
                if fam < 0 or not self._voids[s] >> fam & 1:
                    a |= 1 << i
            allowed.append(a)
        dealt = deal_constrained(cards, allowed, need, rng)
        start = list(self._deal.hands)
        shift = self.SEAT_SHIFT
        # The log since this deal's chance entry: only first-bonus picks while they are hidden.
        at = max(i for i, e in enumerate(new._log) if not isinstance(e, int))
        for i, s in enumerate(others):
            pool = dealt[i]
            if pending[i] >= 0:
                pick = rng.choice(list(bits(pool)))
                pool &= ~(1 << pick)
                new._picks[s] = pick
                for k in range(at + 1, len(new._log)):
                    e = new._log[k]
                    if isinstance(e, int) and e // shift == s:
                        new._log[k] = s * shift + BONUS_ACT + pick
            public = self._deal.hands[s] & ~self._hands[s] & ~(1 << pending[i] if pending[i] >= 0 else 0)
            new._hands[s] = pool
            start[s] = pool | public | (1 << new._picks[s] if pending[i] >= 0 else 0)
        new_pile = list(bits(dealt[-1]))
        rng.shuffle(new_pile)
        new._deal = Deal(self._deal.draws, tuple(start), tuple(new_pile))
        new._log[at] = ("chance", new._deal)
        # Earlier deals: every hand card was played face up (first bonus + 8 tricks = 9), so the
        # hands are public, and so is the set of the pile (the rest of the deck); its order, i.e.
        # which cards each winner drew face down, nobody saw: shuffled anew, from the sorted set.
        given: dict[int, Deal] = {}
        k = 0
        for i in range(at):
            e = new._log[i]
            if isinstance(e, int):
                continue
            old = e[1]
            order = sorted(old.pile)
            rng.shuffle(order)
            given[k] = Deal(old.draws, old.hands, tuple(order))
            new._log[i] = ("chance", given[k])
            k += 1
        given[self._deal_no] = new._deal
        new._given = given
        return new

    def _position(self) -> tuple[Any, ...]:
        return (*self._snapshot()[1:], tuple(self._log))

    def _chance_json(self, outcome: Any) -> Any:
        return deal_json(outcome)

    def __repr__(self) -> str:
        return f"<StichwahlState deal {self._deal_no} {PHASE_NAMES[self._phase]} scores {self._scores}>"


def _fam(f: int) -> str | None:
    return None if f < 0 else FAMILIES[f]


def deal_points(pile: int, unused_bonus: int) -> int:
    """A deal's points: the cards in the point pile + 1 for every 2 unused bonus cards."""
    return pile + unused_bonus // 2


def deal_json(deal: Deal) -> dict[str, Any]:
    return {
        "draws": [NAMES[c] for c in deal.draws],
        "hands": [DECK.notation(h) for h in deal.hands],
        "pile": [NAMES[c] for c in deal.pile],
    }


__all__ = ["Deal", "StichwahlState", "Trick", "action_texts", "deal_from_seed", "deal_json", "deal_points"]
