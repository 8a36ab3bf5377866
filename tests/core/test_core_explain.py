"""Game.explain: every installed game explains its components in English and Traditional Chinese (issue #31).

The browser's tooltips show these words; an id without its meaning, an entry missing in one language or left
in English in the other, or a reconstructed component not marked so, is what a newcomer would meet."""

from __future__ import annotations

import re

import pytest

from boardlab.core import get_game
from boardlab.core.game import explanation
from boardlab.core.registry import installed_games

HAN = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("name", installed_games())
def test_every_component_is_explained_in_both_languages(name: str) -> None:
    game = get_game(name)
    en, zh = game.explain("en"), game.explain("zh-TW")
    assert en, f"{name} explains no component"
    assert en.keys() == zh.keys()
    for cid, e in en.items():
        assert e["name"] and e["what"] and "{" not in e["what"] + e["name"] + e["cost"], (cid, e)
        z = zh[cid]
        assert HAN.search(z["what"]), f"{name} {cid}: the zh-TW meaning is not in Chinese: {z['what']!r}"
        assert z["reconstructed"] == e["reconstructed"]


@pytest.mark.parametrize(("name", "cid"), [("cooper_island", "order:1"), ("cooper_island", "boat:2"),
                                          ("cooper_island", "building:S1"), ("block_and_key", "block:BI4"),
                                          ("block_and_key", "key:S01"), ("petrichor", "tile:T01"),
                                          ("pocket_mars", "card:G1")])
def test_reconstructed_components_say_so(name: str, cid: str) -> None:
    """components.json marks these reconstructed; the explanation must carry it to the player."""
    assert get_game(name).explain("en")[cid]["reconstructed"] is True


def test_cooper_island_ids_say_what_they_do_and_cost() -> None:
    """The issue's examples: royal order #3, income boat 2 and cargo ship 2 were shown as bare ids."""
    e = get_game("cooper_island").explain("en")
    assert "building" in e["order:3"]["what"] and "10" in e["order:3"]["what"]
    assert "+1 coin" in e["boat:2"]["what"] and "wood 1" in e["boat:2"]["cost"]
    assert e["cargo:2"]["cost"] == "stone 1, cloth 1"


def test_an_explanation_needs_a_name_and_a_meaning() -> None:
    with pytest.raises(ValueError):
        explanation(name="Boat", what="")
    assert explanation(name="Boat", what="sails")["reconstructed"] is False
