"""The Stich-Meister heuristic: a rule-aware player that works from one seat's view only.

Everything is valued under the rules in force, with the engine's own pieces: `strength` and
`winner_position` (trick.py) decide who wins, `taker` who gets the trick, and the scoring effects
(scoring.py's `trick_value`, as `score_round` applies it) what a trick is worth.

- **A trick's worth to a seat**: scoring.py's per-trick value of that one trick (its
  cards, winning card, lead card, position in the round, the seat's tricks so far), plus the
  marginal worth of one more trick under the count rules (no trick, exactly N, most, fewest)
  over a binomial forecast of the seat's further tricks, and rule 56/60 adjustments. The bot
  maximises its own points minus the mean of the others' points.
- **Play**: for each legal card, a few completions of the trick are sampled from the unseen cards
  (respecting following, known voids and shown or passed cards); the engine decides the winner
  and taker of each; the expected worth of the outcome is added to a *keep* term: a card's
  power (chance to win a future trick) times the worth of winning a future trick. So it wins
  valuable tricks with its cheapest winner, keeps control cards when tricks are wanted, and
  ducks with (dumps) its most dangerous cards when tricks cost.
- **Rule card**: each card in hand is composed on its own and the hand is valued under it: the
  expected tricks (sum of card powers) when taking and when ducking, the worth of a trick, the
  count rules; the card with the best own-minus-others forecast is chosen.
- **Setup and removal**: pass, discard or lay face down the strongest cards when tricks cost, the
  weakest when they pay (rule 24: the last trick's own worth decides); show the weakest cards;
  rule 34: remove the card that leaves the trick best for the bot.

Choices are deterministic: the sampling is seeded from what the seat sees (and the bot seed).
"""

from __future__ import annotations

import math
import random
import zlib
from dataclasses import dataclass, field
from typing import Any

from stichkit.bots.base import game_of
from stichkit.cards import bit_list
from stichkit.games.stichmeister.cards import DECK, SUITS, deck_mask, suit_of
from stichkit.games.stichmeister.rules import RoundRules, compose
from stichkit.games.stichmeister.scoring import TrickStep, plan
from stichkit.games.stichmeister.scoring import trick_value as scoring_trick_value
from stichkit.games.stichmeister.trick import TrickTables, card_class, reference, strength, taker
from stichkit.games.stichmeister.trump import Trumps, trump_order, with_dynamic

PLAY_SAMPLES = 14  # completions of the current trick per decision
LEAD_SAMPLES = 8  # fewer when leading (every card changes the suit to follow)
POWER_SAMPLES = 16  # random future tricks per card for its power
GENERIC_SAMPLES = 12  # random future tricks for the worth of winning one
COUNT_KINDS = ("no_trick_bonus", "exact_tricks_bonus", "most_tricks", "fewest_tricks")  # forecast per player
ROW = (1 << 15) - 1


# -- the rules in force -------------------------------------------------------------------------


@dataclass
class Scoring:
    """The scoring rules of a round for one trump set: scoring.py's plan, with the player cards
    the bot forecasts."""

    steps: tuple[TrickStep, ...]  # the per-trick steps, in the order scoring.py applies them
    player: list[tuple[str, dict[str, Any]]]  # count rules, applied per player
    halve: bool
    double_no_trump: bool


_RULES: dict[tuple[Any, ...], RoundRules] = {}
_TRUMPS: dict[tuple[Any, ...], Trumps] = {}
_SCORING: dict[tuple[Any, ...], Scoring] = {}


def _rules(view: dict[str, Any], numbers: tuple[int, ...]) -> RoundRules:
    key = (view["options"].get("rule_cards"), numbers)
    r = _RULES.get(key)
    if r is None:
        if len(_RULES) >= 4096:  # bounded memo: rule sets of finished rounds are dropped
            _RULES.clear()
            _TRUMPS.clear()
            _SCORING.clear()
        cards = game_of(view).rule_cards  # type: ignore[attr-defined]
        r = _RULES[key] = compose([cards[k - 1] for k in numbers])
    return r


def _trumps(rules: RoundRules, dyn: int) -> Trumps:
    key = (rules.numbers, rules.static_trumps, rules.dynamic_trump_rule, rules.reverse_ranks, dyn)
    t = _TRUMPS.get(key)
    if t is None:
        t = _TRUMPS[key] = trump_order(
            with_dynamic(rules.static_trumps, rules.dynamic_trump_rule, dyn), rules.reverse_ranks
        )
    return t


def _scoring(rules: RoundRules, trumps: Trumps) -> Scoring:
    key = (rules.numbers, tuple(map(str, rules.scoring)), trumps.mask)
    s = _SCORING.get(key)
    if s is None:
        p = plan(rules, trumps)
        kinds = {kind for _n, kind, _e in p.player}
        player = [(kind, e) for _n, kind, e in p.player if kind in COUNT_KINDS]
        s = _SCORING[key] = Scoring(p.trick, player, "halve_leader" in kinds, "double_if_no_trump" in kinds)
    return s


def trick_value(sc: Scoring, trumps: Trumps, cards: int, win: int, lead: int, idx: int, total: int, before: int) -> int:
    """What scoring.py makes of one trick (`scoring.trick_value`) at position `idx` of `total`,
    taken by a seat that had `before` tricks."""
    return scoring_trick_value(sc.steps, trumps, cards, win, lead, idx, total, before)


def _sig(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def _binom(r: int, p: float) -> list[float]:
    p = min(max(p, 0.0), 1.0)
    return [math.comb(r, k) * p**k * (1 - p) ** (r - k) for k in range(r + 1)]


def count_bonus(player: list[tuple[str, dict[str, Any]]], f: int, top_other: float, low_other: float) -> float:
    """The count rules' points for a seat that ends the round with `f` tricks."""
    b = 0.0
    for kind, e in player:
        pts = e["points"]
        if kind == "no_trick_bonus":
            b += pts if f == 0 else 0
        elif kind == "exact_tricks_bonus":
            b += pts if f == e["tricks"] else 0
        elif kind == "most_tricks":
            b += pts * _sig(2 * (f - top_other) + 1)
        elif kind == "fewest_tricks":
            b += pts * _sig(2 * (low_other - f) + 1)
    return b


def count_margin(
    player: list[tuple[str, dict[str, Any]]], k: int, rest: int, p: float, top_other: float, low_other: float
) -> float:
    """The expected points one more trick (now: k -> k + 1) brings under the count rules, with
    the seat's further tricks among `rest` forecast as binomial with share `p`."""
    if not player:
        return 0.0
    out = 0.0
    for x, w in enumerate(_binom(rest, p)):
        if w > 1e-4:
            out += w * (
                count_bonus(player, k + 1 + x, top_other, low_other) - count_bonus(player, k + x, top_other, low_other)
            )
    return out


# -- what the seat knows ------------------------------------------------------------------------


@dataclass
class Ctx:
    me: int
    n: int
    rules: RoundRules
    trumps: Trumps
    sc: Scoring
    hand: int
    pool: int  # cards whose place the seat does not know (in other hands or face down)
    known: list[int]  # cards known to be in a seat's hand (shown, passed to it)
    void: list[int]  # cards a seat cannot hold
    sizes: list[int]
    counts: list[int]
    idx: int  # the current trick's position in the round
    total: int  # tricks in the round
    rng: random.Random
    past: list[float] = field(default_factory=list)  # round points so far per seat
    took_trump: list[bool] = field(default_factory=list)
    margin: list[float] = field(default_factory=list)  # count-rule worth of one more trick per seat
    powers: dict[int, float] = field(default_factory=dict)
    backgrounds: list[tuple[int, list[int], dict[int, list[int]]]] = field(default_factory=list)

    def share(self) -> float:
        """The seat's forecast share of the further tricks."""
        if not self.hand:
            return 1.0 / self.n
        return min(0.95, max(0.02, sum(self.power(c) for c in bit_list(self.hand)) / self.hand.bit_count()))

    def power(self, card: int) -> float:
        """The chance that `card` wins a future trick (the seat's position random), by sampling."""
        p = self.powers.get(card)
        if p is None:
            p = self.powers[card] = _power(self, card)
        return p


_TABLES: dict[tuple[int, int], tuple[RoundRules, Trumps, TrickTables]] = {}


def _winner(cards: list[int], rules: RoundRules, trumps: Trumps) -> int:
    """`winner_position` (trick.py), answered by the engine's trick tables: the same answers,
    several times faster, and the bot asks thousands of times per decision."""
    key = (id(rules), id(trumps))
    hit = _TABLES.get(key)
    if hit is None or hit[0] is not rules or hit[1] is not trumps:
        if len(_TABLES) >= 256:
            _TABLES.clear()
        hit = _TABLES[key] = (rules, trumps, TrickTables(rules, trumps))
    return hit[2].winner(cards)


_ROW_BITS: dict[int, tuple[int, ...]] = {}


def _row_bits(row: int) -> tuple[int, ...]:
    out = _ROW_BITS.get(row)
    if out is None:
        out = _ROW_BITS[row] = tuple(i for i in range(15) if row >> i & 1)
    return out


def _pick(mask: int, rng: random.Random) -> int:
    """A uniformly random card of a non-empty mask."""
    k = int(rng.random() * mask.bit_count())
    for shift in (0, 15, 30, 45):
        row = mask >> shift & ROW
        c = row.bit_count()
        if k < c:
            return shift + _row_bits(row)[k]
        k -= c
    raise ValueError("no card to pick")


def _draw(ctx: Ctx, seat: int, visible: list[int], taken: int, trumps: Trumps) -> int:
    """A card `seat` might play to a trick showing `visible`: it follows when it (likely) can."""
    rng = ctx.rng
    known = ctx.known[seat] & ~taken if seat >= 0 else 0
    avail = ctx.pool & ~taken & ~(ctx.void[seat] if seat >= 0 else 0)
    size = max(1, ctx.sizes[seat] if seat >= 0 else ctx.hand.bit_count())
    anyone = avail | known
    if not anyone:
        anyone = ctx.pool & ~taken or deck_mask(ctx.n) & ~ctx.hand & ~taken
        return _pick(anyone, rng)
    if not visible:
        return _pick(anyone, rng)
    cls = card_class(reference(visible, ctx.rules), trumps)

    def holds(m: int) -> bool:
        if known & m:
            return True
        a = (avail & m).bit_count()
        if not a:
            return False
        return rng.random() < 1 - (1 - a / max(1, avail.bit_count())) ** size

    if holds(cls):
        return _pick(anyone & cls, rng)
    rest = anyone & ~cls
    if ctx.rules.must_trump and rest & trumps.mask and holds(trumps.mask & ~cls):
        return _pick(rest & trumps.mask, rng)
    return _pick(rest or anyone, rng)


def _backgrounds(ctx: Ctx) -> list[tuple[int, list[int], dict[int, list[int]]]]:
    """Random future tricks, shared by every card whose power is measured (common random
    numbers): the seat's position, the other cards when it follows, and per class of its card
    the followers when it leads (drawn when first needed)."""
    if ctx.backgrounds:
        return ctx.backgrounds
    rng = ctx.rng
    n = ctx.n
    for _ in range(POWER_SAMPLES):
        pos = int(rng.random() * n)
        others: list[int] = []
        if pos:
            taken = 0
            for _i in range(n - 1):
                c = _draw(ctx, -1, others[:1], taken, ctx.trumps)
                taken |= 1 << c
                others.append(c)
        ctx.backgrounds.append((pos, others, {}))
    return ctx.backgrounds


def _power(ctx: Ctx, card: int) -> float:
    """Sampled: `card` played at a random position of a future trick; how often it wins."""
    wins = 0
    bg = _backgrounds(ctx)
    cls = card_class(card, ctx.trumps)
    for pos, others, led in bg:
        if pos:
            cards = [*others[:pos], card, *others[pos:]]
        else:
            follow = led.get(cls)
            if follow is None:
                follow = []
                taken = 1 << card
                for _i in range(ctx.n - 1):
                    c = _draw(ctx, -1, [card], taken, ctx.trumps)
                    taken |= 1 << c
                    follow.append(c)
                led[cls] = follow
            cards = [card, *follow]
        if _winner(cards, ctx.rules, ctx.trumps) == pos:
            wins += 1
    return wins / len(bg)


def _tricks_of(view: dict[str, Any]) -> list[tuple[int, int, int, int, int]]:
    """Past tricks of this round: (cards scored, winning card, lead card, taker, cards played)."""
    out = []
    for t in view["tricks"]:
        played = [(p["seat"], DECK.parse(p["card"])) for p in t["cards"]]
        allc = sum(1 << c for _, c in played)
        cards = allc & ~(1 << DECK.parse(t["removed"])) if t["removed"] else allc
        win = next(c for s, c in played if s == t["winner"])
        out.append((cards, win, played[0][1], t["taker"], allc))
    return out


def _context(view: dict[str, Any], rng: random.Random) -> Ctx:
    me = view["seat"]
    n = len(view["hand_sizes"])
    rules = _rules(view, tuple(r["number"] for r in view["active_rules"]))
    dyn = SUITS.index(view["second_trick_suit"]) if view["second_trick_suit"] else -1
    trumps = _trumps(rules, dyn)
    sc = _scoring(rules, trumps)
    hand = sum(1 << DECK.parse(c) for c in view["hand"])
    past = _tricks_of(view)
    seen = hand
    for _cards, _w, _l, _t, allc in past:
        seen |= allc
    for t in view["trick"]:
        if t["card"] is not None:
            seen |= 1 << DECK.parse(t["card"])
    for d in view["discarded"]:
        seen |= sum(1 << DECK.parse(c) for c in d)
    seen |= sum(1 << DECK.parse(c) for c in view["my_face_down"])
    if view.get("to_remove"):
        seen |= sum(1 << DECK.parse(p["card"]) for p in view["to_remove"]["cards"])
    known = [sum(1 << DECK.parse(c) for c in s) & ~seen for s in view["shown"]]
    for p in view["passed"]:
        known[p["to"]] |= sum(1 << DECK.parse(c) for c in p["given"]) & ~seen
    known[me] = 0
    pool = deck_mask(n) & ~seen
    void = [sum(1 << DECK.parse(c) for c in s) for s in view["cannot_hold"]]
    idx = len(past)
    total = idx + len(view["hand"]) + len(view["my_face_down"])
    if view.get("to_remove"):
        total += 1
    ctx = Ctx(
        me, n, rules, trumps, sc, hand, pool, known, void, list(view["hand_sizes"]),
        list(view["tricks_taken"]), idx, total, rng,
    )  # fmt: skip
    # Round points so far (per-trick steps) and who took a trump card (rule 60).
    before = [0] * n
    pts = [0.0] * n
    trump_taken = [False] * n
    for i, (cards, win, lead, t, _a) in enumerate(past):
        pts[t] += trick_value(sc, trumps, cards, win, lead, i, total, before[t])
        before[t] += 1
        trump_taken[t] = trump_taken[t] or bool(cards & trumps.mask)
    ctx.past = pts
    ctx.took_trump = trump_taken
    return ctx


def _margins(ctx: Ctx, rest: int) -> None:
    """The count rules' worth of one more trick for each seat, with `rest` tricks after it."""
    n = ctx.n
    if not ctx.sc.player:
        ctx.margin = [0.0] * n
        return
    p_me = ctx.share()
    p_other = (1 - p_me) / max(1, n - 1)
    final = [ctx.counts[s] + rest * (p_me if s == ctx.me else p_other) for s in range(n)]
    out = []
    for s in range(n):
        others = [final[o] for o in range(n) if o != s]
        top, low = max(others), min(others)
        if s == ctx.me:
            # Ducking keeps the count low; taking raises it: forecast with the plan that pays.
            duck = count_margin(ctx.sc.player, ctx.counts[s], rest, p_me * p_me, top, low)
            take = count_margin(ctx.sc.player, ctx.counts[s], rest, p_me, top, low)
            out.append(duck if duck < 0 else take)
        else:
            out.append(count_margin(ctx.sc.player, ctx.counts[s], rest, p_other, top, low))
    ctx.margin = out


def _worth(ctx: Ctx, seat: int, cards: int, win: int, lead: int, idx: int, trumps: Trumps) -> float:
    """What `seat` taking this trick is worth to the bot: its own points minus the others' mean."""
    sc = ctx.sc
    v: float = trick_value(sc, trumps, cards, win, lead, idx, ctx.total, ctx.counts[seat])
    if sc.halve and v > 0 and ctx.past[seat] > 0 and ctx.past[seat] >= max(ctx.past):
        v *= 0.5
    if sc.double_no_trump and not ctx.took_trump[seat]:
        if cards & trumps.mask:
            v -= max(0.0, ctx.past[seat])
        else:
            v += 0.5 * v
    v += ctx.margin[seat]
    return v if seat == ctx.me else -v / (ctx.n - 1)


def _win_worth(ctx: Ctx) -> float:
    """The expected worth to the bot of *winning* (not taking: rule 35) a future trick."""
    rest = ctx.total - ctx.idx - 1
    if rest <= 0:
        return 0.0
    rng = ctx.rng
    got = taker(ctx.me, ctx.rules, ctx.n)
    total = 0.0
    everything = ctx.pool | ctx.hand
    for _ in range(GENERIC_SAMPLES):
        cards: list[int] = []
        taken = 0
        for _i in range(ctx.n):
            c = _pick(everything & ~taken, rng) if everything & ~taken else 0
            taken |= 1 << c
            cards.append(c)
        pos = _winner(cards, ctx.rules, ctx.trumps)
        idx = ctx.idx + 1 + rng.randrange(rest)
        total += _worth(ctx, got, taken, cards[pos], cards[0], idx, ctx.trumps)
    return total / GENERIC_SAMPLES


# -- decisions ----------------------------------------------------------------------------------


def _rng(view: dict[str, Any], rng: random.Random | None) -> random.Random:
    key = "|".join(
        (
            str(view["seat"]), str(view["round"]), view["phase"], ",".join(view["hand"]),
            ",".join(str(t["card"]) for t in view["trick"]), str(len(view["tricks"])),
            ",".join(view["legal_actions"]),
        )
    )  # fmt: skip
    seed = zlib.crc32(key.encode())
    if rng is not None:
        seed ^= rng.getrandbits(32)
    return random.Random(seed)


def _play(view: dict[str, Any], ctx: Ctx, legal: list[str]) -> str:
    n, me = ctx.n, ctx.me
    rest = ctx.total - ctx.idx - 1
    _margins(ctx, rest)
    keep = _win_worth(ctx)
    rules = ctx.rules
    played = [(t["seat"], DECK.parse(t["card"]) if t["card"] is not None else -1) for t in view["trick"]]
    after = [(me + view["direction"] * k) % n for k in range(1, n - len(played))]
    seats = [s for s, _ in played] + [me] + after
    mine = [DECK.parse(a) for a in legal]
    dyn_lead = bool(rules.dynamic_trump_rule and not played and ctx.idx == 1 and not view["second_trick_suit"])
    known_taken = sum(1 << c for _, c in played if c >= 0)
    samples = PLAY_SAMPLES if played else LEAD_SAMPLES
    ev = dict.fromkeys(mine, 0.0)
    # Cards before the bot's: shared by all its candidates (common random numbers).
    prefixes = []
    for _ in range(samples):
        cards: list[int] = []
        taken = known_taken
        visible: list[int] = []
        for s, c in played:
            if c < 0:  # rule 26: a face-down card, unknown
                c = _draw(ctx, s, visible[:1], taken | ctx.hand, ctx.trumps)
                taken |= 1 << c
            cards.append(c)
            if not visible or not rules.face_down_followers:
                visible.append(c)
        prefixes.append((cards, taken, visible))
    for c in mine:
        trumps = _trumps(rules, suit_of(c)) if dyn_lead else ctx.trumps
        for cards0, taken0, visible0 in prefixes:
            cards = [*cards0, c]
            taken = taken0 | 1 << c
            visible = visible0 if visible0 and rules.face_down_followers else [*visible0, c]
            for s in after:
                x = _draw(ctx, s, visible[:1] if rules.face_down_followers else visible, taken | ctx.hand, trumps)
                taken |= 1 << x
                cards.append(x)
                if not rules.face_down_followers:
                    visible.append(x)
            pos = _winner(cards, rules, trumps)
            got = taker(seats[pos], rules, n)
            ev[c] += _worth(ctx, got, taken, cards[pos], cards[0], ctx.idx, trumps)
    best, best_score = legal[0], -math.inf
    for a, c in zip(legal, mine, strict=True):
        # Keep term: the card's power, plus a little of its height (the engine's strength when
        # it leads) so that equally powerless cards still shed the higher one when ducking.
        height = strength(c, c, rules, ctx.trumps) / 400
        score = ev[c] / samples - keep * (ctx.power(c) + 0.05 * height) if rest > 0 else ev[c] / samples
        if score > best_score + 1e-9:
            best, best_score = a, score
    return best


def _trick_cards(played: list[tuple[int, int]]) -> int:
    return sum(1 << c for _, c in played)


def _remove(view: dict[str, Any], ctx: Ctx, legal: list[str]) -> str:
    _margins(ctx, ctx.total - ctx.idx - 1)
    pend = view["to_remove"]
    played = [(p["seat"], DECK.parse(p["card"])) for p in pend["cards"]]
    cards = _trick_cards(played)
    win = next(c for s, c in played if s == pend["winner"])
    got = taker(pend["winner"], ctx.rules, ctx.n)
    best, best_score = legal[0], -math.inf
    for a in legal:
        c = DECK.parse(a.partition(":")[2])
        score = _worth(ctx, got, cards & ~(1 << c), win, played[0][1], ctx.idx, ctx.trumps)
        if score > best_score + 1e-9:
            best, best_score = a, score
    return best


def _setup(view: dict[str, Any], ctx: Ctx, legal: list[str]) -> str:
    setup = view["setup"]
    ctx.idx = 0
    _margins(ctx, ctx.total - 1)
    if setup["kind"] == "face_down_last":
        # The card goes to the last trick: strong if winning that trick pays, else weak.
        ctx.idx = ctx.total - 2
        want = _win_worth(ctx) > 0
        ctx.idx = 0
    elif setup["kind"] == "show":
        want = True  # show what matters least: the weakest cards
    else:
        want = _win_worth(ctx) > 0  # pass / discard: keep strength only when tricks pay
    ranked = sorted(legal, key=lambda a: (ctx.power(DECK.parse(a.partition(":")[2])), a))
    if setup["kind"] == "face_down_last":
        return ranked[-1] if want else ranked[0]
    return ranked[0] if want else ranked[-1]


def _rule_value(view: dict[str, Any], number: int, rng: random.Random) -> float:
    """The forecast own-minus-others points of a round with this rule card in force."""
    rules = _rules(view, (number,))
    trumps = _trumps(rules, -1)
    sc = _scoring(rules, trumps)
    n = len(view["hand_sizes"])
    hand = sum(1 << DECK.parse(c) for c in view["hand"])
    total = len(view["hand"])
    ctx = Ctx(
        view["seat"], n, rules, trumps, sc, hand, deck_mask(n) & ~hand, [0] * n, [0] * n,
        list(view["hand_sizes"]), [0] * n, -1, total, rng, [0.0] * n, [False] * n, [0.0] * n,
    )  # fmt: skip
    powers = [ctx.power(c) for c in bit_list(hand)]
    # Worth of one trick, taken by the bot or by another seat (per-trick steps only).
    mine = other = 0.0
    everything = deck_mask(n)
    for _ in range(GENERIC_SAMPLES):
        cards: list[int] = []
        taken = 0
        for _i in range(n):
            c = _pick(everything & ~taken, rng)
            taken |= 1 << c
            cards.append(c)
        pos = _winner(cards, rules, trumps)
        idx = rng.randrange(total)
        v = trick_value(sc, trumps, taken, cards[pos], cards[0], idx, total, rng.randrange(4))
        mine += v
        other += v
    g = mine / GENERIC_SAMPLES
    best = -math.inf
    for f in (sum(p**3 for p in powers), sum(powers)):
        if rules.trick_to_left:
            f = total / n
        o = (total - f) / max(1, n - 1)
        mine_b = _poisson_bonus(sc, f, o, o)
        other_b = _poisson_bonus(sc, o, max(f, o), min(f, o))
        value = f * g + mine_b - (o * g + other_b)
        best = max(best, value)
    return best


def _poisson_bonus(sc: Scoring, mean: float, top: float, low: float) -> float:
    if not sc.player:
        return 0.0
    out = 0.0
    w = math.exp(-mean)
    for k in range(30):
        out += w * count_bonus(sc.player, k, top, low)
        w *= mean / (k + 1)
    return out


def _choose(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    best, best_score = legal[0], -math.inf
    for a in legal:
        score = _rule_value(view, int(a.partition(":")[2]), rng)
        if score > best_score + 1e-9:
            best, best_score = a, score
    return best


def decide(view: dict[str, Any], rng: random.Random | None) -> str:
    legal: list[str] = view["legal_actions"]
    if len(legal) == 1:
        return legal[0]
    r = _rng(view, rng)
    phase = view["phase"]
    if phase == "choose":
        return _choose(view, legal, r)
    ctx = _context(view, r)
    if phase == "setup":
        return _setup(view, ctx, legal)
    if phase == "remove":
        return _remove(view, ctx, legal)
    return _play(view, ctx, legal)


__all__ = ["count_bonus", "count_margin", "decide", "trick_value"]
