"""What the learning interfaces share: utilities, action masks, observations, opponents, text.

Utilities are zero-sum: seat i gets `n * share_i - 1`, where share_i is its part of the win
(1 split among tied winners). Two players: win +1, loss -1, tie 0, as in PettingZoo's classic games.
A solo game is played against the game itself (an automaton, a target): `2 * share - 1`, so beating
it is +1 and losing -1 there too.
"""

from __future__ import annotations

from typing import Any

import numpy as np  # type: ignore[import-not-found, unused-ignore]  # a build without the rl extra

from boardlab.core import Agent, Game, State
from boardlab.core.action_split import SplitMoves


def utilities(state: State) -> list[float]:
    """Zero-sum terminal utility per seat (all 0 before the end)."""
    if not state.is_over:
        return [0.0] * state.num_players
    n = max(2, state.num_players)
    return [n * r - 1.0 for r in state.returns()]


ACTIONS = ("compact", "flat")


class ActionSpace:
    """The ids an agent chooses from. `compact` (the default): a game that declares an action split
    (`Game.action_split`, core/action_split.py) has its moves chosen in a few small steps, each an id
    below `size`; the same agent decides again until the move is whole. `flat`, and every game without a
    split: one id per move, the game's `action_to_id`. `depth` is the most steps a move takes."""

    def __init__(self, game: Game, players: int, actions: str = "compact") -> None:
        if actions not in ACTIONS:
            raise ValueError(f"actions must be one of {', '.join(ACTIONS)}, not {actions!r}")
        self.game, self.players = game, players
        self.split = game.action_split(players) if actions == "compact" else None
        self.size = self.split.size if self.split else game.num_distinct_actions(players)
        self.depth = self.split.depth if self.split else 1
        self.partial_size = (self.depth - 1) * self.size
        self._parts: dict[Any, tuple[int, ...]] = {}

    def parts(self, action: Any) -> tuple[int, ...]:
        """The ids that choose `action`, in order (remembered: a search meets the same moves again and again)."""
        got = self._parts.get(action)
        if got is None:
            if self.split is not None:
                got = self.split.parts(action)
            else:
                got = (self.game.action_to_id(action, self.players),)
            if len(self._parts) >= 100_000:
                self._parts.clear()
            self._parts[action] = got
        return got

    def describe(self, action_id: int) -> str:
        """An id as text: a sub-choice's token, or a flat id's move notation."""
        if self.split is not None:
            return self.split.describe(int(action_id))
        return str(self.game.id_to_action(int(action_id), self.players))

    def partial(self, prefix: tuple[int, ...]) -> np.ndarray:
        """The sub-choices made so far of a move not yet whole: a one-hot over the ids per step (`depth - 1`
        steps; all 0 when none is made, and always empty for a one-step space)."""
        out = np.zeros(self.partial_size, dtype=np.float32)
        for k, token in enumerate(prefix):
            out[k * self.size + token] = 1.0
        return out


class LegalTree:
    """One position's legal moves by their sub-choices, read off its whole legal list (every game, and every
    position a game's `Game.split_moves` does not answer): which ids may follow a prefix (exactly those some legal
    move continues with) and which move a whole sequence names (core.action_split.SplitMoves)."""

    def __init__(self, space: ActionSpace, state: State) -> None:
        known = space._parts.get  # the remembered parts first: a call of `parts` per legal move was half the mask
        self.moves: dict[tuple[int, ...], Any] = {}
        for a in state.legal_actions():
            self.moves[known(a) or space.parts(a)] = a
        self._under: dict[tuple[int, ...], list[tuple[int, ...]]] = {(): list(self.moves)}

    def under(self, prefix: tuple[int, ...]) -> list[tuple[int, ...]]:
        """The legal moves' parts that start with `prefix`: narrowed from the prefix one shorter (a step down the
        tree scans the moves left after the last choice, not every legal move again)."""
        got = self._under.get(prefix)
        if got is None:
            k, last = len(prefix) - 1, prefix[-1]
            got = [p for p in self.under(prefix[:-1]) if len(p) > k and p[k] == last]
            self._under[prefix] = got
        return got

    def options(self, prefix: tuple[int, ...]) -> list[int]:
        """The ids that may follow `prefix`, ascending (OpenSpiel's order)."""
        k = len(prefix)
        return sorted({p[k] for p in self.under(prefix) if len(p) > k})

    def move(self, parts: tuple[int, ...]) -> Any:
        return self.moves.get(parts)


class MoveTree:
    """One position's legal moves by their sub-choices, asked along the path a decision takes: from the game's
    own reading of the state (`Game.split_moves`) where it has one, else from the legal list (`LegalTree`). The
    ids after a prefix are found when first asked for (a random playout asks for one path of a position's tree,
    not all of it) and kept."""

    def __init__(self, space: ActionSpace, state: State) -> None:
        source = state.game.split_moves(state, space.split) if space.split is not None else None
        self.source: SplitMoves = source if source is not None else LegalTree(space, state)
        self._next: dict[tuple[int, ...], list[int]] = {}
        self._indices: dict[tuple[int, ...], np.ndarray] = {}
        self._masks: dict[tuple[int, ...], np.ndarray] = {}

    def options(self, prefix: tuple[int, ...]) -> list[int]:
        """The ids that may follow `prefix`, ascending (OpenSpiel's order)."""
        got = self._next.get(prefix)
        if got is None:
            got = self._next[prefix] = self.source.options(prefix)
        return got

    def move(self, parts: tuple[int, ...]) -> Any:
        """The legal move `parts` name whole, or None (call with an offered id last: None then means the move
        goes on)."""
        return self.source.move(parts)

    def indices(self, prefix: tuple[int, ...]) -> np.ndarray:
        """`options(prefix)` as an index array (a mask's writes: one numpy assignment from an array, not from a
        list converted at every step)."""
        got = self._indices.get(prefix)
        if got is None:
            got = np.array(self.options(prefix), dtype=np.intp)
            self._indices[prefix] = got
        return got

    def mask(self, prefix: tuple[int, ...], size: int) -> np.ndarray:
        """`indices(prefix)` as an int8 mask of `size` ids, made once per prefix (callers copy it: a copy costs a
        fraction of zeroing thousands of ids and writing the offered ones)."""
        got = self._masks.get(prefix)
        if got is None:
            got = np.zeros(size, dtype=np.int8)
            got[self.indices(prefix)] = 1
            self._masks[prefix] = got
        return got


class Decider:
    """A state and the sub-choices its current seat has made so far: the masks, the observation's partial
    block and the stepping that the PettingZoo and Gymnasium environments share."""

    def __init__(self, space: ActionSpace, state: State) -> None:
        self.space = space
        self.state = state
        self.prefix: tuple[int, ...] = ()
        self._tree: MoveTree | None = None
        self._seen: dict[int, np.ndarray] = {}  # per seat, this position's observation (the same at every sub-step)
        from .encoders import encoder_for

        self._encoder = encoder_for(state.game.name)  # looked up once, not at every position

    def tree(self) -> MoveTree:
        if self._tree is None:
            self._tree = MoveTree(self.space, self.state)
        return self._tree

    def moved(self) -> None:
        """Call after the state changed by a whole move made elsewhere (a bot's)."""
        self.prefix, self._tree = (), None
        self._seen.clear()

    def mask(self, seat: int) -> np.ndarray:
        """1 at the ids `seat` may choose now, 0 elsewhere (all 0 when another seat is to decide)."""
        if self.state.current_player == seat and not self.state.is_over:
            return self.tree().mask(self.prefix, self.space.size).copy()  # the caller may write in it
        return np.zeros(self.space.size, dtype=np.int8)

    def observation(self, seat: int) -> np.ndarray:
        """The seat's observation, then its move so far (`ActionSpace.partial`; 0s for the other seats)."""
        obs = self._seen.get(seat)
        if obs is None:  # built with room for the move so far (not a concatenation a step)
            enc, extra = self._encoder, self.space.partial_size
            obs = enc.tensor(self.state, seat, extra) if enc is not None else tensor(self.state, seat, extra)
            self._seen[seat] = obs
        out = obs.copy()  # the caller may write in it; the cache stays as it was
        if self.prefix and seat == self.state.current_player:
            start, size = len(out) - self.space.partial_size, self.space.size
            for k, token in enumerate(self.prefix):  # `ActionSpace.partial`, written in place
                out[start + k * size + token] = 1.0
        return out

    def choose(self, action_id: Any) -> bool | None:
        """Take one id: None if it is not offered now (nothing changes), True if it completed a move (applied
        to the state), False if the move goes on (the same seat decides again)."""
        try:
            token = int(action_id)
        except (TypeError, ValueError):
            return None
        if self.state.is_over or token not in self.tree().options(self.prefix):
            return None
        prefix = (*self.prefix, token)
        move = self.tree().move(prefix)
        if move is None:
            self.prefix = prefix
            return False
        # the move is one of this very state's `legal_actions` (the tree was built from them): `apply` would scan
        # that list again to check it
        self.state.apply_unchecked(move)
        self.moved()
        return True


def observation(state: State, seat: int) -> np.ndarray:
    """The seat's observation tensor (float32): the game's hand-made encoder (rl/encoders/) where it has one, else
    `Game.encode_observation` (the hashed view by default)."""
    return tensor(state, seat, 0)


def tensor(state: State, seat: int, extra: int) -> np.ndarray:
    """`observation`, then `extra` zeros. A hand-made encoder's `tensor` reads the state itself where the game's
    encoder has such a reading (equal, bit for bit, to `encode` of `State.observation_view`, the view less its text
    for people: tests/rl/test_rl_tensor.py), else that view."""
    from .encoders import encoder_for

    enc = encoder_for(state.game.name)
    if enc is not None:
        return enc.tensor(state, seat, extra)
    obs = np.asarray(state.game.encode_observation(state, seat), dtype=np.float32)
    return np.concatenate([obs, np.zeros(extra, dtype=np.float32)]) if extra else obs


def observation_size(game: Game, players: int) -> int:
    """Length of `observation`'s tensor for this game and player count."""
    from .encoders import encoder_for

    enc = encoder_for(game.name)
    return enc.size(players) if enc is not None else game.observation_size(players)


def observation_space_size(game: Game, players: int, space: ActionSpace) -> int:
    """Length of an environment's observation: the seat's tensor, then the move so far."""
    return observation_size(game, players) + space.partial_size


def plain_text(game: Game, state: State, seat: int | None, lang: str = "en") -> str:
    """The game's text picture for `seat` (None: a spectator) without console markup."""
    from rich.text import Text

    return Text.from_markup(game.render_text(state, seat, lang)).plain


def make_opponent(spec: str | Agent, seed: int) -> Agent:
    """A boardlab bot from a name: a kind or level (`greedy`, `hard`), `KIND:LEVEL` (`mcts:hard`) or
    `mcts:N` (N iterations per move, reproducible); an Agent object is used as it is."""
    from boardlab.bots import LEVELS, make_bot

    if not isinstance(spec, str):
        return spec
    kind, _, arg = spec.partition(":")
    if not arg:
        return make_bot(kind, seed)
    if arg in LEVELS:
        base = LEVELS[arg][0]
        if base != kind:
            raise ValueError(f"level {arg!r} is a {base} bot, not {kind}: write {base}:{arg} or {arg}")
        return make_bot(arg, seed)
    if arg.isdigit():
        return make_bot(kind, seed, iterations=int(arg))
    raise ValueError(f"cannot read opponent {spec!r}: use KIND, LEVEL, KIND:LEVEL or mcts:ITERATIONS")
