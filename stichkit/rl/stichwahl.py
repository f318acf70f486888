"""Stichwahl's observation: one seat's view as a float32 vector, seats counted from the observer.

Seats are relative: 0 is the observer, 1 the next player (play runs to seat + 1), and so on; a
block "per relative seat" has `players` rows. Cards are indexed as the action ids 0-35 (O1 … B9,
then the 5s 5a-5d).
"""

from __future__ import annotations

from stichkit.core import Game

from .encoder import Encoder, View, card_table, unit

PHASES = ("first_bonus", "play", "prize", "lead", "over")
FAMILIES = ("O", "P", "N", "B")


class StichwahlEncoder(Encoder):
    def __init__(self, game: Game) -> None:
        self.cards = card_table([a.text for a in game.actions[:36]])
        super().__init__(game)

    def _layout(self) -> None:
        n = self.num_players
        add = self._add
        self.o_hand = add("hand", 36, "1 for each card in the observer's hand")
        self.o_phase = add("phase", 5, "one-hot: first_bonus, play, prize, lead, over")
        self.o_to_move = add("to_move", n, "one-hot relative seat to act (all 0 when the game is over)")
        self.o_starter = add("starter", n, "one-hot relative seat that started this deal")
        self.o_trump = add("trump", 4, "one-hot trump family O P N B")
        self.o_marker = add("marker_high", 1, "1 when the marker shows 9 (highest wins), 0 when it shows 1")
        self.o_my_first = add("my_first_bonus", 36, "the observer's own first bonus card, once chosen")
        self.o_chosen = add("first_bonus_chosen", n, "per relative seat: 1 once it has laid its first bonus card")
        self.o_bonus = add("bonus_cards", n * 36, "per relative seat, 36 each: its bonus cards lying face up")
        self.o_used = add("used_bonus", 36, "bonus cards used this deal")
        self.o_trick = add(
            "trick", n * 36, "per trick position, 36 each: the card played there in the trick in progress"
        )
        self.o_leader = add("trick_leader", n, "one-hot relative seat that led the trick in progress")
        self.o_led = add("led_family", 4, "one-hot family led in the trick in progress (0 while only 5s lie)")
        self.o_winner = add("trick_winner", n, "one-hot relative seat that won the trick and chooses the prize")
        self.o_played = add("played_by", n * 36, "per relative seat, 36 each: cards it played in this deal's tricks")
        self.o_voids = add("void_families", n * 4, "per relative seat, 4 each: families it has shown void in")
        self.o_sizes = add("hand_sizes", n, "cards in each relative seat's hand / 9")
        self.o_piles = add("point_piles", n, "cards in each relative seat's point pile this deal / 16")
        self.o_deal_pts = add("deal_points", n, "this deal's points per relative seat / target")
        self.o_scores = add("scores", n, "game score per relative seat / target")
        self.o_draw = add("draw_pile", 1, "cards left in the draw pile / 14")
        self.o_tricks = add("trick_number", 1, "finished tricks of this deal / 8")
        self.o_deal = add("deal_number", 1, "deal number / 20 (1 from the 20th deal on)")

    def _write(self, view: View, base: int, hot: list[int], at: list[int], values: list[float]) -> None:
        n = self.num_players
        me = view["seat"]
        cards = self.cards
        ap = hot.append
        ap(base + self.o_phase + PHASES.index(view["phase"]))
        for c in view["hand"]:
            ap(base + self.o_hand + cards[c])
        mover = view["current_player"]
        if mover is not None:
            ap(base + self.o_to_move + (mover - me) % n)
        ap(base + self.o_starter + (view["starter"] - me) % n)
        trump = view["trump"]
        if trump is not None:
            ap(base + self.o_trump + FAMILIES.index(trump))
        if view["marker"] == 9:
            ap(base + self.o_marker)
        mine = view["my_first_bonus"]
        if mine is not None:
            ap(base + self.o_my_first + cards[mine])
        for s, chosen in enumerate(view["first_bonus_chosen"]):
            if chosen:
                ap(base + self.o_chosen + (s - me) % n)
        for s, held in enumerate(view["bonus_cards"]):
            o = base + self.o_bonus + ((s - me) % n) * 36
            for c in held:
                ap(o + cards[c])
        for used in view["used_bonus"]:
            ap(base + self.o_used + cards[used["card"]])
        played = base + self.o_played
        for k, play in enumerate(view["trick"]):
            i = cards[play["card"]]
            ap(base + self.o_trick + k * 36 + i)
            ap(played + ((play["seat"] - me) % n) * 36 + i)
        leader = view["trick_leader"]
        if leader is not None:
            ap(base + self.o_leader + (leader - me) % n)
        led = view["led_family"]
        if led is not None:
            ap(base + self.o_led + FAMILIES.index(led))
        winner = view["trick_winner"]
        if winner is not None:
            ap(base + self.o_winner + (winner - me) % n)
        tricks = view["tricks"]
        for trick in tricks:
            for play in trick["plays"]:
                ap(played + ((play["seat"] - me) % n) * 36 + cards[play["card"]])
        for s, fams in enumerate(view["void_families"]):
            o = base + self.o_voids + ((s - me) % n) * 4
            for f in fams:
                ap(o + FAMILIES.index(f))
        target = view["target"]
        for s in range(n):
            r = (s - me) % n
            at += (
                base + self.o_sizes + r,
                base + self.o_piles + r,
                base + self.o_deal_pts + r,
                base + self.o_scores + r,
            )
            values += (
                view["hand_sizes"][s] / 9,
                unit(view["point_piles"][s], 16),
                unit(view["deal_points"][s], target),
                unit(view["scores"][s], target),
            )
        at += (base + self.o_draw, base + self.o_tricks, base + self.o_deal)
        values += (unit(view["draw_pile"], 14), len(tricks) / 8, unit(view["deal_number"], 20))
