"""`stich play`: humans and bots at one table, one terminal.

The loop is driven by an input function and draws on a rich Console, both injectable, so tests can
play a whole game with scripted answers. Each human sees only `state.view(their seat)`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from stichkit.core.errors import IllegalActionError
from stichkit.core.game import State

from .common import HUMAN, bot_seed, make_bot, write_record
from .render import Renderer, View, renderer_for

InputFn = Callable[[str], str]


def autosave_path(game: str) -> str:
    return f"stich-{game}-autosave.json"


class Quit(Exception):
    """The player asked to stop."""


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
        seed: int | None = None,
    ) -> None:
        self.state = state
        self.game = state.game
        self.seats = seats
        self.console = console
        self.input_fn = input_fn
        self.delay = delay
        self.save_path = save_path  # --save: written after every move
        self.renderer: Renderer = renderer_for(self.game)
        self.bots: dict[int, Any] = {
            i: make_bot(name, bot_seed(seed, i)) for i, name in enumerate(seats) if name != HUMAN
        }
        self.humans = [i for i, name in enumerate(seats) if name == HUMAN]
        # Whose eyes the running commentary uses: the (first) human, else a spectator.
        self.me: int | None = self.humans[0] if self.humans else None
        self.log: list[str] = []

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

    def default_save(self) -> str:
        return self.save_path or autosave_path(self.game.name)

    def save(self, path: str) -> bool:
        try:
            write_record(self.state, path)
        except OSError as e:
            self.say(f"[red]Could not save to {escape(path)}: {escape(e.strerror or str(e))}[/red]")
            return False
        return True

    # -- the game -------------------------------------------------------------------------------

    def run(self) -> int:
        try:
            self.loop()
        except Quit:
            return 0
        except (EOFError, KeyboardInterrupt) as e:
            if self.state.is_terminal():
                self.say("\nBye.")
                return 0
            path = self.default_save()
            if self.save(path):
                self.say(
                    f"\n[b]Stopped.[/b] The game is saved in {escape(path)}; go on with: "
                    f"[b]stich play {self.game.name} --resume {escape(path)}[/b]"
                )
            return 130 if isinstance(e, KeyboardInterrupt) else 0
        return 0

    def loop(self) -> None:
        state = self.state
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            before = state.view(None)
            if self.seats[seat] == HUMAN:
                action = self.human_move(seat)
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
        self.console.print(self.renderer.final(state.view(self.me), self.me))

    def after_move(self, before: View, seat: int, action: str) -> None:
        if self.save_path:
            self.save(self.save_path)
        after = self.state.view(None)
        for line in self.renderer.events(before, after, seat, action, self.me):
            self.log.append(line)
            self.say(line)
        summary = self.renderer.deal_summary(before, after, self.me)
        if summary is not None:
            self.log.clear()
            self.console.print()
            self.console.print(summary)
            if self.humans and not self.state.is_terminal():
                self.ask("Press Enter for the next deal ")

    def human_move(self, seat: int) -> str:
        """Ask until the player gives a legal action, apply it and return its notation."""
        view = self.state.view(seat)
        legal: list[str] = view.get("legal_actions", [])
        r = self.renderer
        self.console.clear()
        self.console.print(r.screen(view, seat, legal, self.log))
        while True:
            text = self.ask(r.prompt(view, legal)).strip()
            if not text:
                continue
            word, _, rest = text.partition(" ")
            command = word.lower()
            if command in ("help", "?"):
                self.say(r.help())
                continue
            if command == "save":
                path = rest.strip() or self.default_save()
                if self.save(path):
                    self.say(f"Saved to {escape(path)}.")
                continue
            if command in ("quit", "exit"):
                self.quit()
            try:
                action = r.normalize(text, view, legal)
                self.state.apply(action)
            except (IllegalActionError, ValueError) as e:
                self.say(f"[red]✗ {escape(str(e))}[/red]  [dim](type help for help)[/dim]")
                continue
            return str(self.game.parse_action(action))

    def quit(self) -> None:
        path = self.default_save()
        answer = self.ask(f"Save the game to {path} before quitting? [Y/n] ").strip().lower()
        if answer in ("", "y", "yes", "j", "ja") and self.save(path):
            self.say(f"Saved. Go on later with: [b]stich play {self.game.name} --resume {escape(path)}[/b]")
        raise Quit
