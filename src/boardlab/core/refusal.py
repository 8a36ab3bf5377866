"""The words every game's refusals share (en, zh-TW): the "{action}: {reason}" frame, "not now: who must answer
what", the game being over, an action of no such game, and a text that reads as no action.

Why: each game's text.py said these in English of its own; the core keeps them once, in both languages, and a
game says only its own reasons (its terms.json) and names its own things (who, what question).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .terms import punctuation

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "refused": "{action}: {reason}",
        "not_now": "{action} is not legal now: {who} must answer '{question}' (legal: {legal})",
        "not_legal": "{action} is not a legal action now",
        "over": "{action} cannot be played: the game is over",
        "foreign": "{action} is not a {title} action",
        "unreadable": "cannot read {text} as a {title} action",
        "more": " ...",
    },
    "zh-TW": {
        "refused": "{action}：{reason}",
        "not_now": "現在不能 {action}：{who} 要先回答「{question}」（合法動作：{legal}）",
        "not_legal": "現在不能 {action}：這不是合法的動作",
        "over": "不能 {action}：遊戲已經結束",
        "foreign": "{action} 不是{title}的動作",
        "unreadable": "無法把 {text} 讀成{title}的動作",
        "more": "……",
    },
}
SHOWN = 8
"""How many legal actions a "not now" refusal lists (a long list would bury the sentence)."""


def word(key: str, lang: str, /, **kw: Any) -> str:
    """One of the refusal words in `lang` (English for a language without them)."""
    return WORDS.get(lang, WORDS["en"])[key].format(**kw)


def refused(action: object, reason: str, lang: str) -> str:
    """'2101r0@1,0: 1,0 is already occupied': the action, then the game's reason, with `lang`'s colon."""
    return word("refused", lang, action=action, reason=reason)


def not_now(action: object, who: str, question: str, legal: Sequence[object], lang: str) -> str:
    """The action answers another question than the one asked: who must answer what, and a few legal answers."""
    listed = punctuation(lang).listing.join(str(a) for a in legal[:SHOWN])
    more = word("more", lang) if len(legal) > SHOWN else ""
    return word("not_now", lang, action=action, who=who, question=question, legal=listed + more)


def not_legal(action: object, lang: str) -> str:
    """A refusal for a game that words no reason of its own."""
    return word("not_legal", lang, action=action)


def game_over(action: object, lang: str) -> str:
    return word("over", lang, action=action)


def foreign(action: object, title: str, lang: str) -> str:
    """What is offered is no action of this game at all (its repr: it may be anything)."""
    return word("foreign", lang, action=repr(action), title=title)


def unreadable(text: str, title: str, lang: str) -> str:
    """A text that reads as no action of the game (its notation's own message is English: a server words this
    for a player of another language)."""
    return word("unreadable", lang, text=repr(text[:60]), title=title)
