"""Pocket Mars components: the fixed rule numbers (`rules.json`) and the project deck (`cards.json` or a
user's JSON/TOML deck), validated with errors that name the file, the card and the field.

Card ids are fixed by the physical deck (5 colours x 7 cards): the colour letter and 1..7, e.g. `G3`.
That keeps the action encoding independent of which deck file is loaded.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from boardlab.core.components import Checker, load_json, load_packaged
from boardlab.core.errors import ComponentError

PACKAGE = "boardlab.games.pocket_mars"
COLOURS = ("green", "yellow", "blue", "purple", "black")
LETTERS = "GYBPK"
BLACK = 4
PER_COLOUR = 7
NUM_CARDS = len(COLOURS) * PER_COLOUR
MAX_VALUE = 7
CARD_IDS = tuple(f"{letter}{i}" for letter in LETTERS for i in range(1, PER_COLOUR + 1))
CARD_INDEX = {cid: i for i, cid in enumerate(CARD_IDS)}

# Effect vocabulary: op -> allowed parameters (besides "op") with their defaults.
OPS: dict[str, dict[str, Any]] = {
    "launch": {"n": 1},
    "energy": {"n": 1},
    "draw": {"n": 1},
    "settle": {"n": 1, "where": "any"},
    "shift": {"n": 1, "who": "self", "dir": "up", "where": "any"},
    "swap": {"n": 1, "where": "any"},
    "look": {"n": 2},
    "bury": {"n": 1},
}
CHOICES = {"where": ("here", "any"), "who": ("self", "any"), "dir": ("up", "down", "both")}
N_RANGE = {"launch": 7, "energy": 7, "draw": 4, "settle": 7, "shift": 4, "swap": 2, "look": 2, "bury": 2}
CONDITIONS = ("hold", "absent", "present", "behind")
CARD_FIELDS = {"id", "colour", "value", "provenance", "field_provenance", "top", "bottom", "note"}
EFFECT_FIELDS = {"if", "cost", "do"}


class Prim(NamedTuple):
    """One effect primitive, with every parameter filled in."""

    op: str
    n: int
    who: str = "self"
    dir: str = "up"
    where: str = "any"

    @property
    def is_choice(self) -> bool:
        """Primitives whose resolution asks the player to choose (each choice offers 'skip')."""
        return self.op in ("shift", "swap", "bury") or (self.op == "settle" and self.where == "any")


class Effect(NamedTuple):
    """A card half or a building ability: an optional energy cost, conditions, then primitives.

    Make one with `Effect.of`, which derives `hold` and `direct` once: the search asks for them at every
    offered effect, and as properties they were a tenth of a Pocket Mars search (docs/benchmarks.md)."""

    cost: int
    cond: tuple[tuple[str, int], ...]  # ("hold", colour) | ("absent", 1) | ("present", 1) | ("behind", 1)
    prims: tuple[Prim, ...]
    hold: int  # the colour of a "you hold a card of this colour in hand" condition, or -1
    direct: bool  # a free effect of one choice primitive is offered straight as its choices (plus skip)

    @classmethod
    def of(cls, cost: int, cond: tuple[tuple[str, int], ...], prims: tuple[Prim, ...]) -> Effect:
        hold = next((arg for key, arg in cond if key == "hold"), -1)
        return cls(cost, cond, prims, hold, cost == 0 and len(prims) == 1 and prims[0].is_choice)


@dataclass(frozen=True)
class Card:
    index: int
    id: str
    colour: int
    value: int
    provenance: str
    top: Effect
    bottom: Effect
    note: str
    field_provenance: tuple[tuple[str, str], ...] = ()  # e.g. (("colour", "reconstructed"),)

    @property
    def reconstructed(self) -> bool:
        """Not known exactly: the card, or one of its fields, is a reconstruction."""
        return self.provenance != "official" or any(p != "official" for _, p in self.field_provenance)


@dataclass(frozen=True)
class Building:
    colour: int
    letter: str
    value: int
    holds_colonists: bool
    name: dict[str, str]
    colour_name: dict[str, str]
    ability: Effect


@dataclass(frozen=True)
class Scoring:
    ship: int
    star: int
    star2: int
    all_buildings: int
    full_building: int
    full_building_size: int
    top_energy: int


@dataclass(frozen=True)
class Rules:
    """Everything fixed by the rulebook (and our recorded decisions), from rules.json."""

    buildings: tuple[Building, ...]
    colonists: int
    start_ship: int
    energy_start: int
    energy_max: int
    hand_size: int
    prep_size: int
    draft_deal: int
    star2_capacity: dict[int, int]
    max_rounds: int
    scoring: Scoring
    solo_player_scoring: Scoring
    solo_automaton_scoring: Scoring
    solo: dict[str, int]


@dataclass(frozen=True)
class Deck:
    """A validated 35-card project deck; `cards[i]` has index i (see CARD_IDS)."""

    source: str
    cards: tuple[Card, ...]
    colour: tuple[int, ...]
    value: tuple[int, ...]


# -- validation --------------------------------------------------------------------------------------
def _int(c: Checker, obj: dict[str, Any], key: str, where: str, lo: int, hi: int) -> int:
    return c.int_field(obj, key, where, lo, hi)


def _prim(c: Checker, raw: Any, where: str, black: bool, energy_max: int) -> Prim:
    if not isinstance(raw, dict):
        raise c.fail(where, f"expected an effect object like {{\"op\": \"launch\", \"n\": 1}}, found {raw!r}")
    op = c.field(raw, "op", where, str)
    if op not in OPS:
        raise c.fail(f"{where}.op", f"unknown effect {op!r}; known: {', '.join(OPS)}")
    allowed = OPS[op]
    for key in raw:
        if key != "op" and key not in allowed:
            raise c.fail(f"{where}.{key}", f"{op!r} takes no {key!r} (it takes: {', '.join(allowed) or 'nothing'})")
    values = dict(allowed)
    for key, value in raw.items():
        if key == "op":
            continue
        if key == "n":
            values["n"] = _int(c, raw, "n", where, 1, energy_max if op == "energy" else N_RANGE[op])
        else:
            if value not in CHOICES[key]:
                raise c.fail(f"{where}.{key}", f"must be one of {', '.join(CHOICES[key])}, not {value!r}")
            values[key] = value
    if values.get("where") == "here" and black:
        raise c.fail(f"{where}.where", "'here' means the card's own building, and black cards go under none")
    return Prim(op, values["n"], values.get("who", "self"), values.get("dir", "up"), values.get("where", "any"))


def _effect(c: Checker, raw: Any, where: str, black: bool, energy_max: int) -> Effect:
    if not isinstance(raw, dict):
        raise c.fail(where, f"expected an object with 'do' (and optionally 'if', 'cost'), found {raw!r}")
    for key in raw:
        if key not in EFFECT_FIELDS:
            raise c.fail(f"{where}.{key}", f"unknown field (allowed: {', '.join(sorted(EFFECT_FIELDS))})")
    cost = _int(c, raw, "cost", where, 0, energy_max) if "cost" in raw else 0
    conds: list[tuple[str, int]] = []
    if "if" in raw:
        cond = c.field(raw, "if", where, dict)
        if not cond:
            raise c.fail(f"{where}.if", f"empty condition; use one of {', '.join(CONDITIONS)}")
        for key, value in cond.items():
            if key not in CONDITIONS:
                raise c.fail(f"{where}.if.{key}", f"unknown condition; known: {', '.join(CONDITIONS)}")
            if key == "hold":
                if value not in COLOURS:
                    raise c.fail(f"{where}.if.hold", f"must be a colour ({', '.join(COLOURS)}), not {value!r}")
                conds.append(("hold", COLOURS.index(value)))
            else:
                if value is not True:
                    raise c.fail(f"{where}.if.{key}", f"must be true, not {value!r}")
                if black and key in ("absent", "present"):
                    raise c.fail(f"{where}.if.{key}", "black cards go under no building, so this cannot be checked")
                conds.append((key, 1))
    do = c.field(raw, "do", where, list)
    if not do:
        raise c.fail(f"{where}.do", "needs at least one effect")
    prims = tuple(_prim(c, p, f"{where}.do[{i}]", black, energy_max) for i, p in enumerate(do))
    return Effect.of(cost, tuple(conds), prims)


def _scoring(c: Checker, raw: Any, where: str) -> Scoring:
    keys = ("ship", "star", "star2", "all_buildings", "full_building", "full_building_size", "top_energy")
    return Scoring(*(_int(c, raw, k, where, 0, 100) for k in keys))


def parse_rules(doc: Any, source: str) -> Rules:
    c = Checker(source)
    if not isinstance(doc, dict):
        raise c.fail("top level", "expected a JSON object")
    emax = _int(c, doc, "energy_max", "top level", 1, 50)
    blist = c.field(doc, "buildings", "top level", list)
    if [b.get("colour") if isinstance(b, dict) else None for b in blist] != list(COLOURS):
        raise c.fail("buildings", f"expected the 5 buildings in the order {', '.join(COLOURS)}")
    buildings = []
    for i, b in enumerate(blist):
        where = f"buildings[{i}]"
        c.provenance(b, where)
        buildings.append(Building(
            i, c.field(b, "letter", where, str), _int(c, b, "value", where, 0, MAX_VALUE),
            c.field(b, "holds_colonists", where, bool), dict(c.field(b, "name", where, dict)),
            dict(c.field(b, "colour_name", where, dict)),
            _effect(c, c.field(b, "ability", where, dict), f"{where}.ability", False, emax)))
    if [b.holds_colonists for b in buildings] != [True, True, True, True, False]:
        raise c.fail("buildings", "the four coloured buildings hold colonists and black does not")
    cap = c.field(doc, "star2_capacity", "top level", dict)
    solo = c.field(doc, "solo", "top level", dict)
    solo_ints = {k: _int(c, solo, k, "solo", 0, 50) for k, v in solo.items() if not isinstance(v, dict)}
    return Rules(
        buildings=tuple(buildings), colonists=_int(c, doc, "colonists", "top level", 1, 20),
        start_ship=_int(c, doc, "start_ship", "top level", 0, 20),
        energy_start=_int(c, doc, "energy_start", "top level", 0, emax), energy_max=emax,
        hand_size=_int(c, doc, "hand_size", "top level", 1, 10),
        prep_size=_int(c, doc, "prep_size", "top level", 1, 10),
        draft_deal=_int(c, doc, "draft_deal", "top level", 1, 10),
        star2_capacity={int(k): _int(c, cap, k, "star2_capacity", 0, 10) for k in ("1", "2", "3", "4")},
        max_rounds=_int(c, doc, "max_rounds", "top level", 1, 10_000),
        scoring=_scoring(c, c.field(doc, "scoring", "top level", dict), "scoring"),
        solo_player_scoring=_scoring(c, c.field(solo, "player_scoring", "solo", dict), "solo.player_scoring"),
        solo_automaton_scoring=_scoring(c, c.field(solo, "automaton_scoring", "solo", dict),
                                        "solo.automaton_scoring"),
        solo=solo_ints,
    )


def parse_deck(doc: Any, source: str, energy_max: int) -> Deck:
    """Validate a deck document: exactly the 35 ids G1..K7, each card fully specified."""
    c = Checker(source)
    if not isinstance(doc, dict):
        raise c.fail("top level", "expected an object with a 'cards' list")
    raw_cards = c.field(doc, "cards", "top level", list)
    found: dict[str, Card] = {}
    for i, raw in enumerate(raw_cards):
        where = f"card #{i}"
        if not isinstance(raw, dict):
            raise c.fail(where, f"expected a card object, found {raw!r}")
        cid = c.field(raw, "id", where, str)
        where = f"card #{i} (id {cid!r})"
        if cid not in CARD_INDEX:
            raise c.fail(f"{where}.id", "ids are a colour letter (G Y B P K) and a number 1-7, e.g. 'G3'")
        if cid in found:
            raise c.fail(f"{where}.id", "duplicate id")
        for key in raw:
            if key not in CARD_FIELDS:
                raise c.fail(f"{where}.{key}", f"unknown field (allowed: {', '.join(sorted(CARD_FIELDS))})")
        colour = c.field(raw, "colour", where, str)
        if colour not in COLOURS:
            raise c.fail(f"{where}.colour", f"must be one of {', '.join(COLOURS)}, not {colour!r}")
        ci = COLOURS.index(colour)
        if LETTERS[ci] != cid[0]:
            raise c.fail(f"{where}.colour", f"{colour} cards have ids starting with {LETTERS[ci]!r}")
        black = ci == BLACK
        note = raw.get("note", "")
        if not isinstance(note, str):
            raise c.fail(f"{where}.note", f"expected text, found {note!r}")
        found[cid] = Card(
            CARD_INDEX[cid], cid, ci, _int(c, raw, "value", where, 0, MAX_VALUE), c.provenance(raw, where),
            _effect(c, c.field(raw, "top", where, dict), f"{where}.top", black, energy_max),
            _effect(c, c.field(raw, "bottom", where, dict), f"{where}.bottom", black, energy_max), note,
            tuple(c.field_provenance(raw, where, {"colour", "value", "top", "bottom"}).items()))
    missing = [cid for cid in CARD_IDS if cid not in found]
    if missing:
        raise c.fail("cards", f"a deck has exactly {NUM_CARDS} cards (7 per colour); missing: {', '.join(missing)}")
    cards = tuple(found[cid] for cid in CARD_IDS)
    return Deck(source, cards, tuple(k.colour for k in cards), tuple(k.value for k in cards))


@lru_cache(maxsize=1)
def rules() -> Rules:
    return parse_rules(load_packaged(PACKAGE, "rules.json"), "pocket_mars/rules.json")


@lru_cache(maxsize=16)
def _deck_cached(path: str, mtime: float) -> Deck:
    return parse_deck(load_json(path), path, rules().energy_max)


def deck(path: str | None = None) -> Deck:
    """The built-in deck (path None or "") or a user's deck file, validated (cached per file version)."""
    if not path:
        return _builtin_deck()
    if not isinstance(path, str):
        raise ComponentError(f"the 'components' option must be a file path, not {path!r}")
    try:
        mtime = Path(path).stat().st_mtime
    except OSError as e:
        raise ComponentError(f"{path}: cannot read the component file ({e.strerror})") from e
    return _deck_cached(path, mtime)


@lru_cache(maxsize=1)
def _builtin_deck() -> Deck:
    return parse_deck(load_packaged(PACKAGE, "cards.json"), "pocket_mars/cards.json", rules().energy_max)
