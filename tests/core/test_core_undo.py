"""Undo barriers: the core's default errs on the side of a barrier, and Cacao's exact answer treats a worker
tile turned face up from the hidden hand as a reveal (the project rule: any action that turns a card face
up, looks, draws, shuffles or reveals is a barrier, the actor's own cards included)."""

from __future__ import annotations

import random
from typing import Any

import boardlab
from boardlab.core import Game, Rng, Score, State
from boardlab.games.cacao.rules import CacaoState


class _Peek(State):
    """A 2-seat game whose only action turns the other seat's hidden card face up; its determinization
    cannot tell which card it is (there is only one candidate), so a sampled test sees no reveal."""

    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(players, seed, options)
        self.card, self.shown = 7, False

    current_player = property(lambda self: None if self.shown else 0)  # type: ignore[assignment]
    is_over = property(lambda self: self.shown)  # type: ignore[assignment]

    def _legal_actions(self) -> list[Any]:
        return ["show"]

    def _apply(self, action: Any) -> None:
        self.shown = True

    def clone(self) -> _Peek:
        s = _Peek(self.num_players, self.seed, self.options)
        s.card, s.shown, s.history = self.card, self.shown, list(self.history)
        return s

    def scores(self) -> list[Score]:
        return [Score(0), Score(0)]

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"card": self.card if self.shown or seat == 1 else None}

    def snapshot(self) -> dict[str, Any]:
        return {"card": self.card, "shown": self.shown}

    def determinize(self, seat: int, rng: Rng) -> _Peek:
        return self.clone()


class _PeekGame(Game):
    name = "peek-test"
    titles = {"en": "Peek"}
    min_players = max_players = 2

    def _new_state(self, players: int, seed: int, options: dict[str, Any]) -> State:
        return _Peek(players, seed, options)

    def parse_action(self, state: State, text: str) -> Any:
        return text

    def num_distinct_actions(self, players: int) -> int:
        return 1

    def action_to_id(self, action: Any, players: int) -> int:
        return 0

    def id_to_action(self, action_id: int, players: int) -> Any:
        return "show"


_Peek.game = _PeekGame()


def test_core_default_undo_barrier_errs_on_the_side_of_a_barrier() -> None:
    """A game that does not answer exactly gets a barrier for every action, even where a sampled test
    finds nothing to object to."""
    from boardlab.core.visibility import reveals_or_draws

    game = _Peek.game
    before = game.new_game(2)
    after = before.clone()
    after.apply("show")
    assert not reveals_or_draws(before, "show", after), "the sampled test misses this reveal"
    assert game.undo_barrier(before, "show", after)


def test_cacao_placing_a_tile_from_the_hand_is_a_barrier() -> None:
    """Placing (or rebuilding, or discarding) a worker tile shows a tile of the hidden hand; a jungle fill
    that draws nothing and an activation choice inside the turn may still be undone."""
    game = boardlab.get_game("cacao")
    seen: dict[str, list[bool]] = {}
    for seed in range(4):
        s = boardlab.new_game("cacao", players=3, seed=seed)
        assert isinstance(s, CacaoState)
        rng = random.Random(seed)
        for _ in range(60):
            if s.is_over:
                break
            action = rng.choice(s.legal_actions())
            before = s.clone()
            s.apply(action)
            barrier = game.undo_barrier(before, action, s)
            seen.setdefault(action[0], []).append(barrier)
            if action[0] in ("place", "rebuild", "discard"):
                assert barrier, f"{action} showed a hand tile"
            if len(s.pile) != len(before.pile) or s.turn != before.turn:
                assert barrier, f"{action} drew a tile"
    assert all(seen["place"])
    assert not all(seen.get("fill", []) + seen.get("use", []) + seen.get("auto", [])), "nothing is undoable"
