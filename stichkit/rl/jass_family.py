"""What the Jass family's observations share: the 36-card Jass deck, four seats counted from the
observer, and the card play of one deal (Jass, Coiffeur and Differenzler all play Jass's tricks).

Seats are relative: 0 is the observer, 1 plays next (play runs counter-clockwise), 2 sits
opposite, 3 plays before the observer. Cards are indexed as the action ids 0-35 (suit D H S C ×
rank 6 … A). Each game's encoder declares these shared blocks where its layout has them (the
layouts published in docs/rl.md keep their order) and writes them with `_write_play`; it adds and
writes only what is its own (trump or mode, sheets, predictions, Weis, scores).
"""

from __future__ import annotations

from stichkit.core import Game

from .encoder import Encoder, View, card_table

SEATS = 4
TRICKS = 9


class JassFamilyEncoder(Encoder):
    """An encoder of a four-seat game played with Jass's 36 cards and nine tricks a deal."""

    PHASES: tuple[str, ...] = ()
    o_when = -1  # played_in_trick and tricks_won, for the encoders that have them
    o_won = -1

    def __init__(self, game: Game) -> None:
        self.cards = card_table([a.text for a in game.actions[:36]])
        super().__init__(game)

    # --- the shared blocks, declared in the order each layout wants them ----------------------

    def _add_hand(self) -> None:
        self.o_hand = self._add("hand", 36, "1 for each card in the observer's hand")

    def _add_phase(self, doc: str) -> None:
        self.o_phase = self._add("phase", len(self.PHASES), doc)

    def _add_seats(self) -> None:
        """to_move and forehand, one after the other."""
        self.o_to_move = self._add("to_move", SEATS, "one-hot relative seat to act (all 0 when the game is over)")
        self.o_forehand = self._add("forehand", SEATS, "one-hot relative seat of this deal's forehand")

    def _add_trick(self) -> None:
        """The trick in progress: its cards by position and its leader."""
        self.o_trick = self._add(
            "trick", SEATS * 36, "4 blocks of 36: the card played at position 0-3 of the trick in progress"
        )
        self.o_leader = self._add("trick_leader", SEATS, "one-hot relative seat that led the trick in progress")

    def _add_played(self) -> None:
        self.o_played = self._add(
            "played_by", SEATS * 36, "4 blocks of 36: cards each relative seat has played this deal"
        )

    def _add_played_in_trick(self) -> None:
        self.o_when = self._add("played_in_trick", 36, "per card played this deal: (trick number + 1) / 9")

    def _add_trick_number(self) -> None:
        self.o_tricks = self._add("trick_number", 1, "finished tricks of this deal / 9")

    def _add_tricks_won(self) -> None:
        self.o_won = self._add("tricks_won", SEATS, "tricks each relative seat has taken this deal / 9")

    def _add_cannot_hold(self) -> None:
        self.o_cannot = self._add(
            "cannot_hold", SEATS * 36, "4 blocks of 36: cards each relative seat is known not to hold"
        )

    def _add_hand_sizes(self) -> None:
        self.o_sizes = self._add("hand_sizes", SEATS, "cards in each relative seat's hand / 9")

    # --- writing them -------------------------------------------------------------------------

    def _write_play(self, view: View, base: int, hot: list[int], at: list[int], values: list[float]) -> list[int]:
        """Write the shared blocks of `view`; returns the tricks each relative seat has taken this
        deal (written too, where the layout has tricks_won)."""
        me = view["seat"]
        cards = self.cards
        ap = hot.append
        ap(base + self.o_phase + self.PHASES.index(view["phase"]))
        for c in view["hand"]:
            ap(base + self.o_hand + cards[c])
        mover = view["current_player"]
        if mover is not None:
            ap(base + self.o_to_move + (me - mover) % 4)
        ap(base + self.o_forehand + (me - view["forehand"]) % 4)
        played = base + self.o_played
        when = base + self.o_when if self.o_when >= 0 else -1
        won = [0, 0, 0, 0]
        tricks = view["tricks"]
        for t, trick in enumerate(tricks):
            lead_rel = me - trick["leader"]
            value = (t + 1) / TRICKS
            for k, c in enumerate(trick["cards"]):
                i = cards[c]
                ap(played + ((lead_rel + k) % 4) * 36 + i)
                if when >= 0:
                    at.append(when + i)
                    values.append(value)
            won[(me - trick["winner"]) % 4] += 1
        value = (len(tricks) + 1) / TRICKS
        for k, play in enumerate(view["trick"]):
            i = cards[play["card"]]
            ap(base + self.o_trick + k * 36 + i)
            ap(played + ((me - play["seat"]) % 4) * 36 + i)
            if when >= 0:
                at.append(when + i)
                values.append(value)
        leader = view["trick_leader"]
        if leader is not None:
            ap(base + self.o_leader + (me - leader) % 4)
        at.append(base + self.o_tricks)
        values.append(len(tricks) / TRICKS)
        if self.o_won >= 0:
            o = base + self.o_won
            for r in range(4):
                if won[r]:
                    at.append(o + r)
                    values.append(won[r] / TRICKS)
        for s, held in enumerate(view["cannot_hold"]):
            o = base + self.o_cannot + ((me - s) % 4) * 36
            for c in held:
                ap(o + cards[c])
        o = base + self.o_sizes
        for s, n in enumerate(view["hand_sizes"]):
            at.append(o + (me - s) % 4)
            values.append(n / TRICKS)
        return won
