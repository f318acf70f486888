"""Game-agnostic invariants of the stichkit protocol, checked by playing random games.

Everything here goes through the public API only (`new_state`, `legal_actions`, `apply`, `undo`,
`view`, `clone`, `record`, `stichkit.replay`, `sample_hidden`, `legal_action_mask`, action ids and
notation, `scores`, `winners`, `is_terminal`, `current_player`). What differs between games (how
cards show up in a view, how points add up, what a seat knows about hidden hands) comes from a
small `Adapter`, so the same suite runs unchanged for every game and player count.

Entry points:

- `check_random_game(game, adapter, seed, choose, rng)`: plays one whole game, checking every
  invariant along the way (see the `check_*` functions for what each one asserts).
- `data_chooser(data)` / `random_chooser(rng)`: how the random game picks its actions.

A failure raises `InvariantError` whose message names the options, the seed and the actions played,
so that it can be replayed by hand.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck
from hypothesis import strategies as st

import stichkit
from stichkit import Action, Game, IllegalActionError, NotationError, State, StichkitError, UndoError
from stichkit.core import ILLEGAL_CODES

Chooser = Callable[[Sequence[Any]], Any]

# Hypothesis settings shared by every game's property tests: whole games are slow and draw
# many choices, which is the point, not a problem.
SUPPRESS = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]
SEEDS = st.integers(0, 2**63 - 1)
View = dict[str, Any]


class InvariantError(AssertionError):
    """An invariant does not hold. The message says which, where, and how to get there."""


# -- the per-game adapter --------------------------------------------------------------------------


def _no_cards(view: View) -> set[str]:
    return set()


def _identity(view: View) -> Any:
    return view


def _zero(view: View) -> int:
    return 0


@dataclass(frozen=True)
class Adapter:
    """Game-specific facts the generic checks need. Only `deck` and `out_of_hand` are required.

    - `deck(game)`: the notation of every card of the game (a multiset: a name twice = two copies).
    - `out_of_hand(public_view)`: the cards of the current deal no longer in any hand that the
      spectator view shows (played, in tricks, discarded face up, ...).
    - `unseen_count(public_view)`: cards in neither a hand nor `out_of_hand` (draw pile, face-down
      cards). Hands + out_of_hand + unseen = the deck.
    - `shown_hand_cards(public_view)`: hand cards that are public although still held (Jass: a
      shown Weis). Every other hand card is secret from everyone but its holder.
    - `scan_view(view)`: the part of a view to scan for hidden card names. Leave out only fields
      that name cards as public deductions (Jass: `cannot_hold`), and check those in `check_view`.
    - `check_view(state, seat, view, fail)`: game-specific checks of one view.
    - `check_scores(state, fail)`: the game's scoring identities; call `fail(message)` on a breach.
    - `check_sample(state, sample, seat, fail)`: facts `seat` knows about hidden hands (known voids)
      that a `sample_hidden` result must respect.
    - `sample_replay_exact`: a sample must be `==` to `replay(sample.record())` (set False only for
      a known, reported engine bug, with an xfail test that pins it).
    """

    name: str
    deck: Callable[[Game], Sequence[str]]
    out_of_hand: Callable[[View], Sequence[str]]
    unseen_count: Callable[[View], int] = _zero
    shown_hand_cards: Callable[[View], set[str]] = _no_cards
    scan_view: Callable[[View], Any] = _identity
    check_view: Callable[[State, int | None, View, Callable[[str], None]], None] | None = None
    check_scores: Callable[[State, Callable[[str], None]], None] | None = None
    check_sample: Callable[[State, State, int, Callable[[str], None]], None] | None = None
    sample_replay_exact: bool = True


# -- choosing actions ------------------------------------------------------------------------------


def random_chooser(rng: random.Random) -> Chooser:
    return lambda options: options[rng.randrange(len(options))]


def data_chooser(data: Any) -> Chooser:
    """Choices drawn from hypothesis `st.data()`, so a failing game shrinks to the first actions."""
    from hypothesis import strategies as st

    return lambda options: options[data.draw(st.integers(0, len(options) - 1), label="choice")]


# -- helpers ---------------------------------------------------------------------------------------


def seats(game: Game) -> list[int | None]:
    return [*range(game.num_players), None]


def played_moves(state: State) -> list[str]:
    return [m["action"] for m in state.record()["moves"] if "action" in m]


@dataclass
class Context:
    """Where a check runs: enough to reproduce a failure."""

    game: Game
    adapter: Adapter
    seed: int | None
    notes: list[str] = field(default_factory=list)

    def fail(self, message: str, state: State | None = None) -> None:
        where = f"options={self.game.options!r} seed={self.seed!r}"
        if state is not None:
            where += f" actions={played_moves(state)!r}"
        extra = "".join(f"\n  note: {n}" for n in self.notes)
        raise InvariantError(f"{self.game.name}: {message}\n  at {where}{extra}")

    def check(self, ok: object, message: str | Callable[[], str], state: State | None = None) -> None:
        if not ok:
            self.fail(message() if callable(message) else message, state)


_TOKEN = re.compile(r"[^\W_]+")


def tokens_in(value: Any) -> set[str]:
    """The words of every string (and key) in a JSON value: a card appears as its own token
    ("D7", "N2"; "rule:5" gives "rule" and "5")."""
    return set(_TOKEN.findall(json.dumps(value, ensure_ascii=False)))


def json_roundtrips(value: Any) -> bool:
    """Strict JSON: json.dumps works (no NaN, no sets or objects) and loads gives back an equal
    value (so no tuples, no non-string keys)."""
    try:
        return json.loads(json.dumps(value, allow_nan=False)) == value
    except (TypeError, ValueError):
        return False


@dataclass
class Snapshot:
    """All observable facts of a state, to compare after undo, illegal actions, sampling, ..."""

    copy: State
    record: dict[str, Any]
    views: list[View]
    legal: list[Action]
    mask: list[int]
    scores: list[int]
    winners: list[int]
    terminal: bool
    player: int | None


def snapshot(state: State) -> Snapshot:
    return Snapshot(
        copy=state.clone(),
        record=state.record(),
        views=[state.view(s) for s in seats(state.game)],
        legal=state.legal_actions(),
        mask=list(state.legal_action_mask()),
        scores=list(state.scores()),
        winners=list(state.winners()),
        terminal=state.is_terminal(),
        player=state.current_player,
    )


def assert_same(ctx: Context, state: State, snap: Snapshot, what: str, exact: bool = True) -> None:
    """`state` is indistinguishable from the snapshot: ==, every view, legal actions, record, scores.
    `exact=False` leaves out `==` (compares only what the public API shows)."""
    if exact:
        ctx.check(state == snap.copy, f"{what}: state != the state before", state)
    for s, v in zip(seats(state.game), snap.views, strict=True):
        got = state.view(s)
        ctx.check(got == v, lambda s=s, got=got, v=v: f"{what}: view({s}) differs: {_dict_diff(v, got)}", state)
    ctx.check(state.legal_actions() == snap.legal, f"{what}: legal actions differ", state)
    ctx.check(list(state.legal_action_mask()) == snap.mask, f"{what}: legal_action_mask differs", state)
    ctx.check(state.record() == snap.record, f"{what}: record differs", state)
    ctx.check(list(state.scores()) == snap.scores, f"{what}: scores differ", state)
    ctx.check(list(state.winners()) == snap.winners, f"{what}: winners differ", state)
    ctx.check(state.is_terminal() == snap.terminal, f"{what}: is_terminal differs", state)
    ctx.check(state.current_player == snap.player, f"{what}: current_player differs", state)


def _dict_diff(want: Any, got: Any) -> str:
    if isinstance(want, dict) and isinstance(got, dict):
        keys = sorted(set(want) | set(got), key=str)
        diffs = [
            f"{k!r}: {want.get(k, '<missing>')!r} -> {got.get(k, '<missing>')!r}"
            for k in keys
            if want.get(k) != got.get(k)
        ]
        return "; ".join(diffs[:5])
    return f"{want!r} -> {got!r}"


# -- the invariants --------------------------------------------------------------------------------


def check_actions(ctx: Context, state: State) -> None:
    """Legal actions: non-empty exactly while the game runs (then `current_player` is a seat, after
    it None and `winners()` non-empty), stable, no duplicates; the mask agrees; ids and notation
    round-trip through `action_id` / `action_from_id` / `parse_action`."""
    game = state.game
    legal = state.legal_actions()
    terminal = state.is_terminal()
    player = state.current_player
    if terminal:
        ctx.check(legal == [], f"terminal state has legal actions {legal!r}", state)
        ctx.check(player is None, f"terminal state has current_player {player!r}", state)
        ctx.check(len(state.winners()) > 0, "terminal state has no winners", state)
    else:
        ctx.check(len(legal) > 0, "non-terminal state without legal actions", state)
        ctx.check(
            isinstance(player, int) and not isinstance(player, bool) and 0 <= player < game.num_players,
            f"current_player {player!r} is not a seat",
            state,
        )
        ctx.check(list(state.winners()) == [], "winners() before the end", state)
    ctx.check(state.legal_actions() == legal, "legal_actions() is not stable between calls", state)
    for junk in (None, 42):
        try:
            game.action_id(junk)  # type: ignore[arg-type]
        except NotationError:
            pass
        else:
            ctx.fail(f"action_id({junk!r}) did not raise NotationError", state)
    ctx.check(len(set(legal)) == len(legal), f"duplicate legal actions {legal!r}", state)
    mask = list(state.legal_action_mask())
    ctx.check(len(mask) == game.num_actions, f"mask has length {len(mask)}, num_actions is {game.num_actions}", state)
    ids = {game.action_id(a) for a in legal}
    want = [1 if i in ids else 0 for i in range(game.num_actions)]
    ctx.check(mask == want, "legal_action_mask disagrees with legal_actions", state)
    for a in legal:
        ctx.check(isinstance(a, Action), f"{a!r} is not an Action", state)
        i = game.action_id(a)
        ctx.check(game.action_from_id(i) == a, f"action_from_id(action_id({a!r})) != {a!r}", state)
        ctx.check(game.parse_action(str(a)) == a, f"parse_action(str({a!r})) != {a!r}", state)
        ctx.check(game.action_id(str(a)) == i, f"action_id(str({a!r})) != {i}", state)
        ctx.check(hash(a) == hash(game.parse_action(str(a))), f"hash of {a!r} is not stable", state)


def check_views(ctx: Context, state: State) -> None:
    """Views are strict JSON (and survive json.dumps/loads), `view(None)` has an empty hand, no view
    names a card hidden from its seat (another seat's hand card not publicly shown) in any string,
    and the cards are conserved: hands + cards out of hand + unseen cards = the deck."""
    game = state.game
    n = game.num_players
    views = {s: state.view(s) for s in seats(game)}
    for s, v in views.items():
        ctx.check(isinstance(v, dict), f"view({s}) is not a dict", state)
        ctx.check(json_roundtrips(v), f"view({s}) is not strict JSON (json.loads(json.dumps(v)) != v)", state)
        hand = v.get("hand")
        ctx.check(
            isinstance(hand, list) and all(isinstance(c, str) for c in hand), f"view({s})['hand'] {hand!r}", state
        )
        ctx.check(len(set(hand)) == len(hand) or _deck_has_copies(game, ctx), f"view({s}) hand has duplicates", state)
    ctx.check(views[None]["hand"] == [], f"view(None) shows a hand: {views[None]['hand']!r}", state)
    hands = {s: views[s]["hand"] for s in range(n)}
    public = views[None]
    shown = set(ctx.adapter.shown_hand_cards(public))
    for s, v in views.items():
        secret: set[str] = set()
        for p in range(n):
            if p != s:
                secret.update(hands[p])
        if s is not None:
            secret -= set(hands[s])  # a card of which the game has copies is not secret from a holder
        secret -= shown
        leaked = secret & tokens_in(ctx.adapter.scan_view(v))
        ctx.check(not leaked, lambda s=s, leaked=leaked: f"view({s}) reveals hidden hand cards {sorted(leaked)}", state)
    if ctx.adapter.check_view is not None:
        for s, v in views.items():
            ctx.adapter.check_view(state, s, v, lambda m, s=s: ctx.fail(f"view({s}): {m}", state))
    # Conservation.
    deck = Counter(ctx.adapter.deck(game))
    held = Counter(c for p in range(n) for c in hands[p])
    out = Counter(ctx.adapter.out_of_hand(public))
    unseen = ctx.adapter.unseen_count(public)
    known = held + out
    ctx.check(
        not (known - deck), lambda: f"cards not in the deck or duplicated: {sorted((known - deck).elements())}", state
    )
    ctx.check(
        sum(known.values()) + unseen == sum(deck.values()),
        lambda: (
            f"cards not conserved: {sum(held.values())} in hands + {sum(out.values())} out + {unseen} unseen "
            f"!= {sum(deck.values())}; missing {sorted((deck - known).elements())}"
        ),
        state,
    )


def _deck_has_copies(game: Game, ctx: Context) -> bool:
    deck = list(ctx.adapter.deck(game))
    return len(set(deck)) != len(deck)


def check_scores(ctx: Context, state: State) -> None:
    """One score per seat, whole numbers; winners are seats, only at the end; game identities via the adapter."""
    game = state.game
    sc = list(state.scores())
    ctx.check(len(sc) == game.num_players, f"scores() has {len(sc)} entries for {game.num_players} players", state)
    ctx.check(all(isinstance(x, int) and not isinstance(x, bool) for x in sc), f"scores() {sc!r} not all ints", state)
    w = list(state.winners())
    ctx.check(all(isinstance(x, int) and 0 <= x < game.num_players for x in w), f"winners() {w!r}", state)
    ctx.check(len(set(w)) == len(w), f"winners() {w!r} has duplicates", state)
    ctx.check(bool(w) == state.is_terminal(), f"winners() {w!r} but is_terminal() is {state.is_terminal()}", state)
    if ctx.adapter.check_scores is not None:
        ctx.adapter.check_scores(state, lambda m: ctx.fail(m, state))


def check_position(ctx: Context, state: State) -> None:
    """Every per-position invariant (cheap enough to run after each action)."""
    check_actions(ctx, state)
    check_views(ctx, state)
    check_scores(ctx, state)


def check_apply_undo(ctx: Context, state: State, action: Action) -> None:
    """`apply(action)` then `undo()` restores the state exactly (==, all views, legal actions, record),
    and applying the notation string does the same as applying the Action."""
    snap = snapshot(state)
    by_text = state.clone()
    state.apply(action)
    by_text.apply(str(action))
    ctx.check(state == by_text, f"apply({str(action)!r}) differs from apply(Action)", state)
    ctx.check(len(state.record()["moves"]) > len(snap.record["moves"]), "apply did not extend the record", state)
    state.undo()
    assert_same(ctx, state, snap, f"apply({action}) + undo()")


def check_code(ctx: Context, state: State, e: IllegalActionError, attempt: Any) -> None:
    """Every refusal has a code of its own from the documented list (never the catch-all
    `illegal`) and params a client can read: a JSON object of plain values."""
    ctx.check(
        e.code in ILLEGAL_CODES and e.code != "illegal",
        lambda: f"IllegalActionError for {attempt!r} has code {e.code!r}, not one of ILLEGAL_CODES: {e}",
        state,
    )
    ctx.check(
        isinstance(e.params, dict) and json_roundtrips(e.params),
        lambda: f"IllegalActionError for {attempt!r}: params {e.params!r} are not a JSON object",
        state,
    )


def check_illegal(ctx: Context, state: State, rng: random.Random) -> None:
    """Every action id not in the legal list, and notation garbage, raise IllegalActionError (a
    StichkitError) with a message, and change nothing."""
    game = state.game
    snap = snapshot(state)
    legal_ids = {game.action_id(a) for a in snap.legal}
    for i in range(game.num_actions):
        if i in legal_ids:
            continue
        a = game.action_from_id(i)
        for attempt in (a, str(a)) if rng.random() < 0.5 else (a,):
            try:
                state.apply(attempt)
            except IllegalActionError as e:
                ctx.check(str(e).strip(), f"IllegalActionError for {attempt!r} has no message", state)
                check_code(ctx, state, e, attempt)
            else:
                ctx.fail(f"illegal action {attempt!r} (not in {[str(x) for x in snap.legal]}) was accepted", state)
            ctx.check(state == snap.copy, f"rejected {attempt!r} changed the state", state)
    known = {str(a).lower() for a in game_actions(game)}
    garbage: list[Any] = ["", " ", "?", "xyz", "Z9", "trump:", "trump:X", "rule:9999", "10", "\x00", "🂡", "push push"]
    garbage += [None, 42, 3.5, b"D7", ["D7"], Action(10**6, "bogus")]
    if snap.legal:
        a = snap.legal[0]
        garbage += [Action(game.action_id(a), str(a) + "x"), str(a) + str(a), str(a) + " x"]
    for g in garbage:
        if isinstance(g, str) and g.strip().lower() in known:
            continue
        try:
            state.apply(g)
        except IllegalActionError as e:
            ctx.check(str(e).strip(), f"IllegalActionError for {g!r} has no message", state)
            check_code(ctx, state, e, g)
        except Exception as e:  # any other exception type is the failure we report
            ctx.fail(f"apply({g!r}) raised {type(e).__name__}: {e}, not IllegalActionError", state)
        else:
            ctx.fail(f"garbage action {g!r} was accepted", state)
    assert_same(ctx, state, snap, "rejected illegal actions")


def game_actions(game: Game) -> list[Action]:
    return [game.action_from_id(i) for i in range(game.num_actions)]


def check_replay(
    ctx: Context, state: State, choose: Chooser | None = None, follow: int = 3, exact: bool = True
) -> None:
    """`replay(json.loads(json.dumps(state.record())))` reproduces the game: ==, the same views for
    every seat and the spectator, legal actions, scores, winners, record; and both continue alike."""
    rec = state.record()
    ctx.check(json_roundtrips(rec), "record() is not strict JSON", state)
    again = json.loads(json.dumps(rec))
    try:
        other = stichkit.replay(again)
    except StichkitError as e:
        ctx.fail(f"replay(record) raised {type(e).__name__}: {e}", state)
        raise
    assert_same(ctx, other, snapshot(state), "replay(record)", exact)
    if choose is None:
        return
    # Both go on alike, up to the next chance outcome: a record holds the chance outcomes so far,
    # not the random source, so a replayed game may deal its future differently.
    a, b = state.clone(), other
    chances = _chance_count(a)
    for _ in range(follow):
        if a.is_terminal():
            break
        act = choose(a.legal_actions())
        a.apply(act)
        b.apply(str(act))
        if _chance_count(a) != chances:
            break
        ctx.check(a == b, f"replayed state diverges after {act}", a)
        ctx.check(a.view(None) == b.view(None), f"replayed state's view diverges after {act}", a)


def check_from_seed(ctx: Context, state: State) -> None:
    """A game dealt from its seed passes `replay(record, from_seed=True)`; the same record with one
    chance outcome edited into another valid one does not (the first deal dealt again from
    another seed), while plain `replay` cannot tell."""
    rec = json.loads(json.dumps(state.record()))
    try:
        again = stichkit.replay(rec, from_seed=True)
    except StichkitError as e:
        ctx.fail(f"replay(record, from_seed=True) of a game dealt from its seed raised {e}", state)
        raise
    ctx.check(again == state, "replay(record, from_seed=True) != the game", state)
    other = state.game.new_state(seed=rec["seed"] + 1).record()["moves"][0]
    if other == rec["moves"][0]:
        return
    rec["moves"] = [other]
    rec.pop("result", None)
    try:
        stichkit.replay(rec, from_seed=True)
    except StichkitError:
        pass
    else:
        ctx.fail("replay(record, from_seed=True) accepted a first deal its seed does not give", state)


def _chance_count(state: State) -> int:
    return sum(1 for m in state.record()["moves"] if "chance" in m)


def check_clone(ctx: Context, state: State, choose: Chooser, steps: int = 4) -> None:
    """`clone()` is equal and independent: playing and undoing on the clone leaves the original as
    it was, and playing on the original leaves an earlier clone as it was."""
    snap = snapshot(state)
    c = state.clone()
    ctx.check(c == state and c.record() == snap.record, "clone() != original", state)
    played = 0
    for _ in range(steps):
        if c.is_terminal():
            break
        c.apply(choose(c.legal_actions()))
        played += 1
    # Undo one step further than the clone played: the undo stacks must not be shared either.
    for _ in range(played + 1):
        try:
            c.undo()
        except UndoError:
            break
    assert_same(ctx, state, snap, "after playing on a clone")
    if not state.is_terminal():
        c2 = state.clone()
        views = [c2.view(s) for s in seats(state.game)]
        state.apply(choose(state.legal_actions()))
        ctx.check(c2 == snap.copy, "playing on the original changed its clone", state)
        ctx.check(
            [c2.view(s) for s in seats(state.game)] == views, "playing on the original changed clone views", state
        )
        ctx.check(c2.record() == snap.record, "playing on the original changed the clone's record", state)
        state.undo()
        assert_same(ctx, state, snap, "clone check's apply + undo")


def check_sample_hidden(ctx: Context, state: State, seat: int, rng: random.Random, choose: Chooser) -> State:
    """`sample_hidden(seat, rng)` leaves the original alone and returns a state with the same
    `view(seat)`, the same hand sizes, current player, scores and (if `seat` moves) legal actions;
    it respects what `seat` knows (adapter: known voids), replays from its own record, and plays on
    legally to the end."""
    game = state.game
    snap = snapshot(state)
    s = state.sample_hidden(seat, rng)
    assert_same(ctx, state, snap, f"sample_hidden({seat}) on the original")
    ctx.check(s is not state, "sample_hidden returned the original state", state)
    ctx.notes.append(f"sample_hidden({seat}) gave hands {[s.view(p)['hand'] for p in range(game.num_players)]}")
    try:
        mine = s.view(seat)
        ctx.check(
            mine == snap.views[seat],
            lambda: f"sample changes view({seat}): {_dict_diff(snap.views[seat], mine)}",
            state,
        )
        for p in range(game.num_players):
            n0, n1 = len(snap.views[p]["hand"]), len(s.view(p)["hand"])
            ctx.check(n0 == n1, f"sample changes seat {p}'s hand size {n0} -> {n1}", state)
        ctx.check(s.current_player == snap.player, "sample changes current_player", state)
        ctx.check(s.is_terminal() == snap.terminal, "sample changes is_terminal", state)
        ctx.check(list(s.scores()) == snap.scores, "sample changes scores", state)
        if snap.player == seat:
            ctx.check(s.legal_actions() == snap.legal, "sample changes the sampling seat's legal actions", state)
        if ctx.adapter.check_sample is not None:
            ctx.adapter.check_sample(state, s, seat, lambda m: ctx.fail(f"sample_hidden({seat}): {m}", state))
        check_position(ctx, s)
        check_replay(ctx, s, exact=ctx.adapter.sample_replay_exact)
        end = s.clone()
        steps = 0
        while not end.is_terminal():
            legal = end.legal_actions()
            ctx.check(legal, "sampled state has no legal actions before the end", end)
            end.apply(choose(legal))
            steps += 1
            ctx.check(steps < 100_000, "sampled state does not end", end)
        check_position(ctx, end)
    finally:
        ctx.notes.pop()
    return s


def check_undo_chain(ctx: Context, state: State, history: Sequence[State]) -> None:
    """Undoing all the way back: after each undo the state equals the stored clone of that moment
    (==, views, legal actions, record); at the start `undo()` raises UndoError and changes nothing."""
    for k in range(len(history) - 1, -1, -1):
        state.undo()
        want = history[k]
        ctx.check(state == want, f"undo chain: state after undo back to step {k} differs", state)
        if k % 11 == 0 or k == len(history) - 1:
            assert_same(ctx, state, snapshot(want), f"undo chain back to step {k}")
    snap = snapshot(state)
    try:
        state.undo()
    except UndoError:
        pass
    else:
        ctx.fail("undo() at the start of the game did not raise UndoError", state)
    assert_same(ctx, state, snap, "undo() at the start")


def check_terminal(ctx: Context, state: State) -> None:
    """At the end: no legal actions, current_player None, winners; every action raises."""
    check_position(ctx, state)
    snap = snapshot(state)
    for a in game_actions(state.game):
        try:
            state.apply(a)
        except IllegalActionError:
            pass
        else:
            ctx.fail(f"{a} was accepted after the end", state)
    assert_same(ctx, state, snap, "actions after the end")
    rec = state.record()
    if "result" in rec:
        ctx.check(rec["result"].get("scores") == snap.scores, "record result scores differ from scores()", state)
        ctx.check(rec["result"].get("winners") == snap.winners, "record result winners differ from winners()", state)


@dataclass
class Rates:
    """How often each check runs, per action. `step`: position checks and apply/undo (1.0 = always;
    lower it for long games, where every check costs time linear in the game's length)."""

    step: float = 1.0
    illegal: float = 0.1
    replay: float = 0.05
    clone: float = 0.05
    sample: float = 0.03
    max_samples: int = 3
    undo_chain: bool = True


def check_random_game(
    game: Game,
    adapter: Adapter,
    seed: int,
    choose: Chooser,
    rng: random.Random,
    rates: Rates | None = None,
    max_steps: int = 20_000,
) -> State:
    """Play one whole game from `new_state(seed=seed)`, choosing actions with `choose`, and check
    every invariant on the way: position invariants after each action, apply/undo at each step,
    and (at the rates given, driven by `rng`) illegal actions, replay, clone, sample_hidden; at the
    end the terminal invariants, replay, sampling, and the undo chain back to the start."""
    rates = rates or Rates()
    ctx = Context(game, adapter, seed)
    state = game.new_state(seed=seed)
    ctx.check(state == game.new_state(seed=seed), "new_state(seed) is not reproducible", state)
    ctx.check(state.record() == game.new_state(seed=seed).record(), "new_state(seed) records differ", state)
    history: list[State] = []
    samples = 0
    steps = 0
    while not state.is_terminal():
        full = rng.random() < rates.step
        if full:
            check_position(ctx, state)
        if rng.random() < rates.illegal:
            check_illegal(ctx, state, rng)
        if rng.random() < rates.replay:
            check_replay(ctx, state, choose)
        if rng.random() < rates.clone:
            check_clone(ctx, state, choose)
        if samples < rates.max_samples and rng.random() < rates.sample:
            samples += 1
            check_sample_hidden(ctx, state, rng.randrange(game.num_players), rng, choose)
        action = choose(state.legal_actions())
        if full:
            check_apply_undo(ctx, state, action)
        if rates.undo_chain:
            history.append(state.clone())
        state.apply(action)
        steps += 1
        ctx.check(steps <= max_steps, f"game did not end within {max_steps} actions", state)
    check_terminal(ctx, state)
    check_replay(ctx, state)
    check_from_seed(ctx, state)
    check_illegal(ctx, state, rng)
    check_clone(ctx, state, choose)
    check_sample_hidden(ctx, state, rng.randrange(game.num_players), rng, choose)
    if rates.undo_chain:
        final = state.clone()
        check_undo_chain(ctx, state, history)
        ctx.check(state == game.new_state(seed=seed), "undo chain does not end at new_state(seed)", state)
        # Redo: the same actions lead to the same end.
        for m in final.record()["moves"]:
            if "action" in m:
                state.apply(m["action"])
        ctx.check(state == final, "re-applying the actions after the undo chain gives another end", state)
    return state
