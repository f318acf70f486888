"""Terminal play: what an outside review (2026-11) found missing or wrong when the four games
were played in a terminal. Every test drives `stich` through `main(argv, console, input_fn)`."""

from __future__ import annotations

import io
import json
import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import cast

import pytest
from rich.console import Console

import stichkit
from stichkit.cli.main import main

GAMES = {"jass": [], "stichwahl": ["players=3"], "stichling": ["players=3"], "stichmeister": ["players=3"]}


@pytest.fixture(autouse=True)
def _fast_default_opponents(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Heuristic opponents (the default ismcts thinks up to 1 s a move), and autosaves in tmp_path."""
    monkeypatch.setattr("stichkit.cli.common.DEFAULT_BOT", "heuristic")
    monkeypatch.chdir(tmp_path)


def console(width: int = 120) -> Console:
    return Console(file=io.StringIO(), width=width, color_system=None, force_terminal=False)


def text_of(con: Console) -> str:
    out = con.file
    assert isinstance(out, io.StringIO)
    return out.getvalue()


class Script:
    """A scripted player: first the given answers (one per prompt, "" for Enter), then the first legal
    move (the prompt's [list], else menu entry 1); after `moves` moves it stops (Ctrl-D)."""

    def __init__(self, *answers: str, moves: int = 10_000) -> None:
        self.answers = list(answers)
        self.moves = moves
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if "Press Enter" in prompt or "press Enter" in prompt:
            return ""
        if self.answers:
            return self.answers.pop(0)
        if self.moves <= 0:
            raise EOFError
        self.moves -= 1
        found = re.search(r"\[(.*?)\]\s*>\s*$", prompt)
        return found.group(1).split()[0] if found else "1"


def run(argv: list[str], player: Callable[[str], str] | None = None, width: int = 120) -> tuple[int, str]:
    con = console(width)
    code = main(argv, console=con, input_fn=player)
    return code, text_of(con)


def play(game: str, *answers: str, moves: int = 0, seats: str | None = "", extra: tuple[str, ...] = ()) -> str:
    """Play `game` as seat 0 against heuristic bots ("" seats), the given seats, or (None) no --seats."""
    n = 4 if game == "jass" else 3
    seats = seats or (None if seats is None else ",".join(["human"] + ["heuristic"] * (n - 1)))
    argv = ["play", game, "--delay", "0", *(["--seats", seats] if seats else [])]
    if "--resume" not in extra:
        argv += ["--seed", "3", *GAMES[game]]
    argv += extra
    code, out = run(argv, Script(*answers, moves=moves))
    assert code == 0, out[-2000:]
    return out


# -- bugs in play ----------------------------------------------------------------------------------


def test_stichwahl_next_leader_menu_number_means_the_menu_entry() -> None:
    """As the review found it: `1` in the menu `1:You (0) leads  2:Seat 1 leads ...` seated
    seat 1; a number is the menu entry, everywhere."""
    answers = ["2", "9", "n9", "3", "N6", "3", "N4", "B1", "O4", "5b", "1"]
    code, out = run(["play", "stichwahl", "--seats", "human,heuristic,heuristic,heuristic", "--delay", "0",
                     "--seed", "5"], Script(*answers, moves=0))  # fmt: skip
    assert code == 0
    assert "1:You (0) leads" in out
    assert "You (0) decides: You (0) leads" in out


def test_hotseat_hands_the_screen_over_and_shows_no_other_humans_secret() -> None:
    """Two humans at one terminal in Stichling. Seat 0 lays out its tiles 3-2-1; seat 1's
    screen comes after a "pass the screen" step and never shows seat 0's order."""
    out = play("stichling", "order:321", "order:123", moves=1, seats="human,human,heuristic")
    handover = out.index("Pass the screen to Seat 1")
    assert "You (0) lay out your tiles 3-2-1" in out[:handover]  # seat 0 sees its own order
    seat1 = out[handover : out.index("Pass the screen to Seat 0", handover)]
    assert "lay out your tiles 3-2-1" not in seat1 and "order:321" not in seat1
    assert "Seat 0 lays out their tiles face down" in seat1
    assert "Pass the screen to Seat 0" in out[handover:]  # and back to seat 0 for its first card


# -- what every screen shows, and the commands -------------------------------------------------------


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_tells_who_wins_the_trick_and_answers_the_commands(game: str) -> None:
    out = play(game, *(["1"] * 3), "tricks", "scores", "rules", "hint", moves=6)
    assert re.search(r"^Winning", out, re.M), out[-3000:]
    assert f"Hint from the {'pimc' if game == 'jass' else 'ismcts'} bot:" in out  # each game's strongest
    assert re.search(r"Scores|Game", out)
    reference = {"jass": "Card order", "stichwahl": "The cards: pearls", "stichling": "Score tiles",
                 "stichmeister": "Rule cards in force"}  # fmt: skip
    assert reference[game] in out


def test_the_hint_bot_is_chosen_per_game(monkeypatch: pytest.MonkeyPatch) -> None:
    from stichkit.cli.render_jass import JassRenderer

    monkeypatch.setattr(JassRenderer, "hint_bot", "random")
    monkeypatch.setattr(JassRenderer, "hint_params", {})  # Jass's own (pimc's time=0.5) are not random's
    out = play("jass", "hint", moves=0)
    assert "Hint from the random bot:" in out


def test_the_hint_bot_watches_every_turn_so_jass_hints_know_the_earlier_deals() -> None:
    """One hint bot a human for the whole game, shown each of its human's turns: by the second deal
    Jass's pimc has counted the first deal's cards (its calibration), though no hint was asked."""
    from stichkit.bots.pimc import PIMCBot
    from stichkit.cli.play import PlaySession

    state = stichkit.load_game("jass").new_state(seed=3)
    session = PlaySession(state, ["human", "heuristic", "heuristic", "heuristic"], console(),
                          Script(moves=12), delay=0)  # fmt: skip
    assert session.run() == 0
    view = session.state.view(0)
    assert view["deal_number"] == 1, "the script plays into the second deal"
    calibration = cast(PIMCBot, session.hint_bot(0)).calibration
    assert calibration is not None
    hits, cards = calibration.counts(view)
    assert cards[0] == 0 and all(cards[s] > 0 for s in (1, 2, 3)), cards  # its own seat is not counted
    assert all(hits[s] >= 0.8 * cards[s] for s in (1, 2, 3)), (hits, cards)  # heuristic players
    assert session.hint_bot(0) is session.hint_bot(0)


def test_take_back_asks_the_others_at_one_terminal_and_a_typed_save_path_that_is_no_path() -> None:
    out = play("jass", "1", "1", "undo", moves=0)  # trump, a card, then take it back
    assert re.search(r"You took back \w+ and the \d+ moves? after it", out)
    # at one terminal with another person: asked first; a no keeps the move, a yes takes it back
    out = play("jass", "1", "undo", "n", "undo", "y", moves=0, seats="human,heuristic,human,heuristic")
    assert out.count("asks to take back their last move and every move after it") == 2
    assert "Seat 2 did not agree: Seat 0's move stands." in out and "Seat 0 took back trump:D" in out
    out = play("jass", "save bad\0name.json", moves=0)  # a typed path that is no path: a message
    assert "Could not save to bad" in out


# -- per game ----------------------------------------------------------------------------------------


def test_jass_suit_names_german_verbs_and_friendlier_refusals() -> None:
    out = play("jass", "rosen", "hz", extra=("--cards", "swiss"), moves=0)
    assert "Rosen (H)" in out and "Schellen (D)" in out and "schieben (push)" in out
    assert "chooses trump Rosen (H)" in out
    out = play("jass", "1", "SA", "H6", extra=("--cards", "french"), moves=0)
    assert "Herz (H)" in out and "Ecke (D)" in out
    assert "you do not hold SA (your hand:" in out and "whose turn it is" not in out
    out = play("jass", "schieben", moves=0, seats="human,heuristic,human,heuristic")
    assert "You (0) schiebt (pushes)" in out


def test_jass_str_and_cli_show_the_score_form_of_scores() -> None:
    state = stichkit.load_game("jass").new_state(seed=3)
    while state.scores() == [0, 0, 0, 0]:
        state.apply(state.legal_actions()[0])
    assert str(state.scores()) in str(state)


def test_stichwahl_symbols_drawn_card_prize_menu_and_no_stale_bonus_line() -> None:
    out = play("stichwahl", moves=40)
    assert re.search(r"Drawn\s+\w+•", out)  # the card drawn for trump and marker
    assert re.search(r"Your hand .*•+(⇅|\+1|→)", out)  # bonus symbols in the hand
    assert "Your first bonus card" not in out
    handed = r"(Seat \d|You \(0\)) (gets it as a bonus card|scores \+1)"
    prize = re.search(r"prize \w+•+\S* \(you take \d+ cards; " + handed, out)
    assert prize, [ln for ln in out.splitlines() if "prize" in ln][:3]


def test_stichwahl_explains_when_a_5_takes_the_trick() -> None:
    from stichkit.cli.render import renderer_for

    r = renderer_for(stichkit.load_game("stichwahl"))
    plays = [{"seat": 0, "card": "N6"}, {"seat": 1, "card": "5a"}, {"seat": 2, "card": "N9"}]
    note = r.five_note(plays, 1, "O", 1)  # type: ignore[attr-defined]
    assert note == "5a takes the trick: a 5 counts as Narwal (N) 5 (the led family), and with the marker on 1 the " \
                   "lowest card wins"  # fmt: skip
    out = play("stichwahl", moves=400, extra=("target=10",))
    assert "takes the trick: a 5 counts as" in out or "only 5s were played" in out


def test_stichling_tile_order_by_values_and_german_terms() -> None:
    from stichkit.cli.render import renderer_for

    game = stichkit.load_game("stichling", players=3)
    state = game.new_state(seed=3)
    while state.view(None)["deal_number"] == 0:
        state.apply(state.legal_actions()[0])
    view = state.view(state.current_player)  # deal 2: tiles 2 4 6
    legal = view["legal_actions"]
    r = renderer_for(game)
    assert view["tiles"] == [2, 4, 6]
    assert r.normalize("246", view, legal) == "order:123"
    assert r.normalize("6-2-4", view, legal) == "order:312"
    assert r.normalize("213", view, legal) == "order:213"  # the code still works
    assert r.normalize("2", view, legal) == legal[1]  # and a small number is the menu entry
    with pytest.raises(ValueError, match="lay out this deal's tiles 2-4-6: type their values"):
        r.normalize("135", view, legal)
    out = play("stichling", "3-1-2", moves=3)
    assert "You (0) lay out your tiles 3-1-2" in out
    assert "Durchgang" in out and "Siegpunkte-Kärtchen" in out and "eröffnet" in out


# -- saving and resuming -----------------------------------------------------------------------------


def _stop_after(game: str, moves: int, *extra: str, seats: str | None = "") -> str:
    return play(game, moves=moves, extra=extra, seats=seats)


def test_resume_hint_is_a_command_that_works_as_printed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.argv", [".venv/bin/stich", "play", "jass"])  # as `make play` runs it
    monkeypatch.setattr("shutil.which", lambda name: None)  # stich is not on PATH
    out = _stop_after("jass", 3)
    command = re.search(r"go on with: (.*)$", " ".join(out.split())).group(1)  # type: ignore[union-attr]
    assert command == ".venv/bin/stich play jass --resume stich-jass-autosave.json"
    code, again = run(shlex.split(command)[1:], Script(moves=0))
    assert code == 0 and "Resumed stich-jass-autosave.json" in again


def test_resume_restores_seats_and_saves_back_to_its_file(tmp_path: Path) -> None:
    _stop_after("jass", 3, "--save", "mine.json", seats="human,random,heuristic,random")
    out = play("jass", "quit", "y", moves=0, extra=("--resume", "mine.json"), seats=None)
    assert "Seats: You (0): human · Left (1): random bot · Partner (2): heuristic bot · Right (3): random bot" in out
    assert "Save the game to mine.json" in out
    assert not (tmp_path / "stich-jass-autosave.json").exists()


def test_an_autosave_never_overwrites_another_games_save(tmp_path: Path) -> None:
    _stop_after("jass", 2)
    first = (tmp_path / "stich-jass-autosave.json").read_text()
    out = play("jass", moves=4, extra=("--seed", "9"))
    assert (tmp_path / "stich-jass-autosave.json").read_text() == first
    assert "holds another game" in out and "stich-jass-autosave-2.json" in out
    assert (tmp_path / "stich-jass-autosave-2.json").exists()
    code, out = run(["play", "jass", "--save", "stich-jass-autosave.json", "--delay", "0"], Script(moves=0))
    assert code == 2 and "never overwrites" in out


def _edited(tmp_path: Path, change: Callable[[dict], None], name: str) -> str:  # type: ignore[type-arg]
    doc = json.loads((tmp_path / "orig.json").read_text())
    change(doc)
    (tmp_path / name).write_text(json.dumps(doc))
    code, out = run(["play", "jass", "--resume", name, "--delay", "0"], Script(moves=0))
    assert code == 2, out
    return " ".join(out.split())


def test_saves_are_tamper_evident(tmp_path: Path) -> None:
    """Hostile files: edited options or hands, or deals that do not follow from the seed,
    are refused on --resume with the reason."""
    from stichkit.cli.saves import SAVE_KEY, checksum

    _stop_after("jass", 3, "--save", "orig.json")
    assert json.loads((tmp_path / "orig.json").read_text())[SAVE_KEY]["checksum"].startswith("sha256:")

    def target(doc: dict) -> None:  # type: ignore[type-arg]
        doc["options"]["target"] = 100

    assert "its checksum does not match" in _edited(tmp_path, target, "a.json")

    def swap_hands(doc: dict) -> None:  # type: ignore[type-arg]
        hands = doc["moves"][0]["chance"]["hands"]
        hands[1], hands[3] = hands[3], hands[1]

    assert "its checksum does not match" in _edited(tmp_path, swap_hands, "b.json")

    def reseal(doc: dict) -> None:  # type: ignore[type-arg]
        swap_hands(doc)
        meta = doc.pop(SAVE_KEY)
        meta["checksum"] = checksum(doc, meta["seats"], meta["bots_seed"])
        doc[SAVE_KEY] = meta

    message = _edited(tmp_path, reseal, "c.json")
    assert "move 0: this chance outcome (a deal or draw) is not the one the record's seed 3 gives" in message

    def plain(doc: dict) -> None:  # type: ignore[type-arg]
        del doc[SAVE_KEY]

    assert "not a game saved by stich play" in _edited(tmp_path, plain, "d.json")


# -- bots and tables ----------------------------------------------------------------------------------


def _quick_open(monkeypatch: pytest.MonkeyPatch) -> None:
    from stichkit import bots

    def make(name: str, seed: int | None) -> object:
        return bots.make(name, seed=seed, **({"iterations": 4} if name == "open" else {}))

    monkeypatch.setattr("stichkit.arena.simulation.make_bot", make)
    monkeypatch.setattr("stichkit.cli.play.make_bot", make)


def test_open_bot_is_marked_as_cheating_in_simulate_and_play(monkeypatch: pytest.MonkeyPatch) -> None:
    _quick_open(monkeypatch)
    argv = ["simulate", "stichwahl", "players=2", "target=5", "--games", "1", "--seats", "open,random", "--seed", "1"]
    code, out = run(argv)
    assert code == 0 and "open (CHEATS: sees all hands)" in out
    code, out = run([*argv, "--json"])
    res = json.loads(out)
    assert res["cheating"] == ["open"] and [r["cheats"] for r in res["per_seat"]] == [True, False]
    out = play("stichwahl", moves=0, seats="human,open,random")
    assert "Seat 1: open bot (CHEATS: sees all hands" in out


def test_tournament_table_fits_a_narrow_terminal_and_intervals_stay_within_0_and_100() -> None:
    from stichkit.cli.tournament import share_interval

    assert share_interval(0.98, 0.05) == "98.0% (93.0–100.0%)"
    assert share_interval(0.01, 0.04) == "1.0% (0.0–5.0%)"
    argv = ["tournament", "stichwahl", "players=2", "--seats", "heuristic,random", "--deals", "2", "--seed", "1"]
    code, out = run(argv, width=60)
    assert code == 0
    assert max(len(line) for line in out.splitlines()) <= 60
    assert "win share" in out and "heuristic" in out and "random" in out


# -- Stich-Meister ------------------------------------------------------------------------------------


def test_stichmeister_screen_numbered_hand_reasons_on_demand_and_round_summary() -> None:
    hands: list[str] = []

    def player(prompt: str) -> str:
        """Types a card by its number in the hand, once an unplayable card, and answers menus with 1."""
        if "Press Enter" in prompt:
            return ""
        if not prompt.startswith("Your card"):
            menu = re.search(r"\[(.*?)\]", prompt)
            return menu.group(1).split()[0] if menu else "1"
        legal = re.search(r"\[(.*?)\]", prompt).group(1).split()  # type: ignore[union-attr]
        hand = re.findall(r"\d+:(\w+)", [ln for ln in text_of(con).splitlines() if ln.startswith("Your hand")][-1])
        hands.append(" ".join(hand))
        illegal = [c for c in hand if c not in legal]
        if illegal and not any("✗" in ln for ln in text_of(con).splitlines()):
            return illegal[0]
        return str(hand.index(legal[0]) + 1)

    con = console()
    code = main(["play", "stichmeister", "players=3", "--seats", "human,heuristic,heuristic", "--delay", "0",
                 "--seed", "3"], console=con, input_fn=player)  # fmt: skip
    out = text_of(con)
    assert code == 0
    before_reveal = out[: out.index("Revealed:")]
    assert "no trump" not in before_reveal and "set by the rule cards" in before_reveal
    assert re.search(r"Your hand  1:\w+  2:\w+", out)
    assert re.search(r"✗ \w+: .*(must|may not)", out)  # the reason, once an unplayable card is typed
    assert not re.search(r"^\s+\w+: you must follow", out, re.M)  # no list of reasons before every move
    assert "Regel" in out and "Trumpffarbe" in out  # the rule cards in German too
    assert re.search(r"Last trick: .* wins with", out)
    assert "Winning the trick:" in out
    assert "Round 1" in out and "A point per trick" in out and "Round points" in out
    assert re.search(r"Game over: .*\n", out) and not re.search(r"Scores?: \[", out)


def test_stichmeister_replay_shows_trick_winners_and_round_tables(tmp_path: Path) -> None:
    code, _ = run(["play", "stichmeister", "players=3", "--seats", "heuristic,heuristic,heuristic", "--delay", "0",
                   "--seed", "4", "--save", "sm.json"])  # fmt: skip
    assert code == 0
    code, out = run(["replay", "sm.json"])
    assert code == 0
    assert len(re.findall(r"→ trick: .* wins with", out)) > 10
    assert "last trick of the round" in out
    assert out.count("A point per trick") == 3 and "Game over" in out


@pytest.mark.parametrize(
    ("game", "options"), [("stichwahl", {"players": 3, "target": 40}), ("stichling", {"players": 3})]
)
def test_stichwahl_and_stichling_show_the_last_trick_also_from_the_previous_deal(game: str, options: dict) -> None:
    """A "Last trick" line as Jass has, from the view's last_trick: within a deal, and at the start
    of the next deal (the previous deal's last trick, marked as such)."""
    from stichkit.cli.render import renderer_for

    state = stichkit.load_game(game, **options).new_state(seed=2)
    renderer = renderer_for(state.game)
    seen: set[str] = set()
    while state.view(None)["deal_number"] < 1:
        state.apply(state.legal_actions()[0])
        view = state.view(0)
        con = console(160)
        con.print(renderer.screen(view, 0, [], []))
        lines = [ln for ln in text_of(con).splitlines() if ln.startswith("Last trick")]
        last = view["last_trick"]
        assert len(lines) == (last is not None)
        if last is not None:
            seen.add("previous" if last["deal"] < view["deal_number"] else "this")
            assert ("previous deal" in lines[0]) == (last["deal"] < view["deal_number"])
            assert all(p["card"] in lines[0] for p in last.get("plays", last["cards"]))
    assert seen == {"this", "previous"}
