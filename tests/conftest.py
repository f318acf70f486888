"""Long runs that run only when asked, left out of a normal run (deselected, not skipped), so that
a skip in a run always means a component is missing:

- `slow`: the long property runs (`pytest -m slow`, or STICHKIT_SLOW=1);
- `soak`: the long soak of the attack walk (STICHKIT_SOAK_MINUTES=N, or `pytest -m soak` for 30).
"""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    asked = config.getoption("markexpr") or ""
    runs = {
        "slow": "slow" in asked or os.environ.get("STICHKIT_SLOW") == "1",
        "soak": "soak" in asked or bool(os.environ.get("STICHKIT_SOAK_MINUTES")),
    }
    left = [i for i in items if any(i.get_closest_marker(m) and not run for m, run in runs.items())]
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = [i for i in items if i not in left]
