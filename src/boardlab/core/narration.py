"""The story a game log tells: after a move's own words, what it changed for every player (each public count
gained or lost, each change of score) and, on the last move, why the game ended and how it came out.

Why in the core: every game's log had the same gap (a line said "uses it" or "resolves the remaining
activations" and never what was gained), and the arithmetic (diff two positions, word the differences) is
the same for all of them. A game supplies only what is public and how it is called, from its text module:

- `ledger(state, lang) -> list[dict[str, int]]`: per seat, the public counts worth naming (gold, fruit,
  colonists, blocks held ...), keyed by their name in `lang`. Nothing hidden may go in (the line is read by
  every seat and by spectators).
- `public_totals(state) -> list[int]`: per seat, the score as everyone may know it now (default: the
  totals of `state.scores()`; Block and Key leaves out the secret Enigma bonus until the end).
- `end_cause(state, lang) -> str`: why a finished game ended ("the bag is empty", "round 7 is over").
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from .errors import GameOverError, IllegalActionError, NotYourTurnError

if TYPE_CHECKING:
    from .game import Action, State

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "seat_sep": "; ", "item_sep": ", ", "who": "{who}: {items}", "score": "score {total} ({delta} points)",
        "ended": "The game ends: {cause}.", "ended_plain": "The game ends.", "final": "Final scores: {scores}.",
        "final_item": "{who} {total}", "wins": "{who} wins.", "win_shared": "{who} share the win.",
        "nobody": "Nobody wins.", "and": " and ", "list_sep": ", ",
    },
    "zh-TW": {
        "seat_sep": "；", "item_sep": "、", "who": "{who}：{items}", "score": "分數 {total}（{delta} 分）",
        "ended": "遊戲結束：{cause}。", "ended_plain": "遊戲結束。", "final": "最終分數：{scores}。",
        "final_item": "{who} {total} 分", "wins": "{who}獲勝。", "win_shared": "{who}並列獲勝。",
        "nobody": "無人獲勝。", "and": "和", "list_sep": "、",
    },
}


def word(key: str, lang: str, /, **kw: Any) -> str:
    """One of the core's story words in `lang` (English for any other language)."""
    raw = WORDS.get(lang, WORDS["en"])[key]
    return raw.format(**kw) if kw else raw


def signed(n: int) -> str:
    """+3 / −2 (a real minus sign: it reads as a loss, not a hyphen)."""
    return f"+{n}" if n > 0 else f"−{-n}"


def public_totals(state: State) -> list[int]:
    """Each seat's score as every viewer may know it now (the game's `text.public_totals`, else `scores()`)."""
    hook = getattr(state.game.text, "public_totals", None)
    return list(hook(state)) if hook else [s.total for s in state.scores()]


def ledger(state: State, lang: str) -> list[dict[str, int]]:
    """The game's public counts per seat (none if its text module has no `ledger`)."""
    hook = getattr(state.game.text, "ledger", None)
    return list(hook(state, lang)) if hook else [{} for _ in range(state.num_players)]


def changes(
    before: State, after: State, lang: str, totals: tuple[list[int], list[int]] | None = None
) -> str:
    """What the move changed for each player, e.g. "Red: +4 gold, −2 fruit, score 12 (+4 points)", seats in
    order, separated by semicolons; "" when no public count or score moved. `totals` (the public totals before
    and after) spares computing them again for each language of one move."""
    game = before.game
    b_led, a_led = ledger(before, lang), ledger(after, lang)
    b_tot, a_tot = totals or (public_totals(before), public_totals(after))
    out = []
    for seat in range(before.num_players):
        if b_led[seat] == a_led[seat] and a_tot[seat] == b_tot[seat]:
            continue  # most moves change one or two seats: compare the others' ledgers whole, not label by label
        items = []
        for label in dict.fromkeys([*b_led[seat], *a_led[seat]]):
            d = a_led[seat].get(label, 0) - b_led[seat].get(label, 0)
            if d:
                items.append(f"{label} {signed(d)}" if lang == "zh-TW" else f"{signed(d)} {label}")
        if a_tot[seat] != b_tot[seat]:
            items.append(word("score", lang, total=a_tot[seat], delta=signed(a_tot[seat] - b_tot[seat])))
        if items:
            out.append(word("who", lang, who=game.seat_name(seat, lang), items=word("item_sep", lang).join(items)))
    return word("seat_sep", lang).join(out)


def listing(items: list[str], lang: str) -> str:
    """'a, b and c' / 'a、b和c'."""
    if len(items) <= 1:
        return "".join(items)
    return word("list_sep", lang).join(items[:-1]) + word("and", lang) + items[-1]


def ending(state: State, lang: str) -> str:
    """Why a finished game ended, its final scores and who won (every score is public at the end)."""
    game = state.game
    cause_hook = getattr(game.text, "end_cause", None)
    cause = cause_hook(state, lang) if cause_hook else ""
    head = word("ended", lang, cause=cause) if cause else word("ended_plain", lang)
    scores = word("list_sep", lang).join(
        word("final_item", lang, who=game.seat_name(q, lang), total=s.total) for q, s in enumerate(state.scores()))
    won = state.winners()
    names = listing([game.seat_name(q, lang) for q in won], lang)
    result = word("nobody", lang) if not won else word("wins" if len(won) == 1 else "win_shared", lang, who=names)
    sentences = [head, word("final", lang, scores=scores), result[:1].upper() + result[1:]]
    return ("" if lang == "zh-TW" else " ").join(sentences)


_RECENT = threading.local()
"""Per thread, the last few positions a move was narrated from: a log line is asked for in two languages and for
several viewers, and games' own words look at the result too, so the move is played once, not a dozen times (the
log line of a 4-player Cooper Island move took 9 ms played each time, 1.7 ms so; 0.6 ms without a story). Keyed by the
`before` object itself (held, so its id is not reused), its history length (every `apply` grows it) and the
action; read-only for callers. One cache per thread: the server rebuilds tables in several threads at once, and
a shared one evicted a thread's entry between its write and its read (#32's kill -9 run: a KeyError, a 500).
An entry is [before, after, words by language, public totals before and after (None until asked)]."""


def _entries() -> OrderedDict[tuple[int, int, Action], list[Any]]:
    cache: OrderedDict[tuple[int, int, Action], list[Any]] | None = getattr(_RECENT, "cache", None)
    if cache is None:
        cache = _RECENT.cache = OrderedDict()
    return cache


def _entry(before: State, action: Action) -> list[Any]:
    cache = _entries()
    key = (id(before), len(before.history), action)
    hit = cache.get(key)
    if hit is not None and hit[0] is before:
        cache.move_to_end(key)
        return hit
    after = before.clone()
    after.apply(action, before.current_player)
    entry = cache[key] = [before, after, {}, None]
    if len(cache) > 8:
        cache.popitem(last=False)
    return entry


def _recent(before: State, action: Action) -> tuple[State, dict[str, str]]:
    entry = _entry(before, action)
    return entry[1], entry[2]


@contextmanager
def played(before: State, action: Action, after: State) -> Iterator[None]:
    """Inside this block, the words of `action` from `before` start from `after`, the position the caller has
    already played it to (by the seat to move) and does not change meanwhile: the server's log line then
    costs no second clone and apply of the move (docs/benchmarks.md, server CPU per move)."""
    cache = _entries()
    key = (id(before), len(before.history), action)
    cache[key] = [before, after, {}, None]
    try:
        yield
    finally:
        if cache.get(key, [None])[0] is before:
            del cache[key]


def after_of(before: State, action: Action) -> State:
    """The position `action` leads to from `before` (played by the seat to move). Shared: do not change it."""
    return _recent(before, action)[0]


def story(before: State, action: Action, lang: str) -> str:
    """What follows a move's own words in the log: " — " and its changes, then the ending if it ended the game.
    An action that is not legal in `before` (words asked for a hypothetical move) has no story."""
    try:
        entry = _entry(before, action)
    except (IllegalActionError, NotYourTurnError, GameOverError):
        return ""
    after, told = entry[1], entry[2]
    if lang in told:
        return told[lang]
    if entry[3] is None:
        entry[3] = (public_totals(before), public_totals(after))
    tail = changes(before, after, lang, entry[3])
    text = (" — " + tail) if tail else ""
    if after.is_over and not before.is_over:
        stop = ("。" if lang == "zh-TW" else ". ") if text else " — "
        text += stop + ending(after, lang)
    told[lang] = text
    return text
