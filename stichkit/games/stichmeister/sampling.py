"""`sample_hidden`: a state one seat cannot tell from the real one.

Redrawn at random: the other players' hands (keeping known voids, shown cards and the cards this
seat passed them), their face-down cards (rule 24 and rule 26, also a shown card played face down:
which one is hidden until the reveal), their secret picks and rule-card choices, their rule-card
hands, who chose which revealed rule card (3 players: and which one came from the pile), and the
rule pile; in *finished* rounds the passes
between two other players (rules 22/23: every card each player held after the passes was played
face up, but not who passed which to whom), so those rounds' deals too. The order in which a
player made its setup picks was never seen either: the sample writes every player's picks in card
order. The sample is built as a new set of chance outcomes plus a rewritten decision log, then
replayed, so its record replays exactly and no cache, log or undo snapshot holds a real hidden
card. Everything is drawn from what the seat knows, in a canonical order, and from `rng` only:
the same rng gives the same sample of the real state and of any state the seat cannot tell from it.
"""

from __future__ import annotations

import random
from typing import Any, TypeVar

from stichkit.cards import bits
from stichkit.core.errors import IllegalActionError
from stichkit.core.sampling import deal_constrained

from .actions import ACTION_TEXTS, PICK_ACTION, REMOVE_ACTION, RULE_ACTION, SETUP
from .deals import RULE_HAND
from .position import StichMeisterFields
from .rules import SetupPhase
from .trick import legal_plays

S = TypeVar("S", bound=StichMeisterFields)


def _rounds(st: StichMeisterFields) -> list[dict[str, Any]]:
    """The real rule-card flow, round by round: dealer, choosers, choices, extra card, refills."""
    n = st._n
    perm = list(st._log[0][1][1])  # type: ignore[index]
    hands = [list(perm[RULE_HAND * s : RULE_HAND * s + RULE_HAND]) for s in range(n)]
    pile = perm[RULE_HAND * n :]
    out: list[dict[str, Any]] = []
    shift = st.SEAT_SHIFT
    for e in st._log[1:]:
        if not isinstance(e, int):
            if out:  # refill at the end of the previous round
                prev = out[-1]
                for i in range(n):
                    s = (prev["dealer"] + 1 + i) % n
                    while len(hands[s]) < RULE_HAND and pile:
                        prev["refills"][s] = pile.pop(0)
                        hands[s].append(prev["refills"][s])
            r = len(out)
            dealer = (st.game.options["first_player"] + r) % n
            order = [(dealer + 1 + i) % n for i in range(n)]
            out.append({"dealer": dealer, "choosers": order[1:] if n == 5 else order, "choices": {}, "extra": 0,
                        "refills": {}})  # fmt: skip
            continue
        seat, a = divmod(e, shift)
        if RULE_ACTION <= a < PICK_ACTION["pass"]:
            rd = out[-1]
            rd["choices"][seat] = a - RULE_ACTION + 1
            hands[seat].remove(a - RULE_ACTION + 1)
            if len(rd["choices"]) == len(rd["choosers"]) and n == 3:
                rd["extra"] = pile.pop(0)
    return out


def _sample_rule_deck(
    st: StichMeisterFields, seat: int, rng: random.Random
) -> tuple[list[int], dict[tuple[int, int], int]]:
    """A rule deck and (round, seat) -> choice consistent with what `seat` knows."""
    n = st._n
    flow = _rounds(st)
    cur = len(flow) - 1
    revealed = bool(st._active)
    known = set(st._rule_hands[seat]) | set(st._used) | set(st._active)
    if st._chosen[seat]:
        known.add(st._chosen[seat])
    pool = [k for k in st.game.rule_deck if k not in known]
    rng.shuffle(pool)
    hands: dict[int, list[int]] = {seat: list(st._rule_hands[seat])}
    choice: dict[tuple[int, int], int] = {}
    extra = [rd["extra"] for rd in flow]
    for p in range(n):
        if p == seat:
            continue
        hands[p] = [pool.pop() for _ in st._rule_hands[p]]
        if not revealed and st._chosen[p]:
            choice[(cur, p)] = pool.pop()
    rest = pool
    if st._chosen[seat]:
        choice[(cur, seat)] = st._chosen[seat]
    for r, rd in enumerate(flow):
        if r == cur and not revealed:
            continue
        mine = rd["choices"].get(seat)
        if mine is not None:
            choice[(r, seat)] = mine
        others = [p for p in rd["choosers"] if p != seat]
        # 3 players: the pile's card is shuffled in with the chosen ones, so it is drawn with them.
        cards = sorted([*(k for k in rd["choices"].values() if k != mine), *([rd["extra"]] if rd["extra"] else [])])
        rng.shuffle(cards)
        for p, k in zip(others, cards, strict=False):
            choice[(r, p)] = k
        if rd["extra"]:
            extra[r] = cards[-1]
    # Holdings at the start of the current round, then backwards through the refills.
    held = {p: set(hands[p]) | ({choice[(cur, p)]} if (cur, p) in choice else set()) for p in range(n)}
    refills: list[dict[int, int]] = [{} for _ in flow]
    for r in range(cur - 1, -1, -1):
        rd = flow[r]
        for p in rd["choosers"]:
            f = rd["refills"][p] if p == seat else rng.choice(sorted(held[p]))
            refills[r][p] = f
            held[p].discard(f)
            held[p].add(choice[(r, p)])
    seq: list[int] = []
    for r, rd in enumerate(flow):
        if extra[r]:
            seq.append(extra[r])
        if r < cur:
            seq.extend(
                refills[r][(rd["dealer"] + 1 + i) % n] for i in range(n) if (rd["dealer"] + 1 + i) % n in refills[r]
            )
    deck = [k for p in range(n) for k in sorted(held[p])] + seq + rest
    return deck, choice


def _sample_cards(st: StichMeisterFields, seat: int, rng: random.Random) -> dict[str, Any]:
    """Hidden cards of the current round: hands, face-down cards (rule 24), hidden trick cards
    (rule 26). A player who played face down in this trick gets its hand and that card together,
    then the card is drawn among those it could legally have played from them (never none: some
    card of a hand is always legal), so no deal is ever refused."""
    n = st._n
    rules = st.rules()
    others = [p for p in range(n) if p != seat]
    public = 0
    for _lead, plays, *_ in st._tricks:
        public |= sum(1 << c for _, c in plays)
    if st._pending:
        public |= sum(1 << c for _, c in st._pending[1])
    # Rule 26: the others' face-down trick cards are hidden, even if one is a shown card (a shown
    # card played face down stays listed until the reveal): only who played face down is known.
    hidden_trick = [s for s, _c, up in st._trick if not up and s != seat]
    for s, c, up in st._trick:
        if up or s == seat:
            public |= 1 << c
    for m in st._discarded:
        public |= m
    listed = list(st._shown)  # public; in the hand unless it is the card played face down
    mine = st._hands[seat] | st._face_down[seat]
    pool_mask = st.game.deck & ~public & ~mine
    for p in others:
        pool_mask &= ~listed[p]
    # Cards this seat passed: still with the receiver (hand, face-down or hidden trick card).
    pinned = [0] * n
    if rules is not None:
        for ph, picks in zip(rules.phases, st._resolved, strict=False):
            if ph.kind == "pass":
                pinned[(seat + ph.to) % n] |= picks[seat] & pool_mask
    slots: list[tuple[str, int]] = []
    need: list[int] = []
    for p in others:
        slots.append(("hand", p))  # with the face-down trick card, if p played one
        if p in hidden_trick:
            need.append(st._hands[p].bit_count() + 1)
        else:
            need.append(st._hands[p].bit_count() - listed[p].bit_count())
        if st._face_down[p]:
            slots.append(("down", p))
            need.append(st._face_down[p].bit_count())
    cards = list(bits(pool_mask))
    owner = [-1] * len(cards)
    for p in hidden_trick:  # its listed cards: still in its hand, or the card it played face down
        cards += bits(listed[p])
        owner += [p] * listed[p].bit_count()
    allowed = []
    for c, own in zip(cards, owner, strict=True):
        a = 0
        for i, (kind, p) in enumerate(slots):
            if own >= 0 and (own != p or kind == "down"):
                continue
            if any(pinned[q] >> c & 1 for q in range(n) if q != p):
                continue
            if kind != "down" and st._voids[p] >> c & 1:
                continue
            a |= 1 << i
        allowed.append(a)
    dealt = deal_constrained(cards, allowed, need, rng)
    hands = list(st._hands)
    down = list(st._face_down)
    for (kind, p), m in zip(slots, dealt, strict=True):
        if kind == "down":
            down[p] = m
        elif p in hidden_trick:
            hands[p] = m
        else:
            hands[p] = m | listed[p]
    trick: dict[int, int] = {}
    if hidden_trick:
        assert rules is not None
        visible = st.visible_trick()  # rule 26: the lead, the only card a follower saw
        for p in hidden_trick:
            c = rng.choice(list(bits(legal_plays(hands[p], visible, rules, st.trumps(), st.trumps_broken()))))
            trick[p] = c
            hands[p] &= ~(1 << c)
    return {"hands": hands, "down": down, "trick": trick, "pinned": pinned}


def _unpass(
    held: list[int],
    phases: list[tuple[SetupPhase, tuple[int, ...]]],
    seat: int,
    n: int,
    rng: random.Random,
    down: list[int] | None = None,
) -> tuple[list[int], list[list[int]]]:
    """A round's deal and each setup phase's picks, rebuilt backwards from `held` (what each player
    held after the setup phases, hand + face-down + discarded). `phases`: each phase with its real
    picks, of which only the public ones and this seat's passes (given and received) are used; the
    passes between two other players are drawn at random. `down`: sampled face-down cards (rule 24)
    still face down."""
    held = list(held)
    picks_by_phase: list[list[int]] = []
    for idx in range(len(phases) - 1, -1, -1):
        ph, real = phases[idx]
        if ph.kind == "pass":
            got = [0] * n
            for p in range(n):
                frm = (p - ph.to) % n
                if p == seat or frm == seat:
                    got[p] = real[frm]
                else:  # not the cards this seat gave p in an earlier phase: those came from it
                    earlier = 0
                    for ph2, real2 in phases[:idx]:
                        if ph2.kind == "pass" and (seat + ph2.to) % n == p:
                            earlier |= real2[seat]
                    cand = list(bits(held[p] & ~earlier))
                    got[p] = sum(1 << c for c in rng.sample(cand, ph.count))
            gave = [got[(p + ph.to) % n] for p in range(n)]
            held = [(held[p] & ~got[p]) | gave[p] for p in range(n)]
            picks_by_phase.append(gave)
        elif ph.kind == "face_down_last" and down is not None:
            picks_by_phase.append([down[p] if down[p] else real[p] for p in range(n)])
        else:  # face down and revealed at the last trick, shown, discarded: public
            picks_by_phase.append(list(real))
    picks_by_phase.reverse()
    return held, picks_by_phase


def _round_deal(st: StichMeisterFields, seat: int, s: dict[str, Any], rng: random.Random) -> tuple[Any, Any]:
    """The current round's deal and each resolved setup phase's picks, rebuilt backwards."""
    n = st._n
    rules = st.rules()
    held = [s["hands"][p] | s["down"][p] | st._discarded[p] for p in range(n)]
    for _lead, plays, *_ in st._tricks:
        for p, c in plays:
            held[p] |= 1 << c
    if st._pending:
        for p, c in st._pending[1]:
            held[p] |= 1 << c
    for p, c, _up in st._trick:
        held[p] |= 1 << s["trick"].get(p, c)
    if rules is None:
        return held, []
    held, picks_by_phase = _unpass(held, list(zip(rules.phases, st._resolved, strict=False)), seat, n, rng, s["down"])
    if st._phase == SETUP:  # picks of the phase in progress: secret, redrawn from the hand
        cur = []
        for p in range(n):
            k = st._picks[p].bit_count()
            if p == seat or not k:
                cur.append(st._picks[p])
            else:
                cur.append(sum(1 << c for c in rng.sample(list(bits(s["hands"][p])), k)))
        picks_by_phase.append(cur)
    return held, picks_by_phase


def _earlier_rounds(st: StichMeisterFields, seat: int, rng: random.Random) -> list[tuple[Any, Any]]:
    """Each finished round's deal and setup picks (see `_unpass`). What each player held after the
    setup phases is public once the round is over: the cards it played, the ones it laid face down
    (played to the last trick) and the ones it discarded; read from the log's public moves."""
    n = st._n
    shift = st.SEAT_SHIFT
    out: list[tuple[Any, Any]] = []
    r = -1
    phases: tuple[SetupPhase, ...] = ()
    picks: list[list[int]] = []
    held: list[int] = []
    pick_no = 0

    def close() -> None:
        if 0 <= r < st._round:
            for ph, real in zip(phases, picks, strict=True):
                if ph.kind != "pass":
                    for p in range(n):
                        held[p] |= real[p]
            out.append(_unpass(held, [(ph, tuple(real)) for ph, real in zip(phases, picks, strict=True)], seat, n, rng))

    for e in st._log[1:]:  # the rule deck, then each round's deal and moves; stop at the current one
        if not isinstance(e, int):
            close()
            r += 1
            if r >= st._round:
                break
            phases = st._history[r][4].phases
            picks = [[0] * n for _ in phases]
            held = [0] * n
            pick_no = 0
            continue
        p, a = divmod(e, shift)
        if a < RULE_ACTION:
            held[p] |= 1 << a
        elif PICK_ACTION["pass"] <= a < REMOVE_ACTION:
            idx = _phase_of(pick_no, [ph.count for ph in phases], n)
            pick_no += 1
            picks[idx][p] |= 1 << (a - PICK_ACTION["pass"]) % 60
    return out


def _phase_of(pick_no: int, counts: list[int], n: int) -> int:
    """Which setup phase the round's `pick_no`-th pick belongs to (each phase: count picks per player)."""
    idx, k = 0, pick_no
    while idx < len(counts) and k >= counts[idx] * n:
        k -= counts[idx] * n
        idx += 1
    return idx


def sample_hidden(st: S, seat: int, rng: random.Random) -> S:
    game = st.game
    n = st._n
    cards = _sample_cards(st, seat, rng)
    deck, choice = _sample_rule_deck(st, seat, rng)
    rounds = _earlier_rounds(st, seat, rng)
    rounds.append(_round_deal(st, seat, cards, rng))
    counts = [[ph.count for ph in h[4].phases] for h in st._history]
    rules = st.rules()
    counts.append([ph.count for ph in rules.phases] if rules is not None else [])
    chances: list[Any] = []
    decisions: list[int] = []
    shift = st.SEAT_SHIFT
    r = -1
    queues: dict[tuple[int, int], list[int]] = {}
    hidden_plays = dict(cards["trick"])
    trick_start = sum(1 for e in st._log if isinstance(e, int)) - len(st._trick)
    decision_no = 0
    pick_no = 0
    for e in st._log:
        if not isinstance(e, int):
            kind, _value = e[1]
            if kind == "rule_deck":
                chances.append({"rule_deck": list(deck)})
                continue
            r += 1
            hands, picks = rounds[r]
            chances.append({"hands": [[ACTION_TEXTS[c] for c in bits(h)] for h in hands]})
            queues = {(idx, p): list(bits(m)) for idx, per_seat in enumerate(picks) for p, m in enumerate(per_seat)}
            pick_no = 0
            continue
        p, a = divmod(e, shift)
        if RULE_ACTION <= a < PICK_ACTION["pass"] and (r, p) in choice:
            a = RULE_ACTION + choice[(r, p)] - 1
        elif PICK_ACTION["pass"] <= a < REMOVE_ACTION:
            # Every player's picks of a phase in card order: the order they were made was never seen.
            idx = _phase_of(pick_no, counts[r], n)
            pick_no += 1
            a = a - (a - PICK_ACTION["pass"]) % 60 + queues[(idx, p)].pop(0)
        elif a < RULE_ACTION and r == st._round and decision_no >= trick_start and p in hidden_plays:
            a = hidden_plays.pop(p)
        decision_no += 1
        decisions.append(a)
    new: S = game._state_from_chances(chances, rng.getrandbits(63))
    for a in decisions:
        try:
            new.apply(game.actions[a])
        except IllegalActionError as err:  # pragma: no cover - a sampler bug, reported clearly
            raise AssertionError(f"sample_hidden built an unplayable history at {ACTION_TEXTS[a]}: {err}") from None
    new._seed = rng.getrandbits(63)
    return new
