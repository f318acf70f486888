"""Reading the tables of docs/benchmarks.md, where every published figure lives, for the tests
that recompute those figures from the runs that made them."""

from __future__ import annotations

from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"


def tables(text: str | None = None) -> list[list[str]]:
    """Every Markdown table of the page: its lines, the header first (the rule line dropped)."""
    text = BENCHMARKS.read_text(encoding="utf-8") if text is None else text
    out: list[list[str]] = []
    current: list[str] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            if not line.startswith("|---"):
                current.append(line)
        elif current:
            out.append(current)
            current = []
    return out


def rows(header: str, *cells: str) -> list[str]:
    """The rows of the tables whose header holds `header` that hold each of `cells`."""
    return [row for table in tables() if header in table[0] for row in table[1:] if all(cell in row for cell in cells)]
