"""Stichling's observation: one seat's view as a float32 vector, seats counted from the observer.

Seats are relative: 0 is the observer, 1 the next player (play runs to seat + 1). Cards are
indexed in deck order (G1 … G-top, Y…, P…, B…), so the card part is 24, 36, 48 or 60 long with
2, 3, 4 or 5 players.
"""

from __future__ import annotations

from stichkit.core import Game

from .encoder import Encoder, View, card_table, unit

PHASES = ("order", "play", "over")
COLOURS = ("G", "Y", "P", "B")
PLACES = 4
TILE_TOP = 9


class StichlingEncoder(Encoder):
    def __init__(self, game: Game) -> None:
        texts = [a.text for a in game.actions]
        names = [t.split(">")[0] for t in texts[::5] if ">" in t]
        self.deck = len(names)
        self.cards = card_table(names)
        self.orders = {t: i for i, t in enumerate(t for t in texts if t.startswith("order:"))}
        super().__init__(game)

    def _layout(self) -> None:
        n, d = self.num_players, self.deck
        add = self._add
        self.o_hand = add("hand", d, "1 for each card in the observer's hand")
        self.o_phase = add("phase", 3, "one-hot: order (tiles being laid out), play, over")
        self.o_to_move = add("to_move", n, "one-hot relative seat to act (all 0 when the game is over)")
        self.o_starter = add("starter", n, "one-hot relative seat that began this deal")
        self.o_deal = add("deal_number", 3, "one-hot deal 0, 1, 2 (tiles 1-2-3, 2-4-6, 3-6-9)")
        self.o_order = add("tile_order", 6, "one-hot the observer's own tile order, order:123 … order:321")
        self.o_laid = add("tiles_laid", n, "per relative seat: 1 once it has laid out its tiles")
        self.o_place = add("place_open", PLACES, "per trick place 1-4: 1 if a trick lies there")
        self.o_led = add("place_led", PLACES * 4, "per place, 4 each: one-hot colour led there G Y P B")
        self.o_owner = add("place_owner", PLACES * n, "per place, players each: one-hot relative seat owning it")
        self.o_pcards = add("place_cards", PLACES * d, "per place, deck-size each: the cards lying on it")
        self.o_played = add("played_by", n * d, "per relative seat, deck-size each: cards it played this deal")
        self.o_taken = add("taken", n, "tricks each relative seat has taken this deal / 12")
        self.o_face = add("face_up", n, "each relative seat's face-up tile / 9 (0 before its first trick)")
        self.o_seen = add("tiles_seen", n * 3, "per relative seat, 3 each: the tile seen at order position 1-3 / 9")
        self.o_sizes = add("hand_sizes", n, "cards in each relative seat's hand / 12")
        self.o_scores = add("scores", n, "game score per relative seat / 18")

    def _write(self, view: View, base: int, hot: list[int], at: list[int], values: list[float]) -> None:
        n, d = self.num_players, self.deck
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
        ap(base + self.o_deal + min(view["deal_number"], 2))
        order = view["tile_order_action"]
        if order is not None:
            ap(base + self.o_order + self.orders[order])
        for s, laid in enumerate(view["tiles_laid"]):
            if laid:
                ap(base + self.o_laid + (s - me) % n)
        played = base + self.o_played
        for place in view["places"]:
            if place is None:
                continue
            p = place["place"] - 1
            ap(base + self.o_place + p)
            ap(base + self.o_led + p * 4 + COLOURS.index(place["led"]))
            owner = place["owner"]
            if owner is not None:
                ap(base + self.o_owner + p * n + (owner - me) % n)
            o = base + self.o_pcards + p * d
            for play in place["cards"]:
                i = cards[play["card"]]
                ap(o + i)
                ap(played + ((play["seat"] - me) % n) * d + i)
        for trick in view["tricks"]:
            for play in trick["cards"]:
                ap(played + ((play["seat"] - me) % n) * d + cards[play["card"]])
        for s in range(n):
            r = (s - me) % n
            face = view["face_up"][s]
            at += (base + self.o_taken + r, base + self.o_face + r, base + self.o_sizes + r, base + self.o_scores + r)
            values += (
                unit(view["taken"][s], 12),
                0.0 if face is None else unit(face, TILE_TOP),
                view["hand_sizes"][s] / 12,
                unit(view["scores"][s], 18),
            )
            for k, tile in enumerate(view["tiles_seen"][s][:3]):
                at.append(base + self.o_seen + r * 3 + k)
                values.append(unit(tile, TILE_TOP))
