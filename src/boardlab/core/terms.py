"""A game's words: its package's terms.json ({lang: {key: text}}), read once, looked up with an English fallback.

Why: every game's text.py had the same loader and lookup; the core keeps them once (it knows no game: the
caller names its package).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, NamedTuple


@cache
def game_terms(package: str) -> dict[str, dict[str, str]]:
    """The terms.json of `package` (e.g. "boardlab.games.petrichor"), parsed once."""
    return json.loads(resources.files(package).joinpath("terms.json").read_text("utf-8"))  # type: ignore[no-any-return]


def game_term(package: str, key: str, lang: str, /, **kw: Any) -> str:
    """`key` in `lang` (an unknown language or a missing or empty entry falls back to English, then to the
    key itself), with `{name}` fields filled from `kw` when given. The first three are positional-only, so a
    term may have fields named `key`, `lang` or `package` (Block and Key's "puts {key} under its altar")."""
    t = game_terms(package)
    raw = t.get(lang, t["en"]).get(key) or t["en"].get(key, key)
    return raw.format(**kw) if kw else raw


@cache
def game_data(package: str, name: str) -> Any:
    """A data file (`<name>.json`) of a game package, parsed once: what the explanations of its components
    (text.explain) read, with each entry's provenance."""
    return json.loads(resources.files(package).joinpath(f"{name}.json").read_text("utf-8"))


class Punctuation(NamedTuple):
    """The marks that join a language's words: Chinese takes full-width ones (a half-width colon after a Chinese
    word reads as a typo) and the enumeration comma 、 between the items of a list."""

    comma: str
    colon: str
    semicolon: str
    listing: str  # between the items of a list
    opening: str  # a bracket after a word: " (" in English, "（" with no space in Chinese
    closing: str

    def bracket(self, text: object) -> str:
        """`text` in brackets, to follow a word: ' (3)' / '（3）'."""
        return f"{self.opening}{text}{self.closing}"


LATIN = Punctuation(", ", ": ", "; ", ", ", " (", ")")
PUNCTUATION = {"zh-TW": Punctuation("，", "：", "；", "、", "（", "）")}


def punctuation(lang: str) -> Punctuation:
    """The marks of `lang` (English's for a language without its own)."""
    return PUNCTUATION.get(lang, LATIN)
