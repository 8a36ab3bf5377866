"""core.terms: a game's words with the English fallback, checked on the real terms.json of the games."""

from __future__ import annotations

import pytest

from boardlab.core.terms import game_term, game_terms

PACKAGES = ["boardlab.games.petrichor", "boardlab.games.pocket_mars", "boardlab.games.cooper_island",
            "boardlab.games.cacao"]


@pytest.mark.parametrize("package", PACKAGES)
def test_every_key_in_both_languages_and_the_fallbacks(package: str) -> None:
    t = game_terms(package)
    assert game_terms(package) is t, "read once"
    assert set(t["zh-TW"]) == set(t["en"]), "zh-TW and English name the same words"
    key = next(k for k, v in t["en"].items() if "{" not in v)
    assert game_term(package, key, "zh-TW") == t["zh-TW"][key]
    assert game_term(package, key, "fr") == t["en"][key], "an unknown language falls back to English"
    assert game_term(package, "no such key", "zh-TW") == "no such key"


def test_fields_are_filled_only_when_given() -> None:
    pkg = "boardlab.games.petrichor"
    raw = game_terms(pkg)["en"]["player"]
    assert "{n}" in raw
    assert game_term(pkg, "player", "en") == raw
    assert game_term(pkg, "player", "en", n=3) == raw.format(n=3) != raw
