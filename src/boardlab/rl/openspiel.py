"""Every registered game as an OpenSpiel Python game: `pyspiel.load_game("boardlab_cacao", {"players": 3})`.

>>> from boardlab.rl import openspiel
>>> game = openspiel.load("cacao", players=2, seed=7)   # registers every boardlab game, then loads
>>> state = game.new_initial_state()
>>> state.legal_actions()[:3]                              # doctest: +SKIP

Chance is *sampled stochastic* (declared as such): our states carry their own seeded generator and
resolve shuffles and draws inside `apply`, so there are no chance nodes. Deals are reproducible:
the game parameter `seed` fixes the first deal and each `new_initial_state()` takes the next one.
Utilities are zero-sum (`boardlab.rl.common.utilities`; solo games are general-sum).

Observation strings are the seat's view (JSON); information-state strings add, for perfect recall,
the seat's record of every action as it saw it (the notation when `Game.action_visible` says it
may read it, else "?"). Both tensors are `Game.encode_observation` (built from the view only).
`resample_from_infostate(player, sampler)` is `State.determinize` (the seat's information set only),
so OpenSpiel's ISMCTS (`open_spiel.python.algorithms.ismcts`) runs on every game.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from boardlab.core import Game, Rng, State, get_game
from boardlab.core import games as game_names

from .common import legal_ids, utilities

PREFIX = "boardlab_"
_REGISTERED: set[str] = set()


def short_name(game: str) -> str:
    return PREFIX + game


def _game_type(g: Game, players: int | None = None) -> pyspiel.GameType:
    """The game's OpenSpiel type; with `players`, the type of that player count (solo is general-sum)."""
    info = pyspiel.GameType.Information
    zero_sum = (players if players is not None else g.min_players) >= 2
    return pyspiel.GameType(
        short_name=short_name(g.name),
        long_name=f"boardlab {g.title('en')}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=info.IMPERFECT_INFORMATION if g.hidden_information else info.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=g.max_players,
        min_num_players=g.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": max(2, g.min_players), "seed": 0},
    )


class BoardlabSpielGame(pyspiel.Game):
    """A boardlab game seen through OpenSpiel (one subclass per registered game)."""

    boardlab_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.bgame = get_game(self.boardlab_name)
        self.players = int(params.get("players", max(2, self.bgame.min_players)))
        self.next_seed = int(params.get("seed", 0))
        self.bgame.new_game(self.players, 0)  # a bad player count fails here, with boardlab's message
        n = max(2, self.players)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.bgame.num_distinct_actions(self.players),
            max_chance_outcomes=0,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=float(n - 1),
            utility_sum=0.0 if self.players > 1 else None,
            max_game_length=self.bgame.max_game_length(self.players),
        )
        super().__init__(_game_type(self.bgame, self.players), info, params)

    def new_initial_state(self) -> BoardlabSpielState:
        seed, self.next_seed = self.next_seed, self.next_seed + 1
        return BoardlabSpielState(self, self.bgame.new_game(self.players, seed))

    def state_from(self, inner: State) -> BoardlabSpielState:
        """Wrap a boardlab state (e.g. a position from a saved game); the seats' records start empty."""
        return BoardlabSpielState(self, inner.clone())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> BoardlabObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return BoardlabObserver(self.bgame, self.players, perfect_recall)


class BoardlabSpielState(pyspiel.State):
    """An OpenSpiel state holding a boardlab state (`inner`) and each seat's record of the actions."""

    def __init__(self, game: BoardlabSpielGame, inner: State, records: list[list[str]] | None = None) -> None:
        super().__init__(game)
        self.inner = inner
        self.records = records if records is not None else [[] for _ in range(inner.num_players)]

    def current_player(self) -> int:
        p = self.inner.current_player
        return pyspiel.PlayerId.TERMINAL if p is None else int(p)

    def _legal_actions(self, player: int) -> list[int]:
        return legal_ids(self.inner) if player == self.inner.current_player else []

    def _apply_action(self, action: int) -> None:
        inner = self.inner
        g, actor = inner.game, inner.current_player
        a = g.id_to_action(int(action), inner.num_players)
        for seat, record in enumerate(self.records):
            seen = seat == actor or g.action_visible(inner, a, seat)
            record.append(f"{actor}:{a}" if seen else f"{actor}:?")
        inner.apply(a)

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.inner.game.id_to_action(int(action), self.inner.num_players))

    def is_terminal(self) -> bool:
        return self.inner.is_over

    def returns(self) -> list[float]:
        return utilities(self.inner)

    def clone(self) -> BoardlabSpielState:
        return BoardlabSpielState(self.get_game(), self.inner.clone(), [list(r) for r in self.records])

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> BoardlabSpielState:
        """A state `player_id` cannot tell from this one (State.determinize); every seat's record is
        replaced by `player_id`'s own, so nothing the player did not see travels into the sample."""
        seed = int(probability_sampler() * 2**53)
        inner = self.inner.determinize(player_id, Rng(seed))
        mine = self.records[player_id]
        return BoardlabSpielState(self.get_game(), inner, [list(mine) for _ in self.records])

    def __str__(self) -> str:
        return json.dumps(self.inner.snapshot(), sort_keys=True, default=str)


class BoardlabObserver:
    """OpenSpiel's PyObserver: tensor = Game.encode_observation, string = the view (+ the record)."""

    def __init__(self, game: Game, players: int, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(game.observation_size(players), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: BoardlabSpielState, player: int) -> None:
        self.tensor[:] = self.game.encode_observation(state.inner, player)

    def string_from(self, state: BoardlabSpielState, player: int) -> str:
        view = json.dumps(state.inner.view(player), sort_keys=True, separators=(",", ":"), default=str)
        if not self.perfect_recall:
            return view
        return f"seat {player} {view} | {' '.join(state.records[player])}"


class BoardlabEvaluator:
    """An OpenSpiel MCTS/ISMCTS evaluator that plays like boardlab's own search: a random playout of at
    most `depth` decisions, then the game's heuristic (`Game.evaluate`, which sees only what each seat
    may see) squashed to utilities by tanh over the RMS of the evaluations met so far (no per-game
    constant). Plug it into `ismcts.ISMCTSBot(game, BoardlabEvaluator(), ...)` in place of
    `RandomRolloutEvaluator`."""

    def __init__(self, depth: int = 12, random_state: np.random.RandomState | None = None) -> None:
        self.depth = depth
        self.rs = random_state or np.random.RandomState()
        self._sq = 0.0
        self._n = 0

    def evaluate(self, state: BoardlabSpielState) -> np.ndarray:
        s = state.inner.clone()
        for _ in range(self.depth):
            if s.is_over:
                break
            legal = s.legal_actions()
            s.apply(legal[self.rs.randint(len(legal))])
        if s.is_over:
            return np.asarray(utilities(s), dtype=np.float64)
        g = s.game
        values = [g.evaluate(s, p) for p in range(s.num_players)]
        for v in values:
            self._sq += v * v
            self._n += 1
        scale = max(1e-9, (self._sq / self._n) ** 0.5)
        out = np.tanh(np.asarray(values, dtype=np.float64) / scale)
        if s.num_players == 1:
            return out
        return np.clip(out - out.mean(), -1.0, s.num_players - 1.0)  # zero-sum-like, in the utilities' range

    def prior(self, state: BoardlabSpielState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def register_all() -> list[str]:
    """Register every boardlab game with OpenSpiel (once); the OpenSpiel names."""
    for name in game_names():
        if name in _REGISTERED:
            continue
        g = get_game(name)
        cls = type(f"BoardlabSpiel_{name}", (BoardlabSpielGame,), {"boardlab_name": name})
        pyspiel.register_game(_game_type(g), cls)
        _REGISTERED.add(name)
    return [short_name(n) for n in sorted(_REGISTERED)]


def load(game: str, players: int = 2, seed: int = 0) -> pyspiel.Game:
    """`pyspiel.load_game("boardlab_GAME", {"players": players, "seed": seed})` after registering."""
    register_all()
    return pyspiel.load_game(short_name(game), {"players": players, "seed": seed})
