"""The documentation as a reader meets it: the README is a front door whose figures all come from
docs/benchmarks.md, every link between the pages leads somewhere, and nothing in the code or the
docs points the reader to an issue tracker they cannot see."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
BENCHMARKS = DOCS / "benchmarks.md"
PAGES = [README, ROOT / "CHANGELOG.md", ROOT / "bench" / "README.md", *sorted(DOCS.glob("*.md"))]

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^(```|~~~)")


def prose(text: str) -> list[str]:
    """The page's lines outside fenced code blocks (a `#` in a shell block is no heading)."""
    lines, inside = [], False
    for line in text.splitlines():
        if FENCE.match(line.strip()):
            inside = not inside
            continue
        if not inside:
            lines.append(line)
    return lines


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces to
    hyphens, a repeated heading numbered -1, -2, ..."""
    seen: dict[str, int] = {}
    out = set()
    for line in prose(page.read_text(encoding="utf-8")):
        m = HEADING.match(line)
        if not m:
            continue
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", m.group(2))
        slug = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_link_leads_somewhere(page: Path) -> None:
    """A relative link names a file of the tree, and an anchor a heading of that page."""
    broken = []
    for line in prose(page.read_text(encoding="utf-8")):
        for target in LINK.findall(line) + IMAGE.findall(line):
            if re.match(r"[a-z]+:", target):
                continue  # http:, https:, mailto:
            path, _, anchor = target.partition("#")
            where = (page.parent / path).resolve() if path else page
            if not where.exists():
                broken.append(f"{target}: no file {where.relative_to(ROOT) if where.is_relative_to(ROOT) else where}")
            elif anchor and where.suffix == ".md" and anchor not in anchors(where):
                broken.append(f"{target}: {where.name} has no heading with the anchor #{anchor}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_the_readme_is_a_front_door() -> None:
    """About 150 lines, and the commands CI and newcomers run first come first."""
    text = README.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) <= 160, f"README.md has {len(lines)} lines: measurements belong in docs/benchmarks.md"
    head = "\n".join(lines[:15])
    for command in ("make play", "make serve", "make test"):
        assert command in head, f"{command} is no longer among the README's first lines"
    first_python = next(i for i, line in enumerate(lines) if line.startswith("```python"))
    commands = next(i for i, line in enumerate(lines) if "make test" in line)
    assert first_python - commands <= 40, "the README's first Python example is not within 40 lines of the commands"


def test_the_layout_names_the_tree_as_it_is() -> None:
    """The README's Layout names every package of stichkit, and every path and file it names exists
    (a `<game>` line holds for every game package)."""
    text = README.read_text(encoding="utf-8")
    block = text.split("## Layout", 1)[1].split("```", 2)[1]
    package = ROOT / "stichkit"
    games = sorted(p.name for p in (package / "games").iterdir() if (p / "__init__.py").is_file())
    named, wrong = set(), []
    entry: list[str] = []
    entries: list[list[str]] = []
    for line in block.splitlines():
        if line.startswith("stichkit/"):
            entry = [line]
            entries.append(entry)
        elif line.startswith(" ") and entry:
            entry.append(line)
    for lines in entries:
        path, _, words = lines[0].partition(" ")
        words = " ".join([words, *lines[1:]])
        folders = [ROOT / path.replace("<game>", g) for g in games] if "<game>" in path else [ROOT / path]
        wrong += [f"{f.relative_to(ROOT)} does not exist" for f in folders if not f.exists()]
        for name in re.findall(r"\b[\w.]+\.(?:py|toml|c)\b", words):  # in one of the folders, for <game>
            if not any(f.is_dir() and list(f.rglob(name)) for f in folders):
                wrong.append(f"{path} has no {name}")
        named.add(path.removeprefix("stichkit/").split("/")[0].removesuffix(".py"))
    parts = {p.name for p in package.iterdir() if (p / "__init__.py").is_file()}
    parts |= {p.stem for p in package.glob("*.py") if p.stem != "__init__"}
    missing = sorted(parts - named)
    assert not wrong and not missing, f"README Layout: {wrong}; parts of stichkit it does not name: {missing}"


GAME_TITLES = {
    "coiffeur": "Coiffeur",
    "differenzler": "Differenzler",
    "jass": "Jass",
    "stichwahl": "Stichwahl",
    "stichling": "Stichling",
    "stichmeister": "Stich-Meister",
}


def test_the_game_shape_says_which_games_have_it() -> None:
    """docs/architecture.md names the files of a game package; a game that lacks one of them is
    named under "Not yet in this shape", and a game that has them all is not."""
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## A game package", 1)[1].split("\n## ", 1)[0]
    shape = re.findall(r"^\| `(\w+\.py)` \|", section, re.M)
    assert "state.py" in shape and "views.py" in shape
    m = re.search(r"\*\*Not yet in this shape:\*\*([^(]*)", section)
    listed = {name.strip() for name in m.group(1).replace(".", "").split(",")} if m else set()
    games = {p.name for p in (ROOT / "stichkit" / "games").iterdir() if (p / "__init__.py").is_file()}
    assert games == set(GAME_TITLES), "a new game: give it its title in GAME_TITLES"
    for game, title in GAME_TITLES.items():
        missing = [f for f in shape if not (ROOT / "stichkit" / "games" / game / f).is_file()]
        if missing:
            assert title in listed, f"{title} lacks {missing}: name it under 'Not yet in this shape'"
        else:
            assert title not in listed, f"{title} has every file of the shape now: take it off 'Not yet in this shape'"


FIGURE = re.compile(r"\d[\d,.]*(?:\s?%|x\b|\s?ms\b| steps/s| deals/s)")


def test_every_figure_of_the_readme_is_in_the_benchmarks() -> None:
    """The README quotes figures; docs/benchmarks.md is where each one lives, with how it was
    measured. A figure written only in the README has no such place."""
    benchmarks = BENCHMARKS.read_text(encoding="utf-8")
    missing = [f for f in FIGURE.findall("\n".join(prose(README.read_text(encoding="utf-8")))) if f not in benchmarks]
    assert not missing, f"figures in README.md that docs/benchmarks.md does not give: {missing}"


# A reference to a ticket ("issue 13", "Issue 4, item 2", "#881" of our own tracker, "the issue's
# bar") means nothing to a reader of the code or the docs. Other projects' issues are fine when
# they are named with their project (boardgame.io's #881); ours have no public home.
TRACKER = re.compile(r"\bissues?\s*#?\s*\d+|\bissue item\b|\bthe issue'?s?\b", re.I)
SOURCES = ("*.py", "*.md", "*.js", "*.c", "*.toml", "*.html", "*.css", "Makefile")


def test_nothing_points_to_the_issue_tracker() -> None:
    files = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", *SOURCES],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    found = []
    for name in files:
        path = ROOT / name
        if not path.is_file() or path == Path(__file__):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if TRACKER.search(line):
                found.append(f"{name}:{number}: {line.strip()[:100]}")
    assert not found, "say what is meant, not which ticket asked for it:\n" + "\n".join(found)
