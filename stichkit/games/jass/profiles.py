"""The two rule profiles. Everything that differs between `seed` and `schieber` is here, once."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import ACE, JACK, KING, NINE, QUEEN, TEN


@dataclass(frozen=True)
class Profile:
    name: str
    # SEQUENCE_POINTS[n]: a sequence (Blatt) of n cards in a suit; 0 = not a Weis.
    sequence_points: tuple[int, ...]
    # FOUR_POINTS[rank]: four cards of that rank (Vier gleiche); 0 = not a Weis.
    four_points: tuple[int, ...]
    # Weis tie between teams after points, cards, top card and trump: "both" teams score,
    # or the player "nearer" the first trick's leader wins.
    weis_tie: str
    match_voids_opponents_bonus: bool
    trump_modes: tuple[int, ...]
    default_target: int


def _fours(**by_rank: int) -> tuple[int, ...]:
    table = [0] * 9
    for rank, pts in by_rank.items():
        table[{"ten": TEN, "queen": QUEEN, "king": KING, "ace": ACE, "nine": NINE, "jack": JACK}[rank]] = pts
    return tuple(table)


SEED = Profile(
    name="seed",
    sequence_points=(0, 0, 0, 20, 50, 100, 100, 100, 100, 100),
    # As printed: four Aces are not listed and do not count.
    four_points=_fours(ten=100, queen=100, king=100, nine=150, jack=200),
    weis_tie="both",
    match_voids_opponents_bonus=True,
    trump_modes=(0, 1, 2, 3),
    default_target=1000,
)

SCHIEBER = Profile(
    name="schieber",
    sequence_points=(0, 0, 0, 20, 50, 100, 150, 200, 250, 300),
    four_points=_fours(ten=100, queen=100, king=100, ace=100, nine=150, jack=200),
    weis_tie="nearer",
    match_voids_opponents_bonus=False,
    trump_modes=(0, 1, 2, 3, 4, 5),
    default_target=2500,
)

PROFILES = {p.name: p for p in (SEED, SCHIEBER)}
