"""Why a suggested move is good, in one sentence: the terms of the seat's position that the move changes most
(its score by category, its public counts) and the evaluation the bots use, before and after.

Why from a determinization: the true state holds what the seat may not know (a pile's order, another hand),
and the move played on it would tell (a blind draw that scores a temple). The sentence is computed on a state
`determinize` draws from the seat's information alone, so it says what the seat could have worked out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .narration import ledger, listing, signed
from .rng import Rng

if TYPE_CHECKING:
    from .game import Action, State

WORDS = {
    "en": {"why": "Why: {terms}.", "eval": "the bots' evaluation of your position goes from {a:.2f} to {b:.2f}",
           "same": "it keeps your position as it is ({a:.2f} by the bots' evaluation)", "points": "{cat} points"},
    "zh-TW": {"why": "理由：{terms}。", "eval": "機器人對你局面的評估從 {a:.2f} 變為 {b:.2f}",
              "same": "局面維持不變（機器人評估 {a:.2f}）", "points": "{cat}分數"},
}


def _w(key: str, lang: str, /, **kw: object) -> str:
    return WORDS.get(lang, WORDS["en"])[key].format(**kw)


def category(state: State, cat: str, lang: str) -> str:
    """A score category in words: the game's term `cat_<category>` where its text module has one (terms fall
    back to their key), else the category's own name."""
    term = getattr(state.game.text, "term", None)
    label = str(term("cat_" + cat, lang)) if term else ""
    return cat if not label or label == "cat_" + cat else label


def terms(before: State, after: State, seat: int, lang: str) -> list[tuple[str, int]]:
    """(label, change) of every term of `seat`'s position the move changed: its score categories and its
    public counts, largest change first."""
    out: list[tuple[str, int]] = []
    b, a = before.scores()[seat].breakdown, after.scores()[seat].breakdown
    for cat in dict.fromkeys([*b, *a]):
        d = a.get(cat, 0) - b.get(cat, 0)
        if d:
            out.append((_w("points", lang, cat=category(before, cat, lang)), d))
    lb, la = ledger(before, lang)[seat], ledger(after, lang)[seat]
    for label in dict.fromkeys([*lb, *la]):
        d = la.get(label, 0) - lb.get(label, 0)
        if d:
            out.append((label, d))
    return sorted(out, key=lambda t: -abs(t[1]))


def why(state: State, action: Action, seat: int, lang: str, seed: int, most: int = 3) -> str:
    """The sentence: the `most` terms the move changes most, then the evaluation before and after, all on a
    determinization of `state` for `seat` drawn with `seed`."""
    game = state.game
    before = state.determinize(seat, Rng(seed))
    after = before.clone()
    after.apply(action, seat)
    top = [(f"{signed(d)} {label}" if lang != "zh-TW" else f"{label} {signed(d)}")
           for label, d in terms(before, after, seat, lang)[:most]]
    e0, e1 = game.evaluate(before, seat), game.evaluate(after, seat)
    top.append(_w("eval", lang, a=e0, b=e1) if abs(e1 - e0) >= 0.005 else _w("same", lang, a=e0))
    return _w("why", lang, terms=listing(top, lang))
