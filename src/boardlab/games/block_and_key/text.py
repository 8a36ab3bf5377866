"""Block and Key in words (en, zh-TW): action descriptions, short codes for people, the terminal picture
(top view with heights, the four side views, the hand with its key patterns drawn) and refusal reasons."""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from boardlab.core.game import MenuItem
from boardlab.core.narration import after_of
from boardlab.core.refusal import game_over, refused
from boardlab.core.terms import game_data, game_term, punctuation

from .actions import DECK_NAMES, FILES, LINES, BlockAct, DeckAct, Dig, KeyAct, Orient, Place, Simple
from .components import Components, components
from .rules import SITE_LINES, SOLO_TURNS, THRESHOLD, VIEWS, BlockAndKeyState

STYLE = {"W": "bold white", "G": "grey62", "R": "bold red", "B": "bold blue", "*": "bold yellow"}


def term(key: str, lang: str, /, **kw: Any) -> str:
    return game_term("boardlab.games.block_and_key", key, lang, **kw)


def where(a: Place) -> str:
    return f"{FILES[a.x]}{a.y + 1}/{a.z + 1}"


def where_words(a: Place, lang: str) -> str:
    """'column g, row 5, level 1': the place in words (the notation's "g5/1" meant nothing to a newcomer)."""
    return term("at_words", lang, file=FILES[a.x], row=a.y + 1, level=a.z + 1)


def block_name(comp: Components, code: str, lang: str) -> str:
    """A block by colour and shape in plain words ("blue straight four"); the code (BI4) stays beside it."""
    b = comp.block_ids.index(code)
    names = comp.colour_names[comp.block_colour(b)]
    return term("block_name", lang, colour=names.get(lang) or names["en"],
                shape=term("shape_" + comp.shapes[comp.block_shape(b)], lang))


def core_faces(comp: Components, turn: int, lang: str) -> str:
    """Which colour faces each side once the core cube is turned `turn` times (the rules' `_face_colour`):
    the first decision of the game, previewed in words."""
    faces = []
    for v, side in enumerate(VIEWS[1:]):
        names = comp.colour_names[comp.core_sides[(v + turn) % 4]]
        faces.append(term("face", lang, colour=names.get(lang) or names["en"], side=term("dir_" + side, lang)))
    return listing(faces, lang)


def words(action: Any, lang: str, comp: Components) -> str:
    """An action in words with the game's components (blocks named, the core's faces previewed)."""
    if isinstance(action, Orient):
        return term("orient", lang, n=action.turn, faces=core_faces(comp, action.turn, lang))
    if isinstance(action, Dig):
        line = LINES[action.line]
        return term("dig_row" if line[0] == "r" else "dig_col", lang, n=line[1])
    if isinstance(action, Place):
        return term(action.kind, lang, block=action.block, name=block_name(comp, action.block, lang),
                    o=action.orient, at=where_words(action, lang))
    if isinstance(action, BlockAct):
        return term("return", lang, block=action.block, name=block_name(comp, action.block, lang))
    if isinstance(action, DeckAct):
        return term(action.kind, lang, deck=term(DECK_NAMES[action.deck], lang))
    if isinstance(action, KeyAct):
        return term(action.kind, lang, key=action.key)
    if isinstance(action, Simple):
        return term(action.kind, lang)
    return str(action)


def describe(action: Any, lang: str = "en") -> str:
    """An action in words, for menus and offers (the built-in components)."""
    return words(action, lang, components())


def describe_move(before: BlockAndKeyState, action: Any, lang: str = "en") -> str:
    """The log's words: the action, then every key it claimed and whether it started the final round (the
    gains and the score change follow from core/narration.py)."""
    text = words(action, lang, before.comp)
    p = before.actor
    if p is None or not isinstance(action, Place):
        return text
    after = after_of(before, action)
    sep = "；" if lang == "zh-TW" else "; "
    for q in range(before.num_players):
        for k in after.claimed[q][len(before.claimed[q]):]:
            key = before.comp.keys[k]
            text += sep + term("claims", lang, key=key.id, points=key.points)
    if after.final and not before.final and not before.solo:
        text += sep + term("final_round", lang, who=seat_name(p, lang), n=len(after.claimed[p]))
    return text


def listing(items: list[str], lang: str) -> str:
    return punctuation(lang).listing.join(items)


def public_totals(state: BlockAndKeyState) -> list[int]:
    """The score everyone may know during the game: key points (the Enigma bonus is secret until the end)."""
    if state.is_over:
        return [s.total for s in state.scores()]
    return [state.key_points(q) for q in range(state.num_players)]


def ledger(state: BlockAndKeyState, lang: str) -> list[dict[str, int]]:
    """Each seat's public counts, named for the log (core/narration.py words their changes)."""
    return [{term("l_blocks", lang): len(state.supply[q]), term("l_keys", lang): len(state.claimed[q]),
             term("l_hand", lang): len(state.hands[q])} for q in range(state.num_players)]


def end_cause(state: BlockAndKeyState, lang: str) -> str:
    """Why the game ended (the ends of `_end_turn`)."""
    if state.solo:
        return term("end_solo_passes", lang) if state.passes >= 2 else term("end_solo", lang, n=SOLO_TURNS)
    if state.final:
        n = THRESHOLD[state.num_players]
        first = next((q for q in range(state.num_players) if len(state.claimed[q]) >= n), None)
        if first is not None:
            return term("end_final", lang, who=seat_name(first, lang), n=n)
    return term("end_passes", lang)


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


def tiebreak_text(tiebreak: tuple[int, ...], lang: str) -> str:
    """Equal totals: keys claimed, then blocks left, then the earlier seat (Score.tiebreak keeps -seat)."""
    return term("tiebreak", lang, k=tiebreak[0], b=tiebreak[1], s=1 - tiebreak[2])


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
    marks = punctuation(lang)
    colon = marks.colon
    out.append(f"{escape(term('site', lang))}{colon}" + " | ".join(
        " ".join(escape(v["site"][i] or "--") for i in line) for line in SITE_LINES[:3])
        + f"   {escape(term('bag', lang))}{colon}{v['bag']}   {escape(term('sun', lang))} {v['decks']['sun']}"
        f"  {escape(term('moon', lang))} {v['decks']['moon']}")
    for q, p in enumerate(v["seats"]):
        mark = "▶ " if v["current_player"] == q else "  "
        who = escape(term("player", lang, n=q + 1))
        side = escape(term("side_" + p["side"], lang))
        held = escape(" ".join(p["supply"]) or "-")
        out.append(f"{mark}{who}{escape(marks.bracket(side))}{colon}{escape(term('blocks', lang))} {held}"
                   f"{marks.semicolon}{escape(term('keys', lang))} "
                   f"{len(p['claimed'])} = {p['key_points']} {escape(term('points', lang))}{marks.semicolon}"
                   f"{escape(term('hand', lang))} {p['hand_count']}")
        if "hand" in p:
            faces = escape(marks.bracket(term("enigma_faces", lang, n=p["enigma_faces"])))
            out.append(f"   {escape(term('enigma', lang))}{colon}{_paint(p['enigma'])}{faces}")
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
            parts = (f"{term('keys', lang)} {s['breakdown']['keys']}{marks.comma}"
                     f"{term('enigma', lang)} {s['breakdown']['enigma']}")
            out.append(escape(f"{term('player', lang, n=q + 1)}{colon}{s['total']}{marks.bracket(parts)}"))
        if v["solo"]:
            out.append(escape(term("rating", lang, title=v["rating"][lang if lang in v["rating"] else "en"])))
    return "\n".join(out)


def why_illegal(state: BlockAndKeyState, action: Any, lang: str = "en") -> str:
    """A sentence in `lang` saying why `action` is refused here, as precise as the rules allow."""
    if state.is_over:
        return game_over(action, lang)
    ph = state.phase
    p = state.actor
    assert p is not None
    phase = term("phase_" + ph, lang)
    if isinstance(action, Place):
        if ph not in ("turn", "ancient") or (action.kind == "ancients") != (ph == "ancient"):
            return term("why_phase", lang, action=str(action), phase=phase)
        ids = state.comp.block_ids
        if action.block not in ids:
            return refused(action, term("why_block", lang, block=action.block), lang)
        b = ids.index(action.block)
        if ph == "turn" and b not in state.supply[p]:
            name = block_name(state.comp, action.block, lang)
            return refused(action, term("why_not_held", lang, block=action.block, name=name), lang)
        from . import geometry as G

        oris = G.orientations(state.comp.shape_cells[state.comp.block_shape(b)])
        if not 0 <= action.orient < len(oris):
            return refused(action, term("why_orient", lang, n=len(oris) - 1), lang)
        why = explain_placement(state, b, action.orient, action.x, action.y, action.z, lang)
        return refused(action, why, lang)
    return term("why_phase", lang, action=str(action), phase=phase)


def explain_placement(state: BlockAndKeyState, b: int, o: int, x: int, y: int, z: int, lang: str = "en") -> str:
    """The first placement rule a placement breaks (checked cube by cube, independently of the bit masks), in
    `lang`."""
    from .rules import HEIGHT, MAX_FLOOR, gidx

    ori = state.orientation(b, o)
    cubes = [(x + dx, y + dy, z + dz) for dx, dy, dz in ori.cubes]
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


# -- every component explained (Game.explain: the browser's tooltips) ----------------------------------------
def explain(lang: str = "en") -> dict[str, dict[str, Any]]:
    """Every component by the id the browser marks it with (block:BI4, key:S01, enigma:R, core): what it is, does
    and costs, and whether it is reconstructed (components.json), so no block code reaches a player bare."""
    d = game_data("boardlab.games.block_and_key", "components")
    rec = lambda e: e.get("provenance") == "reconstructed"  # noqa: E731
    colours = {c["id"]: c for c in d["colours"]}
    cname = lambda c: colours[c]["name"].get(lang) or colours[c]["name"]["en"]  # noqa: E731
    out: dict[str, dict[str, Any]] = {}
    for c in d["colours"]:
        for sh in d["shapes"]:
            bid = f"{c['id']}{sh['id']}"
            n = sum(row.count("#") for row in sh["cells"])
            out[f"block:{bid}"] = {
                "name": term("x_block", lang, id=bid, colour=cname(c["id"]), shape=term(f"shape_{sh['id']}", lang)),
                "what": term("x_block_what", lang, n=n, cells=" / ".join(sh["cells"]), colour=cname(c["id"])),
                "cost": term("x_block_cost", lang), "reconstructed": rec(c) or rec(sh)}
    for k in d["keys"]:
        out[f"key:{k['id']}"] = {
            "name": term("x_key", lang, deck=term(k["deck"], lang), id=k["id"], points=k["points"]),
            "what": term("x_key_what", lang, pattern=" / ".join(k["pattern"]), views=term("x_views_any", lang),
                         pips=k["pips"], stars=k["stars"]),
            "cost": term("x_key_cost", lang), "reconstructed": rec(k)}
    for e in d["enigmas"]:
        out[f"enigma:{e['colour']}"] = {"name": term("x_enigma", lang, colour=cname(e["colour"])),
                                        "what": term("x_enigma_what", lang, colour=cname(e["colour"])),
                                        "reconstructed": rec(e)}
    out["core"] = {"name": term("x_core", lang), "what": term("x_core_what", lang), "reconstructed": rec(d["core"])}
    return out
