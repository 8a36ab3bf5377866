"""Block and Key actions and their notation (players are numbered from 1 in text, seats from 0 in code).

    orient 2                 the start player turns the core cube (its side colours move 2 places)
    dig r1 / dig c3          excavate row 1 or column 3 of the excavation site (rows from the top)
    place RL4 3 d5 2         place block RL4 (red L4) in orientation 3 with the south-west-bottom corner of
                             its bounding box at column d, row 5, level 2 (all counted from 1)
    return RL4               give a block back to the bag (more than 7 held)
    draw sun / draw moon     refill the key hand from that altar
    pass                     nothing else is possible
Solo only:
    marker sun               no key claimed this turn: a face-down card from that altar marks the turn
    discard U03 / keep       optionally put a hand card under its altar
When claiming may be worse than not (solo before turn 11; near the end of a game with others):
    claim U03 / stop         claim a key the new block completes / claim no more
    ancients RL4 3 d5 2      place the Ancients' block (the player chooses among the equally near spots)
Every action type is a NamedTuple whose first field is its kind, so different types never compare equal.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from boardlab.core.action_table import Simple
from boardlab.core.errors import ActionParseError

FILES = "abcdefgh"
LINES = ("r1", "r2", "r3", "c1", "c2", "c3")
DECK_NAMES = ("sun", "moon")


class Orient(NamedTuple):
    kind: str
    turn: int

    def __str__(self) -> str:
        return f"orient {self.turn}"


class Dig(NamedTuple):
    kind: str
    line: int  # 0-2 rows, 3-5 columns

    def __str__(self) -> str:
        return f"dig {LINES[self.line]}"


class Place(NamedTuple):
    kind: str  # "place" or "ancients"
    block: str
    orient: int
    x: int
    y: int
    z: int

    def __str__(self) -> str:
        return f"{self.kind} {self.block} {self.orient} {FILES[self.x]}{self.y + 1} {self.z + 1}"


class BlockAct(NamedTuple):
    kind: str  # "return"
    block: str

    def __str__(self) -> str:
        return f"{self.kind} {self.block}"


class DeckAct(NamedTuple):
    kind: str  # "draw" or "marker"
    deck: int  # 0 sun, 1 moon

    def __str__(self) -> str:
        return f"{self.kind} {DECK_NAMES[self.deck]}"


class KeyAct(NamedTuple):
    kind: str  # "discard" or "claim"
    key: str

    def __str__(self) -> str:
        return f"{self.kind} {self.key}"


BKAction = Simple | Orient | Dig | Place | BlockAct | DeckAct | KeyAct

PASS, KEEP, STOP = Simple("pass"), Simple("keep"), Simple("stop")
ORIENT = tuple(Orient("orient", r) for r in range(4))
DIG = tuple(Dig("dig", i) for i in range(6))
DRAW = tuple(DeckAct("draw", d) for d in range(2))
MARKER = tuple(DeckAct("marker", d) for d in range(2))

_PLACE = re.compile(r"(place|ancients) ([a-z0-9]{1,4}) (\d{1,2}) ([a-h])([1-8]) ([1-6])")
_BLOCK = re.compile(r"return ([a-z0-9]{1,4})")
_DECK = re.compile(r"(draw|marker) (sun|moon)")
_KEY = re.compile(r"(discard|claim) ([a-z0-9]{1,4})")
_DIG = re.compile(r"dig ([rc][1-3])")
_ORIENT = re.compile(r"orient ([0-3])")


def parse(text: object) -> BKAction:
    """Read an action's notation (case and extra spaces are forgiven). Syntax only, not legality."""
    if not isinstance(text, str):
        raise ActionParseError(f"an action must be text, not {type(text).__name__}")
    t = " ".join(text.strip().lower().split())
    if len(t) > 40:
        raise ActionParseError("action text is too long to be a Block and Key action")
    if t in ("pass", "keep", "stop"):
        return Simple(t)
    m = _PLACE.fullmatch(t)
    if m:
        return Place(m[1], m[2].upper(), int(m[3]), FILES.index(m[4]), int(m[5]) - 1, int(m[6]) - 1)
    if m := _DIG.fullmatch(t):
        return DIG[LINES.index(m[1])]
    if m := _ORIENT.fullmatch(t):
        return ORIENT[int(m[1])]
    if m := _DECK.fullmatch(t):
        return (DRAW if m[1] == "draw" else MARKER)[DECK_NAMES.index(m[2])]
    if m := _BLOCK.fullmatch(t):
        return BlockAct("return", m[1].upper())
    if m := _KEY.fullmatch(t):
        return KeyAct(m[1], m[2].upper())
    raise ActionParseError(
        f"cannot read {text!r} as a Block and Key action; expected e.g. 'dig r1', 'place RL4 3 d5 2', "
        "'return RL4', 'draw sun', 'draw moon', 'orient 1', 'marker sun', 'discard U03', 'keep', 'claim U03', 'stop', "
        "'ancients WI3 0 a1 1' or 'pass'")
