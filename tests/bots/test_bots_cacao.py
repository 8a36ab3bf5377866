"""Bots on Cacao: legal moves only, reproducible, and blind to what the deciding seat cannot see."""

from __future__ import annotations

import pytest

import boardlab
from boardlab.bots import GreedyBot, MctsBot, make_bot
from boardlab.core import Action, Observation, Rng, State, observe, play_game

FAST = {"random": {}, "greedy": {"samples": 2}, "mcts": {"iterations": 25}}


class Checked:
    """A bot that fails the test at once if it ever returns an illegal action."""

    def __init__(self, kind: str, seed: int) -> None:
        self.agent = make_bot(kind, seed, **FAST[kind])
        self.name = kind

    def choose(self, obs: Observation) -> Action:
        action = self.agent.choose(obs)
        assert action in obs.legal_actions, f"{self.name} chose illegal {action}"
        return action


@pytest.mark.parametrize("kind", ["random", "greedy", "mcts"])
def test_bots_play_whole_cacao_games_legally_and_reproducibly(kind: str) -> None:
    histories = []
    for _ in range(2):
        state = play_game(boardlab.new_game("cacao", players=2, seed=4),
                          [Checked(kind, 1), Checked("random", 2)])
        assert state.is_over
        histories.append([str(a) for a in state.history])
    assert histories[0] == histories[1]


def redeal_hidden(state: State, seat: int, rng: Rng) -> State:
    """The same Cacao position for `seat`, with what it cannot see dealt anew, built directly (not
    with the engine's `determinize`, which is part of what is under test): the other players' hands
    and worker piles, the order of the seat's own worker pile and the order of the jungle pile."""
    twin = state.clone()
    for p in range(state.num_players):
        if p == seat:
            rng.shuffle(twin.decks[p])
        else:
            pool = twin.hands[p] + twin.decks[p]
            rng.shuffle(pool)
            k = len(twin.hands[p])
            twin.hands[p], twin.decks[p] = sorted(pool[:k]), pool[k:]
    rng.shuffle(twin.pile)
    return twin


def cacao_positions() -> list[tuple[State, State, int]]:
    """Decision points of a random game across all phases (placing, filling, resolving, by either
    seat), each with a twin that differs from it only in what the deciding seat cannot see."""
    state = boardlab.new_game("cacao", players=2, seed=11)
    rng = Rng(3)
    out: list[tuple[State, State, int]] = []
    phases: set[str] = set()
    step = 0
    while not state.is_over and len(out) < 10:
        seat = state.current_player
        assert seat is not None
        if len(state.legal_actions()) > 1 and (step % 7 == 0 or state.phase not in phases):
            twin = redeal_hidden(state, seat, rng)
            assert twin.view(seat) == state.view(seat)
            if twin.snapshot() != state.snapshot():
                out.append((state.clone(), twin, seat))
                phases.add(state.phase)
        state.apply(rng.choice(state.legal_actions()))
        step += 1
    assert {"place", "fill"} <= phases, phases
    return out


def decide(kind: str, state: State, seat: int) -> tuple[object, object]:
    bot = make_bot(kind, seed=5, **({"iterations": 80} if kind == "mcts" else {"samples": 3}))
    action = bot.choose(observe(state, seat))
    stats = bot.last_stats if isinstance(bot, MctsBot) else bot.last_values if isinstance(bot, GreedyBot) \
        else None
    return action, stats


@pytest.mark.parametrize("kind", ["greedy", "mcts"])
def test_cacao_decisions_ignore_hidden_information(kind: str) -> None:
    positions = cacao_positions()
    assert len(positions) >= 6
    for state, twin, seat in positions:
        assert decide(kind, state, seat) == decide(kind, twin, seat), f"leak at move {len(state.history)}"


def test_check_catches_a_determinization_that_uses_the_true_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """Power check: with pools shuffled from their true order (the sort removed), samples depend on
    the hidden deal and the search statistics must differ between the twins."""
    from boardlab.games.cacao import CacaoState

    def leaky(self: CacaoState, seat: int, rng: Rng) -> CacaoState:
        s = self.clone()
        for p in range(self.num_players):
            pool = s.decks[p] if p == seat else s.hands[p] + s.decks[p]
            pool = list(pool)
            rng.shuffle(pool)
            k = 0 if p == seat else len(s.hands[p])
            if p != seat:
                s.hands[p] = sorted(pool[:k])
            s.decks[p] = pool[k:]
        rng.shuffle(s.pile)
        return s

    positions = cacao_positions()
    monkeypatch.setattr(CacaoState, "determinize", leaky)
    differing = sum(decide("mcts", state, seat) != decide("mcts", twin, seat)
                    for state, twin, seat in positions)
    assert differing >= len(positions) // 2
