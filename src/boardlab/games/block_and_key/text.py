"""Block and Key in words (en, zh-TW): action descriptions, short codes for people, the terminal picture
(top view with heights, the four side views, the hand with its key patterns drawn) and refusal reasons."""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from boardlab.core.game import MenuItem
from boardlab.core.terms import game_term

from .actions import DECK_NAMES, FILES, LINES, BlockAct, DeckAct, Dig, KeyAct, Orient, Place, Simple
from .rules import SITE_LINES, VIEWS, BlockAndKeyState

STYLE = {"W": "bold white", "G": "grey62", "R": "bold red", "B": "bold blue", "*": "bold yellow"}


def term(key: str, lang: str, /, **kw: Any) -> str:
    return game_term("boardlab.games.block_and_key", key, lang, **kw)


def where(a: Place) -> str:
    return f"{FILES[a.x]}{a.y + 1}/{a.z + 1}"


def describe(action: Any, lang: str = "en") -> str:
    """An action in words, for a game log."""
    if isinstance(action, Orient):
        return term("orient", lang, n=action.turn)
    if isinstance(action, Dig):
        line = LINES[action.line]
        return term("dig_row" if line[0] == "r" else "dig_col", lang, n=line[1])
    if isinstance(action, Place):
        return term(action.kind, lang, block=action.block, o=action.orient, at=where(action))
    if isinstance(action, BlockAct):
        return term("return", lang, block=action.block)
    if isinstance(action, DeckAct):
        return term(action.kind, lang, deck=term(DECK_NAMES[action.deck], lang))
    if isinstance(action, KeyAct):
        return term(action.kind, lang, key=action.key)
    if isinstance(action, Simple):
        return term(action.kind, lang)
    return str(action)


def menu(state: BlockAndKeyState, lang: str = "en") -> list[MenuItem]:
    """Short codes: r1-r3 / c1-c3 for digs, p1, p2 ... for placements, the notation's word otherwise."""
    items = []
    k = 0
    for a in state.legal_actions():
        if isinstance(a, Dig):
            code = LINES[a.line]
        elif isinstance(a, Place):
            k += 1
            code = f"p{k}"
        elif isinstance(a, DeckAct):
            code = DECK_NAMES[a.deck]
        elif isinstance(a, BlockAct):
            code = a.block.lower()
        elif isinstance(a, Orient):
            code = f"o{a.turn}"
        elif isinstance(a, KeyAct):
            code = a.key.lower()
        else:
            code = str(a)
        items.append(MenuItem(code, a, describe(a, lang)))
    return items


def _paint(row: str) -> str:
    return "".join(f"[{STYLE[ch]}]{ch}[/]" if ch in STYLE else escape(ch) for ch in row)


def pattern_lines(pattern: list[str]) -> list[str]:
    return [_paint(r) for r in pattern]


def render(state: BlockAndKeyState, seat: int | None, lang: str = "en") -> str:
    """What `seat` sees, as rich console markup."""
    v = state.view(seat)
    t = v["temple"]
    out = [f"[bold]{escape(term('title', lang))}[/] — {escape(term('reconstructed', lang))}"]
    W, D = t["width"], t["depth"]
    top = t["views"]["top"]
    out.append(escape(term("top_view", lang)))
    out.append("    " + " ".join(f" {FILES[x]}" for x in range(W)))
    for r, row in enumerate(top):
        y = D - 1 - r
        cells = []
        for x in range(W):
            h = t["heights"][y][x]
            ch = row[x]
            cells.append(f"{_paint(ch)}{h}" if h else " .")
        out.append(f" {y + 1:>2} " + " ".join(cells))
    sides = [f"{escape(term('side_' + s, lang))}" for s in VIEWS[1:]]
    out.append("   ".join(f"{s:<{max(W, D) + 2}}" for s in sides))
    for r in range(6):
        out.append("   ".join(f"{_paint(t['views'][s][r])}{' ' * (max(W, D) + 2 - len(t['views'][s][r]))}"
                               for s in VIEWS[1:]))
    out.append(f"{escape(term('site', lang))}: " + " | ".join(
        " ".join(escape(v["site"][i] or "--") for i in line) for line in SITE_LINES[:3])
        + f"   {escape(term('bag', lang))}: {v['bag']}   {escape(term('sun', lang))} {v['decks']['sun']}"
        f"  {escape(term('moon', lang))} {v['decks']['moon']}")
    for q, p in enumerate(v["seats"]):
        mark = "▶ " if v["current_player"] == q else "  "
        who = escape(term("player", lang, n=q + 1))
        side = escape(term("side_" + p["side"], lang))
        held = escape(" ".join(p["supply"]) or "-")
        out.append(f"{mark}{who} ({side}): {escape(term('blocks', lang))} {held}; {escape(term('keys', lang))} "
                   f"{len(p['claimed'])} = {p['key_points']} {escape(term('points', lang))}; "
                   f"{escape(term('hand', lang))} {p['hand_count']}")
        if "hand" in p:
            out.append(f"   {escape(term('enigma', lang))}: {_paint(p['enigma'])} ({p['enigma_faces']})")
            patt = [(k["id"], k["points"], k["pattern"]) for k in p["hand"]]
            rows = max((len(pt) for _, _, pt in patt), default=0)
            out.append("   " + "  ".join(f"{kid}({pts})" for kid, pts, _ in patt))
            for r in range(rows):
                parts = []
                for kid, pts, pt in patt:
                    row = pt[r] if r < len(pt) else ""
                    parts.append(_paint(row) + " " * (len(kid) + len(str(pts)) + 2 - len(row)))
                out.append("   " + "  ".join(parts))
    if v["solo"]:
        out.append(escape(term("solo_turn", lang, n=v["solo_turn"], of=v["solo_turns"])))
        if v.get("ancients"):
            out.append(escape(term("ancients_last", lang, **{k: (x if x is not None else "-")
                                                               for k, x in v["ancients"].items()
                                                               if k in ("card", "block")})))
    if v.get("scores"):
        for q, s in enumerate(v["scores"]):
            out.append(escape(f"{term('player', lang, n=q + 1)}: {s['total']} ({term('keys', lang)} "
                              f"{s['breakdown']['keys']}, {term('enigma', lang)} {s['breakdown']['enigma']})"))
        if v["solo"]:
            out.append(escape(term("rating", lang, title=v["rating"][lang if lang in v["rating"] else "en"])))
    return "\n".join(out)


def why_illegal(state: BlockAndKeyState, action: Any) -> str:
    """A sentence saying why `action` is refused here, as precise as the rules allow."""
    lang = "en"
    if state.is_over:
        return term("why_over", lang)
    ph = state.phase
    p = state.actor
    assert p is not None
    if isinstance(action, Place):
        if ph not in ("turn", "ancient") or (action.kind == "ancients") != (ph == "ancient"):
            return term("why_phase", lang, action=str(action), phase=ph)
        ids = state.comp.block_ids
        if action.block not in ids:
            return term("why_block", lang, block=action.block)
        b = ids.index(action.block)
        if ph == "turn" and b not in state.supply[p]:
            return term("why_not_held", lang, block=action.block)
        from . import geometry as G

        oris = G.orientations(state.comp.shape_cells[state.comp.block_shape(b)])
        if not 0 <= action.orient < len(oris):
            return term("why_orient", lang, n=len(oris) - 1)
        return explain_placement(state, b, action.orient, action.x, action.y, action.z)
    return term("why_phase", lang, action=str(action), phase=ph)


def explain_placement(state: BlockAndKeyState, b: int, o: int, x: int, y: int, z: int) -> str:
    """The first placement rule a placement breaks (checked cube by cube, independently of the bit masks)."""
    from .rules import HEIGHT, MAX_FLOOR, gidx

    ori = state.orientation(b, o)
    cubes = [(x + dx, y + dy, z + dz) for dx, dy, dz in ori.cubes]
    lang = "en"
    if any(not (0 <= cx < state.W and 0 <= cy < state.D) for cx, cy, _ in cubes):
        return term("why_outside", lang)
    if any(cz >= HEIGHT for _, _, cz in cubes):
        return term("why_height", lang)
    grid = state.grid

    def occ(cx: int, cy: int, cz: int) -> bool:
        return 0 <= cx < state.W and 0 <= cy < state.D and 0 <= cz < HEIGHT and grid[gidx(cx, cy, cz)] >= 0

    if any(occ(*c) for c in cubes):
        return term("why_overlap", lang)
    if not any(occ(cx + dx, cy + dy, cz + dz) for cx, cy, cz in cubes
               for dx in (-1, 0, 1) for dy in (-1, 0, 1) for dz in (-1, 0, 1)):
        return term("why_contact", lang)
    top = max(c[2] for c in cubes)
    heights = state.heights
    for cx, cy, cz in cubes:
        for n in ((cx + 1, cy, cz), (cx - 1, cy, cz), (cx, cy + 1, cz), (cx, cy - 1, cz), (cx, cy, cz + 1),
                  (cx, cy, cz - 1)):
            if occ(*n) and state.btop[grid[gidx(*n)]] >= top:
                return term("why_taller", lang)
            if state.columns and occ(*n) and n[2] != cz - 1 and heights[n[0] + MAX_FLOOR * n[1]] > top:
                return term("why_taller_stack", lang)
    return term("why_support", lang)


def seat_name(seat: int, lang: str = "en") -> str:
    """A seat as "Player n" (core.game.Game.seat_name)."""
    return term("player", lang, n=seat + 1)
