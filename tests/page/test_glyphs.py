"""The page draws no emoji: they need a colour-emoji font, which many Linux desktops and every
headless browser lack, and then show as empty boxes ("▯ Anmelden"). Icons are inline SVG
(static/js/icons.js); the few symbols the page writes as text are in every common font."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "stichkit" / "server" / "static"
EMOJI = re.compile("[\U0001f000-\U0001faff\U0001f1e6-\U0001f1ff\ufe0f]")


def test_the_page_writes_no_emoji() -> None:
    found = [
        f"{f.relative_to(STATIC)}:{n}: {m.group()}"
        for f in sorted(STATIC.rglob("*"))
        if f.suffix in (".js", ".html", ".css")
        for n, text in enumerate(f.read_text(encoding="utf-8").splitlines(), 1)
        for m in EMOJI.finditer(text)
    ]
    assert not found, found
