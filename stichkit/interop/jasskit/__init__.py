"""jass-kit's formats and protocol: records, game logs, observations, remote players.

jass-kit (PyPI `jass-kit`, GPL-3.0) is the Jass AI toolkit of the Lucerne University of Applied
Sciences. stichkit interoperates with it by format and protocol only; nothing of its code is
here. See docs/interop.md for the mapping and for every use.

- `import_game(data)`: a stichkit record from a jass-kit game record or game-log entry;
  `read_games(lines)` reads a file of them.
- `export_record(record)`: a stichkit Jass record's deals as jass-kit game records;
  `log_entry(game, date=...)` makes a game-log line of one.
- `observation_from_view(view)` / `position_from_observation(data)`: a seat's view as jass-kit's
  observation, and a full stichkit State that fits an observation.
- `stichkit.interop.jasskit.server`: `stich serve-bot` (needs the `interop` extra);
  `stichkit.interop.jasskit.remote`: the `remote:URL` bot (needs httpx, in the same extra).
"""

from .mapping import IMPORT_OPTIONS, PUSH, TRUMP_CODES, ImpossibleError, JasskitError, dealer_of, forehand_of
from .observation import Position, observation_from_view, position_from_observation
from .records import Deal, Export, export_record, import_game, log_entry, parse_game, read_games

__all__ = [
    "IMPORT_OPTIONS", "PUSH", "TRUMP_CODES", "Deal", "Export", "ImpossibleError", "JasskitError", "Position",
    "dealer_of", "export_record", "forehand_of", "import_game", "log_entry", "observation_from_view", "parse_game",
    "position_from_observation", "read_games",
]  # fmt: skip
