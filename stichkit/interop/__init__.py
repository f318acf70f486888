"""Other software's formats and protocols: stichkit games and bots meet the outside world here.

`stichkit.interop.jasskit` speaks jass-kit's game records, game logs and remote-player HTTP
protocol (docs/interop.md). Nothing here is imported by the engine or the bots.
"""
