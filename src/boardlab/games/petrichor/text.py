"""Petrichor in words (en, zh-TW): action descriptions, the weather log, the terminal picture and the
reasons an action is refused."""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.markup import escape

from boardlab.core.narration import after_of
from boardlab.core.refusal import game_over, not_now
from boardlab.core.terms import game_data, game_term, punctuation

from .actions import DIRS, Blow, CardAct, Cell, Die, Rain, Simple, Wind, cell_text
from .components import WEATHERS
from .rules import SW, PetrichorState

COLOURS = ("red", "blue", "yellow", "green")


def term(key: str, lang: str, /, **kw: Any) -> str:
    return game_term("boardlab.games.petrichor", key, lang, **kw)


def player_name(q: int, lang: str, solo: bool = False) -> str:
    if solo and q == SW:
        return term("automaton", lang)
    return term("player", lang, n=q + 1)


def weather(w: int, lang: str) -> str:
    return term(WEATHERS[w], lang)


def describe(action: Any, lang: str = "en") -> str:
    """An action in words, for a game log."""
    if isinstance(action, Simple):
        return term(f"a_{action.kind}", lang)
    if isinstance(action, CardAct):
        return term(f"a_{action.kind}", lang, card=weather(action.weather, lang))
    if isinstance(action, Die):
        return term("a_die", lang, n=action.die + 1)
    if isinstance(action, Cell):
        return term(f"a_{action.kind}", lang, cell=cell_text(action.r, action.c))
    if isinstance(action, Wind):
        return term("a_wind", lang, cell=cell_text(action.r, action.c), dir=term(DIRS[action.d], lang))
    if isinstance(action, Rain):
        return term("a_rain", lang, cell=cell_text(action.r, action.c), player=player_name(action.q, lang))
    if isinstance(action, Blow):
        return term("a_blow", lang, cell=cell_text(action.r, action.c), player=player_name(action.q, lang),
                    dir=term(DIRS[action.d], lang))
    return str(action)


def describe_event(state: PetrichorState, ev: list[Any], lang: str) -> str:
    """One entry of the public weather log in words."""
    kind = ev[0]

    def cell(i: int) -> str:
        return cell_text(*state.rc(i))

    def who(q: int) -> str:
        return player_name(q, lang, state.solo)

    if kind in ("dark", "sprout", "grow"):
        return term(f"ev_{kind}", lang, cell=cell(ev[1]))
    if kind == "burst":
        return term("ev_burst", lang, cell=cell(ev[1]), n=ev[2])
    if kind == "merge":
        return term("ev_merge", lang, cell=cell(ev[1]), to=cell(ev[2]))
    if kind == "weather":
        if not ev[1]:  # no vote marker on any weather card: say so, not "resolving: —"
            return term("ev_weather_none", lang)
        return term("ev_weather", lang, list=punctuation(lang).listing.join(weather(w, lang) for w in ev[1]))
    if kind == "vw":
        return term("ev_vw", lang, player=who(ev[2]), card=weather(ev[1], lang), n=ev[3])
    if kind == "rainw":
        return term("ev_rainw", lang, cell=cell(ev[1]), n=ev[2])
    if kind == "shine":
        return term("ev_shine", lang, player=who(ev[1]), cell=cell(ev[2]), n=ev[3])
    if kind == "blow":
        return term("ev_blow", lang, who=who(ev[1]), player=who(ev[2]), cell=cell(ev[3]), to=cell(ev[4]))
    if kind == "harvest":
        marks = punctuation(lang)
        pts = marks.listing.join(f"{who(q)} {x}" for q, x in enumerate(ev[2]))
        out = term("ev_harvest", lang, cell=cell(ev[1]), pts=pts)
        if ev[3] is not None:
            out += marks.semicolon + term("ev_wheat", lang, player=who(ev[3]))
        return out
    if kind == "sw":
        return term("ev_sw", lang, card=ev[1])
    if kind == "pass":
        return term("ev_pass", lang, player=who(ev[1]), start=who(ev[2]))
    if kind == "round":
        return term("ev_round", lang, n=ev[1])
    if kind == "die":
        return term("ev_die", lang, player=who(ev[1]), n=ev[2] + 1, vp=ev[3])
    if kind == "reshuffle":
        return term("ev_reshuffle", lang)
    return str(ev)


def tiebreak_text(tiebreak: tuple[int, ...], lang: str) -> str:
    """Equal totals: voting wins, then wheat tokens."""
    return term("tiebreak", lang, v=tiebreak[0], w=tiebreak[1])


def render(state: PetrichorState, seat: int | None, lang: str = "en") -> str:
    """The field grid (crop, threshold, growth, drops by colour, cloud), votes, dice, tracks, hand."""
    nb = state.nb
    colon, listing = punctuation(lang).colon, punctuation(lang).listing
    lines = [f"[bold]{term('title', lang)}[/bold] · " + term("round", lang, n=state.round, m=state.rounds)
             + f" · {term('start', lang)}{colon}{player_name(state.start, lang, state.solo)}"]
    header = "    " + "".join(f"{'ABCD'[c]:<26}" for c in range(state.cols))
    lines.append(header)
    for r in range(state.rows):
        top, mid, low = f"{r + 1:<4}", "    ", "    "
        for c in range(state.cols):
            i = state.at(r, c)
            t = state.C.tiles[state.tile[i]]
            growth = ("", "*", "**")[state.growth[i]]
            a = f"{term(t.crop, lang)}{growth} ≥{t.threshold}"
            drops = "".join(f"[{COLOURS[q]}]{'●' * x}[/{COLOURS[q]}]" for q, x in enumerate(state.field[i]) if x)
            plain = sum(state.field[i])
            cl = state.cloud[i]
            if cl is None:
                cloud, cplain = "", 0
            else:
                mark = "☁" if not state.dark[i] else "[bold]☁⚡[/bold]"
                cloud = mark + "".join(f"[{COLOURS[q]}]{'o' * x}[/{COLOURS[q]}]" for q, x in enumerate(cl) if x)
                cplain = sum(cl) + (1 if not state.dark[i] else 2)
            top += escape(a) + " " * max(1, 26 - cell_len(a))
            mid += drops + " " * max(1, 26 - plain)
            low += cloud + " " * max(1, 26 - cplain)
        lines += [top, mid, low]
    votes = " · ".join(f"{weather(w, lang)} " + "/".join(str(x) for x in state.votes[w]) for w in range(4))
    lines.append(f"{term('votes', lang)}{colon}{votes}")
    dice = " ".join("🌾" if v == 0 else str(v) for v in state.dice)
    lines.append(f"{term('dice', lang)}{colon}{dice}")
    for q in range(nb):
        name = player_name(q, lang, state.solo)
        colour = COLOURS[q]
        extra = f" · {term('hand_counts', lang)} {sum(state.hands[q])}" if q < state.num_players else ""
        lines.append(f"[{colour}]{escape(name)}[/{colour}]{colon}{term('vp', lang)} {state.vp[q]} · "
                     f"{term('vw', lang)} {state.vw[q]} · {term('wheat_tokens', lang)} {state.wheat[q]} · "
                     f"{term('supply', lang)} {state.supply[q]} · {term('markers', lang)} {state.markers_left(q)}"
                     + extra)
    if state.solo and state.sw_card is not None:
        card = state.C.south_wind[state.sw_card].id
        lines.append(f"{term('automaton', lang)}{colon}{card} · d6 {state.sw_die or '—'}")
    if seat is not None and seat < state.num_players:
        hand = listing.join(f"{weather(w, lang)}×{k}" for w, k in enumerate(state.hands[seat]) if k) or "—"
        lines.append(f"{term('hand', lang)}{colon}{hand}")
    for ev in state.events[-8:]:
        lines.append("  · " + escape(describe_event(state, ev, lang)))
    if state.is_over:
        names = listing.join(player_name(q, lang) for q in state.winners()) or term("nobody", lang)
        lines.append(f"[bold]{term('game_over', lang)}[/bold] · {term('winners', lang)}{colon}{escape(names)}")
    elif state.todo:
        lines.append(f"{player_name(state.decider or 0, lang)}{colon}{term('step_' + state.todo[-1][0], lang)}")
    return "\n".join(lines)


def why_illegal(state: PetrichorState, action: Any, lang: str = "en") -> str:
    """Why an action is refused, in `lang`: what is being asked now, of whom, and a few of the legal answers."""
    if state.decider is None:
        return game_over(action, lang)
    step = term("step_" + state.todo[-1][0], lang)
    return not_now(action, player_name(state.decider, lang, state.solo), step, state.legal_actions(), lang)


def seat_name(seat: int, lang: str = "en") -> str:
    """A seat as the log names it (core.game.Game.seat_name)."""
    return player_name(seat, lang)


def describe_move(before: PetrichorState, action: Any, lang: str = "en") -> str:
    """The log's words: the action, then what it set off by itself (weather, votes won, harvests, a round's
    end: the public events it added), so a "passes" that ended a round says what the round gave."""
    after = after_of(before, action)
    new = [ev for ev in after.events[len(before.events):] if ev[0] != "pass" or ev[1] != before.current_player]
    text = describe(action, lang)
    if new:
        sep = "；" if lang == "zh-TW" else "; "
        text += sep + sep.join(describe_event(after, ev, lang) for ev in new)
    return text


def ledger(state: PetrichorState, lang: str) -> list[dict[str, int]]:
    """Each player's public counts, named for the log (core/narration.py words their changes)."""
    return [{term("l_vp", lang): state.vp[q], term("l_vw", lang): state.vw[q], term("l_wheat", lang): state.wheat[q],
             term("l_supply", lang): state.supply[q]} for q in range(state.num_players)]


def end_cause(state: PetrichorState, lang: str) -> str:
    """Why the game ended: its rounds are played."""
    return term("end_cause", lang, n=state.round)


# -- every component explained (Game.explain: the browser's tooltips) ----------------------------------------
def _crop_score(crop: dict[str, Any], lang: str) -> str:
    """How a crop scores at the harvest, from its stages in components.json."""
    sprouted = crop["stages"]["sprouted"]
    if "contributors" in sprouted:
        a, b, c, d = sprouted["contributors"]
        out = term("x_contrib", lang, a=a, b=b, c=c, d=d)
    else:
        a, b, c, d = sprouted["rank"]
        out = term("x_rank", lang, a=a, b=b, c=c, d=d)
        if sprouted.get("first_bonus"):
            out += term("x_wheat_bonus", lang)
    grown = crop["stages"].get("grown")
    if grown and "rank" in grown:
        a, b, c, d = grown["rank"]
        out += term("x_grown_rank", lang, a=a, b=b, c=c, d=d)
    elif grown and "per_drop" in grown:
        out += term("x_grown_drop", lang, n=grown["per_drop"])
    return out


def explain(lang: str = "en") -> dict[str, dict[str, Any]]:
    """Every component by the id the browser marks it with (card:frost, weather:frost, tile:T01, cloud:white,
    cloud:dark, die, sw:SW1): what it is, does and costs, and whether it is reconstructed (components.json)."""
    d = game_data("boardlab.games.petrichor", "components")
    const = {c["id"]: c["value"] for c in d["constants"]}
    crops = {c["id"]: c for c in d["crops"]}
    out: dict[str, dict[str, Any]] = {}
    for w in WEATHERS:
        name = term(w, lang)
        out[f"card:{w}"] = {"name": term("x_card", lang, w=name), "what": term("x_card_what", lang,
                                                                               action=term(f"x_act_{w}", lang)),
                            "cost": term("x_card_cost", lang)}
        out[f"weather:{w}"] = {"name": term("x_weather", lang, w=name),
                               "what": term("x_weather_what", lang, w=name, effect=term(f"x_res_{w}", lang)),
                               "cost": term("x_weather_cost", lang)}
    for tile in d["tiles"]:
        crop = crops[tile["crop"]]
        grows = term("x_grows_on", lang, w=term(crop["grows_on"], lang)) if crop.get("grows_on") else ""
        out[f"tile:{tile['id']}"] = {
            "name": term("x_tile", lang, id=tile["id"], crop=term(tile["crop"], lang)),
            "what": term("x_tile_what", lang, thr=tile["threshold"], score=_crop_score(crop, lang), grows=grows),
            "reconstructed": tile.get("provenance") == "reconstructed"}
    out["cloud:white"] = {"name": term("x_cloud_white", lang),
                          "what": term("x_cloud_white_what", lang, dark=const["dark_at"])}
    out["cloud:dark"] = {"name": term("x_cloud_dark", lang),
                         "what": term("x_cloud_dark_what", lang, burst=const["burst_at"])}
    out["die"] = {"name": term("x_die", lang), "what": term("x_die_what", lang, vp=const["die_advance_vp"],
                                                            wvp=const["die_wheat_vp"], n=const["harvest_dice"])}
    for sw in d["south_wind"]:
        out[f"sw:{sw['id']}"] = {"name": term("x_sw", lang, id=sw["id"]),
                                 "what": term("x_sw_what", lang, action=term(sw["action"], lang),
                                              vote=term(sw["vote"], lang)),
                                 "reconstructed": sw.get("provenance") == "reconstructed"}
    return out
