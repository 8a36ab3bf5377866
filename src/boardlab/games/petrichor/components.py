"""Petrichor components (`components.json`, or a user's JSON/TOML file with the same shape), validated
with errors that name the file, the entry and the field.

Weathers are numbered in the cycle order Frost 0, Sun 1, Wind 2, Rain 3 (the vote "next weather" is
+1 mod 4). Players' cells are named by column letter and row number (`B2`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from boardlab.core.components import Checker, load_json, load_packaged

PACKAGE = "boardlab.games.petrichor"
WEATHERS = ("frost", "sun", "wind", "rain")
LETTERS = "FSWR"
CROPS = ("wheat", "cotton", "grass", "potato", "coffee", "rice", "corn")
CONSTANTS = ("drops_per_player", "markers_per_player", "clouds", "dark_at", "burst_at", "hand_limit",
             "harvest_dice", "die_advance_vp", "die_wheat_vp", "wheat_majority_vp", "short_rounds", "long_rounds")
MAX_ROWS, MAX_COLS = 4, 4
WHEAT_FACE = 0


@dataclass(frozen=True)
class Stage:
    """How a crop scores at one growth stage: by rank, per own drop, or by number of contributors."""

    rank: tuple[int, ...] | None = None
    per_drop: int | None = None
    contributors: tuple[int, ...] | None = None
    first_bonus: str | None = None  # "wheat": the single top contributor takes a wheat token


@dataclass(frozen=True)
class Crop:
    id: str
    grows_on: int | None  # weather index that turns "sprouted" into "grown" (coffee: sun, rice: rain)
    sprouted: Stage
    grown: Stage | None


@dataclass(frozen=True)
class Tile:
    id: str
    crop: str
    threshold: int
    provenance: str


@dataclass(frozen=True)
class Setup:
    rows: int
    cols: int
    cards: int


@dataclass(frozen=True)
class SouthWindCard:
    id: str
    action: int
    vote: int


@dataclass(frozen=True)
class Components:
    source: str
    const: dict[str, int]
    die_faces: tuple[int, ...]
    setups: dict[int, Setup]
    deck: tuple[int, ...]  # weather of every card, sorted
    crops: dict[str, Crop]
    tiles: tuple[Tile, ...]
    voting_wins: tuple[int, ...]
    south_wind: tuple[SouthWindCard, ...]
    provenance: dict[str, str]  # entry -> provenance, for the UI's "reconstructed" notes

    def vw_value(self, steps: int) -> int:
        return self.voting_wins[min(steps, len(self.voting_wins) - 1)]


def _ints(ck: Checker, obj: Any, key: str, where: str, length: int | None, lo: int, hi: int) -> tuple[int, ...]:
    value = ck.field(obj, key, where, list)
    if length is not None and len(value) != length:
        raise ck.fail(f"{where}.{key}", f"expected {length} numbers, found {len(value)}")
    if not value:
        raise ck.fail(f"{where}.{key}", "must not be empty")
    for i, v in enumerate(value):
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ck.fail(f"{where}.{key}[{i}]", f"expected an integer in {lo}..{hi}, found {v!r}")
    return tuple(value)


def _weather(ck: Checker, obj: Any, key: str, where: str) -> int:
    value = ck.field(obj, key, where, str)
    if value not in WEATHERS:
        raise ck.fail(f"{where}.{key}", f"must be one of {', '.join(WEATHERS)}, not {value!r}")
    return WEATHERS.index(value)


def _stage(ck: Checker, obj: Any, where: str) -> Stage:
    ck.provenance(obj, where)
    kinds = [k for k in ("rank", "per_drop", "contributors") if k in obj]
    if len(kinds) != 1:
        raise ck.fail(where, "needs exactly one of 'rank', 'per_drop', 'contributors'")
    bonus = obj.get("first_bonus")
    if bonus not in (None, "wheat"):
        raise ck.fail(f"{where}.first_bonus", f"only 'wheat' is known, not {bonus!r}")
    if kinds[0] == "rank":
        return Stage(rank=_ints(ck, obj, "rank", where, 4, 0, 99), first_bonus=bonus)
    if kinds[0] == "contributors":
        return Stage(contributors=_ints(ck, obj, "contributors", where, 4, 0, 99), first_bonus=bonus)
    return Stage(per_drop=ck.int_field(obj, "per_drop", where, 0, 99), first_bonus=bonus)


def parse(doc: Any, source: str) -> Components:
    """Validate a loaded document; the first problem raises ComponentError naming its place."""
    ck = Checker(source)
    if not isinstance(doc, dict):
        raise ck.fail("top level", "expected an object")
    prov: dict[str, str] = {}
    const: dict[str, int] = {}
    entries = ck.field(doc, "constants", "top level", list)
    for i, e in enumerate(entries):
        where = f"constants[{i}]"
        ident = ck.field(e, "id", where, str)
        if ident not in CONSTANTS:
            raise ck.fail(f"{where}.id", f"unknown constant {ident!r} (known: {', '.join(CONSTANTS)})")
        const[ident] = ck.int_field(e, "value", where, 0, 999)
        prov[ident] = ck.provenance(e, where)
    for key in CONSTANTS:
        if key not in const:
            raise ck.fail("constants", f"missing constant {key!r}")
    if not 1 <= const["dark_at"] < const["burst_at"]:
        raise ck.fail("constants", "need 1 <= dark_at < burst_at")
    for key in ("drops_per_player", "markers_per_player", "harvest_dice", "short_rounds", "long_rounds", "clouds"):
        if const[key] < 1:
            raise ck.fail("constants", f"{key} must be at least 1")
    faces = ck.field(doc, "die_faces", "top level", dict)
    ck.provenance(faces, "die_faces")
    die = _ints(ck, faces, "faces", "die_faces", None, 0, 4)
    if 0 not in die:
        raise ck.fail("die_faces.faces", "a harvest die needs a wheat face (0)")
    setups: dict[int, Setup] = {}
    for i, e in enumerate(ck.field(doc, "setups", "top level", list)):
        where = f"setups[{i}]"
        n = ck.int_field(e, "players", where, 1, 4)
        if n in setups:
            raise ck.fail(f"{where}.players", f"duplicate setup for {n} players")
        ck.provenance(e, where)
        setups[n] = Setup(ck.int_field(e, "rows", where, 2, MAX_ROWS), ck.int_field(e, "cols", where, 2, MAX_COLS),
                          ck.int_field(e, "cards", where, 1, 20))
    for n in range(1, 5):
        if n not in setups:
            raise ck.fail("setups", f"no setup for {n} players")
    deck: list[int] = []
    for i, e in enumerate(ck.field(doc, "cards", "top level", list)):
        where = f"cards[{i}]"
        ck.provenance(e, where)
        deck += [_weather(ck, e, "weather", where)] * ck.int_field(e, "count", where, 0, 99)
    crops: dict[str, Crop] = {}
    for i, e in enumerate(ck.field(doc, "crops", "top level", list)):
        where = f"crops[{i}]"
        ident = ck.field(e, "id", where, str)
        if ident not in CROPS:
            raise ck.fail(f"{where}.id", f"unknown crop {ident!r} (known: {', '.join(CROPS)})")
        prov[ident] = ck.provenance(e, where)
        stages = ck.field(e, "stages", where, dict)
        grows = e.get("grows_on")
        grows_on = None if grows is None else _weather(ck, e, "grows_on", where)
        sprouted = _stage(ck, ck.field(stages, "sprouted", f"{where}.stages", dict), f"{where}.stages.sprouted")
        grown = None
        if grows_on is not None:
            grown = _stage(ck, ck.field(stages, "grown", f"{where}.stages", dict), f"{where}.stages.grown")
        elif "grown" in stages:
            raise ck.fail(f"{where}.stages.grown", "a crop without 'grows_on' has no grown stage")
        crops[ident] = Crop(ident, grows_on, sprouted, grown)
    tiles: list[Tile] = []
    items = ck.field(doc, "tiles", "top level", list)
    ck.unique_ids(items, "tiles")
    for i, e in enumerate(items):
        where = f"tiles[{i}]"
        crop = ck.field(e, "crop", where, str)
        if crop not in crops:
            raise ck.fail(f"{where}.crop", f"no crop {crop!r} in 'crops'")
        tiles.append(Tile(e["id"], crop, ck.int_field(e, "threshold", where, 1, 80), ck.provenance(e, where)))
    most = max(s.rows * s.cols for s in setups.values())
    if len(tiles) < most:
        raise ck.fail("tiles", f"{len(tiles)} tiles cannot fill the largest grid ({most} cells)")
    vw = ck.field(doc, "voting_wins", "top level", dict)
    prov["voting_wins"] = ck.provenance(vw, "voting_wins")
    values = _ints(ck, vw, "values", "voting_wins", None, 0, 999)
    south: list[SouthWindCard] = []
    items = ck.field(doc, "south_wind", "top level", list)
    ck.unique_ids(items, "south_wind")
    for i, e in enumerate(items):
        where = f"south_wind[{i}]"
        ck.provenance(e, where)
        south.append(SouthWindCard(e["id"], _weather(ck, e, "action", where), _weather(ck, e, "vote", where)))
    if not south:
        raise ck.fail("south_wind", "the solo deck needs at least one card")
    return Components(source, const, die, setups, tuple(sorted(deck)), crops, tuple(tiles), values,
                      tuple(south), prov)


@lru_cache(maxsize=1)
def packaged() -> Components:
    return parse(load_packaged(PACKAGE, "components.json"), "petrichor/components.json")


@lru_cache(maxsize=8)
def _from_file(path: str) -> Components:
    return parse(load_json(path), str(Path(path)))


def components(path: str | None = None) -> Components:
    """The built-in components, or a user's file (cached by path)."""
    return _from_file(path) if path else packaged()
