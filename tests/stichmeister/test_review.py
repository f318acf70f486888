"""The outside review of Stich-Meister (2026-11): the seed scoring card (41) against the per-trick
cards, the last trick and the finished round in every view (rule 24's face-down cards included),
the 3-player pile card kept secret, and the 3-player rule deck of 60 cards."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import stichkit
from stichkit import RecordError, State
from stichkit.games.stichmeister.scoring import score_round
from tests.invariants import tokens_in

from .helpers import rules_of, taken, trumps_of, with_rules
from .test_properties import scan

# -- 41: "Der Gesamtwert ... der ersten beiden Stiche beträgt 0, der letzte Stich zählt dreifach" --

PER_TRICK = (43, 45, 46, 47, 51, 53, 58, 59)  # every card that changes what one trick is worth
# Six tricks, all taken by seat 0 (so rule 53 meets its 4th, 5th, 6th trick), each holding a trump
# (rule 6: the 7s), Münze, Fächer, Torii, a 15 and two cards of one value.
SIX = [taken(["F7", "M7", "T15", "T7"], 0, "T7")] * 6


def values(numbers: tuple[int, ...], tricks: list[Any]) -> list[int]:
    r = rules_of(*numbers)
    return score_round(tricks, r, trumps_of(r), 4)[1]


@pytest.mark.parametrize("card", PER_TRICK)
def test_41_sets_the_total_value_after_every_per_trick_card(card: int) -> None:
    """Seed 003's scoring card names the tricks' *total* value: whatever the other cards make a
    trick worth, the first two are worth 0 and the last three times that."""
    alone = values((6, card), SIX)
    assert values((6, 41, card), SIX) == [0, 0, *alone[2:5], 3 * alone[5]]


def test_41_with_47_a_first_trick_of_sevens_is_worth_0() -> None:
    tricks = [taken(["F7", "F8", "F9", "F10"], 1, "F10")] + [taken(["K1", "K2", "K3", "K4"], 2, "K4")] * 14
    r = rules_of(41, 47)
    points, vals = score_round(tricks, r, trumps_of(r), 4)
    assert vals[0] == 0 and vals[-1] == 3 and points == [0, 0, 12 + 3, 0]


def test_41_with_51_counts_torii_then_zeroes_and_triples() -> None:
    tricks = [taken(["T1", "T2", "F3", "F4"], 0, "F4")] * 4
    assert values((41, 51), tricks) == [0, 0, 2, 6]


def test_player_cards_score_after_the_trick_values() -> None:
    """Round scores come after every trick is worth what the trick cards make it: 56 halves the
    leader's round score once 58 has taken its points off (seat 0: 4 tricks of 1 Fächer, 0)."""
    tricks = [taken(["F1", "K2", "K3", "K4"], 0, "K4")] * 4 + [taken(["M1", "M2", "M3", "M4"], 1, "M4")] * 2
    r = rules_of(56, 58)
    assert score_round(tricks, r, trumps_of(r), 4)[0] == [0, 1, 0, 0]


# -- the last trick and the finished round stay visible --------------------------------------------


def play(state: State, rng: random.Random, stop: Any = None) -> None:
    while not state.is_terminal() and not (stop and stop(state)):
        state.apply(rng.choice(state.legal_actions()))


def round_of(state: State) -> int:
    return int(state.view(None)["round"])


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_view_has_the_last_trick_and_the_finished_round(players: int) -> None:
    """`last_trick` (as Jass has): the cards with who played each, who won and who took it, and
    what it is worth; the round's last trick and its summary stay until the next round's first
    action, and at the game's end."""
    game = stichkit.load_game("stichmeister", players=players)
    state = game.new_state(seed=players)
    rng = random.Random(players)
    seen_round_end = 0
    while not state.is_terminal():
        before = round_of(state)
        state.apply(rng.choice(state.legal_actions()))
        views = [state.view(s) for s in [*range(players), None]]
        v = views[-1]
        for w in views:
            assert w["last_trick"] == v["last_trick"] and w["last_round"] == v["last_round"]
        if round_of(state) != before:  # the round just ended: nobody has acted in the new one
            seen_round_end += 1
            last = v["last_round"]
            assert last["round"] == before and v["tricks"] == []
            assert v["last_trick"] == {**last["tricks"][-1], "round": before}
            assert last["points"] == v["previous_rounds"][-1]["points"]
            assert sum(last["trick_points"]) == sum(t["value"] for t in last["tricks"])
            per_rule = [sum(x) for x in zip(*[r["points"] for r in last["scoring"]], strict=True)] or [0] * players
            assert [t + r for t, r in zip(last["tricks_taken"], per_rule, strict=True)] == last["points"]
            nxt = state.clone()
            nxt.apply(nxt.legal_actions()[0])
            assert nxt.view(None)["last_round"] is None and nxt.view(None)["last_trick"] is None
        elif v["tricks"]:
            assert v["last_trick"] == {**v["tricks"][-1], "round": before}
            assert (v["last_round"] is None) != state.is_terminal()
    v = state.view(None)
    assert seen_round_end == players - 1
    assert v["last_round"]["round"] == players - 1 and v["last_trick"] == {**v["tricks"][-1], "round": players - 1}


def test_a_trick_is_worth_its_final_value_as_soon_as_it_is_taken() -> None:
    """41 + 47: the first trick is worth 0 at once, and the round's last tricks show the values
    the round is scored with."""
    state = with_rules([41, 47, 5, 15])
    rng = random.Random(3)
    play(state, rng, lambda s: len(s.view(None)["tricks"]) == 1)
    assert state.view(None)["last_trick"]["value"] == 0
    play(state, rng, lambda s: round_of(s) == 1)
    last = state.view(None)["last_round"]
    assert [t["value"] for t in last["tricks"][:2]] == [0, 0]
    assert last["tricks"][-1]["value"] % 3 == 0
    scored = {r["rule"] for r in last["scoring"]}
    assert scored == {41, 47}


def test_rule_24_face_down_cards_are_public_once_played_to_the_last_trick() -> None:
    """Rule 24: each card laid face down is played to the last trick; it is public from then on
    (in `last_trick` and the finished round) and never before: no other view names it."""
    state = with_rules([24, 5, 15, 41])
    rng = random.Random(5)
    play(state, rng, lambda s: s.view(None)["phase"] == "play")
    down = {s: state.view(s)["my_face_down"] for s in range(4)}
    assert all(len(d) == 1 for d in down.values())
    while round_of(state) == 0:
        for s in [*range(4), None]:
            seen = tokens_in(scan(state.view(s)))
            assert not {d[0] for owner, d in down.items() if owner != s} & seen
        state.apply(rng.choice(state.legal_actions()))
    last = state.view(None)["last_trick"]
    assert {c["seat"]: c["card"] for c in last["cards"]} == {s: d[0] for s, d in down.items()}


def test_replay_undo_and_samples_keep_the_finished_round() -> None:
    state = stichkit.load_game("stichmeister").new_state(seed=11)
    rng = random.Random(11)
    play(state, rng, lambda s: round_of(s) == 1)
    v = state.view(2)
    assert v["last_round"] is not None
    assert stichkit.replay(json.loads(json.dumps(state.record()))).view(2) == v
    sample = state.sample_hidden(2, random.Random(1))
    assert sample.view(2) == v
    copy = state.clone()
    state.apply(state.legal_actions()[0])
    state.undo()
    assert state == copy and state.view(None) == copy.view(None)


# -- 3 players: the pile's rule card is shuffled in with the chosen ones ("eingemischt") -----------


def test_three_players_no_view_names_the_pile_card() -> None:
    state = with_rules([5, 41, 22, 30], players=3)  # seats 1, 2, 0 chose 5, 41, 22; 30 from the pile
    for s in [0, 1, 2, None]:
        v = state.view(s)
        assert "extra_rule" not in v
        assert sorted(r["number"] for r in v["active_rules"]) == [5, 22, 30, 41]


def test_three_players_samples_redraw_which_card_came_from_the_pile() -> None:
    """Seat 1 chose 5; which of 22, 30 and 41 came from the pile it cannot know, so the samples
    give each of them that place."""
    state = with_rules([5, 41, 22, 30], players=3)
    extras = {state.sample_hidden(1, random.Random(k))._extra for k in range(40)}
    assert extras == {22, 30, 41}


# -- 3 players: the rule deck keeps all 60 cards (the book takes out trick cards only) -------------


def test_three_players_keep_all_60_rule_cards_by_default() -> None:
    game = stichkit.load_game("stichmeister", players=3)
    assert game.options["prune_trump_rules"] is False
    assert sorted(game.rule_deck) == list(range(1, 61))
    deck = list(range(60, 0, -1))
    state = game.new_state(seed=1, deal={"hands": [[c for c in h] for h in _hands(game)], "rule_deck": deck})
    assert state.view(0)["rule_hand_sizes"] == [3, 3, 3] and state.view(None)["rule_pile_size"] == 51


def test_three_players_can_prune_the_trump_rules_naming_removed_cards() -> None:
    game = stichkit.load_game("stichmeister", players=3, prune_trump_rules=True)
    assert sorted(set(range(1, 61)) - set(game.rule_deck)) == [9, 12, 18, 19]
    assert sorted(stichkit.load_game("stichmeister", players=4, prune_trump_rules=True).rule_deck) == list(range(1, 61))


def test_a_record_from_before_the_option_replays_with_the_pruned_deck_it_was_played_with() -> None:
    """Until 2026-11-22 the 3-player deck always left the four rules out, and records did not name
    the option: such a record replays as pruned (Option.before), not as today's default. The
    record: a 3-player game written by stichkit 4d4bc1e (seed 5, random play), pinned."""
    text = (Path(__file__).parent / "record_3p_2026-11-22.json").read_text()
    record = json.loads(text)
    assert "prune_trump_rules" not in record["options"]
    state = stichkit.replay(text)
    assert state.is_terminal() and state.game.options["prune_trump_rules"] is True
    assert state.record()["moves"] == record["moves"]
    assert stichkit.replay(state.record()).record() == state.record()  # and, written again, replays to itself
    record["options"]["prune_trump_rules"] = False  # a record that says all 60 but deals 56 is refused
    with pytest.raises(RecordError, match="rule_deck must hold all 60 rule cards"):
        stichkit.replay(record)


def test_an_older_record_of_four_or_five_players_replays_with_the_default() -> None:
    """With 4 and 5 players the option changes nothing, so an older record is today's default."""
    for players in (4, 5):
        record = stichkit.load_game("stichmeister", players=players).new_state(seed=2).record()
        del record["options"]["prune_trump_rules"]
        assert stichkit.replay(record).game.options["prune_trump_rules"] is False


def test_a_record_naming_the_option_replays_with_it() -> None:
    for prune in (False, True):
        game = stichkit.load_game("stichmeister", players=3, prune_trump_rules=prune)
        state = game.new_state(seed=3)
        assert stichkit.replay(state.record()).game.options["prune_trump_rules"] is prune


def test_three_players_a_trump_rule_naming_only_removed_cards_makes_no_trump() -> None:
    state = with_rules([9, 41, 22, 30], players=3)  # rule 9: all 10s, not in the 3-player deck
    v = state.view(None)
    assert v["trump"] == [] and v["trump_line"] == "no trump"
    play(state, random.Random(2))
    assert state.is_terminal()


def _hands(game: Any) -> list[list[str]]:
    from stichkit.games.stichmeister.cards import names

    return [names(h) for h in game.deal_hands(1, 0)]


# -- the trick in progress: who is winning it, who would take it, what it is worth --


def test_every_view_tells_who_is_winning_the_trick_in_progress() -> None:
    """30 (the second highest wins), 35 (the winner's left neighbour takes it), 45 (+1 per Münze)."""
    from .helpers import winner

    state = with_rules([5, 30, 35, 45])
    rng = random.Random(2)
    seen = 0
    while state.view(None)["round"] == 0 and seen < 12:
        view = state.view(None)
        trick = [t["card"] for t in view["trick"]]
        if view["phase"] == "play" and trick:
            standing = view["trick_winning"]
            card = winner([5, 30, 35, 45], *trick)
            seat = next(t["seat"] for t in view["trick"] if t["card"] == card)
            assert standing == {
                "seat": seat, "card": card, "taker": (seat + 1) % 4, "value": 1 + sum(t[0] == "M" for t in trick),
            }  # fmt: skip
            assert all(state.view(s)["trick_winning"] == standing for s in range(4))
            seen += 1
        else:
            assert view["trick_winning"] is None
        state.apply(rng.choice(state.legal_actions()))
    assert seen == 12


def test_no_view_tells_who_is_winning_while_a_card_lies_face_down() -> None:
    """Rule 26: the cards after the lead are played face down; nobody may learn which one wins."""
    state = with_rules([5, 26, 35, 45])
    rng = random.Random(3)
    while state.view(None)["round"] == 0:
        view = state.view(None)
        if len(view["trick"]) > 1:
            assert all(state.view(s)["trick_winning"] is None for s in (None, 0, 1, 2, 3))
        state.apply(rng.choice(state.legal_actions()))
