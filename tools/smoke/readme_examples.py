"""Run the README's Python examples that an install gives, inside that install's environment.

    python readme_examples.py README.md engine|cli|web|rl|interop

Standard library only: it runs in environments with nothing but stichkit and one extra. The rule
that picks the examples survives a rewrite of the README: every fenced ```python block with `>>>`
lines is an example; a block that imports one of stichkit's interfaces (`stichkit.rl`,
`stichkit.server`, `stichkit.interop`, `stichkit.cli`) belongs to that interface's extra, every
other block to the engine alone (the standard library and stichkit). An extra's environment runs
the engine's blocks and its own, in the README's order, in one namespace (as pytest's doctest of
the README does); the engine's runs its own. Exit 1 when an example fails, or when the engine has
none (a README without a Python example is a README this check no longer understands).
"""

from __future__ import annotations

import doctest
import re
import sys
from pathlib import Path

EXTRA_OF = {"rl": "rl", "server": "web", "interop": "interop", "cli": "cli"}
FENCE = re.compile(r"^```python[ \t]*\n(.*?)^```", re.DOTALL | re.MULTILINE)
IMPORT = re.compile(r"^(?:>>>|\.\.\.)\s+(?:import|from)\s+stichkit\.(\w+)", re.MULTILINE)


def blocks(text: str) -> list[tuple[int, int, str]]:
    """(first line, last line, extra) of every example block's body, in order (0-based lines)."""
    out = []
    for m in FENCE.finditer(text):
        body = m.group(1)
        if ">>>" not in body:
            continue
        first = text.count("\n", 0, m.start(1))
        extras = {EXTRA_OF[name] for name in IMPORT.findall(body) if name in EXTRA_OF}
        if len(extras) > 1:
            raise SystemExit(f"README line {first + 1}: one block imports the interfaces of {sorted(extras)}")
        out.append((first, first + body.count("\n"), extras.pop() if extras else "engine"))
    return out


def main(readme: str, extra: str) -> int:
    text = Path(readme).read_text(encoding="utf-8")
    found = blocks(text)
    own = sum(1 for *_, owner in found if owner == extra)
    if extra == "engine" and not own:
        print(f"{readme}: no Python example for the engine found")
        return 1
    # One doctest of the chosen blocks, every other line blanked: the README's line numbers hold.
    lines = text.split("\n")
    keep = [""] * len(lines)
    for first, last, owner in found:
        if owner in ("engine", extra):
            keep[first:last] = lines[first:last]
    test = doctest.DocTestParser().get_doctest("\n".join(keep), {"__name__": "README"}, Path(readme).name, readme, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    chosen = sum(1 for *_, owner in found if owner in ("engine", extra))
    print(f"{readme}, {extra}: {chosen} blocks ({own} of its own), {runner.tries} examples, {runner.failures} failed")
    return 1 if runner.failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
