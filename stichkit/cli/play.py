"""`stich play`: humans and bots at one table, one terminal.

The loop is driven by an input function and draws on a rich Console, both injectable, so tests can
play a whole game with scripted answers. Each human sees only `state.view(their seat)`: with
several humans at one terminal ("hotseat"), the screen is cleared and handed over before each
one's turn, and every human has their own running commentary, so nobody reads another's secret
(a Stichling tile order, a card passed face down) from the lines about earlier moves.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from stichkit.core.errors import IllegalActionError, StichkitError
from stichkit.core.game import State

from .common import HUMAN, CliError, bot_seed, load_game, make_bot, parse_options, parse_seats
from .render import Renderer, View, renderer_for
from .saves import read_save, resume_command, write_save

if TYPE_CHECKING:
    from stichkit.bots import Bot

InputFn = Callable[[str], str]

# What the player may type besides a move, and the words that mean it (German ones too).
COMMANDS = {
    "help": "help", "?": "help", "hilfe": "help",
    "tricks": "tricks", "stiche": "tricks",
    "scores": "scores", "score": "scores", "punkte": "scores",
    "rules": "rules", "regeln": "rules",
    "hint": "hint", "tipp": "hint",
    "undo": "undo", "back": "undo", "zurück": "undo",
    "save": "save", "speichern": "save",
    "quit": "quit", "exit": "quit", "ende": "quit",
}  # fmt: skip
COMMANDS_HELP = """\
[b]Commands[/b]: [b]tricks[/b] (this deal's tricks), [b]scores[/b] (every deal so far), [b]rules[/b] (card \
reference), [b]hint[/b] (what the {bot} bot would play), [b]undo[/b] (take back your last move; the other \
players at the terminal must agree), [b]save[/b] [FILE], [b]quit[/b], [b]help[/b]."""
LOG_KEEP = 60  # commentary lines kept per viewer


def autosave_path(game: str, n: int = 1) -> str:
    return f"stich-{game}-autosave.json" if n == 1 else f"stich-{game}-autosave-{n}.json"


def _same_file(a: str, b: str) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


class Quit(Exception):
    """The player asked to stop."""


class TakeBack(Exception):
    """The player took moves back: the turn starts again from the screen."""


class PlaySession:
    """One game at one terminal. `run()` returns the exit code."""

    def __init__(
        self,
        state: State,
        seats: list[str],
        console: Console,
        input_fn: InputFn | None = None,
        *,
        delay: float = 0.6,
        save_path: str | None = None,
        source: str | None = None,
        bots_seed: int | None = None,
        cards: str = "seed",
    ) -> None:
        self.state = state
        self.game = state.game
        self.seats = seats
        self.console = console
        self.input_fn = input_fn
        self.delay = delay
        self.save_path = save_path  # written after every move (--save, or the file resumed from)
        self.source = source  # the file this game was resumed from
        self.bots_seed = bots_seed
        self.renderer: Renderer = renderer_for(self.game, cards=cards)
        self.bots: dict[int, Any] = {
            i: make_bot(name, bot_seed(bots_seed, i)) for i, name in enumerate(seats) if name != HUMAN
        }
        self.humans = [i for i, name in enumerate(seats) if name == HUMAN]
        # One hint bot a human, kept for the game: it sees every turn of its human (`observe`), so
        # one that learns from the earlier deals (Jass's pimc) has learnt when a hint is asked.
        self.hint_bots: dict[int, Bot] = {}
        self.hotseat = len(self.humans) > 1
        # Whose eyes are at the screen: the one human; with several, the last one who moved.
        self.holder: int | None = self.humans[0] if len(self.humans) == 1 else None
        viewers: list[int | None] = [*self.humans] or [None]
        self.logs: dict[int | None, list[str]] = {v: [] for v in viewers}
        self.written: set[str] = set()  # files this session saved to: its own, safe to write again
        self.autosave: str | None = None

    # -- input and output -----------------------------------------------------------------------

    def ask(self, prompt: str) -> str:
        if self.input_fn is None:
            return str(self.console.input(escape(prompt)))
        self.console.print(Text(prompt), end="")
        answer = self.input_fn(prompt)
        self.console.print(Text(answer))
        return answer

    def say(self, markup: str) -> None:
        self.console.print(markup)

    # -- saving ---------------------------------------------------------------------------------

    def ours(self, path: str) -> bool:
        """May this session write `path` without asking: a new file, or one it saved or came from."""
        try:
            if not Path(path).exists():
                return True
            return any(_same_file(path, p) for p in (*self.written, *([self.source] if self.source else [])))
        except (OSError, ValueError):  # not a usable path (a NUL byte): saving says so
            return True

    def default_save(self) -> str:
        """Where `save`, `quit` and Ctrl-C save: the --save file, the file resumed from, else an
        autosave file that holds no other game (stich-GAME-autosave.json, -2, -3, ...)."""
        if self.save_path:
            return self.save_path
        if self.source:
            return self.source
        if self.autosave is None:
            n = 1
            while not self.ours(autosave_path(self.game.name, n)):
                n += 1
            self.autosave = autosave_path(self.game.name, n)
            if n > 1:
                self.say(f"[dim]{autosave_path(self.game.name)} holds another game; this one is saved to "
                         f"{escape(self.autosave)}[/dim]")  # fmt: skip
        return self.autosave

    def save(self, path: str) -> bool:
        try:
            write_save(self.state, self.seats, self.bots_seed, path)
        except (OSError, ValueError) as e:  # ValueError: e.g. a NUL byte in the name
            reason = getattr(e, "strerror", None) or str(e)
            self.say(f"[red]Could not save to {escape(path)}: {escape(reason)}[/red]")
            return False
        self.written.add(path)
        return True

    def resume_hint(self, path: str) -> str:
        return f"[b]{escape(resume_command(self.game.name, path))}[/b]"

    # -- the game -------------------------------------------------------------------------------

    def run(self) -> int:
        try:
            self.intro()
            self.loop()
        except Quit:
            return 0
        except (EOFError, KeyboardInterrupt) as e:
            if self.state.is_terminal():
                self.say("\nBye.")
                return 0
            path = self.default_save()
            if self.save(path):
                self.say(f"\n[b]Stopped.[/b] The game is saved in {escape(path)}; go on with: {self.resume_hint(path)}")
            return 130 if isinstance(e, KeyboardInterrupt) else 0
        return 0

    def intro(self) -> None:
        """Who sits where; a cheating bot is named as one."""
        from stichkit.bots import CHEAT_NOTE, is_cheating

        r = self.renderer
        parts = []
        for s, name in enumerate(self.seats):
            who = "human" if name == HUMAN else f"{name} bot"
            if name != HUMAN and is_cheating(name):
                who += f" [red](CHEATS: {CHEAT_NOTE.removeprefix('cheats: ')})[/red]"
            parts.append(f"{r.seat_name(s, self.holder)}: {who}")
        self.say("Seats: " + " · ".join(parts))
        if self.source:
            view = self.state.view(self.holder)
            self.say(f"Resumed {escape(self.source)}: {escape(r.score_line(view, self.holder))}")

    def loop(self) -> None:
        state = self.state
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            before = state.view(None)
            if self.seats[seat] == HUMAN:
                try:
                    action = self.human_move(seat)
                except TakeBack:
                    continue
            else:
                if self.delay > 0:
                    time.sleep(self.delay)
                bot = self.bots[seat]
                failed = getattr(bot, "fallback_count", 0)  # a remote player that fails: say so
                action = str(bot.choose(state, seat))
                if getattr(bot, "fallback_count", 0) > failed:
                    self.say(
                        f"[yellow]Seat {seat}: {escape(str(bot.last_problem))}; a fallback move is played[/yellow]"
                    )
                state.apply(action)
            self.after_move(before, seat, action)
        me = self.holder if len(self.humans) == 1 else None
        self.console.print(self.renderer.final(state.view(me), me))

    def after_move(self, before: View, seat: int, action: str) -> None:
        if self.save_path:
            self.save(self.save_path)
        after = self.state.view(None)
        r = self.renderer
        for viewer, log in self.logs.items():
            log.extend(r.events(before, after, seat, action, viewer))
            del log[:-LOG_KEEP]
        # The lines printed now are read by whoever is at the screen.
        for line in r.events(before, after, seat, action, self.holder):
            self.say(line)
        summary = r.deal_summary(before, after, self.holder)
        if summary is not None:
            for log in self.logs.values():
                log.clear()
            self.console.print()
            self.console.print(summary)
            if self.humans and not self.state.is_terminal():
                self.ask("Press Enter for the next deal ")

    def pass_screen(self, seat: int) -> None:
        """Hotseat: clear the screen and wait until the next human, alone, is looking."""
        name = self.renderer.seat_name(seat, None)
        self.console.clear()
        self.say(f"[b]Pass the screen to {escape(name)}.[/b]")
        self.ask(f"{name}: press Enter when only you can see the screen ")
        self.console.clear()
        self.holder = seat

    def human_move(self, seat: int) -> str:
        """Ask until the player gives a legal action, apply it and return its notation."""
        if self.hotseat and self.holder != seat:
            self.pass_screen(seat)
        view = self.state.view(seat)
        legal: list[str] = view.get("legal_actions", [])
        r = self.renderer
        self.hint_bot(seat).observe(self.state, seat)
        self.console.clear()
        self.console.print(r.screen(view, seat, legal, self.logs[seat]))
        while True:
            text = self.ask(r.prompt(view, legal)).strip()
            if not text:
                continue
            word, _, rest = text.partition(" ")
            command = COMMANDS.get(word.lower())
            if command is not None and self.command(command, rest.strip(), seat, view):
                continue
            try:
                action = r.normalize(text, view, legal)
                self.state.apply(action)
            except (IllegalActionError, ValueError) as e:
                self.say(f"[red]✗ {escape(r.refusal(e, view))}[/red]  [dim](type help for help)[/dim]")
                continue
            return str(self.game.parse_action(action))

    def command(self, command: str, rest: str, seat: int, view: View) -> bool:
        """Carry out a command word; False when the word is no command here (then it is a move)."""
        r = self.renderer
        if command == "help":
            self.say(r.help())
            self.say(COMMANDS_HELP.format(bot=r.hint_bot))
        elif command == "tricks":
            self.console.print(r.tricks(view, seat))
        elif command == "scores":
            self.console.print(r.scores(view, seat))
        elif command == "rules":
            self.console.print(r.rules(view))
        elif command == "hint":
            self.hint(seat, view)
        elif command == "undo":
            self.take_back(seat)
        elif command == "save":
            self.save_command(rest)
        elif command == "quit":
            self.quit()
        return True

    def hint_bot(self, seat: int) -> Bot:
        """The bot that answers this human's `hint`s (the game's hint bot, made at the first turn)."""
        from stichkit import bots

        bot = self.hint_bots.get(seat)
        if bot is None:
            r = self.renderer
            params = dict(r.hint_params)
            try:
                bot = bots.make(r.hint_bot, **params, seed=bot_seed(self.bots_seed, seat))
            except (TypeError, StichkitError):
                bot = bots.make(r.hint_bot, **params)
            self.hint_bots[seat] = bot
        return bot

    def hint(self, seat: int, view: View) -> None:
        """What the game's hint bot would play, and why when the view tells."""
        r = self.renderer
        action = str(self.hint_bot(seat).choose(self.state, seat))
        n = r.menu_number(view, action)
        number = f" (number {n})" if n is not None else ""
        only = len(view.get("legal_actions", [])) == 1
        why = "the only move you may make now" if only else r.explain(view, action, seat)
        self.say(f"Hint from the {r.hint_bot} bot: [b]{escape(action)}[/b]{number}" + (f" — {why}" if why else ""))

    def take_back(self, seat: int) -> None:
        """Undo this human's last move and every move after it; the other humans at the terminal
        (hotseat) must agree first: nobody's move is undone without their word."""
        history = self.state.history()
        mine = [i for i, (s, _) in enumerate(history) if s == seat]
        if not mine:
            self.say("[red]Nothing to take back: you have not moved yet.[/red]")
            return
        if self.hotseat:
            self.ask_the_others(seat)
        undone = history[mine[-1] :]
        for _ in undone:
            self.state.undo()
        others = len(undone) - 1
        who = escape(self.renderer.seat_name(seat, None)) if self.hotseat else "You"
        line = f"{who} took back {escape(str(undone[0][1]))}" + (
            f" and the {others} move{'s' if others != 1 else ''} after it" if others else ""
        )
        for log in self.logs.values():
            log.clear()
            log.append(line)
        if self.save_path:
            self.save(self.save_path)
        self.say(line)
        raise TakeBack

    def ask_the_others(self, seat: int) -> None:
        """Hotseat: each other human agrees to `seat`'s takeback, with the asker's hand off the
        screen; a no keeps every move (TakeBack: the asker's turn starts again, screen passed back)."""
        name = escape(self.renderer.seat_name(seat, None))
        self.console.clear()
        self.holder = None
        self.say(f"[b]{name} asks to take back their last move and every move after it.[/b]")
        for h in self.humans:
            if h == seat:
                continue
            other = self.renderer.seat_name(h, None)
            answer = self.ask(f"{other}: do you agree? [y/N] ").strip().lower()
            if answer not in ("y", "yes", "j", "ja"):
                line = f"{escape(other)} did not agree: {name}'s move stands."
                for log in self.logs.values():
                    log.append(line)
                self.say(line)
                raise TakeBack

    def save_command(self, rest: str) -> None:
        path = rest or self.default_save()
        if not self.ours(path):
            answer = self.ask(f"{path} exists and holds something else. Overwrite it? [y/N] ").strip().lower()
            if answer not in ("y", "yes", "j", "ja"):
                self.say("Not saved.")
                return
        if self.save(path):
            self.say(f"Saved to {escape(path)}. Go on later with: {self.resume_hint(path)}")

    def quit(self) -> None:
        path = self.default_save()
        answer = self.ask(f"Save the game to {path} before quitting? [Y/n] ").strip().lower()
        if answer in ("", "y", "yes", "j", "ja") and self.save(path):
            self.say(f"Saved. Go on later with: {self.resume_hint(path)}")
        raise Quit


def start(args: argparse.Namespace, console: Console, input_fn: InputFn | None) -> int:
    """`stich play` from its parsed arguments: a new game, or a saved one with its seats."""
    source = None
    if args.resume:
        if args.options:
            raise CliError("a resumed game keeps its saved options; leave out " + " ".join(args.options))
        saved = read_save(args.resume)
        state = saved.state
        if state.game.name != args.game.lower():
            raise CliError(f"{args.resume} holds a {state.game.name} game, not {args.game}")
        if state.is_terminal():
            raise CliError(f"{args.resume} holds a finished game; watch it with: stich replay {args.resume}")
        seats = (
            saved.seats
            if args.seats is None
            else parse_seats(args.seats, state.game.num_players, allow_human=True, game=state.game.name)
        )
        bots_seed = saved.bots_seed if args.seed is None else args.seed
        source = args.resume
    else:
        state = load_game(args.game, parse_options(args.options)).new_state(seed=args.seed)
        seats = parse_seats(args.seats, state.game.num_players, allow_human=True, game=state.game.name)
        bots_seed = args.seed
    save_path = args.save or source
    if args.save and Path(args.save).exists() and not (source and _same_file(args.save, source)):
        raise CliError(
            f"{args.save} already exists; --save never overwrites another file: "
            f"go on with that game with --resume {args.save}, or choose another file"
        )
    cards = getattr(args, "cards", None) or "seed"
    if cards != "seed" and state.game.name != "jass":
        raise CliError(f"--cards chooses Jass suit names; {state.game.name} has one set of card names")
    session = PlaySession(state, seats, console, input_fn, delay=args.delay, save_path=save_path, source=source,
                          bots_seed=bots_seed, cards=cards)  # fmt: skip
    return session.run()
