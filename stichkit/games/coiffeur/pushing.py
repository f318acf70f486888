"""Who is asked to announce a Coiffeur deal, and when a push is allowed: the option `push`.

- `partner` (the default; jassen.ch: "2 Spieler ein Team bilden und sich gegenseitig schieben
  können"): the forehand announces or pushes to its partner, who must announce. Every deal fills
  a row of the forehand's team, so the teams announce in turn.
- `around` (Swisslos, "Coiffeur Jass-Regeln"): "Das Schieben erfolgt nicht wie beim Schieber zum
  Partner, sondern im Gegenuhrzeigersinn zum nächsten Mitspieler. Schieben alle Spieler weiter,
  kommt die Aufforderung zum Trumpfen wieder zum ersten Spieler zurück. Dieser kann nicht mehr
  weiterschieben und muss einen Trumpf wählen." The deal goes on the sheet of the team of whoever
  announces, so the sheets may fill unevenly. A player whose team's sheet is full has nothing to
  announce and is not asked (the sources do not say; stichkit's ruling, docs/coiffeur.md): the
  push passes over it, and the first player asked is the first, counter-clockwise from the
  forehand, whose team still has an open row.
"""

from __future__ import annotations

PUSH_RULES = ("partner", "around")


def asked(forehand: int, open_teams: tuple[bool, bool], around: bool) -> tuple[int, ...]:
    """The seats asked to announce in a deal, in the order they are asked (the first is asked
    again after the last pushes). `open_teams[t]`: team t's sheet still has an open row."""
    if not around:
        return (forehand, (forehand + 2) & 3)
    return tuple(s for s in ((forehand - k) & 3 for k in range(4)) if open_teams[s & 1])


def may_push(pushes: int, seats: tuple[int, ...], around: bool) -> bool:
    """Whether the seat asked after `pushes` pushes may push on: to the partner only first
    (`partner`); around the table until every seat asked has pushed once (`around`)."""
    return pushes < (len(seats) if around else 1)


def chooser_after(pushes: int, seats: tuple[int, ...]) -> int:
    """The seat to announce (or push) after `pushes` pushes."""
    return seats[pushes % len(seats)]
