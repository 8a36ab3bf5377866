"""Cacao in words and in a terminal: action descriptions and a colour board (rich markup)."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from boardlab.core.game import MenuItem

from .actions import DIRS, Discard, Fill, Place, Use
from .rules import ACTIVATE, FILL, CacaoState

COLOURS = ("red", "magenta", "white", "yellow")
LETTERS = "RPWY"
SHORT = {"plantation": "P", "market": "M", "gold": "G", "water": "~", "sun": "☼", "temple": "T"}


@lru_cache(maxsize=1)
def terms() -> dict[str, dict[str, str]]:
    return json.loads(resources.files("boardlab.games.cacao").joinpath("terms.json").read_text("utf-8"))


def term(key: str, lang: str) -> str:
    t = terms()
    return t.get(lang, t["en"]).get(key, t["en"].get(key, key))


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


def render(state: CacaoState, seat: int | None, lang: str = "en") -> str:
    marks = spot_letters(state) if seat is not None and seat == state.current_player else {}
    lines = board_lines(state, marks)
    lines.append("")
    display = ", ".join(term(j, lang) for j in state.display) or "-"
    lines.append(f"{term('display', lang)}: {display}   {term('jungle_pile', lang)}: {len(state.pile)}")
    lines += [village_line(state, p, lang) for p in range(state.num_players)]
    if seat is not None:
        lines.append(f"{term('hand', lang)}:")
        lines += hand_lines(state, seat, lang)
    if state.phase == FILL:
        spaces = " ".join(f"{x},{y}" for x, y in state.to_fill)
        lines.append(f"{term('to_fill', lang)}: {spaces}")
    if state.phase == ACTIVATE:
        p = state.queue[0]
        edges = ", ".join(f"{e.x},{e.y} {DIRS[e.edge]}×{e.workers}→{term(e.jungle, lang)}"
                          for e in state.pending[p])
        lines.append(f"{term('activations', lang)} ({term(f'colour{p}', lang)}): {edges}")
    return "\n".join(lines)
