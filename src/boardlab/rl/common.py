"""What the learning interfaces share: utilities, action masks, observations, opponents, text.

Utilities are zero-sum: seat i gets `n * share_i - 1`, where share_i is its part of the win
(1 split among tied winners). Two players: win +1, loss -1, tie 0, as in PettingZoo's classic games.
A solo game is played against the game itself (an automaton, a target): `2 * share - 1`, so beating
it is +1 and losing -1 there too.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardlab.core import Agent, Game, State


def utilities(state: State) -> list[float]:
    """Zero-sum terminal utility per seat (all 0 before the end)."""
    if not state.is_over:
        return [0.0] * state.num_players
    n = max(2, state.num_players)
    return [n * r - 1.0 for r in state.returns()]


def legal_ids(state: State) -> list[int]:
    """The integer ids of the legal actions, ascending (OpenSpiel's order)."""
    game, n = state.game, state.num_players
    return sorted(game.action_to_id(a, n) for a in state.legal_actions())


def action_mask(state: State, seat: int, size: int) -> np.ndarray:
    """1 at the ids `seat` may play now, 0 elsewhere (all 0 when another seat is to decide)."""
    mask = np.zeros(size, dtype=np.int8)
    if state.current_player == seat:
        mask[legal_ids(state)] = 1
    return mask


def observation(state: State, seat: int) -> np.ndarray:
    """The seat's observation tensor (float32), built from its view only: the game's hand-made encoder
    (rl/encoders/) where it has one, else `Game.encode_observation` (the hashed view by default)."""
    from .encoders import encoder_for

    enc = encoder_for(state.game.name)
    if enc is not None:
        return enc.encode(state.view(seat), state.num_players)
    return np.asarray(state.game.encode_observation(state, seat), dtype=np.float32)


def observation_size(game: Game, players: int) -> int:
    """Length of `observation`'s tensor for this game and player count."""
    from .encoders import encoder_for

    enc = encoder_for(game.name)
    return enc.size(players) if enc is not None else game.observation_size(players)


def action_from_id(state: State, action_id: int) -> Any:
    """The game action with this id, or None if the id is out of range or not a legal action now."""
    game = state.game
    try:
        action = game.id_to_action(int(action_id), state.num_players)
    except Exception:
        return None
    return action if action in state.legal_actions() else None


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
