"""Review of Stichwahl against the rulebook (seeds 000/001), RULINGS.md (General + Stichwahl), the
review's requirements and API.md. Passing tests pin rules the other test files do not cover yet; tests marked
`xfail(strict=True)` pin findings: they assert the correct behaviour and fail today."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

import stichkit
from stichkit import IllegalActionError, OptionError
from stichkit.cli.render import renderer_for
from stichkit.games.stichwahl import CARDS, CardTableError, load_table
from stichkit.games.stichwahl.cards import NAMES

from .helpers import BEISPIEL, BEISPIEL_BONUS, legal, new, play

SHIPPED = Path(stichkit.games.stichwahl.__file__).parent / "cards.toml"  # type: ignore[attr-defined]
BY = {c.name: c for c in CARDS}
C = {n: i for i, n in enumerate(NAMES)}
FULL = [f + str(v) for f in "OPNB" for v in (1, 2, 3, 4, 6, 7, 8, 9)] + ["5a", "5b", "5c", "5d"]


def fam(card: str) -> str | None:
    return None if card[0] == "5" else card[0]


def val(card: str) -> int:
    return 5 if card[0] == "5" else int(card[1:])


def ref_winner(cards: list[str], trump: str, high: bool) -> int:
    """RULINGS.md: marker 9 highest trump, else highest of the led family; marker 1 the lowest;
    a 5 takes the led family; equal values: the earlier card; only 5s: the first 5."""
    led = next((fam(c) for c in cards if fam(c)), None)
    if led is None:
        return 0
    best, key = 0, (-1, 0)
    for i, c in enumerate(cards):
        f = fam(c) or led
        k = (2 if f == trump else 1 if f == led else 0, val(c) if high else -val(c))
        if k > key:
            best, key = i, k
    return best


def random_game(players: int, seed: int, target: int = 30, **options: Any) -> stichkit.State:
    return stichkit.load_game("stichwahl", players=players, target=target, **options).new_state(seed=seed)


# == Findings (xfail: they fail today) ===========================================================


@pytest.mark.parametrize("kind", ["latin-1 file", "NUL in path"])
def test_unreadable_card_table_is_an_option_error(tmp_path: Path, kind: str) -> None:
    """A malformed card table gets an error; API.md: a bad option value raises
    stichkit.OptionError naming the option. A table saved as Latin-1 (an umlaut in a comment, as a
    German user might write) or a path with a NUL byte must not escape as a bare ValueError."""
    if kind == "latin-1 file":
        path = tmp_path / "latin1.toml"
        path.write_bytes(SHIPPED.read_bytes().replace(b"# Orca 1", "# Orca 1 geprüft".encode("latin-1")))
        where = str(path)
    else:
        where = str(tmp_path / "bad\0name.toml")
    with pytest.raises(CardTableError):
        load_table(where)
    with pytest.raises(OptionError, match="cards"):
        stichkit.load_game("stichwahl", cards=where)


@pytest.mark.parametrize(
    ("old", "new_text", "message"),
    [
        ('name = "5a"\nfamily = "none"\nvalue = 5\npearls = 1', 'name = "5a"\nfamily = "none"\nvalue = 5\npearls = 2',
         "card 5a: field 'pearls'"),
        ('name = "N2"  # Narwal 2\nfamily = "N"\nvalue = 2\npearls = 3',
         'name = "N2"  # Narwal 2\nfamily = "N"\nvalue = 2\npearls = 2', "card N2: field 'pearls'"),
    ],
    ids=["5a-with-2-pearls", "N2-with-2-pearls"],
)  # fmt: skip
def test_a_table_contradicting_the_text_is_refused(tmp_path: Path, old: str, new_text: str, message: str) -> None:
    """RULINGS.md: "Known from the text: Narwal-2 has 3 pearls; the 5s have 1 pearl and no bonus"
    (seed 000: "Du bekommst einen Punkt (Perle links)"; "Sie wählt Andreas' 2er-Karte. Damit bekommt
    sie 3 Punkte"). The loader already refuses a 5 with a bonus for this reason, but accepts a 5 with
    2 pearls (which the engine then silently ignores: a 5 prize still gives 1) and an N2 with 2."""
    text = SHIPPED.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(old, new_text, 1), encoding="utf-8")
    with pytest.raises(CardTableError, match=message):
        load_table(str(path))


def test_a_corrected_card_table_is_read_again(tmp_path: Path) -> None:
    """RULINGS.md General: "A user who owns the physical cards must be able to correct the data
    without touching code." Correcting the file and loading the game again (same process: server,
    notebook, `stich` session) must use the corrected data, and a file broken since must be refused."""
    path = tmp_path / "mine.toml"
    text = SHIPPED.read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    assert stichkit.load_game("stichwahl", cards=str(path)).table.pearls[C["O1"]] == 1  # type: ignore[attr-defined]
    old = 'name = "O1"  # Orca 1\nfamily = "O"\nvalue = 1\npearls = 1'
    path.write_text(text.replace(old, old[:-1] + "3"), encoding="utf-8")
    os.utime(path, ns=(10**18, 10**18))  # a new mtime, for a cache keyed on it
    assert stichkit.load_game("stichwahl", cards=str(path)).table.pearls[C["O1"]] == 3  # type: ignore[attr-defined]
    path.write_text(text.replace(old, old[:-1] + "7"), encoding="utf-8")
    os.utime(path, ns=(2 * 10**18, 2 * 10**18))
    with pytest.raises(OptionError, match="card O1: field 'pearls'"):
        stichkit.load_game("stichwahl", cards=str(path))


def test_sample_hidden_redraws_earlier_deals_draw_piles() -> None:
    """API.md: sample_hidden gives "a full state consistent with everything view(seat) shows, hidden
    parts drawn at random"; docs/stichwahl.md: "the draw pile, the cards drawn from it ... are
    hidden". The previous deal's pile order (which face-down cards each winner drew) is never shown,
    yet every sample carries the true order in its record."""
    s = random_game(3, 7, target=100)
    rng = random.Random(3)
    while s.view(None)["deal_number"] == 0:
        s.apply(rng.choice(s.legal_actions()))
    truth = s.record()["moves"][0]["chance"]["pile"]
    samples = [s.sample_hidden(0, random.Random(i)).record()["moves"][0]["chance"]["pile"] for i in range(8)]
    assert any(p != truth for p in samples)


def test_terminal_next_leader_by_seat_number() -> None:
    """The player must understand every choice on screen. The help text says
    "Next leader: lead:2 or the seat number", but typing 2 picks menu entry 2, i.e. lead:1 (and 0 is
    refused). Either the seat number works, or the help must not promise it."""
    s = new(deal=BEISPIEL)
    play(s, *BEISPIEL_BONUS, "N2", "use:O8", "N6", "B9", "5a", "prize:N2")  # Jan (3) chooses
    v = s.view(3)
    r = renderer_for(s.game)
    assert r.normalize("2", v, v["legal_actions"]) == "lead:2" or "seat number" not in r.help()


# == Verified rules not yet pinned elsewhere =======================================================


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_deal_draws_trump_and_marker_again(players: int) -> None:
    """Seed 000 Spielvorbereitung 2): values 1-4 lowest wins, 6-9 highest, a 5 is drawn again; RULINGS:
    "Setup of each deal: draw a random card". A bonus-changed trump does not carry into the next deal."""
    s = random_game(players, 11, target=200)
    rng = random.Random(5)
    seen = 0
    while seen < 3:
        v = s.view(None)
        if v["phase"] == "first_bonus" and not any(v["first_bonus_chosen"]):
            draws = v["draws"]
            assert all(d[0] == "5" for d in draws[:-1]) and draws[-1][0] != "5"
            assert (v["trump"], v["marker"]) == (draws[-1][0], 9 if val(draws[-1]) >= 6 else 1)
            if players == 2:
                assert len(draws) == 1
            seen += 1
        s.apply(rng.choice(s.legal_actions()))


@pytest.mark.parametrize(("players", "pile"), [(2, 14), (3, 9), (4, 0)])
def test_hands_and_pile_are_exactly_the_deck(players: int, pile: int) -> None:
    """RULINGS: 9 cards each, the rest (3 players: 9; 2 players: 14) is the draw pile; 2 players
    play without the 5s (seed 000: "nehmt ihr einfach die 5er-Karte aus dem Spiel")."""
    deck = FULL[:32] if players == 2 else FULL
    for seed in range(5):
        chance = random_game(players, seed).record()["moves"][0]["chance"]
        cards = [c for h in chance["hands"] for c in h] + chance["pile"]
        assert [len(h) for h in chance["hands"]] == [9] * players and len(chance["pile"]) == pile
        assert sorted(cards) == sorted(deck)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_reference_rules_over_random_games(players: int) -> None:
    """A rulebook reference over random games: 8 tricks per deal (seed 000 6): "die nächsten 7
    Runden"); the starter leads the first trick; following (5s always, a led 5 takes the first
    non-5); the winner (ref_winner); the prize from another player's card only; cards taken =
    pearls from the other trick cards, topped up from the pile while it lasts; a 5 prize: 1 card;
    the first unchosen 5 of another player chooses the next leader; deal scoring."""
    for seed in range(4):
        s = random_game(players, seed, target=25)
        rng = random.Random(seed)
        while not s.is_terminal():
            v = s.view(None)
            p = s.current_player
            assert p is not None
            acts = legal(s)
            if v["phase"] == "play":
                if not v["trick"] and not v["tricks"]:
                    assert p == v["starter"]
                hand = s.view(p)["hand"]
                led = next((fam(t["card"]) for t in v["trick"] if fam(t["card"])), None)
                want = (
                    hand
                    if led is None or all(fam(c) != led for c in hand)
                    else [c for c in hand if fam(c) in (led, None)]
                )
                assert sorted(a for a in acts if not a.startswith("use:")) == sorted(want)
            if v["phase"] == "prize":
                cards = [t["card"] for t in v["trick"]]
                assert v["trick"][ref_winner(cards, v["trump"], v["marker"] == 9)]["seat"] == p
                assert sorted(acts) == sorted("prize:" + t["card"] for t in v["trick"] if t["seat"] != p)
            a = rng.choice(acts)
            s.apply(a)
            after = s.view(None)
            if v["phase"] == "prize" and after["deal_number"] == v["deal_number"]:
                t = after["tricks"][-1]
                prize = a.removeprefix("prize:")
                if prize[0] == "5":
                    want_taken = (1, 0)
                    assert (t["bonus_to"], t["pearl_to"]) == (None, None)
                else:
                    pearls = BY[prize].pearls
                    taken = min(pearls, players - 1)
                    want_taken = (taken, min(pearls - taken, v["draw_pile"]))
                assert (t["taken"], t["from_draw_pile"]) == want_taken
                fives = [x["seat"] for x in v["trick"] if x["card"][0] == "5" and x["card"] != prize and x["seat"] != p]
                assert t["leader_chosen_by"] == (fives[0] if fives and len(after["tricks"]) < 8 else None)
            if after["deal_number"] != v["deal_number"] or s.is_terminal():
                assert len(v["tricks"]) == 7 and all(h <= 1 for h in v["hand_sizes"])
                d = after["previous_deals"][-1]
                assert d["points"] == [a + b // 2 for a, b in zip(d["point_piles"], d["unused_bonus"], strict=True)]


def test_the_leader_may_use_a_bonus_before_leading() -> None:
    """Seed 000 Spielablauf 1): "Wenn du beginnst ... Optional kannst du auch eine ... Bonuskarte
    nutzen, bevor du eine Karte aus der Hand spielst"; the bonus counts SOFORT for this trick."""
    s = new(deal=BEISPIEL)  # Blauwal trump, marker 1; Andreas' first bonus O1 changes trump to Pottwal
    play(s, *BEISPIEL_BONUS)
    plain = play(s.clone(), "N2", "N6", "P2", "N7")
    assert plain.current_player == 0  # Lina's P2 is off-family: the lowest Narwal (N2) wins
    play(s, "use:O1:P", "N2", "N6", "P2", "N7")
    assert s.view(None)["trump"] == "P" and s.current_player == 2  # now P2 is the (lowest) trump


def test_a_led_5_then_a_family_card_sets_the_family_for_the_rest() -> None:
    """RULINGS: "If a 5 is led, the first non-5 card played defines the family to follow for the rest
    of the trick (the player right after a led 5 may play any card)"; the led 5 takes that family."""
    s = new(deal=BEISPIEL)
    play(s, *BEISPIEL_BONUS, "5b")
    assert "P6" in legal(s) and "B3" in legal(s)  # Tim holds Narwal, Orca, ... and may play any
    play(s, "O6")
    assert [a for a in legal(s) if not a.startswith("use:")] == ["O2", "O9"]  # Lina must follow Orca
    play(s, "O2", "N7")  # marker 1, Blauwal trump, none played: the lowest Orca; 5b counts as Orca 5
    assert s.current_player == 2 and s.view(None)["void_families"][3] == ["O"]


def test_one_pearl_prize_takes_one_card_and_becomes_a_bonus_card() -> None:
    """Seed 000 Spielablauf 4): take as many cards as the prize shows pearls; its player keeps it as a
    bonus card. N1 (1 pearl, trump bonus): Lina takes 1 of the 3 other cards, Jan keeps N1."""
    s = new(deal=BEISPIEL)
    play(s, *BEISPIEL_BONUS, "N2", "N6", "B9", "N1")  # marker 1: B9 is the only trump and wins
    assert s.current_player == 2 and legal(s) == ["prize:N1", "prize:N2", "prize:N6"]
    play(s, "prize:N1")
    v = s.view(None)
    assert (v["tricks"][0]["taken"], v["point_piles"], v["bonus_cards"][3]) == (1, [0, 0, 1, 0], ["B1", "N1"])
    assert (v["phase"], s.current_player) == ("play", 2)  # no 5 played: the winner leads


def test_the_chooser_may_name_any_seat_who_then_leads() -> None:
    """Seed 000 5): "Wer die 5 gespielt hat, darf bestimmen, wer die Runde beginnt!" """
    s = new(deal=BEISPIEL)
    play(s, *BEISPIEL_BONUS, "N2", "use:O8", "N6", "B9", "5a", "prize:N2")
    assert s.current_player == 3 and legal(s) == ["lead:0", "lead:1", "lead:2", "lead:3"]
    play(s, "lead:1")
    v = s.view(None)
    assert (v["phase"], s.current_player, v["tricks"][0]["next_leader"]) == ("play", 1, 1)
    assert v["trick_leader"] == 1


def test_illegal_actions_name_the_reason() -> None:
    """API.md: "An illegal action raises stichkit.IllegalActionError whose message says why (e.g.
    'must follow Koi'), and leaves the state exactly as it was"."""
    s = new(deal=BEISPIEL)
    play(s, *BEISPIEL_BONUS, "N2")
    cases = [("O6", "must follow Narwal"), ("use:O8:B", "does not change trump to Blauwal")]
    play(s, "N6", "B9", "5a")
    cases += [("prize:B9", "may not choose their own card"), ("prize:O1", "O1 is not in the trick"),
              ("N7", "must choose the prize")]  # fmt: skip
    for action, why in cases[2:]:
        before = s.clone()
        with pytest.raises(IllegalActionError, match=why):
            s.apply(action)
        assert s == before
    s.undo()
    s.undo()
    s.undo()
    for action, why in cases[:2]:
        with pytest.raises(IllegalActionError, match=why):
            s.apply(action)
    play(s, "N6", "B9", "N7", "prize:N2")  # B9, the only trump, wins: Lina leads
    with pytest.raises(IllegalActionError, match="does not flip the marker"):
        s.apply("use:P1")  # Lina's P1 changes trump, it does not flip
    done = random_game(2, 3, target=1)
    rng = random.Random(1)
    while not done.is_terminal():
        done.apply(rng.choice(done.legal_actions()))
    with pytest.raises(IllegalActionError, match="the game is over"):
        done.apply("N2")


def test_views_hide_hands_and_pile_and_show_the_public_table() -> None:
    """Views: hands and the draw pile are hidden; bonus cards, the marker, the trump family,
    the played cards and the point-pile counts are public."""
    s = random_game(3, 4)
    chance = s.record()["moves"][0]["chance"]
    rng = random.Random(2)
    for _ in range(3 + 7):  # the first bonus cards and two tricks with their prizes
        s.apply(rng.choice(s.legal_actions()))
    truth = {p: set(s.view(p)["hand"]) for p in range(3)}
    pile = set(chance["pile"])
    for seat in (0, 1, 2, None):
        v = s.view(seat)
        text = json.dumps({k: x for k, x in v.items() if k not in ("hand", "draws", "legal_actions")})
        hidden = pile | set().union(*(h for p, h in truth.items() if p != seat))
        assert not any(f'"{c}"' in text for c in hidden), seat
        assert set(v["hand"]) == (truth[seat] if seat is not None else set())
        for key in ("bonus_cards", "trump", "marker", "trick", "tricks", "point_piles", "draw_pile", "first_bonus"):
            assert v[key] == s.view(None)[key]


def test_sample_hidden_during_the_first_bonus_choice() -> None:
    """API.md: sample_hidden is consistent with view(seat); the others' first bonus cards, still face
    down, are hidden (docs) and so are redrawn, the seat's own choice and hand are kept."""
    s = new(deal=BEISPIEL)
    play(s, "bonus:O1", "bonus:O8")  # Lina and Jan still to choose; Tim's O8 is face down
    picks = set()
    for i in range(12):
        x = s.sample_hidden(0, random.Random(i))
        assert x.view(0) == s.view(0)
        assert x.view(0)["my_first_bonus"] == "O1" and x.view(1)["my_first_bonus"] is not None
        picks.add(x.view(1)["my_first_bonus"])
        play(x, "bonus:" + x.view(2)["hand"][0], "bonus:" + x.view(3)["hand"][0])
        assert x.view(None)["first_bonus"][0] == "O1"
    assert len(picks) > 1


def test_replay_of_a_whole_game_with_leader_choices() -> None:
    """API.md: replay(record) gives a state equal to the original (same views, scores, legal actions);
    every chance outcome is in the record, so it replays without the random generator."""
    for seed in range(3):
        s = random_game(4, seed, target=20)
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))
        rec = json.loads(json.dumps(s.record()))
        assert any(m.get("action", "").startswith("lead:") for m in rec["moves"])
        rec["seed"] = None
        r = stichkit.replay(rec)
        assert r.scores() == s.scores() and r.winners() == s.winners()
        assert all(r.view(p) == s.view(p) for p in (0, 1, 2, 3, None))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[card]]\nname = 'Q7'\n", "card entry 1: field 'name'"),
        ("[[card]]\nname = 'O1'\nfamily = 'O'\n", "card O1: field 'value' is missing"),
        ("card = [1]\n", "card entry 1"),
        ("colour = 'x'\n", "unknown top-level entry 'colour'"),
    ],
)
def test_malformed_tables_name_card_and_field(tmp_path: Path, text: str, message: str) -> None:
    """A malformed card table gets an error that names the card and the field."""
    path = tmp_path / "t.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(OptionError, match=message):
        stichkit.load_game("stichwahl", cards=str(path))
