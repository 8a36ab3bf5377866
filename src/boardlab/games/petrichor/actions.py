"""Petrichor actions and their notation. Cells are a column letter and a row number (`B2`, A1 top left);
weathers and cards are F S W R (Frost, Sun, Wind, Rain); players P1..P4 (solo: P2 is the South Wind);
directions N S E W.

    pass            pass: discard your hand, take the start-player marker (in a last turn: do nothing)
    skip            take no drop back from the fields (Frost / Sun with a short supply: vote only; Sun weather: stop)
    play F          play one Frost card for its action
    play2 R         play any two cards as a Rain (then `pay X` twice says which cards)
    again S         second action: two Sun cards for a Sun action
    again4 W        second action: any four cards as a Wind (then `pay X` four times)
    end             no second action
    pay F           the next card paid for a two- or four-card play
    cloud B2        setup: your first cloud (one own drop) on B2
    frost B2        Frost: a new white cloud with one own drop on B2
    sun B2          Sun: two own drops into the cloud on B2
    wind B2 N       Wind: the cloud on B2 moves one tile north
    rain B2 P1      Rain: the cloud on B2 lets one of P1's drops fall; `done` stops after one cloud
    reclaim B2      take one own drop back from the field B2 (when the supply is short)
    vote F          put a voting marker on Frost
    die 2           advance harvest die 2 (+1 VP, +2 onto wheat)
    choose S        start player: Sun resolves (tie for the two resolving weathers)
    shine B2        Sun weather: double your drops in the cloud on B2
    blow B2 P1 N    Wind weather: move one of P1's drops on field B2 one tile north
    discard F       hand limit: discard a Frost card
Every action type is a NamedTuple whose first field is its kind, so different types never compare equal.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from boardlab.core.action_table import Simple
from boardlab.core.errors import ActionParseError

from .components import LETTERS, MAX_COLS, MAX_ROWS

MAX_SEATS = 4
DIRS = "NSEW"
STEPS = ((-1, 0), (1, 0), (0, 1), (0, -1))
SIMPLE_KINDS = ("pass", "end", "done", "skip")
LATER_KINDS = ("skip",)
"""Simple actions added after the integer encoding was fixed: listed at the end of ALL_ACTIONS, so that every
older action keeps its id."""
CARD_KINDS = ("play", "play2", "again", "again4", "pay", "vote", "choose", "discard")
CELL_KINDS = ("cloud", "frost", "sun", "reclaim", "shine")
COLS = "ABCD"


def cell_text(r: int, c: int) -> str:
    return f"{COLS[c]}{r + 1}"


class CardAct(NamedTuple):
    kind: str
    weather: int

    def __str__(self) -> str:
        return f"{self.kind} {LETTERS[self.weather]}"


class Die(NamedTuple):
    kind: str
    die: int

    def __str__(self) -> str:
        return f"die {self.die + 1}"


class Cell(NamedTuple):
    kind: str
    r: int
    c: int

    def __str__(self) -> str:
        return f"{self.kind} {cell_text(self.r, self.c)}"


class Wind(NamedTuple):
    kind: str
    r: int
    c: int
    d: int

    def __str__(self) -> str:
        return f"wind {cell_text(self.r, self.c)} {DIRS[self.d]}"


class Rain(NamedTuple):
    kind: str
    r: int
    c: int
    q: int

    def __str__(self) -> str:
        return f"rain {cell_text(self.r, self.c)} P{self.q + 1}"


class Blow(NamedTuple):
    kind: str
    r: int
    c: int
    q: int
    d: int

    def __str__(self) -> str:
        return f"blow {cell_text(self.r, self.c)} P{self.q + 1} {DIRS[self.d]}"


PAction = Simple | CardAct | Die | Cell | Wind | Rain | Blow

PASS, END, DONE, SKIP = Simple("pass"), Simple("end"), Simple("done"), Simple("skip")
CARD = {k: tuple(CardAct(k, w) for w in range(4)) for k in CARD_KINDS}


def _all() -> list[PAction]:
    out: list[PAction] = [Simple(k) for k in SIMPLE_KINDS if k not in LATER_KINDS]
    out += [a for k in CARD_KINDS for a in CARD[k]]
    out += [Die("die", i) for i in range(6)]
    cells = [(r, c) for r in range(MAX_ROWS) for c in range(MAX_COLS)]
    out += [Cell(k, r, c) for k in CELL_KINDS for r, c in cells]
    out += [Wind("wind", r, c, d) for r, c in cells for d in range(4)]
    out += [Rain("rain", r, c, q) for r, c in cells for q in range(MAX_SEATS)]
    out += [Blow("blow", r, c, q, d) for r, c in cells for q in range(MAX_SEATS) for d in range(4)]
    return out + [Simple(k) for k in LATER_KINDS]


ALL_ACTIONS: list[PAction] = _all()
ACTION_ID = {a: i for i, a in enumerate(ALL_ACTIONS)}

_CELL = r"([A-Da-d])([1-4])"
_RE = {
    "card": re.compile(rf"^({'|'.join(CARD_KINDS)})\s+([FSWRfswr])$"),
    "die": re.compile(r"^die\s+([1-6])$"),
    "cell": re.compile(rf"^({'|'.join(CELL_KINDS)})\s+{_CELL}$"),
    "wind": re.compile(rf"^wind\s+{_CELL}\s+([NSEWnsew])$"),
    "rain": re.compile(rf"^rain\s+{_CELL}\s+[Pp]([1-4])$"),
    "blow": re.compile(rf"^blow\s+{_CELL}\s+[Pp]([1-4])\s+([NSEWnsew])$"),
}


def parse(text: str) -> PAction:
    """Read one action; raises ActionParseError with the accepted forms."""
    if not isinstance(text, str):
        raise ActionParseError(f"an action must be text, not {text!r}")
    t = " ".join(text.strip().split())
    low = t.lower()
    if low in SIMPLE_KINDS:
        return Simple(low)
    if m := _RE["card"].match(low):
        return CARD[m[1]][LETTERS.index(m[2].upper())]
    if m := _RE["die"].match(low):
        return Die("die", int(m[1]) - 1)
    if m := _RE["cell"].match(low):
        return Cell(m[1], int(m[3]) - 1, COLS.index(m[2].upper()))
    if m := _RE["wind"].match(low):
        return Wind("wind", int(m[2]) - 1, COLS.index(m[1].upper()), DIRS.index(m[3].upper()))
    if m := _RE["rain"].match(low):
        return Rain("rain", int(m[2]) - 1, COLS.index(m[1].upper()), int(m[3]) - 1)
    if m := _RE["blow"].match(low):
        return Blow("blow", int(m[2]) - 1, COLS.index(m[1].upper()), int(m[3]) - 1, DIRS.index(m[4].upper()))
    raise ActionParseError(
        f"cannot read {text!r} as a Petrichor action; forms: pass, end, done, skip, play F, play2 R, again S, "
        "again4 W, pay F, vote F, choose S, discard F, die 1-3, cloud|frost|sun|reclaim|shine B2, "
        "wind B2 N, rain B2 P1, blow B2 P1 N (cards/weathers F S W R, directions N S E W)")
