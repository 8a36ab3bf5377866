"""Cooper Island components: `components.json` (or a user's JSON/TOML file of the same shape), checked
field by field so that a bad file is refused with a message naming the file, the entry and the field.

Almost every number here is reconstructed (no public source has them); the rule code reads only this
object, so a user with the printed components can swap them in without touching the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from boardlab.core.components import Checker, load_json, load_packaged

PACKAGE = "boardlab.games.cooper_island"
RES = ("wood", "stone", "food", "gold", "cloth")
GOODS = (*RES, "coin")
RES_CODE = {"wood": "w", "stone": "s", "food": "f", "gold": "g", "cloth": "c", "coin": "$"}
CODE_RES = {v: k for k, v in RES_CODE.items()}
TERRAINS = ("forest", "meadow", "mountain", "settlement")
TERRAIN_CODE = {"forest": "F", "meadow": "M", "mountain": "R", "settlement": "S"}
CODE_TERRAIN = {v: k for k, v in TERRAIN_CODE.items()}
OPS = ("res", "coin", "carto", "helm", "any", "draw", "place")
WHATS = ("boat", "statue", "crate", "tall", "log", "meadow", "building", "settlement", "covered")
MAX_SEATS = 4

Prim = tuple[str, int, str]  # (op, n, resource or "")
Cost = tuple[tuple[str, int], ...]  # sorted (resource, amount) pairs


@dataclass(frozen=True)
class Card:
    id: str
    name: dict[str, str]
    effect: tuple[Prim, ...]
    score: tuple[str, str, int]  # (op, what, n)
    provenance: str


@dataclass(frozen=True)
class Components:
    source: str
    cubes: int
    hexes: tuple[tuple[int, int], ...]  # (q, r) per hex index
    road: tuple[int, ...]
    ruins: tuple[int, ...]
    start_hex: int
    neighbours: tuple[tuple[int, ...], ...]
    max_height: int
    segment: int
    log_beaches: tuple[int, ...]
    islet_spots: tuple[int, ...]
    sandbanks: tuple[int, ...]
    splits: tuple[tuple[tuple[str, str], tuple[str, str]], ...]
    split_counts: tuple[int, ...]
    singles: dict[str, int]
    carto_max: int
    carto_start: tuple[int, ...]
    shim_cost: int
    single_cost: tuple[int, ...]
    start_coins: int
    start_tiles: int
    start_storage: int
    islets: tuple[tuple[Prim, ...], ...]
    boats: tuple[tuple[Prim, ...], ...]
    parking: tuple[Cost, ...]
    slots: dict[str, tuple[Cost, ...]]  # kind -> costs in order
    fort_score: tuple[str, str, int]
    helm_small: int
    helm_large: int
    helm_settlement: int
    small: tuple[Card, ...]
    large: tuple[Card, ...]
    offer: int
    statue_costs: tuple[Cost, ...]
    workshop_points: tuple[int, ...]
    cargo: tuple[Cost, ...]
    crate_icons: tuple[tuple[Prim, ...], ...]
    milestones: tuple[tuple[str, int], ...]
    upkeep: tuple[int, ...]
    fed_helm_from: int
    fed_helm: int
    react_large: int
    react_crate: int
    orders: tuple[tuple[str, tuple[tuple[int, int], ...]], ...]
    orders_in_play: dict[int, tuple[tuple[int, ...], int]]
    log_tokens: tuple[str, ...]
    per_log: int
    leftover: int
    anchor: int
    rounds: int

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.small + self.large


def _cost(c: Checker, obj: Any, where: str) -> Cost:
    if not isinstance(obj, dict) or not obj:
        raise c.fail(where, "a cost must be a non-empty object of resource -> amount")
    out = []
    for k, v in obj.items():
        if k not in GOODS:
            raise c.fail(f"{where}.{k}", f"unknown resource (use one of {', '.join(GOODS)})")
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 9:
            raise c.fail(f"{where}.{k}", f"amount must be an integer 1..9, not {v!r}")
        out.append((k, v))
    return tuple(sorted(out))


def _effect(c: Checker, obj: Any, where: str) -> tuple[Prim, ...]:
    if not isinstance(obj, list):
        raise c.fail(where, "an effect must be a list of {op, n} steps")
    out: list[Prim] = []
    for i, p in enumerate(obj):
        w = f"{where}[{i}]"
        op = c.field(p, "op", w, str)
        if op not in OPS:
            raise c.fail(f"{w}.op", f"unknown op {op!r} (use one of {', '.join(OPS)})")
        n = c.int_field(p, "n", w, 1, 5)
        res = ""
        if op == "res":
            res = c.field(p, "res", w, str)
            if res not in RES:
                raise c.fail(f"{w}.res", f"unknown resource {res!r}")
        out.append((op, n, res))
    return tuple(out)


def _score(c: Checker, obj: Any, where: str) -> tuple[str, str, int]:
    op = c.field(obj, "op", where, str)
    n = c.int_field(obj, "n", where, 0, 20)
    if op == "flat":
        return ("flat", "", n)
    if op != "per":
        raise c.fail(f"{where}.op", f"score op must be 'flat' or 'per', not {op!r}")
    what = c.field(obj, "what", where, str)
    if what not in WHATS:
        raise c.fail(f"{where}.what", f"unknown count {what!r} (use one of {', '.join(WHATS)})")
    return ("per", what, n)


def _cards(c: Checker, doc: Any, key: str, effect_key: str) -> tuple[Card, ...]:
    items = c.field(doc, key, "top", list)
    ids = c.unique_ids(items, key)
    out = []
    for i, item in enumerate(items):
        w = f"{key}[{i}] ({ids[i]})"
        name = c.field(item, "name", w, dict)
        if not isinstance(name.get("en"), str):
            raise c.fail(f"{w}.name", "needs an 'en' name")
        out.append(Card(ids[i], dict(name), _effect(c, c.field(item, effect_key, w, list), f"{w}.{effect_key}"),
                        _score(c, c.field(item, "score", w, dict), f"{w}.score"), c.provenance(item, w)))
    if len(out) < 4:
        raise c.fail(key, "needs at least 4 cards")
    return tuple(out)


def _entries(c: Checker, doc: Any, key: str, n: int) -> list[Any]:
    items = c.field(doc, key, "top", list)
    if len(items) != n:
        raise c.fail(key, f"needs exactly {n} entries, found {len(items)}")
    for i, item in enumerate(items):
        c.provenance(item, f"{key}[{i}]")
    return items


def parse(doc: Any, source: str) -> Components:
    """Validate a loaded components document (located errors) and build the engine's tables."""
    c = Checker(source)
    if not isinstance(doc, dict):
        raise c.fail("top", "expected an object")
    res = c.field(doc, "resources", "top", dict)
    c.provenance(res, "resources")
    pen = c.field(doc, "peninsula", "top", dict)
    c.provenance(pen, "peninsula")
    hx = c.field(pen, "hexes", "peninsula", list)
    if not 6 <= len(hx) <= 40:
        raise c.fail("peninsula.hexes", "needs 6..40 hexes")
    coords, road, ruins, start = [], [], [], []
    for i, h in enumerate(hx):
        w = f"peninsula.hexes[{i}]"
        if c.int_field(h, "id", w, 1, 40) != i + 1:
            raise c.fail(f"{w}.id", f"hex ids must be 1..n in order (expected {i + 1})")
        qr = (c.int_field(h, "q", w, -20, 20), c.int_field(h, "r", w, -20, 20))
        if qr in coords:
            raise c.fail(w, f"two hexes at q={qr[0]}, r={qr[1]}")
        coords.append(qr)
        if h.get("road"):
            road.append(i)
        if h.get("ruin"):
            ruins.append(i)
        if h.get("start"):
            start.append(i)
    if len(start) != 1:
        raise c.fail("peninsula.hexes", "exactly one hex must be the start hex")
    if not road:
        raise c.fail("peninsula.hexes", "at least one hex must be a road hex")
    dirs = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
    index = {qr: i for i, qr in enumerate(coords)}
    nbrs = tuple(tuple(index[(q + dq, r + dr)] for dq, dr in dirs if (q + dq, r + dr) in index) for q, r in coords)
    ring = c.field(doc, "ring", "top", dict)
    c.provenance(ring, "ring")
    seg = c.int_field(ring, "segment", "ring", 4, 30)
    logs = tuple(c.field(ring, "logs", "ring", list))
    spots = tuple(c.field(ring, "islet_spots", "ring", list))
    banks = tuple(c.field(ring, "sandbanks", "ring", list))
    for name, vals in (("logs", logs), ("islet_spots", spots), ("sandbanks", banks)):
        if any(not isinstance(v, int) or not 0 <= v < seg for v in vals):
            raise c.fail(f"ring.{name}", f"beaches must be integers 0..{seg - 1}")
    if 0 in spots:
        raise c.fail("ring.islet_spots", "beach 0 is the harbour")
    if 0 in banks:
        raise c.fail("ring.sandbanks", "beach 0 is the harbour")
    on_bank = sorted(set(spots) & set(banks))
    if on_bank:  # the seed: 「當放置海島板塊時,不可以將海上的整沙灘遮住」
        raise c.fail("ring.islet_spots", f"beach {on_bank[0]} is a sandbank: no islet may cover a sandbank")
    dt = c.field(doc, "double_tiles", "top", dict)
    c.provenance(dt, "double_tiles")
    splits, counts = [], []
    for i, s in enumerate(c.field(dt, "splits", "double_tiles", list)):
        w = f"double_tiles.splits[{i}]"
        a, b = c.field(s, "a", w, list), c.field(s, "b", w, list)
        if len(a) != 2 or len(b) != 2 or sorted(a + b) != sorted(TERRAINS):
            raise c.fail(w, "sides a and b must each show 2 terrains and together all four")
        splits.append((tuple(a), tuple(b)))
        counts.append(c.int_field(s, "count", w, 0, 60))
    if len(splits) != 3:
        raise c.fail("double_tiles.splits", "needs exactly 3 splits")
    st = c.field(doc, "single_tiles", "top", dict)
    c.provenance(st, "single_tiles")
    singles = {t: c.int_field(st, t, "single_tiles", 0, 60) for t in TERRAINS}
    ca = c.field(doc, "cartographer", "top", dict)
    c.provenance(ca, "cartographer")
    cmax = c.int_field(ca, "max", "cartographer", 4, 30)
    cstart = tuple(c.field(ca, "start", "cartographer", list))
    if len(cstart) != 4 or any(not isinstance(v, int) or not 0 <= v <= cmax for v in cstart):
        raise c.fail("cartographer.start", f"needs 4 integers 0..{cmax}")
    maxh = c.int_field(pen, "max_height", "peninsula", 2, 9)
    scost = tuple(c.field(ca, "single_cost_by_height", "cartographer", list))
    if len(scost) != maxh + 1 or any(not isinstance(v, int) or v < 1 for v in scost[1:]):
        raise c.fail("cartographer.single_cost_by_height", f"needs {maxh + 1} integers (index 0 unused), each >= 1")
    start_d = c.field(doc, "start", "top", dict)
    c.provenance(start_d, "start")
    islets = [_effect(c, c.field(e, "effect", f"islets[{i}]", list), f"islets[{i}].effect")
              for i, e in enumerate(_entries(c, doc, "islets", 6))]
    if len(spots) < len(islets):
        raise c.fail("ring.islet_spots", f"needs at least {len(islets)} islet spots")
    boats = [_effect(c, c.field(e, "effect", f"boats[{i}]", list), f"boats[{i}].effect")
             for i, e in enumerate(_entries(c, doc, "boats", 6))]
    parking = [_cost(c, c.field(e, "cost", f"parking[{i}]", dict), f"parking[{i}].cost")
               for i, e in enumerate(_entries(c, doc, "parking", 6))]
    slots: dict[str, list[Cost]] = {"small": [], "large": [], "fort": []}
    fort_score = ("flat", "", 0)
    for i, e in enumerate(c.field(doc, "building_slots", "top", list)):
        w = f"building_slots[{i}]"
        c.provenance(e, w)
        kind = c.field(e, "kind", w, str)
        if kind not in slots:
            raise c.fail(f"{w}.kind", "must be small, large or fort")
        slots[kind].append(_cost(c, c.field(e, "cost", w, dict), f"{w}.cost"))
        if kind == "fort" and "score" in e:
            fort_score = _score(c, e["score"], f"{w}.score")
    if len(slots["fort"]) != 1 or not slots["small"] or not slots["large"]:
        raise c.fail("building_slots", "needs small and large slots and exactly one fort")
    hb = c.field(doc, "helm_for_building", "top", dict)
    c.provenance(hb, "helm_for_building")
    small = _cards(c, doc, "small_buildings", "effect")
    large = _cards(c, doc, "large_buildings", "ability")
    if {x.id for x in small} & {x.id for x in large}:
        raise c.fail("large_buildings", "card ids must differ from the small buildings' ids")
    statues = _entries(c, doc, "statues", 3)
    cargo = [_cost(c, c.field(e, "cost", f"cargo_cards[{i}]", dict), f"cargo_cards[{i}].cost")
             for i, e in enumerate(_entries(c, doc, "cargo_cards", 5))]
    icons = [_effect(c, c.field(e, "effect", f"crate_icons[{i}]", list), f"crate_icons[{i}].effect")
             for i, e in enumerate(_entries(c, doc, "crate_icons", 5))]
    miles = []
    for i, e in enumerate(_entries(c, doc, "milestones", 4)):
        what = c.field(e, "what", f"milestones[{i}]", str)
        if what not in WHATS:
            raise c.fail(f"milestones[{i}].what", f"unknown count {what!r}")
        miles.append((what, c.int_field(e, "n", f"milestones[{i}]", 1, 30)))
    up = c.field(doc, "upkeep", "top", dict)
    c.provenance(up, "upkeep")
    food = tuple(c.field(up, "food_by_hires", "upkeep", list))
    if len(food) != 5 or any(not isinstance(v, int) or v < 0 for v in food):
        raise c.fail("upkeep.food_by_hires", "needs 5 integers >= 0 (0..4 milestones reached)")
    re_ = c.field(doc, "reactivate", "top", dict)
    c.provenance(re_, "reactivate")
    orders = []
    for i, e in enumerate(_entries(c, doc, "royal_orders", 8)):
        w = f"royal_orders[{i}]"
        what = c.field(e, "what", w, str)
        if what not in WHATS:
            raise c.fail(f"{w}.what", f"unknown count {what!r}")
        tiers = c.field(e, "tiers", w, list)
        if not tiers or any(not isinstance(t, list) or len(t) != 2 for t in tiers):
            raise c.fail(f"{w}.tiers", "needs a list of [count, points] pairs")
        orders.append((what, tuple((int(a), int(b)) for a, b in tiers)))
    oip = c.field(doc, "orders_in_play", "top", dict)
    c.provenance(oip, "orders_in_play")
    in_play = {}
    for n in (2, 3, 4):
        e = c.field(oip, str(n), "orders_in_play", dict)
        in_play[n] = (tuple(c.field(e, "remove", f"orders_in_play.{n}", list)),
                      c.int_field(e, "draw", f"orders_in_play.{n}", 1, 8))
    lt = c.field(doc, "log_tokens", "top", dict)
    c.provenance(lt, "log_tokens")
    tokens = tuple(g for g in GOODS for _ in range(c.int_field(lt, g, "log_tokens", 0, 30)))
    sc = c.field(doc, "scoring", "top", dict)
    c.provenance(sc, "scoring")
    rd = c.field(doc, "rounds", "top", dict)
    c.provenance(rd, "rounds")
    for t in c.field(doc, "terrains", "top", list):
        c.provenance(t, "terrains")
    off = c.field(doc, "offer_size", "top", dict)
    c.provenance(off, "offer_size")
    return Components(
        source=source, cubes=c.int_field(res, "cubes_per_colour", "resources", 1, 60),
        hexes=tuple(coords), road=tuple(road), ruins=tuple(ruins), start_hex=start[0], neighbours=nbrs,
        max_height=maxh, segment=seg, log_beaches=logs, islet_spots=spots, sandbanks=banks,
        splits=tuple(splits), split_counts=tuple(counts), singles=singles, carto_max=cmax, carto_start=cstart,
        shim_cost=c.int_field(ca, "shim_cost", "cartographer", 0, 5), single_cost=scost,
        start_coins=c.int_field(start_d, "coins", "start", 0, 10),
        start_tiles=c.int_field(start_d, "tiles", "start", 0, 6),
        start_storage=c.int_field(start_d, "storage", "start", 1, 12),
        islets=tuple(islets), boats=tuple(boats), parking=tuple(parking),
        slots={k: tuple(v) for k, v in slots.items()}, fort_score=fort_score,
        helm_small=c.int_field(hb, "small", "helm_for_building", 0, 5),
        helm_large=c.int_field(hb, "large", "helm_for_building", 0, 5),
        helm_settlement=c.int_field(hb, "settlement_bonus", "helm_for_building", 0, 5),
        small=small, large=large, offer=c.int_field(off, "n", "offer_size", 1, 6),
        statue_costs=tuple(_cost(c, c.field(e, "cost", f"statues[{i}]", dict), f"statues[{i}].cost")
                           for i, e in enumerate(statues)),
        workshop_points=tuple(c.int_field(e, "workshop_point", f"statues[{i}]", 0, 5) for i, e in enumerate(statues)),
        cargo=tuple(cargo), crate_icons=tuple(icons), milestones=tuple(miles), upkeep=food,
        fed_helm_from=c.int_field(up, "fed_helm_from_hires", "upkeep", 0, 4),
        fed_helm=c.int_field(up, "fed_helm", "upkeep", 0, 5),
        react_large=c.int_field(re_, "large_building", "reactivate", 0, 9),
        react_crate=c.int_field(re_, "crate", "reactivate", 0, 9),
        orders=tuple(orders), orders_in_play=in_play, log_tokens=tokens,
        per_log=c.int_field(sc, "per_log", "scoring", 0, 20),
        leftover=c.int_field(sc, "leftover_per_point", "scoring", 1, 20),
        anchor=c.field(sc, "anchor", "scoring", int), rounds=c.int_field(rd, "n", "rounds", 1, 10),
    )


@lru_cache(maxsize=8)
def components(path: str = "") -> Components:
    """The built-in components, or a user's file (JSON or TOML) validated with located errors."""
    if not path:
        return parse(load_packaged(PACKAGE, "components.json"), "cooper_island/components.json")
    return parse(load_json(Path(path)), str(path))
