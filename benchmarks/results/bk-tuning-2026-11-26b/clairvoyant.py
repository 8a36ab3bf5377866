"""Diagnostic for issue #8 (not a bot anyone plays): MCTS that sees the true state (every hand, the decks'
and the bag's order) against the honest greedy bot, on the same deals as the strength rows. It bounds what
better inference of hidden cards could add to the search at the same budget: if even a clairvoyant search is
not far ahead of greedy, the search and its evaluation are the limit, not the determinizations.

Only seats whose bot is named `mcts` get the true state; greedy keeps its honest observation. With
`CLAIR=hands` the search sees the others' hands and Enigma cards but not the order of the decks and the bag
(each determinization reshuffles those): what better inference of the opponent's hand could be worth at most.

    python benchmarks/results/bk-tuning-2026-11-26b/clairvoyant.py --game block_and_key --players 2 --games 40 \\
        --seed 14000000 --a mcts --a-options '{"iterations": 450}' --stream clairvoyant450.jsonl
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

import boardlab.bots.arena as arena
from boardlab.core import Agent, Observation, Rng, State, agent
from boardlab.games.block_and_key.rules import MOON, SUN, BlockAndKeyState

MODE = os.environ.get("CLAIR", "all")


def hands_known(state: State, rng: Rng) -> State:
    """The true state with only the decks' unseen order and the bag's order resampled."""
    assert isinstance(state, BlockAndKeyState)
    s = state.clone()
    for d in (SUN, MOON):
        deck = s.decks[d]
        rest = sorted(deck[s.known_bottom[d]:])
        rng.shuffle(rest)
        deck[s.known_bottom[d]:] = rest
    s.stars = sorted(s.stars)
    rng.shuffle(s.stars)
    s.rng = Rng(rng.next64())
    return s


_observe, _play_game = agent.observe, agent.play_game
_SEARCHERS: set[int] = set()  # the seats of the game being played whose bot is named `mcts`


def observe(state: State, seat: int) -> Observation:
    """The honest observation, with the sampler replaced for the searching seats."""
    obs = _observe(state, seat)
    if seat not in _SEARCHERS:
        return obs
    sampler = (lambda rng: state.clone()) if MODE == "all" else (lambda rng: hands_known(state, rng))
    return Observation(seat, obs.view, obs.legal_actions, sampler)


def play_game(state: State, agents: Sequence[Agent], max_decisions: int = 100_000) -> State:
    _SEARCHERS.clear()
    _SEARCHERS.update(s for s, a in enumerate(agents) if a.name.startswith("mcts"))
    return _play_game(state, agents, max_decisions)


agent.observe = observe  # `play_game` looks it up in its module
arena.play_game = play_game  # type: ignore[assignment]

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    import strength

    strength.main()
