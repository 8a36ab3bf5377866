"""Cacao's component set, loaded from `components.json` (all official) or a user's file, validated."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from boardlab.core.components import Checker, load_json, load_packaged

JUNGLE_KINDS = ("plantation", "market", "gold", "water", "sun", "temple")


@dataclass(frozen=True)
class WorkerTileType:
    id: str
    edges: tuple[int, int, int, int]  # clockwise, starting at north in rotation 0
    per_colour: int
    removed: dict[int, int]  # player count -> tiles removed per colour
    provenance: str

    def rotations(self) -> tuple[int, ...]:
        """Rotations that give distinct tiles (1-1-1-1 has one)."""
        seen: dict[tuple[int, ...], int] = {}
        for r in range(4):
            seen.setdefault(self.rotated(r), r)
        return tuple(sorted(seen.values()))

    def rotated(self, rot: int) -> tuple[int, int, int, int]:
        """Workers facing N, E, S, W after `rot` clockwise quarter turns."""
        e = self.edges
        return (e[(0 - rot) % 4], e[(1 - rot) % 4], e[(2 - rot) % 4], e[(3 - rot) % 4])


@dataclass(frozen=True)
class JungleTileType:
    id: str
    kind: str
    value: int
    count: int
    removed_2p: int
    start: int
    provenance: str


@dataclass(frozen=True)
class Components:
    source: str
    workers: tuple[WorkerTileType, ...]
    jungle: tuple[JungleTileType, ...]
    water_track: tuple[int, ...]
    storage: int
    sun_max: int
    hand_size: int
    display_size: int
    temple_first: int
    temple_second: int
    worker_by_id: dict[str, WorkerTileType] = field(init=False, compare=False)
    jungle_by_id: dict[str, JungleTileType] = field(init=False, compare=False)
    rotations: dict[str, tuple[int, ...]] = field(init=False, compare=False)
    edges_at: dict[tuple[str, int], tuple[int, int, int, int]] = field(init=False, compare=False)
    kind_of: dict[str, str] = field(init=False, compare=False)  # jungle tile id -> kind (hot path)
    order_memo: dict[Any, tuple[int, ...]] = field(init=False, compare=False, repr=False)  # CacaoState.best_order

    def __post_init__(self) -> None:
        """Lookup tables for the hot path (legal move generation and placement)."""
        object.__setattr__(self, "worker_by_id", {w.id: w for w in self.workers})
        object.__setattr__(self, "jungle_by_id", {j.id: j for j in self.jungle})
        object.__setattr__(self, "rotations", {w.id: w.rotations() for w in self.workers})
        object.__setattr__(self, "edges_at", {(w.id, r): w.rotated(r) for w in self.workers for r in range(4)})
        object.__setattr__(self, "kind_of", {j.id: j.kind for j in self.jungle})
        object.__setattr__(self, "order_memo", {})

    def worker(self, ident: str) -> int:
        return self.workers.index(self.worker_by_id[ident])

    def jungle_index(self, ident: str) -> int:
        return self.jungle.index(self.jungle_by_id[ident])


def parse(doc: Any, source: str) -> Components:
    """Validate a component document and build the immutable component set."""
    c = Checker(source)
    if not isinstance(doc, dict):
        raise c.fail("top level", "expected a JSON object")
    workers = []
    wlist = c.field(doc, "worker_tiles", "top level", list)
    if not wlist:
        raise c.fail("worker_tiles", "needs at least one tile type")
    c.unique_ids(wlist, "worker_tiles")
    for i, w in enumerate(wlist):
        where = f"worker_tiles[{i}]"
        edges = c.field(w, "edges", where, list)
        if len(edges) != 4 or not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 4
                                      for x in edges):
            raise c.fail(f"{where}.edges", f"expected 4 worker counts 0..4, found {edges!r}")
        removed = c.field(w, "removed", where, dict)
        per_colour = c.int_field(w, "per_colour", where, 0, 50)
        rem: dict[int, int] = {}
        for n in ("2", "3", "4"):
            rem[int(n)] = c.int_field(removed, n, f"{where}.removed", 0, per_colour)
        workers.append(WorkerTileType(w["id"], tuple(edges), per_colour, rem, c.provenance(w, where)))
    for n in (2, 3, 4):
        if sum(w.per_colour - w.removed[n] for w in workers) <= 0:
            raise c.fail("worker_tiles", f"no worker tiles left for {n} players")
    jungle = []
    jlist = c.field(doc, "jungle_tiles", "top level", list)
    c.unique_ids(jlist, "jungle_tiles")
    for i, j in enumerate(jlist):
        where = f"jungle_tiles[{i}]"
        kind = c.field(j, "kind", where, str)
        if kind not in JUNGLE_KINDS:
            raise c.fail(f"{where}.kind", f"must be one of {', '.join(JUNGLE_KINDS)}, not {kind!r}")
        count = c.int_field(j, "count", where, 0, 100)
        start = c.int_field(j, "start", where, 0, count)
        jungle.append(JungleTileType(
            j["id"], kind, c.int_field(j, "value", where, 0, 100), count,
            c.int_field(j, "removed_2p", where, 0, count - start), start, c.provenance(j, where)))
    starts = [t for t in jungle for _ in range(t.start)]
    if len(starts) != 2 or {t.kind for t in starts} != {"plantation", "market"}:
        raise c.fail("jungle_tiles", "exactly two start tiles are needed: one plantation and one market")
    v = c.field(doc, "village", "top level", dict)
    track = c.field(v, "water_track", "village", list)
    if len(track) < 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in track):
        raise c.fail("village.water_track", "expected a list of at least 2 integers")
    tp = c.field(doc, "temple_points", "top level", dict)
    return Components(
        source=source, workers=tuple(workers), jungle=tuple(jungle), water_track=tuple(track),
        storage=c.int_field(v, "storage", "village", 1, 50), sun_max=c.int_field(v, "sun_max", "village", 1, 50),
        hand_size=c.int_field(v, "hand_size", "village", 1, 10),
        display_size=c.int_field(v, "display_size", "village", 0, 10),
        temple_first=c.int_field(tp, "first", "temple_points", 0, 100),
        temple_second=c.int_field(tp, "second", "temple_points", 0, 100),
    )


@lru_cache(maxsize=16)
def load(path: str = "") -> Components:
    """The official set (path "") or a user's file, validated. Cached: component sets are immutable."""
    if not path:
        return parse(load_packaged("boardlab.games.cacao", "components.json"), "cacao/components.json")
    return parse(load_json(path), path)
