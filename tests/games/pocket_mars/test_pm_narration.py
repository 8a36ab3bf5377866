"""Narration (`describe_for`) leaks no card.

Over seeded random games (solo, 2-4 players, with and without the draft) every action is described to
every seat and to a spectator, in en and zh-TW. The words (before the story of gains and scores that the core
adds after " — ", which must read the same for every viewer) may name (by id, e.g. `G3`, or by full name,
e.g. `green 2` / `綠色 2`) only cards that the viewer's view shows before or after the action; the acting
seat, and any seat whose view already shows the card, get exactly `describe_move`. The checker is
checked too: applied to the unmasked default (`describe_move` for everyone) it must report leaks for
every action kind that can hide a card, so the games do reach each of them with a viewer who does not
know the card; run against that default, the parametrized tests fail.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from functools import cache
from typing import Any

import pytest
from pm_helpers import GAME, arrange, new, play_setup, start_of_turn

from boardlab.games.pocket_mars.actions import CARD, CardAct
from boardlab.games.pocket_mars.components import CARD_IDS, CARD_INDEX, deck
from boardlab.games.pocket_mars.rules import PocketMarsState
from boardlab.games.pocket_mars.text import HIDDEN_KINDS, colour_name, player_name

LANGS = ("en", "zh-TW")
# A card id as a token ("P2's" is a token P2; "G35" would not be G3). Player names share the P1-P4 form.
ID_TOKEN = re.compile(r"(?<![A-Za-z0-9])([GYBPK][1-7])(?![0-9])")
VIEW_ID = re.compile(r'"([GYBPK][1-7])"')  # a JSON string that is exactly a card id
SEAT_FIELDS = ("owner", "player", "low", "high", "target")  # action fields that name a player
# (players, options, seeds): 9 393 random decisions, 65 616 narrated texts (each checked twice); ~7 s
CASES: list[tuple[int, dict[str, Any], int]] = [
    (1, {}, 60), (1, {"automaton_ship": 7}, 30), (2, {}, 12), (3, {}, 6), (4, {}, 4),
    (2, {"draft": True}, 5), (3, {"draft": True}, 4), (4, {"draft": True}, 3),
]


def own(text: str) -> str:
    """A log line's words for the move itself, without the story core/narration.py adds after " — " (public
    counts per player: its "P1" are players, which the card checker would take for purple cards)."""
    return text.split(" — ", 1)[0]


def story(text: str) -> str:
    return text.split(" — ", 1)[1] if " — " in text else ""


def card_ids_in(view: dict[str, Any]) -> set[str]:
    """Every card id the view JSON shows (hands, prep modules, stacks, piles, packets, the decision): the
    JSON strings that are exactly a card id (option strings such as "ready G3" name the seat's own cards).
    `draft_seen` is left out: it names cards the seat saw in the draft, not where they are now (D16)."""
    return set(VIEW_ID.findall(json.dumps({k: v for k, v in view.items() if k != "draft_seen"})))


@cache
def full_name_pattern() -> tuple[re.Pattern[str], dict[tuple[str, int], str]]:
    """A card's full name in every language is its colour and value (unique inside a colour), e.g.
    'green 2' / '綠色 2': one pattern for all of them and the (colour word, value) -> id table."""
    table = {(colour_name(card.colour, lang).lower(), card.value): card.id
             for card in deck(None).cards for lang in LANGS}
    words = "|".join(sorted({re.escape(w) for w, _ in table}, key=len, reverse=True))
    return re.compile(rf"({words}) ([0-9])(?![0-9])", re.IGNORECASE), table


def named_cards(text: str, action: Any) -> set[str]:
    """The cards `text` names. A P1-P4 token is a player name as often as the action names that player
    (`opp P2 a` -> "plays card a of P2's prep module"); any further occurrence is the card."""
    tokens = Counter(ID_TOKEN.findall(text))
    for f in SEAT_FIELDS:
        if f in getattr(action, "_fields", ()):
            tokens[player_name(getattr(action, f), "en")] -= 1
    named = {t for t, k in tokens.items() if k > 0}
    pattern, table = full_name_pattern()
    for word, value in pattern.findall(text):
        named.add(table.get((word.lower(), int(value)), f"{word} {value}"))
    return named


def excused(action: Any, cid: str, before: dict[str, Any], after: dict[str, Any]) -> bool:
    """The one case where words may name a card no view shows: a card played face up (`hand`, `prep`) is
    public, but the same `apply` may run on into a draw that reshuffles it into the deck (decision D9),
    so the after-view no longer shows it. Only the action's own card, and only when the deck grew."""
    return (isinstance(action, CardAct) and action.kind in ("hand", "prep") and CARD_IDS[action.card] == cid
            and after["deck"]["count"] > before["deck"]["count"])


def unseen(words: str, action: Any, visible: set[str], before: dict[str, Any], after: dict[str, Any]) -> set[str]:
    """Cards `words` name that are not `visible` (shown by the viewer's view before or after the action),
    bar the excused case (`before`/`after`: the spectator's views)."""
    return {c for c in named_cards(words, action) - visible if not excused(action, c, before, after)}


def play(players: int, seed: int, options: dict[str, Any]) -> tuple[list[str], set[str]]:
    """One random game narrated to every viewer: (the leaks of `describe_for`, the kinds of the actions
    whose unmasked words, `describe_move` for everyone, the same checker reports as leaks).

    Also asserts what must hold in any case: the actor's words, and the words of a seat that already sees
    the card or of any action that hides no card, are exactly `describe_move`."""
    state = new(players, seed, **options)
    rng = random.Random(seed * 7919 + players)
    viewers: list[int | None] = [*range(players), None]
    views = {v: state.view(v) for v in viewers}
    shown = {v: card_ids_in(views[v]) for v in viewers}
    leaks: list[str] = []
    default_kinds: set[str] = set()
    while not state.is_over:
        action = rng.choice(state.legal_actions())
        actor = state.current_player
        assert actor is not None
        public = {lang: own(GAME.describe_move(state, action, lang)) for lang in LANGS}
        told = {(v, lang): GAME.describe_for(state, action, v, lang) for v in viewers for lang in LANGS}
        for lang in LANGS:  # the story after the words (gains, scores: public counts) is the same for everyone
            assert len({story(t) for (_, lg), t in told.items() if lg == lang}) == 1, told
        texts = {k: own(t) for k, t in told.items()}
        hidden = isinstance(action, CardAct) and action.kind in HIDDEN_KINDS
        for (v, lang), text in texts.items():
            if v == actor or not hidden or CARD_IDS[action.card] in shown[v]:
                assert text == public[lang], f"{action} hides nothing from {v}: {text!r}"
        state.apply(action)
        after_views = {v: state.view(v) for v in viewers}
        after = {v: card_ids_in(after_views[v]) for v in viewers}
        for (v, lang), text in texts.items():
            if bad := unseen(text, action, shown[v] | after[v], views[None], after_views[None]):
                leaks.append(f"{players}p seed {seed} {options}: {action} by P{actor + 1} told to "
                             f"{'spectator' if v is None else f'P{v + 1}'} as {text!r} names {sorted(bad)}")
            if unseen(public[lang], action, shown[v] | after[v], views[None], after_views[None]):
                default_kinds.add(str(action[0]))
        views, shown = after_views, after
    return leaks, default_kinds


@cache
def run_case(players: int, draft: bool, ship: int, seeds: int) -> tuple[tuple[str, ...], frozenset[str]]:
    """Leaks of the real narration, and the leaking kinds of the unmasked default, over `seeds` games
    (cached: the coverage test reuses the parametrized runs)."""
    options: dict[str, Any] = {"draft": True} if draft else {}
    if players == 1:
        options["automaton_ship"] = ship
    real: list[str] = []
    default_kinds: set[str] = set()
    for seed in range(seeds):
        leaks, kinds = play(players, seed, options)
        real += leaks
        default_kinds |= kinds
    return tuple(real), frozenset(default_kinds)


def _key(players: int, options: dict[str, Any], seeds: int) -> tuple[int, bool, int, int]:
    return players, bool(options.get("draft")), int(options.get("automaton_ship", 5)), seeds


@pytest.mark.parametrize(("players", "options", "seeds"), CASES,
                         ids=[f"{p}p-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'base'}" for p, o, _ in CASES])
def test_narration_names_only_cards_the_viewer_sees(players: int, options: dict[str, Any], seeds: int) -> None:
    leaks, _ = run_case(*_key(players, options, seeds))
    assert not leaks, f"{len(leaks)} leaks, e.g.\n" + "\n".join(leaks[:10])


def test_the_checker_catches_the_unmasked_default() -> None:
    """The same games narrated without masking leak, for exactly the kinds that can hide a card: the games
    reach all of them with a viewer who does not know the card, and the checker sees it."""
    kinds: set[str] = set()
    for players, options, seeds in CASES:
        kinds |= run_case(*_key(players, options, seeds))[1]
    assert kinds == set(HIDDEN_KINDS), f"the unmasked default leaked on {sorted(kinds)}"


def test_the_checker_tells_players_from_purple_cards() -> None:
    opp = GAME.parse_action(new(2), "opp P2 a")
    assert named_cards("plays card a of P2's prep module", opp) == set()
    assert named_cards("plays card a (P2) of P2's prep module", opp) == {"P2"}
    assert named_cards("discards P2 for energy", CARD["energy"][CARD_INDEX["P2"]]) == {"P2"}
    assert named_cards("puts a purple card into their prep module", CARD["ready"][CARD_INDEX["P2"]]) == set()
    assert named_cards("把 1 張紫色 2 放到準備艙", CARD["ready"][CARD_INDEX["P2"]]) == {"P2"}
    assert named_cards("puts Green 2 into their prep module", CARD["ready"][CARD_INDEX["G3"]]) == {"G3"}


# -- exact words ------------------------------------------------------------------------------------------
def _words(state: PocketMarsState, text: str, seat: int | None) -> tuple[str, str]:
    action = GAME.parse_action(state, text)
    return own(GAME.describe_for(state, action, seat, "en")), own(GAME.describe_for(state, action, seat, "zh-TW"))


def test_readying_shows_only_the_colour_back_to_the_others() -> None:
    state = new(3, 4)
    actor = state.current_player
    assert actor is not None and state.todo[-1][0] == "ready"
    card = state.hands[actor][0]
    cid = CARD_IDS[card]
    colour = state.cards.colour[card]
    text = f"ready {cid}"
    assert _words(state, text, actor) == (f"puts {cid} into their prep module", f"把 {cid} 放到準備艙")
    hidden = (f"puts a {colour_name(colour, 'en')} card into their prep module",
              f"把 1 張{colour_name(colour, 'zh-TW')}卡片放到準備艙")
    for seat in (*(q for q in range(3) if q != actor), None):
        assert _words(state, text, seat) == hidden


def _turn_of(state: PocketMarsState, seat: int) -> None:
    """Answer every question with its first option up to the start of `seat`'s turn."""
    while not (start_of_turn(state) and state.current_player == seat):
        state.apply(state.legal_actions()[0])


def test_a_card_seen_with_look_is_named_to_the_looker_only() -> None:
    state = new(2, 1)
    play_setup(state)
    p = state.current_player
    assert p is not None
    o = 1 - p
    arrange(state, hands={p: ["B4", "G1"], o: ["Y1", "P1"]}, prep={p: ["K1", "K2"], o: ["G3", "Y3"]})
    state.apply_text("hand B4")  # top: look at 2 cards of the (only) other prep module; draw 1
    _turn_of(state, o)
    assert state.prep[o] == [CARD_INDEX["G3"], CARD_INDEX["Y3"]]
    assert _words(state, "energy G3", p) == ("discards G3 for energy", "棄掉 G3 以獲得能源")
    assert _words(state, "energy G3", None) == ("discards a green card from their prep module for energy",
                                                "從準備艙棄掉 1 張綠色卡片以獲得能源")
    assert _words(state, "energy Y1", p) == ("discards a card from their hand for energy",
                                             "從手中棄掉 1 張卡片以獲得能源")
    assert _words(state, "energy Y1", o) == ("discards Y1 for energy", "棄掉 Y1 以獲得能源")


def test_hidden_words_for_bury_discard_and_keep() -> None:
    state = new(2, 1)
    play_setup(state)
    p = state.current_player
    assert p is not None
    arrange(state, hands={p: ["G1", "Y1"]}, prep={p: ["B2", "K3"]})
    other = 1 - p
    assert _words(state, "bury B2", other) == (
        "puts a blue card from their prep module on the bottom of the deck", "把準備艙的 1 張藍色卡片放到計畫牌庫底部")
    assert _words(state, "bury G1", None) == (
        "puts a card from their hand on the bottom of the deck", "把手中的 1 張卡片放到計畫牌庫底部")
    assert _words(state, "discard Y1", other) == (
        "discards a card from their hand (4-card rule)", "從手中棄掉 1 張卡片（4 張卡片守則）")
    assert _words(state, "keep Y1", other) == ("keeps a card (draft)", "保留 1 張卡片（輪抽）")
    # public actions read the same for everyone
    for text in ("hand G1", "prep B2", "launch", "opp P1 a", "skip"):
        assert _words(state, text, other) == _words(state, text, p)


def test_draft_picks_are_named_to_nobody_else() -> None:
    """A pick is secret (D16): even a seat that held the packet before is told only "keeps a card"."""
    state = new(2, 3, draft=True)
    first = state.current_player
    assert first is not None and state.todo[-1][0] == "pick"
    pick = state.packets[first][0]
    assert _words(state, f"keep {CARD_IDS[pick]}", 1 - first)[0] == "keeps a card (draft)"
    while state.todo[-1][0] != "pick" or not any(state.drafted[c] == 3 for c in state.packets[state.current_player]):
        state.apply(state.legal_actions()[0])
    q = state.current_player
    c = next(c for c in state.packets[q] if state.drafted[c] == 3)  # the other seat passed this packet on
    for viewer in (1 - q, None):
        assert _words(state, f"keep {CARD_IDS[c]}", viewer)[0] == "keeps a card (draft)"
    assert _words(state, f"keep {CARD_IDS[c]}", q)[0] == f"keeps {CARD_IDS[c]} (draft)"
