"""Every registered game as an OpenSpiel Python game: `pyspiel.load_game("boardlab_cacao", {"players": 3})`.

>>> from boardlab.rl import openspiel
>>> game = openspiel.load("cacao", players=2, seed=7)   # registers every boardlab game, then loads
>>> state = game.new_initial_state()
>>> state.legal_actions()[:3]                              # doctest: +SKIP

Chance is *sampled stochastic* (declared as such): our states carry their own seeded generator and
resolve shuffles and draws inside `apply`, so there are no chance nodes. Deals are reproducible:
the game parameter `seed` fixes the first deal and each `new_initial_state()` takes the next one.
Utilities are zero-sum (`boardlab.rl.common.utilities`; solo games are general-sum).

Actions are compact (game parameter `actions`, default "compact"; `common.ActionSpace`): a move of a game with
an action split is chosen in a few OpenSpiel actions by the same player (Cacao: tile, column, row, rotation),
the legal actions at each exactly the sub-choices some legal move continues with; the observation shows the
choice so far (tensor: `ActionSpace.partial` after the view's tensor; strings: `| so far: ...`).
`max_game_length` counts these steps: the game's bound on moves times the most steps of one move.
`actions="flat"`: one id per move (`Game.action_to_id`).

Observation strings are the seat's view (JSON); information-state strings add, for perfect recall,
the seat's record of every action as it saw it (the notation when `Game.action_visible` says it
may read it, else "?"). The observation tensor is `common.observation` (the view only); the
information-state tensor is that, then a 64-bit digest of the information-state string (the view and the
whole record: two different information states never share a tensor, up to a 2^-64 chance), then the
seat's last `RECENT` decisions as features (`information_state_layout`): who acted, whether the seat could
read the action, and its id in binary. `resample_from_infostate(player, sampler)` is `State.determinize` (the seat's
information set only), so OpenSpiel's ISMCTS (`open_spiel.python.algorithms.ismcts`) runs on every game.

Serialisation: pyspiel serialises a Python state by pickling its attributes; ours pickle as the state's save
(seed and action log; a resampled state as where it was drawn from, the draw and the actions since), so
`state.serialize()` / `game.deserialize_state(text)` work for every game. OpenSpiel's C++
`SerializeGameAndState` also asks a sampled-stochastic game for `GetRNGState`, which pyspiel (2.0) does not
let a Python game supply: `get_rng_state`/`set_rng_state` (the next deal's seed) are used by this module's
`serialize_game_and_state`/`deserialize_game_and_state` instead, and the game parameter `fixed_deal=True`
gives the same game with every `new_initial_state()` dealing `seed`: no randomness left outside the state,
so it is declared deterministic, and OpenSpiel's own `random_sim_test(serialize=True)` runs on it.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import numpy as np
import pyspiel

from boardlab.core import Game, Rng, State, get_game
from boardlab.core import games as game_names

from .common import ActionSpace, MoveTree, observation, observation_space_size, utilities

PREFIX = "boardlab_"
_REGISTERED: set[str] = set()


def short_name(game: str) -> str:
    return PREFIX + game


def _game_type(g: Game, players: int | None = None, fixed_deal: bool = False) -> pyspiel.GameType:
    """The game's OpenSpiel type; with `players`, the type of that player count (solo is general-sum);
    `fixed_deal`: one deal for every initial state, so nothing random is left outside the state."""
    info = pyspiel.GameType.Information
    zero_sum = (players if players is not None else g.min_players) >= 2
    chance = pyspiel.GameType.ChanceMode
    return pyspiel.GameType(
        short_name=short_name(g.name),
        long_name=f"boardlab {g.title('en')}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance.DETERMINISTIC if fixed_deal else chance.SAMPLED_STOCHASTIC,
        information=info.IMPERFECT_INFORMATION if g.hidden_information else info.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=g.max_players,
        min_num_players=g.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": max(2, g.min_players), "seed": 0, "fixed_deal": False,
                                 "actions": "compact"},
    )


class BoardlabSpielGame(pyspiel.Game):
    """A boardlab game seen through OpenSpiel (one subclass per registered game)."""

    boardlab_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.bgame = get_game(self.boardlab_name)
        self.players = int(params.get("players", max(2, self.bgame.min_players)))
        self.next_seed = int(params.get("seed", 0))
        self.fixed_deal = bool(params.get("fixed_deal", False))
        self.bgame.new_game(self.players, 0)  # a bad player count fails here, with boardlab's message
        self.space = ActionSpace(self.bgame, self.players, str(params.get("actions", "compact")))
        self.layout = information_state_layout(self.bgame, self.players, self.space)
        self._deals: dict[int, _Shared] = {}  # the last initial positions dealt, by seed
        n = max(2, self.players)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size,
            max_chance_outcomes=0,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=float(n - 1),
            utility_sum=0.0 if self.players > 1 else None,
            max_game_length=self.bgame.max_game_length(self.players) * self.space.depth,
        )
        super().__init__(_game_type(self.bgame, self.players, self.fixed_deal), info, params)

    def new_initial_state(self) -> BoardlabSpielState:
        seed = self.next_seed
        if not self.fixed_deal:
            self.next_seed += 1
        deal = self._deals.get(seed)
        if deal is None:  # OpenSpiel's checks start thousands of states from one deal (fixed_deal=True)
            deal = self._deals[seed] = _Shared(self.bgame.new_game(self.players, seed))
            while len(self._deals) > 4:
                del self._deals[next(iter(self._deals))]
        state = BoardlabSpielState(self, deal.value)
        state._inner = deal.copy()  # the deal's own copy, with what was computed of it (`_Memo`)
        return state

    def get_rng_state(self) -> str:
        """The game's chance state: the seed of the next deal (OpenSpiel's GetRNGState)."""
        return str(self.next_seed)

    def set_rng_state(self, rng_state: str) -> None:
        try:
            self.next_seed = int(rng_state)
        except ValueError:
            raise ValueError(f"not a boardlab deal seed: {rng_state!r}") from None

    def state_from(self, inner: State) -> BoardlabSpielState:
        """Wrap a boardlab state (e.g. a position from a saved game); the seats' records start empty."""
        return BoardlabSpielState(self, inner.clone())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> BoardlabObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return BoardlabObserver(self.bgame, self.players, perfect_recall, self.space)


class _Memo:
    """What is computed once per position and shared by its copies: with compact actions a position stays through
    the sub-choices of a move, and OpenSpiel clones and serialises the state at each."""

    __slots__ = ("encoded", "save", "tree", "views")

    def __init__(self) -> None:
        self.encoded: dict[int, np.ndarray] = {}  # per seat, the observation tensor (both tensors use it)
        self.views: dict[int, str] = {}  # per seat, the view as JSON (both strings use it)
        self.tree: MoveTree | None = None  # the legal moves by sub-choices
        self.save: dict[str, Any] | None = None  # the save, as pickled


class _Shared:
    """The boardlab state inside a BoardlabSpielState, copied and pickled as a whole. pyspiel clones a Python state
    by deep-copying its attributes and serialises it by pickling them: `clone` is several times faster than a
    deep copy (Pocket Mars: most of `random_sim_test`), and a state pickles as its save (seed and action log,
    replayed when read back; some games' components cannot be pickled), a resampled one as the state it was drawn
    from, the sampler's draw and the actions played since (a determinized world has no log of its own)."""

    __slots__ = ("memo", "origin", "value")

    def __init__(self, value: State, origin: tuple[_Shared, int, float, int] | None = None) -> None:
        self.value = value
        self.origin = origin  # resampled: (the state it was drawn from, player, draw, decisions then)
        self.memo = _Memo()

    def moved(self) -> None:
        """The boardlab state changed in place: forget what was computed of the position before."""
        self.memo = _Memo()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self.copy()

    def copy(self) -> _Shared:
        out = _Shared(self.value.clone(), self.origin)
        out.memo = self.memo  # the same position: one memo for every copy (`moved` gives a changed state a new one)
        return out

    def __reduce__(self) -> tuple[Any, ...]:
        if self.origin is None:
            if self.memo.save is None:
                self.memo.save = self.value.to_json()
            return _restore, (self.memo.save, None)
        parent, player, u, start = self.origin
        return _restore, (None, (parent, player, u, start, [str(a) for a in self.value.history[start:]]))


def _determinize(state: State, player: int, u: float) -> State:
    return state.determinize(player, Rng(int(u * 2**53)))


_RESTORED: dict[str, _Shared] = {}  # the last saves read back: a position is serialised at each sub-choice of a move
_RESTORED_SIZE = 4


def _restore(save: dict[str, Any] | None, origin: tuple[_Shared, int, float, int, list[str]] | None) -> _Shared:
    """Unpickle a `_Shared` (see `_Shared.__reduce__`)."""
    if origin is None:
        assert save is not None
        key = json.dumps(save, sort_keys=True, default=str)
        known = _RESTORED.get(key)
        if known is None:
            known = _RESTORED[key] = _Shared(get_game(save["game"]).from_json(save))
            while len(_RESTORED) > _RESTORED_SIZE:
                del _RESTORED[next(iter(_RESTORED))]
        return known.copy()  # its caches (observations, strings, legal moves) too
    parent, player, u, start, after = origin
    inner = _determinize(parent.value, player, u)
    for text in after:
        inner.apply(inner.game.parse_action(inner, text))
    return _Shared(inner, (parent, player, u, start))


class BoardlabSpielState(pyspiel.State):
    """An OpenSpiel state holding a boardlab state (`inner`) and each seat's record of the actions."""

    @property
    def inner(self) -> State:
        return self._inner.value

    @inner.setter
    def inner(self, value: State) -> None:
        self._inner = _Shared(value)

    def __init__(self, game: BoardlabSpielGame, inner: State, records: list[list[str]] | None = None) -> None:
        super().__init__(game)
        self.inner = inner
        n = inner.num_players
        self.records = records if records is not None else [[] for _ in range(n)]
        # per seat, per decision: (actor, action id, or -1 when the seat could not read it)
        self.trace: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        self.prefix: tuple[int, ...] = ()  # the current player's sub-choices of a move not yet whole

    def current_player(self) -> int:
        p = self.inner.current_player
        return pyspiel.PlayerId.TERMINAL if p is None else int(p)

    def _tree(self) -> MoveTree:
        memo = self._inner.memo
        if memo.tree is None:
            memo.tree = MoveTree(self.get_game().space, self._inner.value)
        return memo.tree

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.inner.current_player or self.inner.is_over:
            return []
        return self._tree().options(self.prefix)

    def _apply_action(self, action: int) -> None:
        tree = self._tree()
        if int(action) not in tree.options(self.prefix):
            raise ValueError(f"action {action} is not legal here")
        parts = (*self.prefix, int(action))
        a = tree.move(parts)
        if a is None:  # the move goes on: the same player chooses its next part
            self.prefix = parts
            return
        inner = self.inner
        g, actor = inner.game, inner.current_player
        seen = [seat == actor or g.action_visible(inner, a, seat) for seat in range(inner.num_players)]
        for seat, record in enumerate(self.records):
            record.append(f"{actor}:{a}" if seen[seat] else f"{actor}:?")
        inner.apply(a)
        self.prefix = ()
        self._inner.moved()
        for seat, trace in enumerate(self.trace):
            trace.extend((actor, part if seen[seat] else -1) for part in parts)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.get_game().space.describe(int(action))

    def is_terminal(self) -> bool:
        return self.inner.is_over

    def returns(self) -> list[float]:
        return utilities(self.inner)

    def clone(self) -> BoardlabSpielState:
        out = BoardlabSpielState(self.get_game(), self.inner, [list(r) for r in self.records])
        out._inner = self._inner.copy()
        out.trace = [list(t) for t in self.trace]
        out.prefix = self.prefix
        return out

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> BoardlabSpielState:
        """A state `player_id` cannot tell from this one (State.determinize); every seat's record is
        replaced by `player_id`'s own, so nothing the player did not see travels into the sample."""
        u = float(probability_sampler())
        inner = _determinize(self.inner, player_id, u)
        mine = self.records[player_id]
        world = BoardlabSpielState(self.get_game(), inner, [list(mine) for _ in self.records])
        world.trace = [list(self.trace[player_id]) for _ in self.trace]
        world.prefix = self.prefix if player_id == self.inner.current_player else ()
        here = _Shared(self.inner.clone(), self._inner.origin)  # this state goes on; the world keeps where it began
        world._inner.origin = (here, player_id, u, len(inner.history))
        return world

    def __str__(self) -> str:
        return json.dumps(self.inner.snapshot(), sort_keys=True, default=str)


RECENT = 16


def information_state_layout(game: Game, players: int, space: ActionSpace | None = None) -> dict[str, int]:
    """The information-state tensor's parts, in order: the observation tensor (`observation` floats: the view's,
    then the move so far); 64 bits, a digest of the information-state string; then the seat's last `RECENT`
    decisions (sub-choices of whole moves), the latest first, each `block` floats: who acted (one-hot over the
    seats), whether the seat could read the action, and the action id in `id_bits` bits (0s when it could not).
    Decisions not yet played are all 0."""
    space = space or ActionSpace(game, players)
    id_bits = max(1, (space.size - 1).bit_length())
    block = players + 1 + id_bits
    obs = observation_space_size(game, players, space)
    return {"observation": obs, "digest": 64, "recent": RECENT, "id_bits": id_bits, "block": block,
            "size": obs + 64 + RECENT * block}


def _bits(value: int, width: int) -> list[float]:
    """`value` in binary, least significant bit first."""
    return [float((value >> i) & 1) for i in range(width)]


class BoardlabObserver:
    """OpenSpiel's PyObserver: the observation tensor is common.observation and the string the view; with
    perfect recall the string adds the seat's record and the tensor its digest and recent decisions
    (`information_state_layout`)."""

    def __init__(self, game: Game, players: int, perfect_recall: bool, space: ActionSpace | None = None) -> None:
        self.game = game
        self.players = players
        self.perfect_recall = perfect_recall
        self.space = space or ActionSpace(game, players)
        self.layout = information_state_layout(game, players, self.space)
        size = self.layout["size"] if perfect_recall else self.layout["observation"]
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: BoardlabSpielState, player: int) -> None:
        lay = self.layout
        obs = lay["observation"]
        t = self.tensor
        cache = state._inner.memo.encoded
        if player not in cache:
            cache[player] = observation(state.inner, player)
        view = len(cache[player])
        t[:view] = cache[player]
        if obs > view:
            t[view:obs] = self.space.partial(state.prefix if player == state.inner.current_player else ())
        if not self.perfect_recall:
            return
        digest = hashlib.blake2b(self.string_from(state, player).encode(), digest_size=8).digest()
        t[obs:obs + 64] = _bits(int.from_bytes(digest, "little"), 64)
        t[obs + 64:] = 0.0
        n, bits, block = self.players, lay["id_bits"], lay["block"]
        for k, (actor, action_id) in enumerate(reversed(state.trace[player][-RECENT:])):
            at = obs + 64 + k * block
            t[at + actor] = 1.0
            if action_id >= 0:
                t[at + n] = 1.0
                t[at + n + 1:at + block] = _bits(action_id, bits)

    def string_from(self, state: BoardlabSpielState, player: int) -> str:
        views = state._inner.memo.views
        if player not in views:
            views[player] = json.dumps(state.inner.view(player), sort_keys=True, separators=(",", ":"), default=str)
        view = views[player]
        if state.prefix and player == state.inner.current_player:
            view += " | so far: " + ", ".join(self.space.describe(t) for t in state.prefix)
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


def apply_move(state: BoardlabSpielState, action: Any) -> None:
    """Play a whole boardlab move (e.g. a boardlab bot's choice) as the OpenSpiel actions that name it."""
    for part in state.get_game().space.parts(action):
        state.apply_action(part)


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


def load(game: str, players: int = 2, seed: int = 0, fixed_deal: bool = False,
         actions: str = "compact") -> pyspiel.Game:
    """`pyspiel.load_game("boardlab_GAME", {"players": players, "seed": seed, ...})` after registering."""
    register_all()
    return pyspiel.load_game(short_name(game), {"players": players, "seed": seed, "fixed_deal": fixed_deal,
                                                "actions": actions})


def serialize_game_and_state(game: BoardlabSpielGame, state: BoardlabSpielState) -> str:
    """`pyspiel.serialize_game_and_state`'s text for a boardlab game, with the `[GameRNGState]` section pyspiel
    cannot ask a Python game for (the next deal's seed); the state part is pyspiel's own `state.serialize()`."""
    return (f"# Automatically generated by OpenSpiel SerializeGameAndState\n[Meta]\nVersion: 1\n\n"
            f"[Game]\n{game}\n[GameRNGState]\n{game.get_rng_state()}\n[State]\n{state.serialize()}\n")


def deserialize_game_and_state(text: str) -> tuple[BoardlabSpielGame, BoardlabSpielState]:
    """The game (its next deal included) and the state `serialize_game_and_state` wrote."""
    sections: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1]
            sections[current] = []
        elif current is not None and line:
            sections[current].append(line)
    try:
        register_all()
        game = pyspiel.load_game("\n".join(sections["Game"]))
        state = game.deserialize_state("\n".join(sections["State"]))  # pyspiel starts it from new_initial_state()
        game.set_rng_state("\n".join(sections["GameRNGState"]))  # so the next deal is set after it
        return game, state
    except KeyError as e:
        raise ValueError(f"not a serialised game and state: no {e} section") from None
