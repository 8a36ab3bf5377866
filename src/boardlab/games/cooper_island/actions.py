"""Cooper Island actions and their notation. One small NamedTuple `Act(kind, a, b, c)` whose `str()` is the
notation; every possible action is listed once in `ALL_ACTIONS` (its index is the fixed integer id).

Worker phase          A .. H (or `A normal` ..), `A special` .. `H special`: place a normal / special worker;
                      `pass` if none fits
Choices inside a turn draw | place (an "or"), ruin | statue (space F), tile 2 b (hand tile, side), at 4 9 [shim],
                      top 7 (building/statue hex), pay h 4 | pay s wood | pay m coin | auto, cut wood (special
                      worker discount), anchor (instead of a fee), build small|large|fort, card S3, boat 4,
                      crate 2 [turn], res cloth, ship 1|2, isle P2 3 (any islet), useboat P1 4 (any boat),
                      hire normal|special, order 3 normal|special, skip, done
Income phase          islet 3 6 (islet 3 beside beach 6), cube 7 (the islet's good as a cube on hex 7), tile 1 a,
                      run 2 (your income boat 2)
Free actions          store h 4 | store m wood, ex cloth|gold|any, use 3 (crate icon), single 4 meadow,
                      ability L2
Cleanup               react L2 | react crate 3, done
"""

from __future__ import annotations

from typing import NamedTuple

from boardlab.core.errors import ActionParseError

from .components import GOODS, MAX_SEATS, RES, TERRAINS

MAX_HEX = 40
MAX_CARDS = 24
SPACES = "ABCDEFGH"


class Act(NamedTuple):
    kind: str
    a: str = ""
    b: str = ""
    c: str = ""

    def __str__(self) -> str:
        return " ".join(x for x in self if x)


def _all() -> list[Act]:
    out: list[Act] = []
    for x in SPACES:
        out += [Act(x), Act(x, "special")]
    out += [Act(k) for k in ("pass", "done", "auto", "anchor", "draw", "place", "ruin", "statue", "skip")]
    out += [Act("tile", str(s), side) for s in (1, 2, 3) for side in "ab"]
    hexes = [str(i) for i in range(1, MAX_HEX + 1)]
    out += [Act("at", i, j, sh) for i in hexes for j in hexes if i != j for sh in ("", "shim")]
    out += [Act("top", i) for i in hexes]
    out += [Act("ruin", i) for i in hexes]
    out += [Act("pay", "h", i) for i in hexes] + [Act("pay", z, g) for z in "sm" for g in GOODS]
    out += [Act("cut", r) for r in GOODS]
    out += [Act("build", k) for k in ("small", "large", "fort")]
    cards = [f"{k}{i}" for k in "SL" for i in range(1, MAX_CARDS + 1)]
    out += [Act("card", c) for c in cards]
    out += [Act("boat", str(k)) for k in range(1, 7)] + [Act("run", str(k)) for k in range(1, 7)]
    out += [Act("crate", str(c), t) for c in range(1, 6) for t in ("", "turn")]
    out += [Act("res", g) for g in GOODS]
    out += [Act("ship", "1"), Act("ship", "2")]
    seats = [f"P{q}" for q in range(1, MAX_SEATS + 1)]
    out += [Act("isle", q, str(k)) for q in seats for k in range(1, 7)]
    out += [Act("useboat", q, str(k)) for q in seats for k in range(1, 7)]
    out += [Act("hire", "normal"), Act("hire", "special")]
    out += [Act("order", str(k), w) for k in range(1, 9) for w in ("normal", "special")]
    out += [Act("islet", str(k), str(s)) for k in range(1, 7) for s in range(1, 30)]
    out += [Act("store", "h", i) for i in hexes] + [Act("store", "m", g) for g in GOODS]
    out += [Act("ex", k) for k in ("cloth", "gold", "any")]
    out += [Act("use", str(k)) for k in range(1, 6)]
    out += [Act("single", i, t) for i in hexes for t in TERRAINS]
    out += [Act("ability", c) for c in cards if c[0] == "L"]
    out += [Act("react", c) for c in cards if c[0] == "L"] + [Act("react", "crate", str(k)) for k in range(1, 6)]
    out += [Act("cube", i) for i in hexes]  # added last, so every earlier action keeps its integer id
    return out


ALL_ACTIONS: tuple[Act, ...] = tuple(_all())
ACTION_ID: dict[Act, int] = {a: i for i, a in enumerate(ALL_ACTIONS)}
BY_TEXT: dict[str, Act] = {str(a).lower(): a for a in ALL_ACTIONS}
assert len(BY_TEXT) == len(ALL_ACTIONS)
# "h" is the terminal's help key, so a normal worker can also be written "H normal" (any space letter)
BY_TEXT.update({f"{x.lower()} normal": Act(x) for x in SPACES})
assert all(r in GOODS for r in RES)


# Interned actions for the hot legal-move builders (hex ids are 1-based in notation, 0-based here).
SINGLE: tuple[dict[str, Act], ...] = tuple({t: Act("single", str(i + 1), t) for t in TERRAINS} for i in range(MAX_HEX))
AT: tuple[tuple[tuple[Act, Act], ...], ...] = tuple(
    tuple((Act("at", str(i + 1), str(j + 1)), Act("at", str(i + 1), str(j + 1), "shim")) for j in range(MAX_HEX))
    for i in range(MAX_HEX))
HEX_ACTS: dict[str, tuple[Act, ...]] = {
    k: tuple(Act._make([*k.split(), str(i + 1), "", ""][:4]) for i in range(MAX_HEX))  # 4 fields, unused ones ""
    for k in ("pay h", "store h", "top", "ruin", "cube")}
# The menus' actions, built once instead of at every menu of every playout (the same values, so the same ids).
SPACE_ACTS: dict[str, tuple[Act, Act]] = {x: (Act(x), Act(x, "special")) for x in SPACES}
TILE: tuple[tuple[Act, Act], ...] = tuple((Act("tile", str(s), "a"), Act("tile", str(s), "b")) for s in (1, 2, 3))
ISLET: tuple[tuple[Act, ...], ...] = tuple(tuple(Act("islet", str(k + 1), str(s)) for s in range(30)) for k in range(6))
"""`ISLET[k][s]`: islet k (0-based) beside beach s (a components file allows beaches 1..29, islets 0..5)."""
RUN: tuple[Act, ...] = tuple(Act("run", str(b + 1)) for b in range(6))
CRATE: tuple[tuple[Act, Act], ...] = tuple((Act("crate", str(c)), Act("crate", str(c), "turn")) for c in range(1, 6))
USE: tuple[Act, ...] = tuple(Act("use", str(k + 1)) for k in range(5))
STORE_M: dict[str, Act] = {g: Act("store", "m", g) for g in GOODS}
EX: dict[str, Act] = {k: Act("ex", k) for k in ("cloth", "gold", "any")}
ABILITY: dict[str, Act] = {f"L{i}": Act("ability", f"L{i}") for i in range(1, MAX_CARDS + 1)}


def parse(text: object) -> Act:
    """Read an action's notation (case and extra spaces are forgiven). Syntax only, not legality."""
    if not isinstance(text, str):
        raise ActionParseError(f"an action must be text, not {type(text).__name__}")
    t = " ".join(text.strip().lower().split())
    act = BY_TEXT.get(t)
    if act is None:
        raise ActionParseError(
            f"cannot read {text!r} as a Cooper Island action; expected e.g. 'A', 'D special', 'tile 2 b', "
            "'at 4 9', 'pay h 4', 'auto', 'build small', 'card S3', 'islet 3 6', 'store h 4', 'ex any', "
            "'single 4 meadow', 'ship 1', 'done' or 'pass'")
    return act
