"""A bot's decision must not depend on what its seat cannot see.

Method: take a position, build a second *true* state that differs only in hidden information the
deciding seat cannot see (redealt directly here, not with the engine's `determinize`, so the test
does not trust the code under test), check that the seat's view is identical and the hidden parts
really differ, then ask two identically seeded bots. Their whole search statistics must be equal,
not just the chosen action (a chosen action often survives a leak by luck).

Why it can fail: if a bot peeked at the true state, or if `determinize` depended on the true hidden
values (as `LeakyToyGame` does), the samples and so the statistics would differ. The last test shows
the check does catch such a leak.
"""

from __future__ import annotations

import gc
import json
import sys
import types
from typing import Any

import pytest
from bots_toygame import ToyState, new_toy

from boardlab.bots import GreedyBot, MctsBot, make_bot
from boardlab.core import Game, Observation, Rng, State, games, get_game, observe
from boardlab.core.agent import UNSEEN
from boardlab.games.cacao.rules import CacaoState
from boardlab.games.pocket_mars.rules import PocketMarsState

BUDGET = {"greedy": {"samples": 3}, "mcts": {"iterations": 150}}


def positions(seed: int, leaky: bool = False) -> list[ToyState]:
    """Every decision point of one random game (both the leader's and the follower's decisions)."""
    state = new_toy(seed, leaky)
    rng = Rng(seed)
    out = []
    while not state.is_over:
        out.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    return out


def redeal_hidden(state: ToyState, seat: int, rng: Rng) -> ToyState:
    """The same position for `seat`, with everything `seat` cannot see dealt anew."""
    for _ in range(100):
        other = state.clone()
        for s in range(state.num_players):
            unseen = list(other.piles[s]) + ([] if s == seat else list(other.hands[s]))
            rng.shuffle(unseen)
            k = 0 if s == seat else len(other.hands[s])
            if s != seat:
                other.hands[s] = sorted(unseen[:k])
            other.piles[s] = unseen[k:]
        if other.snapshot() != state.snapshot():
            return other
    raise AssertionError("nothing hidden to redeal")


def decide(kind: str, state: State, seat: int) -> tuple[object, object]:
    bot = make_bot(kind, seed=42, **BUDGET[kind])
    action = bot.choose(observe(state, seat))
    stats = bot.last_stats if isinstance(bot, MctsBot) else bot.last_values if isinstance(bot, GreedyBot) \
        else None
    return action, stats


def checked_pairs(leaky: bool) -> list[tuple[ToyState, ToyState, int]]:
    pairs = []
    rng = Rng(99)
    for seed in (1, 2):
        for state in positions(seed, leaky):
            seat = state.current_player
            assert seat is not None
            if len(state.legal_actions()) < 2 or (not state.piles[1 - seat] and not state.piles[seat]):
                continue
            twin = redeal_hidden(state, seat, rng)
            assert twin.view(seat) == state.view(seat)
            assert twin.snapshot() != state.snapshot()
            pairs.append((state, twin, seat))
    assert len(pairs) >= 6
    return pairs


@pytest.mark.parametrize("kind", ["greedy", "mcts"])
def test_decision_ignores_hidden_information(kind: str) -> None:
    for state, twin, seat in checked_pairs(leaky=False):
        assert decide(kind, state, seat) == decide(kind, twin, seat), f"leak at {state.history}"


def test_the_check_catches_a_leaky_determinization() -> None:
    differing = sum(decide("mcts", state, seat) != decide("mcts", twin, seat)
                    for state, twin, seat in checked_pairs(leaky=True))
    assert differing >= 3


# -- what an observation object reaches ----------------------------------------------------------------
def reachable(root: object) -> list[object]:
    """Every object `root` reaches through references (gc.get_referents), as a bot holding it could: not
    through modules, classes or a function's globals (shared code, not the position), but through
    closures, defaults, bound methods, instance dicts and containers."""
    module_dicts = {id(m.__dict__) for m in list(sys.modules.values()) if m is not None}
    seen: set[int] = set()
    out: list[object] = []
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, (types.ModuleType, type, types.CodeType)) or id(obj) in module_dicts:
            continue
        out.append(obj)
        if isinstance(obj, types.FunctionType):
            refs: list[object] = [obj.__closure__, obj.__defaults__, obj.__kwdefaults__]
        else:
            refs = list(gc.get_referents(obj))
        stack.extend(r for r in refs if r is not None)
    return out


def reached_states(obs: Observation) -> list[tuple[str, str, int, list[str]]]:
    """The states an observation reaches, each as (type, full snapshot, seed, action log): all it holds."""
    states = [o for o in reachable(obs) if isinstance(o, State)]
    assert states, "the observation reaches no state: the walk is broken"
    return sorted((type(s).__name__, json.dumps(s.snapshot(), sort_keys=True), s.seed,
                   [str(a) for a in s.history]) for s in states)


def cacao_twin(s: CacaoState, seat: int, rng: Rng) -> CacaoState:
    """The same Cacao position with everything hidden from `seat` dealt differently (other hands, every
    worker pile order, the jungle pile order), without the engine's determinize."""
    t = s.clone()
    for p in range(t.num_players):
        if p == seat:
            rng.shuffle(t.decks[p])
            continue
        pool = t.hands[p] + t.decks[p]
        rng.shuffle(pool)
        k = len(t.hands[p])
        t.hands[p], t.decks[p] = sorted(pool[:k]), pool[k:]
    rng.shuffle(t.pile)
    t._legal = None
    return t


def pm_twin(s: PocketMarsState, seat: int, rng: Rng) -> PocketMarsState:
    """The same Pocket Mars position with the cards `seat` has not seen (in the others' hands and draft
    packets, the deck and the discard pile; prep-module backs are public, so those stay) permuted among
    their places; each place keeps who knows it (`seen`), as the knowledge model says."""
    t = s.clone()
    bit = 1 << seat
    zones = [t.hands[q] for q in range(t.nb) if q != seat] + [t.packets[q] for q in range(t.num_players)
                                                              if q != seat] + [t.discard, t.deck]
    slots = [(z, i) for z in zones for i, c in enumerate(z) if not t.seen[c] & bit]
    cards = [z[i] for z, i in slots]
    masks = [t.seen[c] for c in cards]
    rng.shuffle(cards)
    for (z, i), c, m in zip(slots, cards, masks, strict=True):
        z[i] = c
        t.seen[c] = m
    t._legal = None
    t._run()
    return t


def game_positions() -> list[tuple[State, State, int]]:
    """(true state, twin, seat): positions of Cacao and Pocket Mars (2p, 3p with the draft) where the
    twin looks the same to the seat but differs in hidden cards."""
    out: list[tuple[State, State, int]] = []
    rng = Rng(5)
    configs: list[tuple[str, int, dict[str, Any], int]] = [
        ("cacao", 3, {}, 25), ("pocket_mars", 2, {}, 40), ("pocket_mars", 3, {"draft": True}, 5),
        ("pocket_mars", 3, {"draft": True}, 30)]
    for name, players, options, moves in configs:
        s = get_game(name).new_game(players, 11, **options)
        for _ in range(moves):
            s.apply(rng.choice(s.legal_actions()))
        seat = s.current_player
        assert seat is not None
        t = cacao_twin(s, seat, rng) if isinstance(s, CacaoState) else pm_twin(s, seat, rng)  # type: ignore[arg-type]
        assert t.view(seat) == s.view(seat) and t.legal_actions() == s.legal_actions()
        assert t.snapshot() != s.snapshot(), "the twin must differ in hidden cards"
        out.append((s, t, seat))
    return out


def test_observation_reaches_nothing_of_the_true_state() -> None:
    """Walk everything an Observation object reaches: it holds no reference to the true state or any of
    its containers, no state it holds carries the true seed or action log, and what it holds is the same
    for two true states the seat cannot tell apart (so no hidden card of another seat can sit in its true
    place except by the chance any resampling has). Fails if `observe` keeps a clone of the true state."""
    for s, t, seat in game_positions():
        obs, twin_obs = observe(s, seat), observe(t, seat)
        objs = {id(o) for o in reachable(obs)}
        assert id(s) not in objs
        hidden = [v for v in vars(s).values() if isinstance(v, list) and v]  # hands, piles, deck, seen ...
        assert not [v for v in hidden if id(v) in objs], "the observation shares a container with the truth"
        reached = reached_states(obs)
        for _, _, seed, log in reached:
            assert seed != s.seed and all(a == UNSEEN for a in log) and len(log) == len(s.history)
        assert reached == reached_states(twin_obs), f"{s.game.name}: the observation depends on hidden cards"
        assert json.dumps(s.snapshot(), sort_keys=True) not in {r[1] for r in reached}
        # and it still samples exactly what the true state would: bots decide as before
        for k in range(3):
            assert obs.sample(Rng(k)).snapshot() == s.determinize(seat, Rng(k)).snapshot()


# -- server bots: thinking time must not tell the hand ----------------------------------------------------
def hold_positions() -> dict[int, tuple[tuple[str, ...], int, int]]:
    """Real Pocket Mars positions (2 players, from seeded random games) where the seat to move is asked
    an effect with a "you hold a card of colour X" condition: {number of options: (log, seed, seat)}.
    With one option (`skip`) the hand lacks the colour, with two (`do`, `skip`) it holds it; the question
    is asked either way (D7), so only the bot's timing could tell the two apart."""
    found: dict[int, tuple[tuple[str, ...], int, int]] = {}
    game = get_game("pocket_mars")
    for seed in range(200):
        s = game.new_game(2, seed)
        rng = Rng(seed)
        while not s.is_over and len(found) < 2:
            if game.decision_kind(s) == "hold":
                found.setdefault(len(s.legal_actions()), (tuple(str(a) for a in s.history), seed, s.current_player))
            s.apply(rng.choice(s.legal_actions()))
        if len(found) == 2:
            return found
    raise AssertionError("no hold decisions found")


def test_pocket_mars_decision_kinds() -> None:
    """Only the hold-condition questions have a hidden option count; turn actions and other questions
    offer options anyone can count. The core default paces every decision of a hidden-information game."""
    game = get_game("pocket_mars")
    s = game.new_game(3, 4)
    rng = Rng(4)
    kinds: dict[str | None, set[str]] = {}
    while not s.is_over:
        kinds.setdefault(game.decision_kind(s), set()).add(s.todo[-1][0])  # type: ignore[attr-defined]
        s.apply(rng.choice(s.legal_actions()))
    assert kinds.get("hold") == {"half"} and "turn" in kinds[None]
    assert Game.decision_kind(game, game.new_game(2, 1)) == "decision"


@pytest.mark.parametrize(("kind", "executor"), [("mcts", "thread"), ("greedy", "thread"), ("mcts", "process")])
def test_server_bot_reply_time_does_not_tell_the_option_count(kind: str, executor: str) -> None:
    """A server bot (BotRunner, the real worker code in a thread or process pool) answers a hold question with one
    option and one with two after the same time: `pace(kind)`, the budget plus a margin. Without pacing
    the one-option answer comes at once and the two-option one after the search (the issue: 7 of 7
    classified by timing)."""
    import asyncio
    import time

    from boardlab.server.bots import BotJob, BotRunner, _import_modules

    runner = BotRunner(workers=1, executor=executor, seconds=0.25)
    positions = hold_positions()
    if executor == "process":  # start the worker and import the games first: start-up is not thinking
        runner.pool.submit(_import_modules, ("boardlab.games",)).result()

    async def timed(n: int) -> float:
        log, seed, seat = positions[n]
        job = BotJob("pocket_mars", ("boardlab.games",), 2, seed, {}, log, seat, kind, 7, runner.seconds)
        start = time.perf_counter()
        await runner.choose(job)
        return time.perf_counter() - start

    try:
        times = {n: [asyncio.run(timed(n)) for _ in range(2)] for n in (1, 2)}
    finally:
        runner.close()
    pace = runner.pace("hold")
    for n, ts in times.items():
        for t in ts:
            assert pace - 0.01 <= t <= pace + 0.3, f"{n} option(s): replied after {t:.3f} s, pace {pace:.3f} s"
    assert abs(sum(times[1]) - sum(times[2])) / 2 < 0.15, times  # unpaced: about 0.25 s apart (mcts)


@pytest.mark.parametrize("name", games())
def test_observation_of_every_game_shares_nothing_with_the_true_state(name: str) -> None:
    """For every registered game, through the core: an Observation reaches neither the true state nor any
    object holding a hidden part of it (an attribute that determinizations resample: hands, deck orders,
    the generator), and every state it holds has the seed zeroed and, with hidden information, the
    action log masked."""
    game = get_game(name)
    rng = Rng(3)
    checked = 0
    for players in sorted({game.min_players, game.max_players}):
        s = game.new_game(players, 21)
        for _ in range(30):
            if s.is_over:
                break
            seat = s.current_player
            assert seat is not None
            objs = {id(o) for o in reachable(observe(s, seat))}
            samples = [vars(s.determinize(seat, Rng(k))) for k in range(4)]
            hidden = {k: v for k, v in vars(s).items() if not isinstance(v, (int, str, float, type(None)))
                      and any(k not in d or d[k] != v for d in samples)}
            checked += bool(hidden)
            assert id(s) not in objs
            truth = json.dumps(s.snapshot(), sort_keys=True)
            if all(json.dumps(s.determinize(seat, Rng(k)).snapshot(), sort_keys=True) != truth for k in range(4)):
                # something is hidden from the seat: no state the observation holds may be the truth
                assert truth not in {json.dumps(o.snapshot(), sort_keys=True) for o in reachable(observe(s, seat))
                                     if isinstance(o, State)}, "the observation holds the true position"
            assert not [k for k, v in hidden.items() if id(v) in objs], "the observation holds a hidden part"
            for state in (o for o in reachable(observe(s, seat)) if isinstance(o, State)):
                assert state.seed == 0
                assert not game.hidden_information or all(a == UNSEEN for a in state.history)
            s.apply(rng.choice(s.legal_actions()))
    assert checked, "no position had a hidden part: the test would prove nothing"
