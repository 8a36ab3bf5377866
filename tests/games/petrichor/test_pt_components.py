"""Component data: the packaged file (provenance on every entry, official counts), a user's own file
(JSON or TOML) used by a game, and refusals that name the file, the entry and the field; notation."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from pt_helpers import GAME, new

from boardlab.core.errors import ActionParseError, ComponentError, SaveError
from boardlab.games.petrichor.actions import ALL_ACTIONS, parse
from boardlab.games.petrichor.components import packaged


def raw() -> dict[str, Any]:
    return json.loads(resources.files("boardlab.games.petrichor").joinpath("components.json").read_text("utf-8"))


def test_every_entry_has_a_provenance() -> None:
    doc = raw()
    entries: list[Any] = [doc["die_faces"], doc["voting_wins"]]
    for key in ("constants", "setups", "cards", "crops", "tiles", "south_wind"):
        entries += doc[key]
    entries += [st for crop in doc["crops"] for st in crop["stages"].values()]
    for e in entries:
        assert e["provenance"] in ("official", "seed", "reconstructed"), e
    assert all(t["provenance"] == "reconstructed" for t in doc["tiles"])  # thresholds: no source has them
    assert doc["voting_wins"]["provenance"] == "reconstructed"


def test_official_counts() -> None:
    C = packaged()
    assert Counter(t.crop for t in C.tiles) == {"wheat": 3, "cotton": 3, "grass": 3, "potato": 2, "coffee": 2,
                                                "rice": 1, "corn": 2}
    assert len(C.tiles) == 16
    assert Counter(C.deck) == {0: 10, 1: 10, 2: 10, 3: 10}
    assert len(C.south_wind) == 9
    assert C.const["drops_per_player"] == 20 and C.const["markers_per_player"] == 12
    assert C.const["dark_at"] == 4 and C.const["burst_at"] == 8 and C.const["hand_limit"] == 4
    assert sorted(C.die_faces) == [0, 0, 1, 2, 3, 4]  # two wheat faces


def test_a_users_json_file_is_used(tmp_path: Path) -> None:
    doc = raw()
    for t in doc["tiles"]:
        t["threshold"] = 2
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(doc))
    s = new(2, components=str(path))
    assert all(s.threshold(i) == 2 for i in range(len(s.tile)))
    assert s.view(0)["components"] == str(path)
    # a save with the option replays with the same file
    s.apply(s.legal_actions()[0])
    again = GAME.from_json(json.loads(json.dumps(s.to_json())))
    assert again.snapshot() == s.snapshot()


def test_a_users_toml_file_is_used(tmp_path: Path) -> None:
    import tomllib  # noqa: F401  (only reading is in the standard library; the file is written by hand)

    doc = raw()
    lines = []
    for c in doc["constants"]:
        value = c["value"] + (10 if c["id"] == "markers_per_player" else 0)
        lines += ["[[constants]]", f'id = "{c["id"]}"', f"value = {value}", f'provenance = "{c["provenance"]}"']
    lines += ["[die_faces]", "faces = [1, 2, 3, 4, 0, 0]", 'provenance = "seed"']
    for st in doc["setups"]:
        lines += ["[[setups]]"] + [f"{k} = {json.dumps(v)}" for k, v in st.items()]
    for c in doc["cards"]:
        lines += ["[[cards]]"] + [f"{k} = {json.dumps(v)}" for k, v in c.items()]
    for t in doc["tiles"]:
        lines += ["[[tiles]]"] + [f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in t.items()]
    lines += ["[voting_wins]", f"values = {doc['voting_wins']['values']}", 'provenance = "reconstructed"']
    for c in doc["south_wind"]:
        lines += ["[[south_wind]]"] + [f"{k} = {json.dumps(v)}" for k, v in c.items()]
    for crop in doc["crops"]:
        lines += ["[[crops]]", f'id = "{crop["id"]}"', f'provenance = "{crop["provenance"]}"']
        if crop["grows_on"]:
            lines.append(f'grows_on = "{crop["grows_on"]}"')
        for name, st in crop["stages"].items():
            lines.append(f"[crops.stages.{name}]")
            lines += [f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in st.items()]
    path = tmp_path / "mine.toml"
    path.write_text("\n".join(lines) + "\n")
    s = new(2, components=str(path))
    assert s.markers_left(0) == 22


@pytest.mark.parametrize(("edit", "where"), [
    (lambda d: d["tiles"][3].pop("provenance"), "tiles[3]: missing field 'provenance'"),
    (lambda d: d["tiles"][5].update(crop="tea"), "tiles[5].crop: no crop 'tea'"),
    (lambda d: d["tiles"][0].update(threshold=0), "tiles[0].threshold: 0 is outside"),
    (lambda d: d["crops"][1]["stages"]["sprouted"].update(rank=[1, 2, 3]), "crops[1].stages.sprouted.rank"),
    (lambda d: d["cards"][2].update(weather="hail"), "cards[2].weather: must be one of"),
    (lambda d: d["constants"].pop(0), "missing constant 'drops_per_player'"),
    (lambda d: d["setups"][3].update(rows=9), "setups[3].rows: 9 is outside"),
    (lambda d: d["tiles"].__delitem__(slice(4, 16)), "cannot fill the largest grid"),
    (lambda d: d["south_wind"][0].update(provenance="guess"), "south_wind[0].provenance: must be one of"),
    (lambda d: d["tiles"][1].update(id="T01"), "tiles[1].id: duplicate id 'T01'"),
])
def test_bad_files_are_refused_with_the_place(tmp_path: Path, edit: Any, where: str) -> None:
    doc = raw()
    edit(doc)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ComponentError) as e:
        new(2, components=str(path))
    assert str(path) in str(e.value) and where in str(e.value)


def test_malformed_json_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{\n "constants": [\n  {"id": 1,,}\n ]\n}')
    with pytest.raises(ComponentError, match=r"broken.json:3:\d+: not valid JSON"):
        new(2, components=str(path))


def test_notation_round_trips_and_ids() -> None:
    assert len(set(map(str, ALL_ACTIONS))) == len(ALL_ACTIONS)
    for i, a in enumerate(ALL_ACTIONS):
        assert parse(str(a)) == a
        assert GAME.action_to_id(a, 2) == i and GAME.id_to_action(i, 2) == a
    assert parse("  Wind  b2  n ") == parse("wind B2 N")
    with pytest.raises(ActionParseError, match="forms"):
        parse("rain E9 P1")
    with pytest.raises(ActionParseError):
        GAME.id_to_action(len(ALL_ACTIONS), 2)


def test_a_tampered_save_is_refused() -> None:
    s = new(2, seed=4)
    s.apply(s.legal_actions()[0])
    data = s.to_json()
    data["state"]["vp"] = [99, 0]
    with pytest.raises(SaveError):
        GAME.from_json(data)
