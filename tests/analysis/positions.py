"""Random Jass positions at a card decision, for the solver tests: every trump mode of both
profiles, both undertrump rules, positions mid-trick, and lopsided deals where a match is at stake."""

from __future__ import annotations

import random

from stichkit.games.jass import DECK, Jass, JassState
from stichkit.games.jass.cards import STRENGTH
from stichkit.games.jass.game import MAX_TARGET
from stichkit.games.jass.state import deal_hands

MODE_TEXTS = ("D", "H", "S", "C", "obe", "une")


def lopsided(rng: random.Random, mode: int) -> list[list[str]]:
    """A deal where seats 0 and 2 hold most of the strong cards: team 0 often takes every trick."""
    strength = STRENGTH[mode]
    order = sorted(range(36), key=lambda c: -max(row[c] for row in strength) + rng.random() * 3)
    strong, weak = order[:18], order[18:]
    rng.shuffle(strong)
    rng.shuffle(weak)
    hands = [strong[:9], weak[:9], strong[9:], weak[9:]]
    return [[DECK.names[c] for c in h] for h in hands]


def random_position(rng: random.Random, cards_left: int, *, lopsided_share: float = 0.25) -> tuple[JassState, dict]:
    """A state with `cards_left` cards still in the hands (1-36), reached by random legal play.

    Returns the state and how it was made (options, hands, moves), so a test can rebuild it."""
    profile = rng.choice(("seed", "schieber"))
    undertrump = rng.choice(("swiss", "jass-kit"))
    game = Jass(profile=profile, undertrump=undertrump, target=MAX_TARGET, first_forehand=0)
    mode = rng.choice(game.profile.trump_modes)
    greedy = rng.random() < lopsided_share
    hands = lopsided(rng, mode) if greedy else [DECK.notation(h) for h in deal_hands(rng.getrandbits(32), 0)]
    state = game.new_state(seed=1, deal={"hands": hands})
    moves = [f"trump:{MODE_TEXTS[mode]}"]
    state.apply(moves[0])
    for _ in range(36 - cards_left):
        legal = state.legal_actions()
        # Lopsided deals: play the strongest card half the time, so that matches come about.
        if greedy and rng.random() < 0.5:
            pos = state.play_position()
            assert pos is not None
            led = pos.led if pos.trick else None
            a = max(legal, key=lambda x: STRENGTH[mode][x.id // 9 if led is None else led][x.id])
        else:
            a = rng.choice(legal)
        moves.append(a.text)
        state.apply(a)
    made = {"profile": profile, "undertrump": undertrump, "mode": mode, "hands": hands, "moves": moves}
    return state, made


def rebuild(made: dict, card_map: dict[str, str] | None = None) -> JassState:
    """The position `made` again, each card renamed through `card_map` (a symmetry) if given."""
    m = card_map or {}
    game = Jass(profile=made["profile"], undertrump=made["undertrump"], target=MAX_TARGET, first_forehand=0)
    state = game.new_state(seed=1, deal={"hands": [[m.get(c, c) for c in h] for h in made["hands"]]})
    for text in made["moves"]:
        state.apply(m.get(text, text))
    return state


def race_position(rng: random.Random, cards_left: int, *, lopsided_share: float = 0.2) -> JassState | None:
    """A deal of a game with a small target (5-200: the race to it is open), Weis and Stöck on or
    off, played at random to `cards_left` cards; None if the game ended on the way. For the race
    search's tests and bench/race.py."""
    profile = rng.choice(("seed", "schieber"))
    game = Jass(profile=profile, target=rng.randint(5, 200), weis=rng.choice(("auto", "off")),
                stoeck=rng.random() < 0.8, first_forehand=rng.randrange(4))  # fmt: skip
    mode = rng.choice(game.profile.trump_modes)
    hands = (lopsided(rng, mode) if rng.random() < lopsided_share
             else [DECK.notation(h) for h in deal_hands(rng.getrandbits(32), 0)])  # fmt: skip
    state = game.new_state(seed=1, deal={"hands": hands})
    state.apply(f"trump:{MODE_TEXTS[mode]}")
    for _ in range(36 - cards_left):
        if state.is_terminal():
            return None
        state.apply(rng.choice(state.legal_actions()))
    return None if state.is_terminal() or state.play_position() is None else state
