"""Cacao actions and their notation.

    2101r1@3,-1          place worker tile 2-1-0-1, turned 1 quarter clockwise, at x=3 y=-1
    rebuild 2101r1@3,-1  overbuild your own tile at 3,-1 (pays a sun token)
    discard 2101         no legal spot and no rebuild: the tile leaves the game (docs/rules/cacao.md)
    fill market3@2,-1    put the display's price-3 market on the empty jungle space 2,-1
    use 3,-1 N 2         use 2 of the workers on the north edge of the tile at 3,-1
    auto                 resolve all your remaining activations in the best order (max gold, then fruit)

Coordinates: x grows to the east, y to the south; the start plantation is at 0,0. Edges N E S W.
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

from boardlab.core.errors import ActionParseError

DIRS = "NESW"
STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))


class Place(NamedTuple):
    kind: str  # "place" or "rebuild"
    tile: str
    rot: int
    x: int
    y: int

    def __str__(self) -> str:
        text = f"{self.tile}r{self.rot}@{self.x},{self.y}"
        return text if self.kind == "place" else f"rebuild {text}"


class Discard(NamedTuple):
    kind: str
    tile: str

    def __str__(self) -> str:
        return f"discard {self.tile}"


class Fill(NamedTuple):
    kind: str
    jungle: str
    x: int
    y: int

    def __str__(self) -> str:
        return f"fill {self.jungle}@{self.x},{self.y}"


class Use(NamedTuple):
    kind: str
    x: int
    y: int
    edge: int  # index into DIRS
    count: int  # type: ignore[assignment]  # shadows tuple.count, as the notation names it

    def __str__(self) -> str:
        return f"use {self.x},{self.y} {DIRS[self.edge]} {self.count}"


class Auto(NamedTuple):
    kind: str

    def __str__(self) -> str:
        return "auto"


AUTO = Auto("auto")
CacaoAction = Place | Discard | Fill | Use | Auto


class _PlaceTable(dict[tuple[int, int], Place]):
    """Interned Place actions of one (kind, tile, rotation), by cell: the placement list is rebuilt
    every turn (the engine's hottest loop); its action objects need not be."""

    def __init__(self, kind: str, tile: str, rot: int) -> None:
        super().__init__()
        self.key = (kind, tile, rot)

    def __missing__(self, cell: tuple[int, int]) -> Place:
        action = self[cell] = Place(*self.key, *cell)
        return action


@cache
def place_table(kind: str, tile: str, rot: int) -> _PlaceTable:
    return _PlaceTable(kind, tile, rot)


_NUM = r"(-?\d+)"
_PLACE = re.compile(rf"(rebuild\s+)?(\w+?)r([0-3])@{_NUM},{_NUM}")
_DISCARD = re.compile(r"discard\s+(\w+)")
_FILL = re.compile(rf"fill\s+(\w+)@{_NUM},{_NUM}")
_USE = re.compile(rf"use\s+{_NUM},{_NUM}\s+([NESW])\s+(\d+)")


def parse(text: str) -> CacaoAction:
    """Read an action's notation (whitespace and case are forgiven)."""
    if not isinstance(text, str):
        raise ActionParseError(f"an action must be text, not {type(text).__name__}")
    t = " ".join(text.strip().split())
    if len(t) > 64:
        raise ActionParseError("action text is too long to be a Cacao action")
    low = t.lower()
    if low == "auto":
        return AUTO
    if m := _PLACE.fullmatch(low.replace(" @", "@").replace("@ ", "@").replace(", ", ",")):
        return Place("rebuild" if m[1] else "place", m[2], int(m[3]), int(m[4]), int(m[5]))
    if m := _DISCARD.fullmatch(low):
        return Discard("discard", m[1])
    if m := _FILL.fullmatch(low.replace(", ", ",")):
        return Fill("fill", m[1], int(m[2]), int(m[3]))
    if m := _USE.fullmatch(t.replace(", ", ",").upper().replace("USE", "use")):
        return Use("use", int(m[1]), int(m[2]), DIRS.index(m[3]), int(m[4]))
    raise ActionParseError(
        f"cannot read {text!r} as a Cacao action; expected e.g. '2101r1@3,-1', 'rebuild 1111r0@1,0', "
        "'discard 2101', 'fill market3@2,-1', 'use 3,-1 N 2' or 'auto'"
    )
