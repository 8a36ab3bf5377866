"""Pocket Mars in words (en, zh-TW): action descriptions, card texts generated from the effect
primitives, the plain-text picture a terminal prints, and the reasons an action is refused."""

from __future__ import annotations

from typing import Any

from boardlab.core.refusal import foreign, game_over, not_now, refused
from boardlab.core.terms import game_term, punctuation

from .actions import SLOTS, CardAct, Look, Opp, Place, PMAction, Shift, Simple, Slot, Swap
from .components import BLACK, CARD_IDS, COLOURS, LETTERS, Card, Effect, Prim, rules
from .rules import DA, PocketMarsState


def term(key: str, lang: str, /, **kw: Any) -> str:
    return game_term("boardlab.games.pocket_mars", key, lang, **kw)


def building_name(b: int, lang: str) -> str:
    return rules().buildings[b].name.get(lang) or rules().buildings[b].name["en"]


def colour_name(b: int, lang: str) -> str:
    return rules().buildings[b].colour_name.get(lang) or COLOURS[b]


def player_name(q: int, lang: str, solo: bool = False) -> str:
    if solo and q == DA:
        return term("automaton_short", lang)
    return term("player", lang, n=q + 1)


# -- actions -------------------------------------------------------------------------------------------
def describe(action: Any, lang: str = "en") -> str:
    """An action in words, for a game log."""
    if isinstance(action, CardAct):
        return term(action.kind, lang, card=CARD_IDS[action.card])
    if isinstance(action, Opp):
        return term("opp", lang, slot=SLOTS[action.slot], player=player_name(action.owner, lang))
    if isinstance(action, Place):
        return term("place", lang, building=building_name(action.building, lang))
    if isinstance(action, Shift):
        return term("shift_up" if action.up else "shift_down", lang, player=player_name(action.player, lang),
                    building=building_name(action.building, lang))
    if isinstance(action, Swap):
        return term("swap", lang, low=player_name(action.low, lang), high=player_name(action.high, lang),
                    building=building_name(action.building, lang))
    if isinstance(action, Look):
        return term("look", lang, player=player_name(action.target, lang))
    if isinstance(action, Slot):
        return term(action.kind, lang, slot=SLOTS[action.slot])
    if isinstance(action, Simple):
        return term(action.kind, lang)
    return str(action)


def describe_move(before: PocketMarsState, action: Any, lang: str = "en") -> str:
    """The log's words for `action` in `before`: a yes or no to an optional effect names the effect (a bare
    "uses it" / "declines" told the table nothing); what it gained follows from core/narration.py."""
    if not isinstance(action, Simple) or action.kind not in ("do", "skip") or not before.todo:
        return describe(action, lang)
    step = before.todo[-1]
    yes = action.kind == "do"
    if step[0] == "colonist":
        return term("do_colonist" if yes else "skip_colonist", lang, building=building_name(step[2], lang))
    if step[0] == "half":
        _, _, c, which, b = step
        effect = effect_text(before._effect(which, c, b), lang)
        return term("do_half" if yes else "skip_half", lang, what=decision_text(before, lang), effect=effect)
    return term("do_step" if yes else "skip_step", lang, what=decision_text(before, lang))


def ledger(state: PocketMarsState, lang: str) -> list[dict[str, int]]:
    """Each player's public counts, named for the log (core/narration.py words their changes)."""
    return [{term("l_energy", lang): state.energy[q], term("l_earth", lang): state.earth[q],
             term("l_ship", lang): state.ship[q], term("l_cards", lang): len(state.hands[q])}
            for q in range(state.num_players)]


def end_cause(state: PocketMarsState, lang: str) -> str:
    """Why the game ended (the three ends of `_step_roundend`)."""
    if state.solo_exhausted:
        return term("end_solo", lang)
    done = [q for q in range(state.nb) if state.earth[q] == 0 and state.ship[q] == 0]
    if done:
        return term("end_done", lang, who=player_name(done[0], lang, state.solo))
    return term("end_rounds", lang, n=state.round)


def seat_name(seat: int, lang: str = "en") -> str:
    """A seat as the log names it, "P1" (core.game.Game.seat_name)."""
    return player_name(seat, lang)


# Card actions whose card the other seats may not see: a discard for energy and a 4-card-rule discard
# are face down, a readied card shows only its colour back, a buried card goes face down under the deck,
# a draft pick stays in a hand. `hand` and `prep` put the card face up; no other action names a card.
HIDDEN_KINDS = frozenset({"energy", "discard", "ready", "bury", "keep"})


def names_hidden_card(state: PocketMarsState, action: Any, seat: int | None) -> bool:
    """Does `action` (played in `state`) name a card that `seat` has not seen?"""
    actor = state.decider
    if (actor is not None and seat == actor) or not isinstance(action, CardAct) or action.kind not in HIDDEN_KINDS:
        return False
    return not state.knows(seat, action.card)


def describe_for(state: PocketMarsState, action: Any, seat: int | None, lang: str = "en") -> str:
    """`action` in words as `seat` (None: a spectator) may know it in `state`, the position it is played in.

    The acting seat, and any seat that has seen the card (its `seen` bit: a look, a draft packet, a buried
    card drawn later), get `describe`. The others learn what the table sees: where the card comes from and,
    for a card entering or leaving a prep module, its colour back (docs: decision D15)."""
    if not names_hidden_card(state, action, seat):
        return describe_move(state, action, lang)
    actor = state.decider
    c = action.card
    kind = action.kind
    if kind in ("discard", "keep"):  # hand cards only: no colour shows
        return term(f"{kind}_hidden", lang)
    colour = colour_name(state.cards.colour[c], lang)
    if kind == "ready":  # from the hand into the module: the back shows from now on
        return term("ready_hidden", lang, colour=colour)
    from_prep = actor is not None and c in state.prep[actor]
    if from_prep:
        return term(f"{kind}_hidden_prep", lang, colour=colour)
    return term(f"{kind}_hidden_hand", lang)


# -- cards ---------------------------------------------------------------------------------------------
def prim_text(p: Prim, lang: str) -> str:
    if p.op == "settle":
        return term(f"op_settle_{p.where}", lang, n=p.n)
    if p.op == "shift":
        return term("op_shift", lang, n=p.n, whose=term(f"whose_{p.who}", lang), dir=term(f"dir_{p.dir}", lang),
                    where=term(f"where_{p.where}", lang))
    if p.op == "swap":
        return term("op_swap", lang, where=term(f"where_{p.where}", lang))
    return term(f"op_{p.op}", lang, n=p.n)


def effect_text(e: Effect, lang: str) -> str:
    parts = []
    for key, arg in e.cond:
        parts.append(term("if_hold", lang, colour=colour_name(arg, lang)) if key == "hold" else term(f"if_{key}", lang))
    if e.cost:
        parts.append(term("cost", lang, n=e.cost))
    marks = punctuation(lang)
    head = marks.comma.join(parts)
    body = marks.semicolon.join(prim_text(p, lang) for p in e.prims)
    return f"{head}{marks.colon}{body}" if head else body


def card_text(card: Card, lang: str = "en") -> str:
    """'G5 green 5 | top: ... | bottom: ...' (built from the primitives, so custom decks read right)."""
    colon = punctuation(lang).colon
    return (f"{card.id} {colour_name(card.colour, lang)} {card.value} | {term('top', lang)}{colon}"
            f"{effect_text(card.top, lang)} | {term('bottom', lang)}{colon}{effect_text(card.bottom, lang)}")


RECONSTRUCTED_MARK = "◇"
"""Marks a card id in the terminal picture when the card (or one of its fields) is a reconstruction,
as the web does: the reconstructed deck is not the printed one (docs/rules/pocket_mars.md)."""


def provenance_text(card: Card, lang: str = "en") -> str:
    """'reconstructed', 'official', or e.g. 'official; colour: reconstructed' (G4)."""
    parts = [term(f"prov_{card.provenance}", lang)]
    parts += [term("prov_field", lang, field=term(f"field_{f}", lang), prov=term(f"prov_{p}", lang))
              for f, p in card.field_provenance]
    return punctuation(lang).semicolon.join(parts)


def marked(state: PocketMarsState, cid: str) -> str:
    """A card id with RECONSTRUCTED_MARK if the card in play (this game's deck) is reconstructed."""
    return cid + RECONSTRUCTED_MARK if state.cards.cards[CARD_IDS.index(cid)].reconstructed else cid


# -- the pending question ---------------------------------------------------------------------------
def decision_text(state: PocketMarsState, lang: str) -> str:
    if state.decider is None:
        return term("game_over", lang)
    step = state.todo[-1]
    kind = step[0]
    if kind == "colonist":
        return term("step_colonist", lang, building=building_name(step[2], lang))
    if kind == "half":
        _, _, c, which, b = step
        if which == 2:
            return term("step_ability", lang, building=building_name(b, lang))
        return term("step_half", lang, card=CARD_IDS[c], part=term(("top", "bottom")[which], lang))
    if kind == "prim":
        return prim_text(step[2], lang)
    return term(f"step_{kind}", lang)


# -- the picture ---------------------------------------------------------------------------------------
def _counts(row: list[int], lang: str, solo: bool) -> str:
    return " ".join(f"{player_name(q, lang, solo)}×{k}" for q, k in enumerate(row) if k) or "-"


def tiebreak_text(tiebreak: tuple[int, ...], lang: str) -> str:
    """Equal totals: the colonists in buildings decide."""
    return term("tiebreak", lang, n=tiebreak[0])


def render(state: PocketMarsState, seat: int | None, lang: str = "en") -> str:
    """What `seat` sees, as plain text (no colour codes): board, players, own cards, the question."""
    v = state.view(seat)
    solo = state.solo
    marks = punctuation(lang)
    colon, listing = marks.colon, marks.listing
    lines = [f"{term('round', lang, n=state.round)} · {term('start', lang)} {player_name(state.start, lang)} · "
             f"{term('turn', lang)} {player_name(state.turn, lang)}"]
    if state.decider is not None:
        lines.append(f"{term('now', lang)}{colon}{player_name(state.decider, lang)} — {decision_text(state, lang)}")
    lines.append("")
    for b, entry in enumerate(v["board"]["buildings"]):
        name = f"{LETTERS[b]} {building_name(b, lang)}"
        if b == BLACK:
            lines.append(f"  {name}{colon}{term('no_colonists', lang)}")
            continue
        stack = " ".join(marked(state, c) for c in entry["stack"][-3:]) or "-"
        cap = f"{term('star2_cap', lang)} {state.cap}"
        lines.append(f"  {name}{colon}{term('value', lang)} {entry['value']} [{stack}]  "
                     f"★ {_counts(entry['star'], lang, solo)}  "
                     f"★★{marks.bracket(cap)} {_counts(entry['star2'], lang, solo)}")
    lines.append("")
    board = v["board"]
    for q, hand in enumerate(v["hands"]):
        mark = "▶" if q == state.decider else " "
        who = player_name(q, lang, solo) + (marks.bracket(term('you', lang)) if q == seat else "")
        prep = " ".join(f"[{marked(state, p['card']) if p['card'] else '?'} "
                        f"{colour_name(COLOURS.index(p['colour']), lang)}]" for p in hand["prep"])
        score = state.automaton_score().total if solo and q == DA else state.scores()[q].total
        lines.append(f"{mark}{who}{colon}{term('earth', lang)} {board['earth'][q]} · {term('ship', lang)} "
                     f"{board['ship'][q]} · {term('energy_t', lang)} {board['energy'][q]}/{state.R.energy_max} · "
                     f"{term('cards', lang)} {hand['hand_count']} · {term('prep_module', lang)} {prep or '-'} · "
                     f"{term('score', lang)} {score}")
    top = v["discard"][-1] if v["discard"] else None  # the top card, when it lies face up
    lines.append(f"{term('deck', lang)} {v['deck']['count']} · {term('discard_pile', lang)} {len(v['discard'])}"
                 + (marks.bracket(marked(state, top)) if top else "")
                 + (f" · {term('in_play', lang)} {' '.join(marked(state, c) for c in v['in_play'])}"
                                                    if v["in_play"] else ""))
    if seat is not None and seat < len(v["hands"]):
        cards = state.cards.cards
        lines.append(f"{term('your_hand', lang)}{colon.rstrip()}")
        own = [cards[CARD_IDS.index(c)] for c in v["hands"][seat]["hand"]]
        lines += [f"  {card_text(k, lang)}{marks.bracket(provenance_text(k, lang))}" for k in own]
        lines.append(f"{term('your_prep', lang)}{colon.rstrip()}")
        own = [cards[CARD_IDS.index(p["card"])] for p in v["hands"][seat]["prep"]]
        lines += [f"  {card_text(k, lang)}{marks.bracket(provenance_text(k, lang))}" for k in own]
        packet = v["draft"][seat]["cards"] if seat < len(v["draft"]) else []
        if packet:
            lines.append(f"{term('draft_packet', lang)}{colon}{' '.join(marked(state, c) for c in packet)}")
        if v["draft_seen"]:
            lines.append(f"{term('draft_seen', lang)}{colon}{' '.join(marked(state, c) for c in v['draft_seen'])}")
        known = [f"{player_name(q, lang, solo)}{colon}{marked(state, p['card'])}" for q, h in enumerate(v["hands"])
                 if q != seat for p in h["prep"] if p["card"]]
        if known:
            lines.append(f"{term('known', lang)}{colon}{listing.join(known)}")
    if state.is_over:
        lines.append(f"{term('game_over', lang)}{colon.rstrip()}")
        for q, s in enumerate(state.scores()):
            lines.append(f"  {player_name(q, lang)} {s.total}{marks.bracket(term('breakdown', lang, **s.breakdown))}")
        if solo:
            s = state.automaton_score()
            parts = term("breakdown", lang, **s.breakdown)
            lines.append(f"  {term('automaton', lang)} {s.total}{marks.bracket(parts)}")
        won = state.winners()
        lines.append(f"{term('winners', lang)}{colon}" + (listing.join(player_name(q, lang) for q in won)
                                                     if won else term("nobody", lang)))
    if any(RECONSTRUCTED_MARK in line for line in lines):
        lines.append(f"{RECONSTRUCTED_MARK} {term('reconstructed_legend', lang)}")
    return "\n".join(lines)


# -- refusals ------------------------------------------------------------------------------------------
def why_illegal(state: PocketMarsState, action: Any, lang: str = "en") -> str:
    """A precise sentence in `lang` for a refused action (the state is unchanged)."""
    if not isinstance(action, (Simple, CardAct, Opp, Place, Shift, Swap, Look, Slot)):
        return foreign(action, state.game.title(lang), lang)
    d = state.decider
    if d is None:
        return game_over(action, lang)
    step = state.todo[-1]
    if step[0] == "turn":
        reason = _why_turn(state, d, action, lang)
        if reason:
            return refused(action, reason, lang)
    return not_now(action, player_name(d, lang), decision_text(state, lang), state.legal_actions(), lang)


ZONES = {"hand": "why_zone_hand", "prep": "why_zone_prep", "energy": "why_zone_either"}
"""Where a turn action looks for its card, by the action's kind (the words of each in terms.json)."""


def _why_turn(state: PocketMarsState, p: int, a: PMAction, lang: str) -> str | None:
    kind = a[0]
    if kind in ("hand", "prep", "energy"):
        c = a[1]
        where = {"hand": state.hands[p], "prep": state.prep[p], "energy": state.hands[p] + state.prep[p]}[kind]
        if c not in where:
            return term("why_not_in", lang, card=CARD_IDS[c], zone=term(ZONES[kind], lang))
    elif kind == "opp":
        o, slot = a[1], a[2]
        if o == p:
            return term("why_own_prep", lang)
        if o not in state.others(p):
            return term("why_no_player", lang, player=player_name(o, lang))
        if slot >= len(state.prep[o]):
            return term("why_no_slot", lang, player=player_name(o, lang, state.solo), slot=SLOTS[slot])
    elif kind == "launch" and not state.earth[p]:
        return term("why_no_colonist", lang)
    elif kind == "pass":
        return term("why_pass", lang)
    elif kind not in ("hand", "prep", "opp", "launch", "energy"):
        return term("why_turn_first", lang, player=player_name(p, lang))
    return None


# -- every component explained (Game.explain: the browser's tooltips) ----------------------------------------
def explain(lang: str = "en") -> dict[str, dict[str, Any]]:
    """Every component by the id the browser marks it with (card:G3, building:G, back:green): the built-in deck's
    cards with both halves in words (from the effect primitives, as the terminal prints them) and whether each is
    reconstructed, and the five buildings with their abilities."""
    from .components import deck

    out: dict[str, dict[str, Any]] = {}
    for card in deck().cards:
        out[f"card:{card.id}"] = {
            "name": term("x_card", lang, id=card.id, colour=colour_name(card.colour, lang), value=card.value),
            "what": term("x_card_what", lang, top=effect_text(card.top, lang), bottom=effect_text(card.bottom, lang),
                         prov=provenance_text(card, lang)),
            "cost": term("x_card_cost", lang), "reconstructed": card.reconstructed}
    for b, bd in enumerate(rules().buildings):
        out[f"building:{bd.letter}"] = {
            "name": term("x_building", lang, name=building_name(b, lang), colour=colour_name(b, lang)),
            "what": term("x_building_what", lang, ability=effect_text(bd.ability, lang),
                         holds=term("x_holds" if bd.holds_colonists else "x_no_holds", lang,
                                    star=rules().scoring.star, star2=rules().scoring.star2))}
        out[f"back:{COLOURS[b]}"] = {"name": term("x_back", lang, colour=colour_name(b, lang)),
                                     "what": term("x_back_what", lang)}
    out["back:none"] = {"name": term("x_back_none", lang), "what": term("x_back_none_what", lang)}
    return out
