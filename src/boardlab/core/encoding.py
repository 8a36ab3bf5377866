"""A generic fixed-length float encoding of a seat's view, for learning interfaces (boardlab.rl).

Why hashing: every game already says exactly what a seat may see (`State.view(seat)`, a JSON-able
dict), so encoding that dict gives any game - including ones added later - an observation tensor
that cannot leak hidden information, with no per-game code. The dict is flattened into named
features, and each name is hashed (CRC-32, stable across processes and Python versions) into one
of `size` slots with a hashed sign (the "hashing trick", Weinberger et al. 2009), so collisions
cancel on average instead of piling up:

* a number or bool at path `a.b` adds its value to the feature `a.b`;
* a string or null adds 1 to the feature `a.b=value`;
* a list adds its elements twice: under `a.b.*` (a bag, order-free, whatever its length) and, for the
  first `INDEXED` elements, under `a.b.0`, `a.b.1`, ... (positions, e.g. per-seat tables);
* a dict in a list whose values are all scalars (a tile at x, y; a card with its fields) also adds 1
  to one feature naming the whole record, so joint facts ("market2 at 1,1") survive the flattening.

Games may replace it with a hand-made encoding (`Game.encode_observation`).
"""

from __future__ import annotations

import json
import math
import zlib
from collections.abc import Iterator
from typing import Any

DEFAULT_SIZE = 2048
INDEXED = 8
_SCALARS = (str, int, float, bool, type(None))


def view_features(view: Any, path: str = "") -> Iterator[tuple[str, float]]:
    """(feature name, value) pairs of a JSON-able view; the same view always gives the same pairs."""
    if isinstance(view, dict):
        for key in sorted(view, key=str):
            yield from view_features(view[key], f"{path}.{key}" if path else str(key))
    elif isinstance(view, (list, tuple)):
        for i, item in enumerate(view):
            yield from view_features(item, f"{path}.*")
            if i < INDEXED:
                yield from view_features(item, f"{path}.{i}")
            if isinstance(item, dict) and item and all(isinstance(v, _SCALARS) for v in item.values()):
                yield f"{path}.*#" + json.dumps(item, sort_keys=True, separators=(",", ":")), 1.0
    elif isinstance(view, bool):
        yield path, 1.0 if view else 0.0
    elif isinstance(view, (int, float)):
        value = float(view)
        yield path, value if math.isfinite(value) else 0.0
    else:
        yield f"{path}={view}", 1.0


def hash_view(view: Any, size: int = DEFAULT_SIZE) -> list[float]:
    """The view as `size` floats (signed feature hashing of `view_features`; the same features, walked
    without generators because observations are encoded at every step of a learning loop)."""
    out = [0.0] * size
    crc = zlib.crc32

    def add(name: str, value: float) -> None:
        h = crc(name.encode("utf-8"))
        out[h % size] += value if h & 0x80000000 else -value

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            for key in sorted(node, key=str):
                walk(node[key], f"{path}.{key}" if path else str(key))
        elif isinstance(node, (list, tuple)):
            star = f"{path}.*"
            for i, item in enumerate(node):
                walk(item, star)
                if i < INDEXED:
                    walk(item, f"{path}.{i}")
                if isinstance(item, dict) and item and all(isinstance(v, _SCALARS) for v in item.values()):
                    add(f"{path}.*#" + json.dumps(item, sort_keys=True, separators=(",", ":")), 1.0)
        elif isinstance(node, bool):
            add(path, 1.0 if node else 0.0)
        elif isinstance(node, (int, float)):
            value = float(node)
            add(path, value if math.isfinite(value) else 0.0)
        else:
            add(f"{path}={node}", 1.0)

    walk(view, "")
    return out
