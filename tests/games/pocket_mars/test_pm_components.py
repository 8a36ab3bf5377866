"""The deck data file: the built-in deck, user decks (JSON and TOML) and located validation errors."""

from __future__ import annotations

import copy
import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from pm_helpers import GAME, arrange, new, play_setup, random_game

from boardlab.core.errors import ComponentError, ConfigError
from boardlab.games.pocket_mars.components import CARD_INDEX, COLOURS, deck, rules
from boardlab.games.pocket_mars.text import RECONSTRUCTED_MARK, card_text, provenance_text


def builtin_doc() -> dict[str, Any]:
    text = resources.files("boardlab.games.pocket_mars").joinpath("cards.json").read_text("utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def write(tmp_path: Path, doc: Any, name: str = "deck.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def test_builtin_deck_has_35_cards_and_the_four_official_ones() -> None:
    d = deck()
    assert len(d.cards) == 35
    for colour in range(5):
        values = [c.value for c in d.cards if c.colour == colour]
        assert len(values) == 7 and min(values) == 0 and max(values) == 7
    official = {c.id: c for c in d.cards if c.provenance == "official"}
    assert sorted(official) == ["B6", "G4", "G5", "Y2"]
    assert all(c.provenance == "reconstructed" for c in d.cards if c.id not in official)
    assert card_text(official["Y2"]) == ("Y2 yellow 1 | top: launch 1 from Earth; gain 1 energy | bottom: if none "
                                         "of your colonists is in this building: launch 2 from Earth")
    assert card_text(official["G5"]).endswith("bottom: if you hold a green card: launch 1 from Earth")
    assert card_text(official["B6"]) == ("B6 blue 6 | top: draw 2 | bottom: look at 2 cards in another player's "
                                         "prep module")
    assert official["G4"].value == 4 and official["G4"].bottom.prims[0].where == "here"
    assert "口袋" not in card_text(official["B6"], "zh-TW") and "抽 2 張卡" in card_text(official["B6"], "zh-TW")
    # Chinese punctuation is full width: no half-width comma, colon or semicolon after a Chinese character
    assert not re.findall(r"[\u4e00-\u9fff][,:;]", " ".join(card_text(c, "zh-TW") for c in official.values()))
    assert [b.value for b in rules().buildings[:4]] == [3, 3, 3, 3]


def test_black_cards_all_move_a_colonist_from_the_ship_to_a_building() -> None:
    """The seed's black theme (issue #11): every black card's bottom action settles a ship colonist on ★
    (K7's reconstructed bottom was "launch 1")."""
    for card in deck().cards:
        if card.colour == COLOURS.index("black"):
            assert any(p.op == "settle" for p in card.bottom.prims), card.id


def test_g4_provenance_says_its_colour_is_a_guess() -> None:
    """G4 is an official sample card whose colour is not legible in the source: its provenance records the
    colour as reconstructed, and the terminal says so."""
    g4 = next(c for c in deck().cards if c.id == "G4")
    assert g4.provenance == "official" and dict(g4.field_provenance) == {"colour": "reconstructed"}
    assert g4.reconstructed and "guess" in g4.note
    assert provenance_text(g4) == "official; colour: reconstructed"
    assert provenance_text(g4, "zh-TW") == "官方；顏色：重建"
    assert all(not c.field_provenance for c in deck().cards if c.id != "G4")


def test_terminal_marks_reconstructed_cards() -> None:
    """The terminal picture marks every reconstructed card id with ◇ (and explains the mark once), and
    gives each own card's provenance in words; official cards carry no mark."""
    state = new(2, 1)
    play_setup(state)
    p = state.current_player
    assert p is not None
    arrange(state, hands={p: ["Y2", "K7"]}, prep={p: ["G4", "B1"]}, stacks={0: ["G5"], 2: ["B6", "B3"]})
    for lang in ("en", "zh-TW"):
        text = GAME.render_text(state, p, lang)
        assert "[G5]" in text and "B6 B3◇" in text and "[G4◇ " in text and "[B1◇ " in text
        assert text.splitlines()[-1].startswith(RECONSTRUCTED_MARK + " ")
    text = GAME.render_text(state, p, "en")
    assert "(official; colour: reconstructed)" in text and "K7 black 7" in text and "(reconstructed)" in text
    assert "Y2 yellow 1 |" in text and text.count("(official)") == 1
    plain = GAME.render_text(state, 1 - p, "en")  # the other seat sees only colour backs of p's module
    assert "G4" not in plain


def test_field_provenance_is_checked(tmp_path: Path) -> None:
    doc = builtin_doc()
    doc["cards"][3]["field_provenance"] = {"colour": "guess"}
    with pytest.raises(ComponentError, match=r"card #3 \(id 'G4'\)\.field_provenance\.colour: must be one of"):
        deck(write(tmp_path, doc))
    doc["cards"][3]["field_provenance"] = {"id": "reconstructed"}
    with pytest.raises(ComponentError, match=r"card #3 \(id 'G4'\)\.field_provenance: 'id' is not a field"):
        deck(write(tmp_path, doc))


@pytest.mark.parametrize(("edit", "message"), [
    (lambda d: d["cards"][3].__setitem__("value", 9), r"card #3 \(id 'G4'\)\.value: 9 is outside 0\.\.7"),
    (lambda d: d["cards"][0]["top"]["do"][0].__setitem__("op", "teleport"),
     r"card #0 \(id 'G1'\)\.top\.do\[0\]\.op: unknown effect 'teleport'"),
    (lambda d: d["cards"].pop(), r"cards: a deck has exactly 35 cards .*missing: K7"),
    (lambda d: d["cards"][1].__setitem__("id", "G1"), r"card #1 \(id 'G1'\)\.id: duplicate id"),
    (lambda d: d["cards"][30].__setitem__("top", {"do": [{"op": "settle", "where": "here"}]}),
     r"card #30 \(id 'K3'\)\.top\.do\[0\]\.where: 'here' means the card's own building"),
    (lambda d: d["cards"][8].__setitem__("provenance", "guess"), r"card #8 \(id 'Y2'\)\.provenance: must be one of"),
    (lambda d: d["cards"][8]["bottom"].__setitem__("if", {"hold": "red"}),
     r"card #8 \(id 'Y2'\)\.bottom\.if\.hold: must be a colour"),
    (lambda d: d["cards"][8].__setitem__("colour", "green"), r"card #8 \(id 'Y2'\)\.colour: green cards have ids"),
    (lambda d: d["cards"][8].__setitem__("flavour", "x"), r"card #8 \(id 'Y2'\)\.flavour: unknown field"),
    (lambda d: d["cards"][8]["top"]["do"][0].__setitem__("n", 0),
     r"card #8 \(id 'Y2'\)\.top\.do\[0\]\.n: 0 is outside"),
    (lambda d: d["cards"][8]["top"].__setitem__("do", []), r"card #8 \(id 'Y2'\)\.top\.do: needs at least one"),
    (lambda d: d.pop("cards"), r"top level: missing field 'cards'"),
])
def test_bad_deck_files_are_refused_with_located_messages(tmp_path: Path, edit: Any, message: str) -> None:
    doc = copy.deepcopy(builtin_doc())
    edit(doc)
    path = write(tmp_path, doc)
    with pytest.raises(ComponentError, match=message) as e:
        deck(path)
    assert str(e.value).startswith(path)
    with pytest.raises(ComponentError):
        new(2, components=path)


def test_unreadable_and_malformed_files(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.json")
    with pytest.raises(ComponentError, match=r"nope\.json: cannot read"):
        deck(missing)
    bad = tmp_path / "bad.json"
    bad.write_text('{"cards": [\n  {"id": "G1",}\n]}', encoding="utf-8")
    with pytest.raises(ComponentError, match=r"bad.json:2:\d+: not valid JSON"):
        deck(str(bad))
    bad_toml = tmp_path / "bad.toml"
    bad_toml.write_text("[[cards]\nid = 1", encoding="utf-8")
    with pytest.raises(ComponentError, match=r"bad\.toml: not valid TOML"):
        deck(str(bad_toml))
    with pytest.raises(ConfigError):
        new(2, components=3)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, str)):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return "{" + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + "}"


def test_a_users_toml_deck_is_used_and_survives_a_save(tmp_path: Path) -> None:
    doc = builtin_doc()
    for card in doc["cards"]:
        if card["id"] == "G1":
            card["top"] = {"do": [{"op": "energy", "n": 5}]}
    lines = []
    for card in doc["cards"]:
        lines.append("[[cards]]")
        lines += [f"{k} = {_toml(v)}" for k, v in card.items()]
    path = tmp_path / "mine.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    state = new(2, seed=1, components=str(path))
    assert state.cards.source == str(path)
    play_setup(state)
    p = state.start
    arrange(state, hands={p: ["G1", "B3"]})
    state.apply_text("hand G1")
    assert state.energy[p] == 6
    assert state.view(p)["components"] == str(path)
    played = random_game(2, seed=9, components=str(path))
    loaded = GAME.from_json(json.loads(json.dumps(played.to_json())))
    assert loaded.snapshot() == played.snapshot() and loaded.cards.source == str(path)


def test_colour_list_matches_the_buildings() -> None:
    assert [b.colour_name["en"] for b in rules().buildings] == list(COLOURS)
    assert CARD_INDEX["K7"] == 34
