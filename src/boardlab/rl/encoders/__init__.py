"""Hand-made observation tensors (#35), one per built-in game, read from `State.view(seat)` only (`encode`), so they
cannot leak what the seat may not see; `tensor`, what a learner's step builds, is that same vector, and where the
view's dicts cost most of a step (Cacao, Petrichor, Pocket Mars) it is read off the state itself, held equal to the
view's bit for bit by tests/rl/test_rl_tensor.py. Every feature has its own slot (the encoder's `layout` names
blocks that tile the vector: no hashing, no collisions) and lies in [0, 1]: counts are divided by the most they can
be, spatial boards are planes (one slot per cell and feature), and seats are rotated so that slot 0 is always the
observing seat. Games without one here (user-added games) keep the hashed encoding (`Game.encode_observation`,
core/encoding.py). The layouts are tabled in docs/research.md ("Observation tensors"); the shared machinery is
`kit.py`, each game's encoder its own module.
"""

from __future__ import annotations

from importlib import import_module

from .kit import Encoder, Layout
from .pocket_mars import PocketMarsEncoder

# game name -> "module:class" of its encoder, imported on first use (each reads its game's components)
BUILT_IN = {
    "pocket_mars": "pocket_mars:PocketMarsEncoder",
    "petrichor": "petrichor:PetrichorEncoder",
    "cacao": "cacao:CacaoEncoder",
    "cooper_island": "cooper_island:CooperIslandEncoder",
    "block_and_key": "block_and_key:BlockAndKeyEncoder",
}
ENCODERS: dict[str, Encoder | None] = {}


def encoder_for(game: str) -> Encoder | None:
    """The hand-made encoder of `game`, or None (the game's own `encode_observation` is used)."""
    if game not in ENCODERS:
        where = BUILT_IN.get(game)
        if where is None:
            ENCODERS[game] = None
        else:
            module, cls = where.split(":")
            ENCODERS[game] = getattr(import_module(f"{__name__}.{module}"), cls)()
    return ENCODERS[game]


__all__ = ["BUILT_IN", "Encoder", "Layout", "PocketMarsEncoder", "encoder_for"]
