"""pimc's inference: which worlds are likely, given what the other players decided in public.

The player who named trump more likely holds a hand for that mode, a forehand who pushed more
likely a weak one, and (with infer=play or calibrated) a player whose cards so far are the ones
the Jass heuristic would have played from a hand more likely holds that hand. A world is drawn
among a few `sample_hidden` candidates by that likelihood (sampling-importance-resampling). Only
the view and the drawn worlds enter, so the bot stays honest. docs/bots.md says what each
model does and when it misleads.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterator
from typing import Any, cast

from stichkit.core import State
from stichkit.games.jass.cards import DECK, MODES
from stichkit.games.jass.rules import legal_cards, next_reference

from ..base import View, view_key
from ..jass_heuristic import PUSH_BELOW, Table, notrump_score, trump_suit_score
from .worlds import start_hands

CANDIDATES = 4  # sample_hidden draws per world when inference weighs them
TRUMP_TEMPERATURE = 8.0  # softmax temperature over hand-evaluation scores (their units: ~10 per honour)
PLAY_MISS = 0.25  # infer=play: the chance an opponent plays another card than the heuristic would
PLAY_MISS_PARTNER = 0.5  # the partner is this bot, not the heuristic: a weaker model of its cards
PLAY_CANDIDATES = 8  # infer=play: sample_hidden draws per world (the card likelihoods vary more)
CALIBRATION_PRIOR = 4  # infer=calibrated: a player's prior miss, CALIBRATION_PRIOR_MISS, counts as this many cards
CALIBRATION_PRIOR_MISS = 0.5  # infer=calibrated: before a player's cards are seen (half the heuristic's card)
CALIBRATION_TRUST = 0.3  # infer=calibrated: a player missing the heuristic's card more often is not modelled
CALIBRATION_WORLDS = 8  # infer=calibrated: worlds drawn from a deal's last view to count its hits
CALIBRATION_GAMES = 256  # infer=calibrated: games (and deals) remembered at once

# The likelihood of the deal's public decisions given a world's four start hands.
Weigh = Callable[[tuple[int, ...]], float]


def mode_score(hand: int, mode: int) -> float:
    """How good `mode` looks for `hand` to a quick hand evaluation (the Jass heuristic's rule)."""
    return trump_suit_score(hand, mode) if mode < 4 else notrump_score(hand, mode)


def partner_mode(hand: int, modes: tuple[int, ...]) -> int:
    """The mode a partner holding `hand` names after a push, in the push model (see the module)."""
    return max(modes, key=lambda m: mode_score(hand, m))


def choice_likelihood(hand: int, mode: int, modes: tuple[int, ...]) -> float:
    """How likely a player holding `hand` names `mode`: a softmax of the hand-evaluation scores."""
    scores = [mode_score(hand, m) for m in modes]
    top = max(scores)
    z = sum(math.exp((s - top) / TRUMP_TEMPERATURE) for s in scores)
    return math.exp((mode_score(hand, mode) - top) / TRUMP_TEMPERATURE) / z


def push_likelihood(hand: int, modes: tuple[int, ...]) -> float:
    """How likely a forehand holding `hand` pushes: high when its best mode scores below PUSH_BELOW."""
    best = max(mode_score(hand, m) for m in modes)
    return 1.0 / (1.0 + math.exp((best - PUSH_BELOW) / TRUMP_TEMPERATURE))


# One card another seat played this deal, with what that seat knew then (see `past_plays`).
Play = tuple[int, int, int, int, int, int, dict[str, Any], float]


def past_plays(view: View, me: int, misses: tuple[float | None, ...] | None = None) -> list[Play]:
    """Every card another seat played in this deal, in order, as (seat, card, the cards that seat had
    played before, the trick's length then, the suit led, the trick's reference trump, that seat's
    view then without its hand, the chance it plays another card than the heuristic would: per seat
    from `misses`, where None leaves that seat's cards out, else PLAY_MISS, the partner
    PLAY_MISS_PARTNER). All of it is public: the tricks, the trick in progress, the trump and the
    Weis shown."""
    mode = MODES.index(view["trump"])
    lowest_plain = view["options"].get("undertrump") == "jass-kit"
    done = view["tricks"]
    tricks = [(t["leader"], t["cards"]) for t in done]
    if view["trick"]:
        tricks.append((view["trick_leader"], [p["card"] for p in view["trick"]]))
    played = [0, 0, 0, 0]
    plays: list[Play] = []
    for number, (leader, cards) in enumerate(tricks):
        led = reference = -1
        prefix: list[dict[str, Any]] = []
        for i, name in enumerate(cards):
            s = (leader - i) & 3
            c = DECK.index[name]
            miss = PLAY_MISS_PARTNER if s == me ^ 2 else PLAY_MISS
            if misses is not None:
                miss = misses[s]
            if s != me and miss is not None:
                then = {"seat": s, "trump": view["trump"], "trump_chosen_by": view["trump_chosen_by"],
                        "hand_sizes": [9 - m.bit_count() for m in played], "tricks": done[:number],
                        "trick": list(prefix), "trick_leader": leader if prefix else None,
                        "weis": view["weis"] if number else []}  # fmt: skip
                plays.append((s, c, played[s], i, led, reference, then, miss))
            if i == 0:
                led, reference = c // 9, (c if c // 9 == mode else -1)
            elif c // 9 == mode:
                reference = next_reference(reference, c, lowest_plain)
            prefix.append({"seat": s, "card": name})
            played[s] |= 1 << c
    return plays


def _judged(hands: tuple[int, ...], plays: list[Play], mode: int) -> Iterator[tuple[int, int, bool, float] | None]:
    """Each unforced card of `plays` if the seats were dealt `hands`: (seat, its legal cards' count,
    whether the Jass heuristic would have played it, the play's miss); None if the card was not
    even legal there (the world cannot be), after which nothing more is given."""
    for s, card, before, n, led, reference, then, miss in plays:
        hand = hands[s] & ~before
        legal = legal_cards(hand, n, led, mode, reference)
        if not legal >> card & 1:
            yield None
            return
        k = legal.bit_count()
        if k < 2:
            continue
        then["hand"] = DECK.notation(hand)  # the one part of `then` that depends on the world
        yield s, k, Table(then, None).choose_card(legal) == card, miss


def play_likelihood(hands: tuple[int, ...], plays: list[Play], mode: int) -> float:
    """How likely the others' cards of this deal are if they were dealt `hands`: each card the Jass
    heuristic would have played from that hand counts 1 - miss, each other legal card an equal
    share of miss (a forced card counts 1)."""
    w = 1.0
    for judged in _judged(hands, plays, mode):
        if judged is None:
            return 0.0
        _, k, hit, miss = judged
        w *= 1.0 - miss if hit else miss / (k - 1)
    return w


def heuristic_hits(hands: tuple[int, ...], plays: list[Play], mode: int) -> tuple[list[int], list[int], float]:
    """Per seat, how many of its unforced cards in `plays` the Jass heuristic would have played
    from `hands`, and how many unforced cards it played (nothing if the world cannot be); with
    `play_likelihood` of the same, from the same judgements."""
    hits, cards, w = [0, 0, 0, 0], [0, 0, 0, 0], 1.0
    for judged in _judged(hands, plays, mode):
        if judged is None:
            return [0, 0, 0, 0], [0, 0, 0, 0], 0.0
        s, k, hit, miss = judged
        hits[s] += hit
        cards[s] += 1
        w *= 1.0 - miss if hit else miss / (k - 1)
    return hits, cards, w


class Calibration:
    """How often each other player of a game played the card the Jass heuristic would have, in the
    game's earlier deals (infer=calibrated): that player's miss for the card inference.

    A deal's cards are all public once it is over, but the view keeps only the current deal, so
    the bot remembers its own last view of each deal (from its last two cards on, when nearly
    every card is known) with a few `sample_hidden` worlds drawn from it then, and counts the
    hits in those worlds when it next sees the game. A game is told apart by the seat, the options
    and the summaries of its finished deals (`previous_deals`), so one bot can play many tables
    (the server shares one per worker); a deal whose end the bot did not see (made anew, or not
    asked) adds nothing."""

    def __init__(self) -> None:
        self.tally: dict[str, tuple[list[float], list[float]]] = {}
        self.pending: dict[tuple[Any, ...], tuple[View, list[tuple[int, int, int, int]]]] = {}

    @staticmethod
    def game_key(view: View, deals: int) -> str:
        """The game as this seat knows it after `deals` finished deals."""
        return json.dumps([view["seat"], view["options"], view["previous_deals"][:deals]], sort_keys=True)

    def remember(self, state: State, seat: int, view: View) -> None:
        """Keep the seat's view late in a deal, with worlds drawn from it, for `misses` next deal."""
        if view["phase"] != "play" or view["hand_sizes"][seat] > 2:
            return
        rng = random.Random(view_key(view))
        worlds = [start_hands(state.sample_hidden(seat, rng)) for _ in range(CALIBRATION_WORLDS)]
        key = (self.game_key(view, view["deal_number"]), view["trump"], view["forehand"],
               view["trump_chosen_by"], view["pushed"])  # fmt: skip
        self.pending.pop(key, None)
        self.pending[key] = (view, worlds)
        while len(self.pending) > CALIBRATION_GAMES:
            del self.pending[next(iter(self.pending))]

    def counts(self, view: View, deals: int | None = None) -> tuple[list[float], list[float]]:
        """Per seat: the heuristic's cards and all unforced cards it played in the game's first
        `deals` deals (default: all finished ones), means over the remembered worlds."""
        d: int = view["deal_number"] if deals is None else deals
        key = self.game_key(view, d)
        known = self.tally.get(key)
        if known is not None:
            return known
        hits, cards = [0.0] * 4, [0.0] * 4
        if d > 0:
            hits, cards = (list(x) for x in self.counts(view, d - 1))
            last = view["previous_deals"][d - 1]
            before = self.game_key(view, d - 1)
            seen = self.pending.pop((before, last["trump"], last["forehand"], last["chooser"], last["pushed"]), None)
            if seen is not None:
                then, worlds = seen
                me: int = then["seat"]
                plays, mode = past_plays(then, me), MODES.index(then["trump"])
                # The worlds differ only in the few cards not yet seen; each counts as likely as the
                # deal's cards are in it (by the prior misses), so the real deal weighs most.
                judged = [heuristic_hits(hands, plays, mode) for hands in worlds]
                total = sum(w for _, _, w in judged)
                if total <= 0:  # no world explains the cards (it should not happen): all alike
                    judged, total = [(h, c, 1.0) for h, c, _ in judged], float(len(judged))
                for wh, wc, weight in judged:
                    for s in range(4):
                        hits[s] += wh[s] * weight / total
                        cards[s] += wc[s] * weight / total
        self.tally[key] = (hits, cards)
        while len(self.tally) > CALIBRATION_GAMES:
            del self.tally[next(iter(self.tally))]
        return hits, cards

    def misses(self, view: View) -> tuple[float | None, ...]:
        """Each seat's chance of playing another card than the heuristic, or None for a seat not
        like it: CALIBRATION_PRIOR_MISS worth CALIBRATION_PRIOR cards, updated by the counted
        cards; above CALIBRATION_TRUST the seat's cards are left out. No deal over yet: nobody's
        cards are modelled (the trump decisions still are); a player like the heuristic's are once
        a deal or two bear it out."""
        hits, cards = self.counts(view)
        out: list[float | None] = []
        for s in range(4):
            miss = (CALIBRATION_PRIOR * CALIBRATION_PRIOR_MISS + cards[s] - hits[s]) / (CALIBRATION_PRIOR + cards[s])
            out.append(miss if miss <= CALIBRATION_TRUST else None)
        return tuple(out)


def weigher(state: State, seat: int, view: View, *, play: bool, calibration: Calibration | None) -> Weigh | None:
    """The likelihood of the deal's public decisions given a world's hands (the trump decisions;
    with `play` the others' cards too, per player as `calibration` trusts them when given), or
    None if nobody but the seat decided anything yet."""
    modes: tuple[int, ...] = state.game.profile.trump_modes  # type: ignore[attr-defined]
    forehand: int = view["forehand"]
    pushed: bool = view["pushed"]
    chooser = view["trump_chosen_by"]
    mode = None if view["trump"] is None else MODES.index(view["trump"])
    pusher = forehand if pushed and forehand != seat else None
    named = chooser if chooser is not None and chooser != seat and mode is not None else None
    kept = forehand if named == forehand and not pushed else None  # it could have pushed, and did not
    misses = None if calibration is None else calibration.misses(view)
    plays = past_plays(view, seat, misses) if play and mode is not None else []
    if pusher is None and named is None and not plays:
        return None

    def weigh(hands: tuple[int, ...]) -> float:
        w = play_likelihood(hands, plays, cast(int, mode)) if plays else 1.0
        if pusher is not None:
            w *= push_likelihood(hands[pusher], modes)
        if named is not None:
            assert mode is not None
            w *= choice_likelihood(hands[named], mode, modes)
            if kept is not None:
                w *= 1.0 - push_likelihood(hands[kept], modes)
        return w

    return weigh


def draw_world(state: State, seat: int, weigh: Weigh | None, candidates: int, rng: random.Random) -> State:
    """One world the seat cannot tell from `state`: drawn among `candidates` `sample_hidden`
    worlds by `weigh`, or the first one drawn when there is nothing to weigh."""
    if weigh is None:
        return state.sample_hidden(seat, rng)
    worlds = [state.sample_hidden(seat, rng) for _ in range(candidates)]
    weights = [weigh(start_hands(w)) for w in worlds]
    total = sum(weights)
    if total <= 0:
        return worlds[0]
    x = rng.random() * total
    for w, wt in zip(worlds, weights, strict=True):
        x -= wt
        if x < 0:
            return w
    return worlds[-1]
