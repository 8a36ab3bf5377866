"""Cooper Island in words (en, zh-TW): action descriptions, the plain-text picture a terminal prints
(every peninsula with heights and cubes, the action spaces, ships on the sea ring, each player's board) and the
reasons an action is refused."""

from __future__ import annotations

from functools import cache
from typing import Any

from boardlab.core.narration import after_of
from boardlab.core.refusal import game_over, not_now
from boardlab.core.terms import game_data, game_term, game_terms, punctuation

from .actions import SPACES, Act
from .components import CODE_TERRAIN, GOODS
from .rules import CooperState

CUBE = {"wood": "w", "stone": "s", "food": "f", "gold": "g", "cloth": "c", "": "."}
TERR = {"forest": "F", "meadow": "M", "mountain": "R", "settlement": "S"}


def term(key: str, lang: str, /, **kw: Any) -> str:
    return game_term("boardlab.games.cooper_island", key, lang, **kw)


def player_name(q: int, lang: str) -> str:
    return term("player", lang, n=q + 1)


def describe(action: Any, lang: str = "en") -> str:
    """An action in words, for a game log."""
    if not isinstance(action, Act):
        return str(action)
    k, a, b, c = action
    if k in SPACES:
        return term("a_worker_special" if a else "a_worker", lang, space=k)
    if k in ("pass", "done", "auto", "anchor", "draw", "place", "statue", "skip") or (k == "ruin" and not a):
        return term(f"a_{k}", lang)
    if k == "ruin":
        return term("a_ruin_hex", lang, i=a)
    if k == "tile":
        return term("a_tile", lang, split=a, side=b)
    if k == "at":
        return term("a_at_shim" if c else "a_at", lang, i=a, j=b)
    if k == "top":
        return term("a_top", lang, i=a)
    if k == "cube":
        return term("a_cube", lang, i=a)
    if k == "pay":
        return term("a_pay_h", lang, i=b) if a == "h" else term(f"a_pay_{a}", lang, good=term(b, lang))
    if k == "cut":
        return term("a_cut", lang, good=term(a, lang))
    if k == "build":
        return term("a_build_fort", lang) if a == "fort" else term("a_build", lang, kind=term(a, lang))
    if k == "card":
        return term("a_card", lang, card=a)
    if k in ("boat", "run"):
        return term(f"a_{k}", lang, k=a)
    if k == "crate":
        return term("a_crate_turn" if b else "a_crate", lang, c=a)
    if k == "res":
        return term("a_res", lang, good=term(a, lang))
    if k == "ship":
        return term("a_ship", lang, k=a)
    if k in ("isle", "useboat"):
        return term(f"a_{k}", lang, k=b, player=player_name(int(a[1:]) - 1, lang))
    if k == "hire":
        return term("a_hire", lang, kind=term(a, lang))
    if k == "order":
        return term("a_order", lang, k=a, kind=term(b, lang))
    if k == "islet":
        return term("a_islet", lang, k=a, s=b)
    if k == "store":
        return term("a_store_h", lang, i=b) if a == "h" else term("a_store_m", lang, good=term(b, lang))
    if k == "ex":
        what = {"cloth": "2 cloth → 1 coin", "gold": "2 gold → 1", "any": "4 → 1"}[a]
        return term("a_ex", lang, what=what)
    if k == "use":
        return term("a_use", lang, k=a)
    if k == "single":
        return term("a_single", lang, i=a, terrain=term(b, lang))
    if k == "ability":
        return term("a_ability", lang, card=card_name(a, lang))
    if k == "react":
        return term("a_react_crate", lang, k=b) if a == "crate" else term("a_react", lang, card=card_name(a, lang))
    return str(action)


def describe_move(before: CooperState, action: Any, lang: str = "en") -> str:
    """The log's words for `action` in `before`: what a bare "is done", "places", "declines" or a tile's number
    and side meant in that position (the terrains, the ship's new beach); what it gained follows from
    core/narration.py."""
    if not isinstance(action, Act) or before.decider is None or not before.todo:
        return describe(action, lang)
    k, a, b, _ = action
    step = before.todo[-1][0]
    p = before.decider
    if k in ("done", "skip") and f"a_{k}_{step}" in game_terms("boardlab.games.cooper_island")["en"]:
        return term(f"a_{k}_{step}", lang)  # what ending or declining this question means, where its words say so
    if k in ("draw", "place") and step == "or":
        return term(f"a_{k}_tile", lang)
    if k == "tile":
        t1, t2 = before.C.splits[int(a) - 1]["ab".index(b)]
        return term("a_tile_named", lang, t1=term(t1, lang), t2=term(t2, lang), split=a, side=b)
    if k == "ship":
        to = after_of(before, action).players[p].ships[int(a) - 1]
        return term("a_ship_to", lang, k=a, to=to)
    return describe(action, lang)


@cache
def _labels(lang: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The ledger's names in `lang` (looked up once: the log asks for them on every move)."""
    store = tuple(term("l_store", lang, good=term(g, lang)) for g in GOODS)
    market = tuple(term("l_market", lang, good=term(g, lang)) for g in GOODS)
    rest = tuple(term(k, lang) for k in ("l_tiles", "l_logs", "l_anchors", "l_crates", "l_statues", "l_boats",
                                         "l_buildings", "l_vp"))
    return store, market, rest


def ledger(state: CooperState, lang: str) -> list[dict[str, int]]:
    """Each player's public counts (every piece of Cooper Island is public), named for the log."""
    store, market, rest = _labels(lang)
    out = []
    for P in state.players:
        d = {label: P.store.get(g, 0) for label, g in zip(store, GOODS, strict=True)}
        d.update({label: P.market.get(g, 0) for label, g in zip(market, GOODS, strict=True)})
        d.update(zip(rest, (sum(P.hand), P.logs, P.anchors, P.crates, P.statues, len(P.boats),
                            sum(P.built.values()), P.vp), strict=True))
        out.append(d)
    return out


def end_cause(state: CooperState, lang: str) -> str:
    """Why the game ended: its rounds are played."""
    return term("end_cause", lang, n=min(state.round, state.C.rounds))


def seat_name(seat: int, lang: str = "en") -> str:
    """A seat as the log names it (core.game.Game.seat_name)."""
    return player_name(seat, lang)


def why_illegal(state: CooperState, action: Any, lang: str = "en") -> str:
    """Why `action` is refused, in `lang`: who decides what now (the step in the game's words), and a few of
    the answers they may give."""
    if state.decider is None or not state.todo:
        return game_over(action, lang)
    step = term("step_" + state.todo[-1][0], lang)
    return not_now(action, player_name(state.decider, lang), step, state.options_, lang)


def card_name(cid: str, lang: str) -> str:
    from .components import components

    for c in components().cards:
        if c.id == cid:
            return f"{cid} {c.name.get(lang) or c.name['en']}"
    return cid


def hex_cell(h: dict[str, Any]) -> str:
    """Four characters: height, top terrain, cube or building mark."""
    if h["ruin"]:
        return " XX "
    if not h["height"]:
        return " .. "
    top = h["tiles"][-1]
    mark = "#" if h["occ"] and h["occ"] != "statue" else "$" if h["occ"] == "statue" else CUBE[h["cube"]]
    return f"{h['height']}{top}{mark} "


def peninsula(board: dict[str, Any]) -> list[str]:
    rows: dict[int, list[dict[str, Any]]] = {}
    for h in board["hexes"]:
        rows.setdefault(h["r"], []).append(h)
    qmin = min(h["q"] + h["r"] / 2 for h in board["hexes"])
    out = []
    for r in sorted(rows):
        hs = sorted(rows[r], key=lambda h: h["q"])
        lead = round((hs[0]["q"] + r / 2 - qmin) * 4)
        ids = " " * lead + "".join(f"{h['id']:>3} " for h in hs)
        cells = " " * lead + "".join(hex_cell(h) for h in hs)
        out += [ids, cells]
    return out


def goods(d: dict[str, int], lang: str) -> str:
    return punctuation(lang).comma.join(f"{term(g, lang)} {k}" for g, k in d.items() if k) or "-"


def tiebreak_text(tiebreak: tuple[int, ...], lang: str) -> str:
    """Equal totals: fewer empty island spaces wins (Score.tiebreak keeps the count negated)."""
    return term("tiebreak", lang, n=-tiebreak[0])


def render(state: CooperState, seat: int | None, lang: str = "en") -> str:
    """What `seat` sees, as plain text (no markup, no '[')."""
    v = state.view(seat)
    signs = punctuation(lang)
    colon, listing = signs.colon, signs.listing
    lines = [f"{term('round', lang, n=min(v['round'], v['rounds']), of=v['rounds'])} · "
             f"{term('phase_' + v['phase'], lang)} · {term('start', lang)} {player_name(v['start_player'], lang)}"]
    if state.decider is not None:
        step = term("step_" + state.todo[-1][0], lang)
        lines.append(f"{term('now', lang)}{colon}{player_name(state.decider, lang)} — {step}")
    lines.append(f"{term('spaces', lang)}{colon.rstrip()}")
    for x in SPACES:
        occ = listing.join(player_name(q, lang) + ("*" if sp else "") for q, sp in v["spaces"][x])
        lines.append(f"  {term('space_' + x, lang)} · {term('special_' + x, lang)}" + (f"  ← {occ}" if occ else ""))
    ring = v["ring"]
    seg = v["segment"]
    marks = []
    for b in range(ring):
        k = b % seg
        ch = "H" if k == 0 else "L" if k in state.C.log_beaches else "=" if b in v["sandbanks"] else "~"
        isl = [i for i in v["islets"] if i["beach"] == b]
        if isl:
            ch = "i"
        ships = [f"{q + 1}{'ab'[s]}" for q, bd in enumerate(v["boards"])
                 for s, pos in enumerate(bd["ships"]) if pos == b]
        marks.append(ch + ("(" + ",".join(ships) + ")" if ships else ""))
    lines.append(f"{term('ring', lang)}{signs.bracket(term('ring_legend', lang))}{colon.rstrip()}")
    lines.append("  " + " ".join(marks))
    cargo = " ".join(f"{c['card']}:" + "".join(str(q + 1) for q in c["crates"]) + ("↷" if c["turned"] else "")
                     for c in v["cargo"])
    orders = " ".join(f"#{o['order']}" + (f"={o['worker'] + 1}" if o["worker"] is not None else "")
                      for o in v["orders"])
    lines.append(f"{term('cargo', lang)} {cargo} · {term('orders', lang)} {orders} · {term('bag', lang)} {v['bag']}")
    scores = state.scores()
    for q, bd in enumerate(v["boards"]):
        mark = "▶" if q == state.decider else " "
        who = player_name(q, lang) + (signs.bracket(term("you", lang)) if q == seat else "")
        w = bd["workers"]
        lines.append("")
        lines.append(f"{mark}{who} · {term('score', lang)} {scores[q].total} · {term('workers', lang)} "
                     f"{w['idle_normal']}/{w['normal']}+{w['idle_special']}/{w['special']} · "
                     f"{term('cartographer', lang)} {bd['cartographer']} · {term('hand', lang)} "
                     f"{'/'.join(map(str, bd['hand']))} · {term('anchors', lang)} {bd['anchors']} · "
                     f"{term('logs', lang)} {bd['logs']}")
        cap = signs.bracket(term("storage_cap", lang, n=bd["storage_cap"]))
        lines.append(f"  {term('storage', lang)}{cap}{colon}{goods(bd['storage'], lang)} · "
                     f"{term('market', lang)}{colon}{goods(bd['market'], lang)}")
        lines.append(f"  {term('boats', lang)} {' '.join(map(str, bd['boats'])) or '-'} · {term('buildings', lang)} "
                     f"{' '.join(bd['buildings']) or '-'}{' +fort' if bd['fort'] else ''} · {term('crates', lang)} "
                     f"{bd['crates']} · {term('statues', lang)} {bd['statues']} · {term('milestones', lang)} "
                     f"{' '.join(map(str, bd['milestones'])) or '-'}")
        lines += ["  " + row for row in peninsula(bd)]
    lines.append(term("legend", lang))
    lines.append(term("reconstructed_note", lang))
    if state.is_over:
        won = state.winners()
        for q, s in enumerate(scores):
            parts = signs.comma.join(f"{term('score_' + k, lang)} {x}" for k, x in s.breakdown.items())
            lines.append(f"  {player_name(q, lang)} {s.total}{signs.bracket(parts)}")
        lines.append(f"{term('winners', lang)}{colon}{listing.join(player_name(q, lang) for q in won)}")
    return "\n".join(lines).replace("[", "(").replace("]", ")")


__all__ = ["CODE_TERRAIN", "TERR", "describe", "render", "term", "tiebreak_text"]


# -- every component explained (Game.explain: the browser's tooltips) ----------------------------------------
def _data() -> dict[str, Any]:
    return game_data("boardlab.games.cooper_island", "components")  # type: ignore[no-any-return]


def _fx(prims: list[dict[str, Any]], lang: str) -> str:
    """An effect in words ("+2 food, sail a ship 1 beach(es)")."""
    out = []
    for p in prims:
        good = term(p["res"], lang) if p.get("res") else ""
        out.append(term(f"x_{p['op']}", lang, n=p.get("n", 1), good=good))
    return punctuation(lang).comma.join(out) or term("x_nothing", lang)


def _cost(cost: dict[str, int], lang: str) -> str:
    return punctuation(lang).comma.join(f"{term(g, lang)} {k}" for g, k in cost.items()) or term("x_cost_none", lang)


def _score(score: dict[str, Any] | None, lang: str) -> str:
    if not score:
        return term("x_flat", lang, n=0)
    if score["op"] == "flat":
        return term("x_flat", lang, n=score["n"])
    return term("x_per", lang, n=score["n"], what=term(f"w_{score['what']}", lang))


def _costs(costs: list[dict[str, int]], lang: str) -> str:
    return term("x_or", lang).join(term("x_nth", lang, n=i + 1) + _cost(c, lang) for i, c in enumerate(costs))


def explain(lang: str = "en") -> dict[str, dict[str, Any]]:
    """Every component by the id the browser marks it with (space:A, islet:1, boat:1, building:S1, building:fort,
    cargo:1, crate:1, order:1, milestone:1, tile:1, terrain:F, good:wood, ruin, statue, ship:1, harbour, log,
    beach, sandbank): what it is, does and costs, and whether it is reconstructed (components.json's provenance),
    so no id reaches a player without its meaning."""
    d = _data()
    rec = lambda e: e.get("provenance") == "reconstructed"  # noqa: E731
    out: dict[str, dict[str, Any]] = {}
    for x in SPACES:
        out[f"space:{x}"] = {"name": term("x_space", lang, x=x),
                             "what": punctuation(lang).semicolon.join((term("space_" + x, lang),
                                                                       term("special_" + x, lang))),
                             "cost": term("x_space_cost", lang)}
    for e in d["islets"]:
        out[f"islet:{e['id']}"] = {"name": term("x_islet", lang, k=e["id"]),
                                   "what": term("x_islet_what", lang, fx=_fx(e["effect"], lang)),
                                   "cost": term("x_islet_cost", lang), "reconstructed": rec(e)}
    boat_costs = term("x_boat_cost", lang, list=_costs([p["cost"] for p in d["parking"]], lang))
    for e in d["boats"]:
        out[f"boat:{e['id']}"] = {"name": term("x_boat", lang, k=e["id"]),
                                  "what": term("x_boat_what", lang, fx=_fx(e["effect"], lang)),
                                  "cost": boat_costs, "reconstructed": rec(e)}
    slots: dict[str, list[dict[str, int]]] = {}
    for e in d["building_slots"]:
        slots.setdefault(e["kind"], []).append(e["cost"])
    for kind, key in (("small", "small_buildings"), ("large", "large_buildings")):
        cost = term("x_slot_cost", lang, kind=term(kind, lang), list=_costs(slots[kind], lang))
        for e in d[key]:
            out[f"building:{e['id']}"] = {
                "name": term(f"x_{kind}", lang, k=e["id"], name=e["name"].get(lang) or e["name"]["en"]),
                "what": term(f"x_{kind}_what", lang, fx=_fx(e.get("effect") or e.get("ability") or [], lang),
                             score=_score(e.get("score"), lang)),
                "cost": cost, "reconstructed": rec(e)}
    fort = next(e for e in d["building_slots"] if e["kind"] == "fort")
    out["building:fort"] = {"name": term("x_fort", lang), "what": term("x_fort_what", lang,
                                                                       score=_score(fort.get("score"), lang)),
                            "cost": _cost(fort["cost"], lang), "reconstructed": rec(fort)}
    for e in d["cargo_cards"]:
        out[f"cargo:{e['id']}"] = {"name": term("x_cargo", lang, k=e["id"]),
                                   "what": term("x_cargo_what", lang, k=e["id"]),
                                   "cost": _cost(e["cost"], lang), "reconstructed": rec(e)}
    for e in d["crate_icons"]:
        out[f"crate:{e['id']}"] = {"name": term("x_crate", lang, k=e["id"]),
                                   "what": term("x_crate_what", lang, fx=_fx(e["effect"], lang)),
                                   "cost": term("x_crate_cost", lang), "reconstructed": rec(e)}
    for e in d["royal_orders"]:
        tiers = term("x_or", lang).join(term("x_tier", lang, need=n, pts=p) for n, p in e["tiers"])
        out[f"order:{e['id']}"] = {"name": term("x_order", lang, k=e["id"]),
                                   "what": term("x_order_what", lang, what=term(f"w_{e['what']}", lang), tiers=tiers),
                                   "cost": term("x_order_cost", lang), "reconstructed": rec(e)}
    for e in d["milestones"]:
        out[f"milestone:{e['id']}"] = {"name": term("x_milestone", lang, k=e["id"]),
                                       "what": term("x_milestone_what", lang, n=e["n"],
                                                    what=term(f"w_{e['what']}", lang)),
                                       "cost": term("x_milestone_cost", lang), "reconstructed": rec(e)}
    tiles = d["double_tiles"]
    for e in tiles["splits"]:
        side = lambda ts: " + ".join(term(t, lang) for t in ts)  # noqa: E731
        out[f"tile:{e['id']}"] = {"name": term("x_tile", lang, k=e["id"]),
                                  "what": term("x_tile_what", lang, a=side(e["a"]), b=side(e["b"])),
                                  "cost": term("x_tile_cost", lang), "reconstructed": rec(tiles)}
    for e in d["terrains"]:
        name = term(e["id"], lang)
        out[f"terrain:{TERR[e['id']]}"] = {"name": term("x_terrain", lang, name=name),
                                           "what": term("x_terrain_what", lang, name=name,
                                                        good=term(e["resource"], lang))}
    for g in ("wood", "stone", "food", "gold", "cloth", "coin"):
        out[f"good:{g}"] = {"name": term(g, lang), "what": term("x_good_what", lang, name=term(g, lang))}
    out["hex"] = {"name": term("x_hex", lang), "what": term("x_hex_what", lang), "reconstructed": rec(d["peninsula"])}
    out["ruin"] = {"name": term("x_ruin", lang), "what": term("x_ruin_what", lang), "cost": term("x_ruin_cost", lang)}
    statues = d["statues"]
    out["statue"] = {"name": term("x_statue", lang),
                     "what": term("x_statue_what", lang, pts=" / ".join(str(s["workshop_point"]) for s in statues)),
                     "cost": term("x_statue_cost", lang, list=_costs([s["cost"] for s in statues], lang)),
                     "reconstructed": any(rec(s) for s in statues)}
    for k, way in ((1, "x_cw"), (2, "x_ccw")):
        out[f"ship:{k}"] = {"name": term("x_ship", lang, k=k), "what": term("x_ship_what", lang, dir=term(way, lang)),
                            "cost": term("x_ship_cost", lang)}
    ring = rec(d["ring"])
    for key, name in (("harbour", "x_harbour"), ("log", "x_logbeach"), ("beach", "x_beach"),
                      ("sandbank", "x_sandbank")):
        out[key] = {"name": term(name, lang), "what": term(f"{name}_what", lang), "reconstructed": ring}
    return out
