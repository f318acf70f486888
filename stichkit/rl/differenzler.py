"""Differenzler's observation: one seat's view as a float32 vector, seats counted from the observer.

Seats are relative: 0 is the observer, 1 plays next (play runs counter-clockwise), 2 and 3 the
others in turn; everybody plays for themselves. Cards are indexed as the action ids 0-35 (suit
D H S C × rank 6 … A). A prediction is encoded only as the view shows it: the observer's own at
once, the others' once revealed (the open game), so a hidden one never reaches the vector.
"""

from __future__ import annotations

from stichkit.core import Game

from .encoder import Encoder, View, card_table, unit

PHASES = ("predict", "play", "over")
TRUMPS = "DHSC"
DEAL_TOTAL = 157
MAX_PENALTY_PER_DEAL = 157


class DifferenzlerEncoder(Encoder):
    def __init__(self, game: Game) -> None:
        self.cards = card_table([a.text for a in game.actions[:36]])
        super().__init__(game)

    def _layout(self) -> None:
        add = self._add
        self.o_hand = add("hand", 36, "1 for each card in the observer's hand")
        self.o_phase = add("phase", 3, "one-hot: predict, play, over")
        self.o_to_move = add("to_move", 4, "one-hot relative seat to act (all 0 when the game is over)")
        self.o_forehand = add("forehand", 4, "one-hot relative seat of this deal's forehand")
        self.o_trump = add("trump", 4, "one-hot trump suit D H S C")
        self.o_trump_card = add("trump_card", 36, "the turned-up trump card (trump='turned-up'), held by the dealer")
        self.o_predicted = add("predicted", 4, "1 for each relative seat that has predicted this deal")
        self.o_known = add("prediction_known", 4, "1 for each relative seat whose prediction the observer sees")
        self.o_pred = add("predictions", 4, "each seen prediction / 157 (0 when not seen)")
        self.o_trick = add("trick", 4 * 36, "4 blocks of 36: the card played at position 0-3 of the trick in progress")
        self.o_leader = add("trick_leader", 4, "one-hot relative seat that led the trick in progress")
        self.o_played = add("played_by", 4 * 36, "4 blocks of 36: cards each relative seat has played this deal")
        self.o_tricks = add("trick_number", 1, "finished tricks of this deal / 9")
        self.o_won = add("tricks_won", 4, "tricks each relative seat has taken this deal / 9")
        self.o_points = add("points", 4, "points each relative seat has taken this deal / 157")
        self.o_cannot = add("cannot_hold", 4 * 36, "4 blocks of 36: cards each relative seat is known not to hold")
        self.o_sizes = add("hand_sizes", 4, "cards in each relative seat's hand / 9")
        self.o_penalties = add("penalties", 4, "each relative seat's total penalty / (157 × deals), clipped to [0, 1]")
        self.o_deal = add("deals_left", 1, "deals still to play, this one included / deals")

    def _write(self, view: View, base: int, hot: list[int], at: list[int], values: list[float]) -> None:
        me = view["seat"]
        cards = self.cards
        ap = hot.append
        ap(base + self.o_phase + PHASES.index(view["phase"]))
        for c in view["hand"]:
            ap(base + self.o_hand + cards[c])
        mover = view["current_player"]
        if mover is not None:
            ap(base + self.o_to_move + (me - mover) % 4)
        ap(base + self.o_forehand + (me - view["forehand"]) % 4)
        ap(base + self.o_trump + TRUMPS.index(view["trump"]))
        if view["trump_card"] is not None:
            ap(base + self.o_trump_card + cards[view["trump_card"]])
        for s in range(4):
            rel = (me - s) % 4
            if view["predicted"][s]:
                ap(base + self.o_predicted + rel)
            seen = view["predictions"][s]
            if seen is not None:
                ap(base + self.o_known + rel)
                at.append(base + self.o_pred + rel)
                values.append(seen / DEAL_TOTAL)
        played = base + self.o_played
        won = [0, 0, 0, 0]
        tricks = view["tricks"]
        for trick in tricks:
            lead_rel = me - trick["leader"]
            for k, c in enumerate(trick["cards"]):
                ap(played + ((lead_rel + k) % 4) * 36 + cards[c])
            won[(me - trick["winner"]) % 4] += 1
        for k, play in enumerate(view["trick"]):
            i = cards[play["card"]]
            ap(base + self.o_trick + k * 36 + i)
            ap(played + ((me - play["seat"]) % 4) * 36 + i)
        leader = view["trick_leader"]
        if leader is not None:
            ap(base + self.o_leader + (me - leader) % 4)
        at.append(base + self.o_tricks)
        values.append(len(tricks) / 9)
        deals = view["deals"]
        for s in range(4):
            rel = (me - s) % 4
            if won[rel]:
                at.append(base + self.o_won + rel)
                values.append(won[rel] / 9)
            at += (base + self.o_points + rel, base + self.o_sizes + rel, base + self.o_penalties + rel)
            values += (
                unit(view["points"][s], DEAL_TOTAL),
                view["hand_sizes"][s] / 9,
                unit(max(0, view["penalties"][s]), MAX_PENALTY_PER_DEAL * deals),
            )
        for s, held in enumerate(view["cannot_hold"]):
            o = base + self.o_cannot + ((me - s) % 4) * 36
            for c in held:
                ap(o + cards[c])
        at.append(base + self.o_deal)
        values.append(unit(deals - view["deal_number"], deals))
