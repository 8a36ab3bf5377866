"""Every JSON file the package ships (each game's data, terms and about files, the web's word lists) names each
key once per object: `json` keeps the last of two equal keys silently, so a word added twice (two branches
merged) would change what players read without a sound."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import boardlab

FILES = sorted(Path(boardlab.__file__).parent.rglob("*.json"))


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    repeated = sorted({k for k in keys if keys.count(k) > 1})
    assert not repeated, f"keys given twice in one object: {repeated}"
    return dict(pairs)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(Path(boardlab.__file__).parent)))
def test_no_key_is_given_twice(path: Path) -> None:
    json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=_no_repeats)
