"""Jass's observation: one seat's view as a float32 vector, seats counted from the observer.

Seats are relative: 0 is the observer, 1 plays next (play runs counter-clockwise), 2 is the
partner, 3 plays before the observer. Teams are "own" (relative seats 0 and 2) and "other".
Cards are indexed as the action ids 0-35 (suit D H S C × rank 6 … A).
"""

from __future__ import annotations

from stichkit.core import Game

from .encoder import Encoder, View, card_table, unit

PHASES = ("trump", "pushed", "play", "over")
TRUMPS = ("D", "H", "S", "C", "obe", "une")
MAX_DEAL_POINTS = 257  # a match
MAX_WEIS = 500


class JassEncoder(Encoder):
    def __init__(self, game: Game) -> None:
        self.cards = card_table([a.text for a in game.actions[:36]])
        super().__init__(game)

    def _layout(self) -> None:
        add = self._add
        self.o_hand = add("hand", 36, "1 for each card in the observer's hand")
        self.o_phase = add("phase", 4, "one-hot: trump (forehand to choose), pushed (partner to choose), play, over")
        self.o_to_move = add("to_move", 4, "one-hot relative seat to act (all 0 when the game is over)")
        self.o_forehand = add("forehand", 4, "one-hot relative seat of this deal's forehand")
        self.o_trump = add("trump", 6, "one-hot trump mode D H S C obe une (all 0 before the choice)")
        self.o_chooser = add("trump_chosen_by", 4, "one-hot relative seat that named trump")
        self.o_pushed = add("pushed", 1, "1 if the forehand pushed this deal")
        self.o_profile = add("profile_schieber", 1, "1 in the schieber profile, 0 in seed")
        self.o_trick = add("trick", 4 * 36, "4 blocks of 36: the card played at position 0-3 of the trick in progress")
        self.o_leader = add("trick_leader", 4, "one-hot relative seat that led the trick in progress")
        self.o_played = add("played_by", 4 * 36, "4 blocks of 36: cards each relative seat has played this deal")
        self.o_when = add("played_in_trick", 36, "per card played this deal: (trick number + 1) / 9")
        self.o_tricks = add("trick_number", 1, "finished tricks of this deal / 9")
        self.o_won = add("tricks_won", 4, "tricks each relative seat has taken this deal / 9")
        self.o_deal_pts = add("deal_points", 2, "this deal's points, own team and other team / 257")
        self.o_cannot = add("cannot_hold", 4 * 36, "4 blocks of 36: cards each relative seat is known not to hold")
        self.o_sizes = add("hand_sizes", 4, "cards in each relative seat's hand / 9")
        self.o_weis = add("weis_cards", 4 * 36, "4 blocks of 36: cards of each relative seat's shown Weis")
        self.o_weis_pts = add("weis_points", 2, "points of the shown Weis, own team and other team / 500")
        self.o_weis_by = add("weis_scored_by", 3, "Weis shown; own team scores them; other team scores them")
        self.o_stoeck = add("stoeck", 4, "one-hot relative seat that scored Stöck this deal")
        self.o_scores = add("scores", 2, "game score, own team and other team / target")
        self.o_deal = add("deal_number", 1, "deal number / 20 (1 from the 20th deal on)")

    def _write(self, view: View, base: int, hot: list[int], at: list[int], values: list[float]) -> None:
        me = view["seat"]
        cards = self.cards
        ap = hot.append
        phase = view["phase"]
        ap(base + self.o_phase + PHASES.index(phase))
        for c in view["hand"]:
            ap(base + self.o_hand + cards[c])
        mover = view["current_player"]
        if mover is not None:
            ap(base + self.o_to_move + (me - mover) % 4)
        ap(base + self.o_forehand + (me - view["forehand"]) % 4)
        trump = view["trump"]
        if trump is not None:
            ap(base + self.o_trump + TRUMPS.index(trump))
        chooser = view["trump_chosen_by"]
        if chooser is not None:
            ap(base + self.o_chooser + (me - chooser) % 4)
        if view["pushed"]:
            ap(base + self.o_pushed)
        if view["profile"] == "schieber":
            ap(base + self.o_profile)
        played = base + self.o_played
        when = base + self.o_when
        won = [0, 0, 0, 0]
        tricks = view["tricks"]
        for t, trick in enumerate(tricks):
            lead_rel = me - trick["leader"]
            value = (t + 1) / 9
            for k, c in enumerate(trick["cards"]):
                i = cards[c]
                ap(played + ((lead_rel + k) % 4) * 36 + i)
                at.append(when + i)
                values.append(value)
            won[(me - trick["winner"]) % 4] += 1
        value = (len(tricks) + 1) / 9
        for k, play in enumerate(view["trick"]):
            i = cards[play["card"]]
            ap(base + self.o_trick + k * 36 + i)
            ap(played + ((me - play["seat"]) % 4) * 36 + i)
            at.append(when + i)
            values.append(value)
        leader = view["trick_leader"]
        if leader is not None:
            ap(base + self.o_leader + (me - leader) % 4)
        at.append(base + self.o_tricks)
        values.append(len(tricks) / 9)
        o = base + self.o_won
        for r in range(4):
            if won[r]:
                at.append(o + r)
                values.append(won[r] / 9)
        team = me % 2
        dp = view["deal_points"]
        at += (base + self.o_deal_pts, base + self.o_deal_pts + 1)
        values += (unit(dp[team], MAX_DEAL_POINTS), unit(dp[1 - team], MAX_DEAL_POINTS))
        for s, held in enumerate(view["cannot_hold"]):
            o = base + self.o_cannot + ((me - s) % 4) * 36
            for c in held:
                ap(o + cards[c])
        o = base + self.o_sizes
        for s, n in enumerate(view["hand_sizes"]):
            at.append(o + (me - s) % 4)
            values.append(n / 9)
        weis_pts = [0, 0]
        for w in view["weis"]:
            s = w["seat"]
            o = base + self.o_weis + ((me - s) % 4) * 36
            for c in w["cards"]:
                ap(o + cards[c])
            weis_pts[0 if s % 2 == team else 1] += w["points"]
        at += (base + self.o_weis_pts, base + self.o_weis_pts + 1)
        values += (unit(weis_pts[0], MAX_WEIS), unit(weis_pts[1], MAX_WEIS))
        scored_by = view["weis_scored_by"]
        if scored_by is not None:
            ap(base + self.o_weis_by)
            for t in scored_by:
                ap(base + self.o_weis_by + (1 if t == team else 2))
        stoeck = view["stoeck"]
        if stoeck is not None:
            ap(base + self.o_stoeck + (me - stoeck) % 4)
        target = view["target"]
        sc = view["scores"]
        at += (base + self.o_scores, base + self.o_scores + 1, base + self.o_deal)
        values += (unit(sc[team], target), unit(sc[1 - team], target), unit(view["deal_number"], 20))
