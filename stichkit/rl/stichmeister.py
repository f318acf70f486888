"""Stich-Meister's observation: one seat's view as a float32 vector, seats counted from the observer.

Seats are relative: 0 is the observer, 1 the next seat in seat order (seat + 1). Cards are
indexed as the action ids 0-59 (F1 … F15, M…, K…, T…), rule cards by number - 1. Scores can be
negative in Stich-Meister, so each score is written as a positive and a negative part.
"""

from __future__ import annotations

from stichkit.core import Game

from .encoder import Encoder, View, card_table, unit

PHASES = ("choose", "setup", "play", "remove", "over")
SETUP_KINDS = ("pass", "face_down_last", "show", "discard")
SUITS = ("F", "M", "K", "T")
CARDS = 60
RULES = 60


class StichMeisterEncoder(Encoder):
    def __init__(self, game: Game) -> None:
        self.cards = card_table([a.text for a in game.actions[:CARDS]])
        super().__init__(game)

    def _layout(self) -> None:
        n = self.num_players
        add = self._add
        self.o_hand = add("hand", CARDS, "1 for each card in the observer's hand")
        self.o_phase = add("phase", 5, "one-hot: choose, setup, play, remove, over")
        self.o_to_move = add("to_move", n, "one-hot relative seat to act (all 0 when the game is over)")
        self.o_dealer = add("dealer", n, "one-hot relative seat of this round's dealer")
        self.o_round = add("round", 1, "round number / number of rounds")
        self.o_rule_hand = add("rule_hand", RULES, "the observer's rule cards in hand, by number")
        self.o_my_choice = add("my_choice", RULES, "the rule card the observer chose this round")
        self.o_active = add("active_rules", RULES, "the rule cards in force this round (after the reveal)")
        self.o_used = add("rule_cards_used", RULES, "rule cards used in earlier rounds")
        self.o_chosen = add("chosen", n, "per relative seat: 1 once it has chosen its rule card this round")
        self.o_trump = add("trump", CARDS, "cards that are trump now")
        self.o_trump_rank = add("trump_rank", CARDS, "per trump card: its rank, 1 for the highest group, falling")
        self.o_second = add("second_trick_suit", 4, "one-hot suit made trump by rule 21 (F M K T)")
        self.o_setup = add("setup_kind", 4, "one-hot setup step in progress: pass, face_down_last, show, discard")
        self.o_picks = add("my_picks", CARDS, "the observer's picks in the setup step in progress")
        self.o_given = add("passed_given", CARDS, "cards the observer passed this round")
        self.o_received = add("passed_received", CARDS, "cards the observer received this round")
        self.o_shown = add("shown", n * CARDS, "per relative seat, 60 each: its cards shown face up (rule 25)")
        self.o_discarded = add("discarded", n * CARDS, "per relative seat, 60 each: its cards discarded (rule 38)")
        self.o_my_down = add("my_face_down", CARDS, "the observer's card laid face down for the last trick (rule 24)")
        self.o_down = add("face_down_counts", n, "per relative seat: 1 if it has a card laid face down")
        self.o_trick = add("trick", n * CARDS, "per trick position, 60 each: the face-up card played there")
        self.o_hidden = add("trick_face_down", n, "per trick position: 1 if a card lies there face down (rule 26)")
        self.o_leader = add("trick_leader", n, "one-hot relative seat that leads or led the trick in progress")
        self.o_direction = add("direction", 1, "1 when play runs to seat + 1, 0 when reversed (rule 37)")
        self.o_played = add("played_by", n * CARDS, "per relative seat, 60 each: cards it played this round")
        self.o_remove = add("to_remove", CARDS, "the cards of the trick whose winner removes one (rule 34)")
        self.o_taken = add("tricks_taken", n, "tricks each relative seat has taken this round / 15")
        self.o_broken = add("trumps_broken", 1, "1 once trumps are broken (rule 39)")
        self.o_cannot = add("cannot_hold", n * CARDS, "per relative seat, 60 each: cards it is known not to hold")
        self.o_sizes = add("hand_sizes", n, "cards in each relative seat's hand / 16")
        self.o_pos = add("scores_positive", n, "each relative seat's game score if positive / 40")
        self.o_neg = add("scores_negative", n, "each relative seat's game score if negative, negated / 40")

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
        ap(base + self.o_dealer + (view["dealer"] - me) % n)
        at.append(base + self.o_round)
        values.append(unit(view["round"], view["rounds"]))
        for rule in view["rule_hand"]:
            ap(base + self.o_rule_hand + rule["number"] - 1)
        if view["my_choice"]:
            ap(base + self.o_my_choice + view["my_choice"] - 1)
        for rule in view["active_rules"] or ():
            ap(base + self.o_active + rule["number"] - 1)
        for number in view["rule_cards_used"]:
            ap(base + self.o_used + number - 1)
        for s in view["chosen"]:
            ap(base + self.o_chosen + (s - me) % n)
        for c in view["trump"]:
            ap(base + self.o_trump + cards[c])
        groups = view["trump_order"]
        for g, group in enumerate(groups):
            value = 1.0 - g / len(groups)
            for c in group:
                at.append(base + self.o_trump_rank + cards[c])
                values.append(value)
        second = view["second_trick_suit"]
        if second is not None:
            ap(base + self.o_second + SUITS.index(second))
        setup = view["setup"]
        if setup is not None:
            ap(base + self.o_setup + SETUP_KINDS.index(setup["kind"]))
            for c in setup["my_picks"]:
                ap(base + self.o_picks + cards[c])
        for p in view["passed"]:
            for c in p["given"]:
                ap(base + self.o_given + cards[c])
            for c in p["received"]:
                ap(base + self.o_received + cards[c])
        for s in range(n):
            r = (s - me) % n
            for c in view["shown"][s]:
                ap(base + self.o_shown + r * CARDS + cards[c])
            for c in view["discarded"][s]:
                ap(base + self.o_discarded + r * CARDS + cards[c])
            for c in view["cannot_hold"][s]:
                ap(base + self.o_cannot + r * CARDS + cards[c])
            if view["face_down_counts"][s]:
                ap(base + self.o_down + r)
            score = view["scores"][s]
            at += (base + self.o_taken + r, base + self.o_sizes + r, base + self.o_pos + r, base + self.o_neg + r)
            values += (
                unit(view["tricks_taken"][s], 15),
                unit(view["hand_sizes"][s], 16),
                unit(score, 40),
                unit(-score, 40),
            )
        for c in view["my_face_down"]:
            ap(base + self.o_my_down + cards[c])
        played = base + self.o_played
        for k, play in enumerate(view["trick"]):
            c = play["card"]
            if c is None or (play.get("face_down") and play["seat"] != me):
                ap(base + self.o_hidden + k)
            if c is not None:
                i = cards[c]
                if not play.get("face_down") or play["seat"] == me:
                    ap(base + self.o_trick + k * CARDS + i)
                ap(played + ((play["seat"] - me) % n) * CARDS + i)
        leader = view["trick_leader"]
        if leader is not None:
            ap(base + self.o_leader + (leader - me) % n)
        if view["direction"] == 1:
            ap(base + self.o_direction)
        for trick in view["tricks"]:
            for play in trick["cards"]:
                ap(played + ((play["seat"] - me) % n) * CARDS + cards[play["card"]])
        pending = view["to_remove"]
        if pending is not None:
            for play in pending["cards"]:
                i = cards[play["card"]]
                ap(base + self.o_remove + i)
                ap(played + ((play["seat"] - me) % n) * CARDS + i)
        if view["trumps_broken"]:
            ap(base + self.o_broken)
