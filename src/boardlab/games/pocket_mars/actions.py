"""Pocket Mars actions and their notation (players are numbered from 1 in text, seats from 0 in code).

Turn actions (the active player's one action):
    hand G3        play G3 from your hand (top action)
    prep G3        play G3 from your own prep module
    opp P2 a       play the older (a) or newer (b) card of player 2's prep module (solo: `opp DA a`)
    launch         take 1 colonist from Earth to your ship
    energy G3      discard G3 from hand or prep module for energy
    pass           only when nothing else is possible
Decisions inside a turn:
    do / skip      use or decline an optional step (value win, bottom action, ability, a paid top action)
    place Y        move a colonist from your ship to the ★ area of building Y
    shift Y P2 up  move one of player 2's colonists in building Y from ★ to ★★ (or `down`)
    swap Y P1 P2   swap player 1's colonist on ★ with player 2's colonist on ★★ in building Y
    look P3        look at player 3's prep module
    bury G3        put G3 from hand or prep module on the bottom of the deck
    discard G3     4-card rule: discard G3 from your hand
    ready G3       put G3 from your hand into your prep module
    keep G3        draft: keep G3 from the cards passed to you
    take a / drop a  solo: take (draw substitution) or discard a card of the automaton's prep module
Every action type is a NamedTuple whose first field is its kind, so different types never compare equal.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from boardlab.core.action_table import Simple
from boardlab.core.errors import ActionParseError

from .components import CARD_IDS, CARD_INDEX, LETTERS

MAX_SEATS = 4
SLOTS = "ab"
CARD_KINDS = ("hand", "prep", "energy", "discard", "ready", "keep", "bury")
SIMPLE_KINDS = ("launch", "do", "skip", "pass")


def seat_text(seat: int) -> str:
    return f"P{seat + 1}"


class CardAct(NamedTuple):
    kind: str
    card: int

    def __str__(self) -> str:
        return f"{self.kind} {CARD_IDS[self.card]}"


class Opp(NamedTuple):
    kind: str
    owner: int
    slot: int

    def __str__(self) -> str:
        return f"opp {seat_text(self.owner)} {SLOTS[self.slot]}"


class Place(NamedTuple):
    kind: str
    building: int

    def __str__(self) -> str:
        return f"place {LETTERS[self.building]}"


class Shift(NamedTuple):
    kind: str
    building: int
    player: int
    up: bool

    def __str__(self) -> str:
        return f"shift {LETTERS[self.building]} {seat_text(self.player)} {'up' if self.up else 'down'}"


class Swap(NamedTuple):
    kind: str
    building: int
    low: int  # the player whose colonist is on ★
    high: int  # the player whose colonist is on ★★

    def __str__(self) -> str:
        return f"swap {LETTERS[self.building]} {seat_text(self.low)} {seat_text(self.high)}"


class Look(NamedTuple):
    kind: str
    target: int

    def __str__(self) -> str:
        return f"look {seat_text(self.target)}"


class Slot(NamedTuple):
    kind: str  # "take" or "drop"
    slot: int

    def __str__(self) -> str:
        return f"{self.kind} {SLOTS[self.slot]}"


PMAction = Simple | CardAct | Opp | Place | Shift | Swap | Look | Slot

# Interned actions: legal-move lists are rebuilt at every decision, the objects need not be.
LAUNCH, DO, SKIP, PASS = (Simple(k) for k in SIMPLE_KINDS)
CARD: dict[str, tuple[CardAct, ...]] = {k: tuple(CardAct(k, i) for i in range(len(CARD_IDS))) for k in CARD_KINDS}
OPP = tuple(tuple(Opp("opp", o, s) for s in range(2)) for o in range(MAX_SEATS))
PLACE = tuple(Place("place", b) for b in range(4))
SHIFT = tuple(tuple((Shift("shift", b, p, False), Shift("shift", b, p, True)) for p in range(MAX_SEATS))
              for b in range(4))
SWAP = tuple(tuple(tuple(Swap("swap", b, lo, hi) for hi in range(MAX_SEATS)) for lo in range(MAX_SEATS))
             for b in range(4))
LOOK = tuple(Look("look", t) for t in range(MAX_SEATS))
TAKE = tuple(Slot("take", s) for s in range(2))
DROP = tuple(Slot("drop", s) for s in range(2))

ALL_ACTIONS: tuple[PMAction, ...] = (
    LAUNCH, DO, SKIP, PASS,
    *(a for k in CARD_KINDS for a in CARD[k]),
    *(a for row in OPP for a in row),
    *PLACE,
    *(a for b in SHIFT for p in b for a in p),
    *(a for b in SWAP for lo in b for a in lo),
    *LOOK, *TAKE, *DROP,
)
ACTION_ID = {a: i for i, a in enumerate(ALL_ACTIONS)}

_SEAT = r"(p[1-4]|da)"
_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"({'|'.join(CARD_KINDS)}) ([gybpk][1-7])"), "card"),
    (re.compile(rf"opp {_SEAT} ([ab])"), "opp"),
    (re.compile(r"place ([gybp])"), "place"),
    (re.compile(rf"shift ([gybp]) {_SEAT} (up|down)"), "shift"),
    (re.compile(rf"swap ([gybp]) {_SEAT} {_SEAT}"), "swap"),
    (re.compile(rf"look {_SEAT}"), "look"),
    (re.compile(r"(take|drop) ([ab])"), "slot"),
]


def _seat(token: str) -> int:
    return 1 if token == "da" else int(token[1]) - 1


def parse(text: object) -> PMAction:
    """Read an action's notation (case and extra spaces are forgiven). Syntax only, not legality."""
    if not isinstance(text, str):
        raise ActionParseError(f"an action must be text, not {type(text).__name__}")
    t = " ".join(text.strip().lower().split())
    if len(t) > 40:
        raise ActionParseError("action text is too long to be a Pocket Mars action")
    if t in SIMPLE_KINDS:
        return Simple(t)
    for pattern, kind in _PATTERNS:
        m = pattern.fullmatch(t)
        if m is None:
            continue
        if kind == "card":
            return CARD[m[1]][CARD_INDEX[m[2].upper()]]
        if kind == "opp":
            return OPP[_seat(m[1])][SLOTS.index(m[2])]
        if kind == "place":
            return PLACE[LETTERS.index(m[1].upper())]
        if kind == "shift":
            return SHIFT[LETTERS.index(m[1].upper())][_seat(m[2])][m[3] == "up"]
        if kind == "swap":
            return SWAP[LETTERS.index(m[1].upper())][_seat(m[2])][_seat(m[3])]
        if kind == "look":
            return LOOK[_seat(m[1])]
        return (TAKE if m[1] == "take" else DROP)[SLOTS.index(m[2])]
    raise ActionParseError(
        f"cannot read {text!r} as a Pocket Mars action; expected e.g. 'hand G3', 'prep Y1', 'opp P2 a', "
        "'launch', 'energy B6', 'do', 'skip', 'place Y', 'shift G P2 up', 'swap B P1 P3', 'look P2', "
        "'bury G3', 'discard G3', 'ready G3', 'keep G3', 'take a', 'drop b' or 'pass'"
    )
