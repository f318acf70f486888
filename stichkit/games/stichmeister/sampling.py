"""`sample_hidden`: a state one seat cannot tell from the real one.

Redrawn at random: the other players' hands (keeping known voids, shown cards and the cards this
seat passed them), their face-down cards (rule 24 and rule 26), their secret picks and rule-card
choices, their rule-card hands, who chose which revealed rule card, and the rule pile. The
sample is built as a new set of chance outcomes plus a rewritten decision log, then replayed, so
its record replays exactly. Known limitation: in *finished* rounds, passes between two other
players are kept as they were (they cannot influence the future; every card was played openly).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from stichkit.cards import bits
from stichkit.core.errors import IllegalActionError
from stichkit.core.sampling import deal_constrained

from .state import ACTION_TEXTS, PICK_ACTION, REMOVE_ACTION, RULE_ACTION, RULE_HAND, SETUP
from .trick import legal_plays

if TYPE_CHECKING:
    from .state import StichMeisterState


def _rounds(st: StichMeisterState) -> list[dict[str, Any]]:
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
    st: StichMeisterState, seat: int, rng: random.Random
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
        cards = sorted(k for k in rd["choices"].values() if k != mine)
        rng.shuffle(cards)
        for p, k in zip(others, cards, strict=True):
            choice[(r, p)] = k
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
        if rd["extra"]:
            seq.append(rd["extra"])
        if r < cur:
            seq.extend(
                refills[r][(rd["dealer"] + 1 + i) % n] for i in range(n) if (rd["dealer"] + 1 + i) % n in refills[r]
            )
    deck = [k for p in range(n) for k in sorted(held[p])] + seq + rest
    return deck, choice


def _sample_cards(st: StichMeisterState, seat: int, rng: random.Random) -> dict[str, Any] | None:
    """Hidden cards of the current round: hands, face-down cards, hidden trick cards, picks."""
    n = st._n
    rules = st.rules()
    others = [p for p in range(n) if p != seat]
    public = 0
    for _lead, plays, *_ in st._tricks:
        public |= sum(1 << c for _, c in plays)
    if st._pending:
        public |= sum(1 << c for _, c in st._pending[1])
    # A shown card played face down is known to be that player's (it is still listed as shown).
    hidden_trick = {s: c for s, c, up in st._trick if not up and s != seat and not st._shown[s] >> c & 1}
    for s, c, _up in st._trick:
        if s not in hidden_trick:
            public |= 1 << c
    for m in st._discarded:
        public |= m
    shown = [st._shown[p] & st._hands[p] for p in range(n)]
    mine = st._hands[seat] | st._face_down[seat]
    pool_mask = st.game.deck & ~public & ~mine
    for p in others:
        pool_mask &= ~shown[p]
    # Cards this seat passed: still with the receiver (hand, face-down or hidden trick card).
    pinned = [0] * n
    if rules is not None:
        for ph, picks in zip(rules.phases, st._resolved, strict=False):
            if ph.kind == "pass":
                pinned[(seat + ph.to) % n] |= picks[seat] & pool_mask
    slots: list[tuple[str, int]] = []
    need: list[int] = []
    for p in others:
        slots.append(("hand", p))
        need.append((st._hands[p] & ~shown[p]).bit_count())
        if st._face_down[p]:
            slots.append(("down", p))
            need.append(st._face_down[p].bit_count())
        if p in hidden_trick:
            slots.append(("trick", p))
            need.append(1)
    cards = list(bits(pool_mask))
    allowed = []
    for c in cards:
        a = 0
        for i, (kind, p) in enumerate(slots):
            if any(pinned[q] >> c & 1 for q in range(n) if q != p):
                continue
            if kind != "down" and st._voids[p] >> c & 1:
                continue
            a |= 1 << i
        allowed.append(a)
    try:
        dealt = deal_constrained(cards, allowed, need, rng)
    except ValueError:
        return None
    hands = list(st._hands)
    down = list(st._face_down)
    trick = dict(hidden_trick)
    for (kind, p), m in zip(slots, dealt, strict=True):
        if kind == "hand":
            hands[p] = m | shown[p]
        elif kind == "down":
            down[p] = m
        else:
            trick[p] = next(bits(m))
    if rules is not None and hidden_trick:  # a face-down trick card must have been a legal play
        visible = st.visible_trick()
        for p, c in trick.items():
            if not legal_plays(hands[p] | 1 << c, visible, rules, st.trumps(), st.trumps_broken()) >> c & 1:
                return None
    return {"hands": hands, "down": down, "trick": trick, "pinned": pinned}


def _round_deal(st: StichMeisterState, seat: int, s: dict[str, Any], rng: random.Random) -> tuple[Any, Any]:
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
    picks_by_phase: list[list[int]] = []
    if rules is not None:
        phases = list(zip(rules.phases, st._resolved, strict=False))
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
            elif ph.kind == "face_down_last":
                picks_by_phase.append([s["down"][p] if s["down"][p] else real[p] for p in range(n)])
            else:
                picks_by_phase.append(list(real))
        picks_by_phase.reverse()
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


def sample_hidden(st: StichMeisterState, seat: int, rng: random.Random) -> StichMeisterState:
    game = st.game
    for _ in range(40):
        cards = _sample_cards(st, seat, rng)
        if cards is not None:
            break
    else:
        cards = {"hands": list(st._hands), "down": list(st._face_down), "trick": {}, "pinned": [0] * st._n}
    deck, choice = _sample_rule_deck(st, seat, rng)
    deal, picks = _round_deal(st, seat, cards, rng)
    chances: list[Any] = []
    decisions: list[tuple[int, int]] = []
    shift = st.SEAT_SHIFT
    r = -1
    rounds = 0
    pick_queues: dict[tuple[int, int], list[int]] = {}
    hidden_plays = {p: c for p, c in cards["trick"].items()}
    trick_start = len([e for e in st._log if isinstance(e, int)]) - len(st._trick)
    decision_no = 0
    phase_counts = [ph.count for ph in st.rules().phases] if st.rules() is not None else []  # type: ignore[union-attr]
    pick_no = 0
    for e in st._log:
        if not isinstance(e, int):
            kind, value = e[1]
            if kind == "rule_deck":
                chances.append({"rule_deck": list(deck)})
            else:
                r += 1
                rounds += 1
                hands = deal if r == st._round else value
                chances.append({"hands": [[ACTION_TEXTS[c] for c in bits(h)] for h in hands]})
                if r == st._round:
                    for idx, per_seat in enumerate(picks):
                        for p in range(st._n):
                            pick_queues[(idx, p)] = list(bits(per_seat[p]))
            continue
        p, a = divmod(e, shift)
        if RULE_ACTION <= a < PICK_ACTION["pass"] and (r, p) in choice:
            a = RULE_ACTION + choice[(r, p)] - 1
        elif PICK_ACTION["pass"] <= a < REMOVE_ACTION and r == st._round:
            # Which phase: picks come in blocks of count * players.
            idx, k = 0, pick_no
            while idx < len(phase_counts) and k >= phase_counts[idx] * st._n:
                k -= phase_counts[idx] * st._n
                idx += 1
            pick_no += 1
            q = pick_queues.get((idx, p))
            if q:
                a = a - (a - PICK_ACTION["pass"]) % 60 + q.pop(0)
        elif a < RULE_ACTION and r == st._round and decision_no >= trick_start and p in hidden_plays:
            a = hidden_plays.pop(p)
        decision_no += 1
        decisions.append((p, a))
    new: StichMeisterState = game._state_from_chances(chances, rng.getrandbits(63))
    for _p, a in decisions:
        try:
            new.apply(game.actions[a])
        except IllegalActionError as err:  # pragma: no cover - a sampler bug, reported clearly
            raise AssertionError(f"sample_hidden built an unplayable history at {ACTION_TEXTS[a]}: {err}") from None
    new._seed = rng.getrandbits(63)
    return new
