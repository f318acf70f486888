"""What the server keeps in memory stays bounded under long play: caches keyed by what table
openers choose (bot specs) keep only the most recently used. (bench/serve_soak.py measures the
resident size over a long run.)"""

from __future__ import annotations

from pathlib import Path

from stichkit import load_game
from stichkit.server import botrunner
from stichkit.server.botrunner import Recent, parse_bot_spec
from stichkit.server.hub import Hub
from stichkit.server.settings import Settings


def test_recent_keeps_the_values_used_last() -> None:
    kept: Recent[int, str] = Recent(2)
    assert kept.get(1, lambda: "one") == "one"
    kept.get(2, lambda: "two")
    assert kept.get(1, lambda: "again") == "one"  # used again: kept, and now the newest
    kept.get(3, lambda: "three")  # 2 was used longest ago: it goes
    assert len(kept) == 2 and kept.get(2, lambda: "made again") == "made again"


def test_bot_specs_table_openers_choose_do_not_pile_up(tmp_path: Path) -> None:
    hub = Hub(Settings(db=f"sqlite:///{tmp_path / 'hub.db'}", bot_workers=1))
    labels = [f"ismcts:iterations={n}" for n in range(10, 400)]
    for label in labels:
        assert hub.seat_bot(label).label == label
    assert len(hub._bot_cache) == 256
    # a worker makes each bot once and keeps the few used last
    state = load_game("stichling").new_state(seed=1)
    for n in range(1, 40):
        bot = parse_bot_spec(f"ismcts:iterations={n}", max_time=5)
        assert botrunner._decide(bot.spec.name, bot.params, state.record(), state.current_player)
    assert len(botrunner._WORKER_BOTS) == 16
