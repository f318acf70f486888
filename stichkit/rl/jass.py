"""Jass's observation: one seat's view as a float32 vector, seats counted from the observer.

Seats are relative: 0 is the observer, 1 plays next (play runs counter-clockwise), 2 is the
partner, 3 plays before the observer. Teams are "own" (relative seats 0 and 2) and "other".
Cards are indexed as the action ids 0-35 (suit D H S C × rank 6 … A).

The Schieber's options add blocks at the end of the vector, and only where they are on, so a
game without them keeps the layout it always had: `multipliers` other than 'none' adds the
factor of each trump mode and the one in force; weis='announce' adds who announced a Weis and
its points (public as said), the observer's own Weis and whether it may still announce it;
stoeck='announce' adds whether the observer may still call "Stöck".
"""

from __future__ import annotations

from stichkit.core import Game
from stichkit.games.jass.multipliers import MAX_FACTOR, SETS

from .encoder import View, unit
from .jass_family import JassFamilyEncoder

TRUMPS = ("D", "H", "S", "C", "obe", "une")
MAX_DEAL_POINTS = 257  # a match
MAX_WEIS = 500
STOECK_PAIRS = {t: (t + "K", t + "Q") for t in "DHSC"}  # the cards of Stöck, by trump suit


class JassEncoder(JassFamilyEncoder):
    PHASES = ("trump", "pushed", "play", "over")

    def __init__(self, game: Game) -> None:
        options = game.options
        self.with_multipliers = getattr(game, "multipliers", SETS["none"]) != SETS["none"]
        self.with_weis = options.get("weis") == "announce"
        self.with_stoeck = options.get("stoeck") == "announce"
        super().__init__(game)

    def _layout(self) -> None:
        add = self._add
        self._add_hand()
        self._add_phase("one-hot: trump (forehand to choose), pushed (partner to choose), play, over")
        self._add_seats()
        self.o_trump = add("trump", 6, "one-hot trump mode D H S C obe une (all 0 before the choice)")
        self.o_chooser = add("trump_chosen_by", 4, "one-hot relative seat that named trump")
        self.o_pushed = add("pushed", 1, "1 if the forehand pushed this deal")
        self.o_profile = add("profile_schieber", 1, "1 in the schieber profile, 0 in seed")
        self._add_trick()
        self._add_played()
        self._add_played_in_trick()
        self._add_trick_number()
        self._add_tricks_won()
        self.o_deal_pts = add("deal_points", 2, "this deal's points, own team and other team / 257")
        self._add_cannot_hold()
        self._add_hand_sizes()
        self.o_weis = add("weis_cards", 4 * 36, "4 blocks of 36: cards of each relative seat's shown Weis")
        self.o_weis_pts = add("weis_points", 2, "points of the shown Weis, own team and other team / 500")
        self.o_weis_by = add("weis_scored_by", 3, "Weis shown; own team scores them; other team scores them")
        self.o_stoeck = add("stoeck", 4, "one-hot relative seat that scored Stöck this deal")
        self.o_scores = add("scores", 2, "game score, own team and other team / target")
        self.o_deal = add("deal_number", 1, "deal number / 20 (1 from the 20th deal on)")
        # The options' blocks, only where the option is on (docs/rl.md, "Jass with the Schieber's options").
        if self.with_multipliers:
            self.o_mults = add("mode_multipliers", 6, f"the factor of each trump mode D H S C obe une / {MAX_FACTOR}")
            self.o_mult = add(
                "multiplier",
                1,
                f"the factor of this deal's trump mode / {MAX_FACTOR} (0 before the choice)",
            )
        if self.with_weis:
            self.o_announced = add("weis_announced", 4, "1 for each relative seat that announced a Weis this deal")
            self.o_announced_pts = add("announced_points", 4, "points each relative seat announced this deal / 500")
            self.o_own_weis = add("own_weis", 36, "the cards of the observer's own Weis (once trump is named)")
            self.o_own_weis_pts = add("own_weis_points", 1, "the points of the observer's own Weis / 500")
            self.o_may_weis = add("may_announce_weis", 1, "1 while the observer may still announce its Weis")
        if self.with_stoeck:
            self.o_may_stoeck = add("may_call_stoeck", 1, "1 while the observer holds Stöck it may still call")

    def _write(self, view: View, base: int, hot: list[int], at: list[int], values: list[float]) -> None:
        me = view["seat"]
        cards = self.cards
        ap = hot.append
        self._write_play(view, base, hot, at, values)
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
        team = me % 2
        dp = view["deal_points"]
        at += (base + self.o_deal_pts, base + self.o_deal_pts + 1)
        values += (unit(dp[team], MAX_DEAL_POINTS), unit(dp[1 - team], MAX_DEAL_POINTS))
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
        target = view["target"] or 157 * view["deals"]  # a game of fixed deals: some 157 points a deal
        sc = view["scores"]
        at += (base + self.o_scores, base + self.o_scores + 1, base + self.o_deal)
        values += (unit(sc[team], target), unit(sc[1 - team], target), unit(view["deal_number"], 20))
        if self.with_multipliers:
            mults = view["multipliers"]
            for k, mode in enumerate(TRUMPS):
                at.append(base + self.o_mults + k)
                values.append(unit(mults[mode], MAX_FACTOR))
            if view["multiplier"] is not None:
                at.append(base + self.o_mult)
                values.append(unit(view["multiplier"], MAX_FACTOR))
        if self.with_weis:
            self._write_announced(view, base, hot, at, values)
        if self.with_stoeck and self._may_call_stoeck(view):
            ap(base + self.o_may_stoeck)

    def _write_announced(self, view: View, base: int, hot: list[int], at: list[int], values: list[float]) -> None:
        """weis='announce': what was said at the table (public), and the observer's own Weis."""
        me = view["seat"]
        said = False
        for a in view["announced"] or ():
            rel = (me - a["seat"]) % 4
            said |= rel == 0
            hot.append(base + self.o_announced + rel)
            at.append(base + self.o_announced_pts + rel)
            values.append(unit(sum(a["points"]), MAX_WEIS))
        own = view["own_weis"] or ()
        for w in own:
            for c in w["cards"]:
                hot.append(base + self.o_own_weis + self.cards[c])
        if own:
            at.append(base + self.o_own_weis_pts)
            values.append(unit(sum(w["points"] for w in own), MAX_WEIS))
            # announced with the first card of the deal: not once the seat has played one
            first_card_to_come = not view["tricks"] and all(p["seat"] != me for p in view["trick"])
            if not said and first_card_to_come and view["phase"] == "play":
                hot.append(base + self.o_may_weis)

    @staticmethod
    def _may_call_stoeck(view: View) -> bool:
        """The observer was dealt trump King and Queen and still holds one of them: the call is
        still to come (or lost, once the second is played in silence)."""
        pair = STOECK_PAIRS.get(view["trump"] or "")
        if pair is None or view["phase"] != "play":
            return False
        me = view["seat"]
        hand = set(view["hand"])
        mine = set(hand)
        for trick in view["tricks"]:
            lead_rel = trick["leader"]
            for k, c in enumerate(trick["cards"]):
                if (lead_rel - k) % 4 == me:
                    mine.add(c)
        mine.update(p["card"] for p in view["trick"] if p["seat"] == me)
        return all(c in mine for c in pair) and any(c in hand for c in pair)
