"""The component file: counts from the sources, provenance on every entry, harder keys worth more, and a user's
own file refused with errors that name the file, the entry and the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bk_helpers import BUILTIN_FILE, COMP, new

from boardlab.core.errors import ComponentError
from boardlab.games.block_and_key.geometry import orientations


def test_counts_follow_the_sources() -> None:
    assert len(COMP.colours) == 4 and len(COMP.shapes) == 10 and len(COMP.block_ids) == 40
    decks = [k.deck for k in COMP.keys]
    assert (decks.count("star"), decks.count("sun"), decks.count("moon")) == (8, 24, 16)
    assert sorted(COMP.enigmas) == [0, 1, 2, 3]
    assert all(1 <= k.stars <= 4 and 1 <= k.pips <= 9 for k in COMP.keys)


def test_every_entry_has_a_provenance() -> None:
    doc = json.loads(BUILTIN_FILE.read_text("utf-8"))
    for section in ("colours", "shapes", "floors", "keys", "enigmas", "solo_ratings"):
        for entry in doc[section]:
            assert entry["provenance"] in ("official", "seed", "reconstructed"), (section, entry)
    assert doc["core"]["provenance"] == "seed"


def test_harder_decks_are_worth_more() -> None:
    def mean(deck: str) -> float:
        pts = [k.points for k in COMP.keys if k.deck == deck]
        return sum(pts) / len(pts)

    assert mean("star") < mean("sun") < mean("moon")


def test_orientations_are_rotations_of_the_physical_piece() -> None:
    """A flat piece turned over is still a rotation in 3D: the L tetromino lies flat in 8 ways and stands
    in 16; the square in 1 + 2; the monomino in 1."""
    def count(shape: str) -> tuple[int, int]:
        oris = orientations(COMP.shape_cells[COMP.shapes.index(shape)])
        flat = sum(1 for o in oris if not o.vertical)
        return flat, len(oris) - flat

    assert count("1") == (1, 0)
    assert count("O4") == (1, 2)
    assert count("L4") == (8, 16)
    assert count("I4") == (2, 1)


def write(tmp_path: Path, change) -> str:  # type: ignore[no-untyped-def]
    doc = json.loads(BUILTIN_FILE.read_text("utf-8"))
    change(doc)
    p = tmp_path / "mine.json"
    p.write_text(json.dumps(doc), "utf-8")
    return str(p)


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["keys"][3].pop("provenance"), r"keys\[3\]: missing field 'provenance'"),
    (lambda d: d["keys"][5].update(pattern=["RX"]), r"keys\[5\]\.pattern\[0\]: unknown colour 'X'"),
    (lambda d: d["keys"][0].update(pattern=["R", "RW"]), r"keys\[0\]\.pattern\[1\]: row 'RW' has 2 cells"),
    (lambda d: d["keys"][2].update(stars=5), r"keys\[2\]\.stars: 5 is outside 1\.\.4"),
    (lambda d: d["shapes"].pop(), r"shapes: exactly 10 shapes"),
    (lambda d: d["shapes"][4].update(cells=["#.#"]), r"shapes\[4\]\.cells: the cubes of a block must be connected"),
    (lambda d: d["floors"][1].update(core=[7, 7]), r"floors\[1\]\.core: the core's south-west cell"),
    (lambda d: d["enigmas"][0].update(colour="Y"), r"enigmas\[0\]\.colour: unknown colour 'Y'"),
    (lambda d: d["core"].update(sides=["W", "W", "R", "B"]), r"core\.sides"),
])
def test_a_bad_user_file_is_refused_with_a_located_error(tmp_path: Path, change, message: str) -> None:  # type: ignore[no-untyped-def]
    path = write(tmp_path, change)
    with pytest.raises(ComponentError, match=message) as e:
        new(2, 0, components=path)
    assert "mine.json" in str(e.value)


def test_a_user_file_is_used(tmp_path: Path) -> None:
    def cheap(d):  # type: ignore[no-untyped-def]
        for k in d["keys"]:
            k["points"] = 1

    s = new(2, 0, components=write(tmp_path, cheap))
    assert all(k.points == 1 for k in s.comp.keys)
    assert s.view(0)["components"].endswith("mine.json")


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ComponentError, match="cannot read"):
        new(2, 0, components=str(tmp_path / "nope.json"))
