"""Cacao in words and in a terminal: action descriptions, a colour board (rich markup) and the reasons an action is
refused (the rules decide whether an action is legal; these words say why not, in the player's language)."""

from __future__ import annotations

from functools import cache
from typing import Any

from boardlab.core.game import MenuItem
from boardlab.core.narration import after_of
from boardlab.core.refusal import foreign, game_over, not_legal, not_now, refused
from boardlab.core.terms import game_data, game_term, punctuation

from .actions import DIRS, STEPS, Auto, Discard, Fill, Place, Use
from .rules import ACTIVATE, FILL, OVER, PLACE, CacaoState

COLOURS = ("red", "magenta", "white", "yellow")
LETTERS = "RPWY"
SHORT = {"plantation": "P", "market": "M", "gold": "G", "water": "~", "sun": "☼", "temple": "T"}


def term(key: str, lang: str, /, **kw: Any) -> str:
    return game_term("boardlab.games.cacao", key, lang, **kw)


def tile_name(tile: str) -> str:
    """'2101' -> '2-1-0-1', the rulebook's way of naming worker tiles."""
    return "-".join(tile) if tile.isdigit() else tile


def describe(action: Any, lang: str = "en") -> str:
    if isinstance(action, Place):
        key = "places" if action.kind == "place" else "rebuilds"
        return term(key, lang).format(tile=f"{tile_name(action.tile)} r{action.rot}", x=action.x, y=action.y)
    if isinstance(action, Discard):
        return term("discards", lang).format(tile=tile_name(action.tile))
    if isinstance(action, Fill):
        return term("fills", lang).format(jungle=term(action.jungle, lang), x=action.x, y=action.y)
    if isinstance(action, Use):
        return term("uses", lang).format(count=action.count, edge=term(DIRS[action.edge], lang),
                                         x=action.x, y=action.y)
    return term("autos", lang)


def _listing(items: list[str], lang: str) -> str:
    """'a, b and c' / 'a、b和c': a list in a sentence (Traditional Chinese punctuation in Chinese)."""
    if len(items) <= 1:
        return "".join(items)
    return term("list_sep", lang).join(items[:-1]) + term("list_and", lang) + items[-1]


def _the(jungle: str, lang: str) -> str:
    return term("the", lang).format(what=term(jungle, lang))


def _near(state: CacaoState, x: int, y: int, lang: str) -> str:
    """The jungle tiles around a worker-tile space, by name, in N E S W order (the words locate the
    tile where coordinates would not be read)."""
    names = [_the(state.jungle[(x + dx, y + dy)], lang) for dx, dy in STEPS if (x + dx, y + dy) in state.jungle]
    return _listing(names, lang)


def _dir(placed: tuple[int, int] | None, c: tuple[int, int]) -> int:
    """Which side of the new worker tile `c` is on (0..3 = N E S W), 4 if not beside it."""
    if placed is not None:
        for d, (dx, dy) in enumerate(STEPS):
            if (placed[0] + dx, placed[1] + dy) == c:
                return d
    return 4


def _side(placed: tuple[int, int] | None, x: int, y: int, lang: str) -> str:
    """'north of the new worker tile' (every space to fill touches it)."""
    d = _dir(placed, (x, y))
    return term("near_new", lang) if d == 4 else term("side", lang).format(dir=term(DIRS[d], lang))


def _auto_fills(before: CacaoState, action: Any, after: CacaoState, lang: str) -> list[str]:
    """The jungle tiles the move laid by itself (identical display tiles, the only choice left, or blind
    draws from the pile once the display is empty), grouped by where they came from, each with the
    side of the new worker tile it went to."""
    chosen = (action.x, action.y) if isinstance(action, Fill) else None
    display = list(before.display)
    if isinstance(action, Fill):
        display.remove(action.jungle)
    placed = (action.x, action.y) if isinstance(action, Place) and action.kind == "place" else before.placed
    groups: dict[str, list[str]] = {"from_display": [], "from_pile": []}
    new = [c for c in after.jungle if c not in before.jungle and c != chosen]
    for c in sorted(new, key=lambda c: (_dir(placed, c), c)):
        j = after.jungle[c]
        # the display is used up before the pile is drawn from (rules.py, _continue_filling)
        source = "from_display" if j in display else "from_pile"
        if j in display:
            display.remove(j)
        groups[source].append(term("auto_item", lang).format(jungle=_the(j, lang), where=_side(placed, *c, lang)))
    return [term(k, lang).format(items=_listing(v, lang)) for k, v in groups.items() if v]


def describe_move(before: CacaoState, action: Any, lang: str = "en") -> str:
    """The log's sentence: the tile by kind and what it is next to (no raw coordinates or rotations),
    and every jungle tile the move laid by itself, so every change to the board is in the log."""
    if isinstance(action, Discard):
        return term("discards", lang).format(tile=tile_name(action.tile))
    after = after_of(before, action)
    if isinstance(action, Place):
        key = "places_move" if action.kind == "place" else "rebuilds_move"
        text = term(key, lang).format(tile=tile_name(action.tile), near=_near(before, action.x, action.y, lang))
    elif isinstance(action, Fill):
        text = term("fills_move", lang).format(jungle=term(action.jungle, lang),
                                               where=_side(before.placed, action.x, action.y, lang))
    elif isinstance(action, Use):
        dx, dy = STEPS[action.edge]
        jungle = before.jungle.get((action.x + dx, action.y + dy))
        what = _the(jungle, lang) if jungle else term(DIRS[action.edge], lang)
        key = ("skips_move", "uses_move_one")[action.count] if action.count < 2 else "uses_move"
        text = term(key, lang).format(count=action.count, jungle=what)
    else:
        text = term("autos", lang)
    autos = _auto_fills(before, action, after, lang)
    if autos:
        text += term("then", lang) + term("then_sep", lang).join(autos)
    return text


def _jungle_label(state: CacaoState, j: str) -> str:
    t = state.comp.jungle_by_id[j]
    return SHORT[t.kind] + (str(t.value) if t.kind in ("plantation", "market", "gold") else "")


def board_lines(state: CacaoState, marks: dict[tuple[int, int], str] | None = None) -> list[str]:
    """The board as lines of rich markup, 5x3 characters per cell. `marks` labels empty cells."""
    marks = marks or {}
    cells = set(state.jungle) | set(state.workers) | set(marks) | set(state.to_fill)
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    out = ["      " + "".join(f"{x:^5}" for x in range(x0, x1 + 1))]
    for y in range(y0, y1 + 1):
        rows = ["      ", f"{y:>5} ", "      "]
        for x in range(x0, x1 + 1):
            c = (x, y)
            w = state.workers.get(c)
            if w is not None:
                col = COLOURS[w.owner]
                n, e, s, west = w.edges
                mark = LETTERS[w.owner] + ("²" if w.layers > 1 else " ")
                style = f"bold {col} on grey15"
                rows[0] += f"[{style}]  {n or ' '}  [/]"
                rows[1] += f"[{style}]{west or ' '} {mark}{e or ' '}[/]"
                rows[2] += f"[{style}]  {s or ' '}  [/]"
            elif c in state.jungle:
                label = _jungle_label(state, state.jungle[c])
                rows[0] += "[on dark_green]     [/]"
                rows[1] += f"[bold white on dark_green]{label:^5}[/]"
                rows[2] += "[on dark_green]     [/]"
            elif c in state.to_fill:
                rows[0] += "     "
                rows[1] += "[bold green]  ?  [/]"
                rows[2] += "     "
            elif c in marks:
                rows[0] += "     "
                rows[1] += f"[cyan]{marks[c]:^5}[/]"
                rows[2] += "     "
            else:
                dot = " " if (x + y) % 2 else "·"
                rows[0] += "     "
                rows[1] += f"[grey35]  {dot}  [/]"
                rows[2] += "     "
        out += rows
    return out


def village_line(state: CacaoState, p: int, lang: str) -> str:
    v = state.villages[p]
    c = state.comp
    name = term(f"colour{p}", lang)
    turn = "▶ " if state.current_player == p else "  "
    return (f"{turn}[bold {COLOURS[p]}]{name:<6}[/] {term('gold', lang)} {v.gold:>3}  "
            f"{term('fruit', lang)} {v.fruit}/{c.storage}  {term('sun_tokens', lang)} {v.sun}/{c.sun_max}  "
            f"{term('water_track', lang)} {c.water_track[v.water]:+d}  "
            f"{term('hand', lang)} {len(state.hands[p])}  {term('pile', lang)} {len(state.decks[p])}")


LETTERS_SPOTS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def spot_letters(state: CacaoState) -> dict[tuple[int, int], str]:
    """Letters for the legal placement spots (sorted by y then x, so they read like text)."""
    if state.phase != "place":
        return {}
    spots = sorted(state.spots, key=lambda c: (c[1], c[0]))
    return {c: LETTERS_SPOTS[i] if i < len(LETTERS_SPOTS) else f"{i}" for i, c in enumerate(spots)}


def menu(state: CacaoState, lang: str = "en") -> list[MenuItem]:
    """Placement codes are <spot letter><hand tile number><rotation>, e.g. 'c12' = spot c, the
    first tile in hand, turned twice; rebuilds are 'R<n>'; other decisions are numbered."""
    items: list[MenuItem] = []
    legal = state.legal_actions()
    if state.phase == "place":
        letters = spot_letters(state)
        hand = state.hands[state.turn]
        rebuild_no = 0
        for a in legal:
            if isinstance(a, Place) and a.kind == "place":
                code = f"{letters[(a.x, a.y)]}{hand.index(a.tile) + 1}{a.rot}"
            elif isinstance(a, Place):
                rebuild_no += 1
                code = f"R{rebuild_no}"
            else:
                code = str(len(items) + 1)
            items.append(MenuItem(code, a, describe(a, lang)))
        return items
    return [MenuItem(str(i + 1), a, describe(a, lang)) for i, a in enumerate(legal)]


def hand_lines(state: CacaoState, seat: int, lang: str) -> list[str]:
    """Each hand tile with the workers it shows N/E/S/W in each distinct rotation."""
    out = []
    for i, t in enumerate(state.hands[seat]):
        rots = "  ".join(f"r{r}: " + "".join(f"{d}{n}" for d, n in zip(DIRS, state.comp.edges_at[(t, r)], strict=True))
                         for r in state.comp.rotations[t])
        out.append(f"  {i + 1}) [bold]{tile_name(t)}[/]   {rots}")
    return out


def tiebreak_text(tiebreak: tuple[int, ...], lang: str) -> str:
    """Equal totals: the cacao fruit left in the village decides."""
    return term("tiebreak", lang).format(n=tiebreak[0])


def render(state: CacaoState, seat: int | None, lang: str = "en") -> str:
    marks = spot_letters(state) if seat is not None and seat == state.current_player else {}
    lines = board_lines(state, marks)
    lines.append("")
    signs = punctuation(lang)
    colon = signs.colon
    display = signs.listing.join(term(j, lang) for j in state.display) or "-"
    lines.append(f"{term('display', lang)}{colon}{display}   {term('jungle_pile', lang)}{colon}{len(state.pile)}")
    lines += [village_line(state, p, lang) for p in range(state.num_players)]
    if seat is not None:
        lines.append(f"{term('hand', lang)}{colon.rstrip()}")
        lines += hand_lines(state, seat, lang)
    if state.phase == FILL:
        spaces = " ".join(f"{x},{y}" for x, y in state.to_fill)
        lines.append(f"{term('to_fill', lang)}{colon}{spaces}")
    if state.phase == ACTIVATE:
        p = state.queue[0]
        edges = signs.comma.join(f"{e.x},{e.y} {DIRS[e.edge]}×{e.workers}→{term(e.jungle, lang)}"
                          for e in state.pending[p])
        lines.append(f"{term('activations', lang)}{signs.bracket(term(f'colour{p}', lang))}{colon}{edges}")
    return "\n".join(lines)


# -- refusals (the rules decide whether an action is legal; these words say why not) ---------------------
ASKS = {FILL: ("fill",), ACTIVATE: ("use", "auto"), PLACE: ("place", "rebuild", "discard")}
"""The kinds of action each phase takes (an action of another kind answers a question not asked)."""


def why_illegal(state: CacaoState, action: Any, lang: str = "en") -> str:
    """Why `action` is refused in `state`, in `lang`: the phase's question, or the placement or activation rule
    it breaks, naming tiles and jungle tiles as the log does."""
    if not isinstance(action, (Place, Discard, Fill, Use, Auto)):
        return foreign(action, state.game.title(lang), lang)
    if state.phase == OVER or state.current_player is None:
        return game_over(action, lang)
    if action[0] not in ASKS[state.phase]:
        who = term("why_who", lang, colour=seat_name(state.current_player, lang))
        return not_now(action, who, term(f"why_ask_{state.phase}", lang), state.legal_actions(), lang)
    return refused(action, _reason(state, action, lang), lang)


def _reason(state: CacaoState, action: Place | Discard | Fill | Use | Auto, lang: str) -> str:
    """The rule an action of the phase's kind breaks."""
    if isinstance(action, Place):
        return _why_place(state, action, lang)
    if isinstance(action, Fill):
        if action.jungle not in state.display:
            if not state.display:
                return term("why_display_empty", lang, jungle=term(action.jungle, lang))
            held = _listing([term(j, lang) for j in state.display], lang)
            return term("why_not_displayed", lang, display=held, jungle=term(action.jungle, lang))
        return term("why_not_to_fill", lang, x=action.x, y=action.y)
    if isinstance(action, Use):
        p = state.queue[0]
        for e in state.pending[p]:
            if (e.x, e.y, e.edge) == (action.x, action.y, action.edge):
                return term("why_too_many", lang, n=e.workers, fruit=state.villages[p].fruit)
        return term("why_no_edge", lang, x=action.x, y=action.y, dir=term(DIRS[action.edge], lang))
    if isinstance(action, Discard):
        return term("why_discard", lang)
    return not_legal(action, lang)


def _why_place(state: CacaoState, a: Place, lang: str) -> str:
    p = state.turn
    if a.tile not in state.hands[p]:
        hand = punctuation(lang).listing.join(tile_name(t) for t in state.hands[p])
        return term("why_not_in_hand", lang, tile=tile_name(a.tile), hand=hand)
    if (a.x + a.y) % 2 == 0:
        return term("why_jungle_space", lang, x=a.x, y=a.y)
    pos = (a.x, a.y)
    if a.kind == "rebuild":
        if state.pile or state.display:
            return term("why_rebuild_early", lang)
        if state.villages[p].sun < 1:
            return term("why_rebuild_sun", lang)
        w = state.workers.get(pos)
        if w is None or w.owner != p:
            return term("why_rebuild_none", lang, x=a.x, y=a.y)
        return term("why_rebuilt", lang, x=a.x, y=a.y)
    if pos in state.workers:
        return term("why_occupied", lang, x=a.x, y=a.y)
    if pos not in state.spots:
        return term("why_not_next", lang)
    rots = punctuation(lang).listing.join(f"r{r}" for r in state.comp.rotations[a.tile])
    return term("why_rotation", lang, rot=a.rot, tile=tile_name(a.tile), rots=rots)


def seat_name(seat: int, lang: str = "en") -> str:
    """A seat by its colour (core.game.Game.seat_name)."""
    return term(f"colour{seat}", lang)


def ledger(state: CacaoState, lang: str) -> list[dict[str, int]]:
    """Each village's public counts, named for the log (core/narration.py words their changes): what a
    market, a gold mine, a water or a sun site gave or took is then in the line of the move."""
    temples = state.temple_scores()
    gold, fruit, sun, water, temple = _ledger_labels(lang)
    return [{gold: v.gold, fruit: v.fruit, sun: v.sun, water: v.water, temple: temples[i]}
            for i, v in enumerate(state.villages)]


@cache
def _ledger_labels(lang: str) -> tuple[str, ...]:
    """The ledger's five labels in `lang`, looked up once: a server move words two ledgers per language (20 term
    look-ups each at four players, a tenth of the move's CPU)."""
    return tuple(term(k, lang) for k in ("l_gold", "l_fruit", "l_sun", "l_water", "l_temples"))


def end_cause(state: CacaoState, lang: str) -> str:
    """Why the game ended (core/narration.py): Cacao ends when every worker tile is played."""
    return term("end_cause", lang)


# -- every component explained (Game.explain: the browser's tooltips) ----------------------------------------
def explain(lang: str = "en") -> dict[str, dict[str, Any]]:
    """Every component by the id the browser marks it with (worker:2101, jungle:market3, jungle_pile, to_fill,
    gold, fruit, sun_tokens, water_track): what it is, does and costs, from components.json (all printed)."""
    d = game_data("boardlab.games.cacao", "components")
    vil = d["village"]
    track = " / ".join(f"{v:+d}" for v in vil["water_track"])
    rec = lambda e: e.get("provenance") == "reconstructed"  # noqa: E731
    out: dict[str, dict[str, Any]] = {}
    for w in d["worker_tiles"]:
        name = tile_name(w["id"])
        out[f"worker:{w['id']}"] = {"name": term("x_worker", lang).format(name=name),
                                    "what": term("x_worker_what", lang).format(edges=name, n=w["per_colour"]),
                                    "cost": term("x_worker_cost", lang), "reconstructed": rec(w)}
    tp = d["temple_points"]
    for j in d["jungle_tiles"]:
        kind = "goldmine" if j["kind"] == "gold" else j["kind"]
        what = term(f"x_{kind}", lang).format(n=j["value"], max=vil["storage"], track=track, first=tp["first"],
                                              second=tp["second"])
        out[f"jungle:{j['id']}"] = {"name": term(j["id"], lang), "what": what, "reconstructed": rec(j),
                                    "cost": term("x_jungle_cost", lang).format(count=j["count"])}
    out["jungle_pile"] = {"name": term("x_pile", lang), "what": term("x_pile_what", lang)}
    out["to_fill"] = {"name": term("x_to_fill", lang), "what": term("x_to_fill_what", lang)}
    out["gold"] = {"name": term("gold", lang), "what": term("x_gold_what", lang)}
    out["fruit"] = {"name": term("fruit", lang), "what": term("x_fruit_what", lang).format(max=vil["storage"])}
    out["sun_tokens"] = {"name": term("sun_tokens", lang), "what": term("x_sun_what", lang).format(max=vil["sun_max"])}
    out["water_track"] = {"name": term("water_track", lang), "what": term("x_track_what", lang).format(track=track)}
    return out
