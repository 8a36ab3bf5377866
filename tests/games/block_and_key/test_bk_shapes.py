"""The per-shape placement functions `geometry.plan_source` writes (#36): every shift they compute is read."""

from __future__ import annotations

import re

from boardlab.games.block_and_key import geometry
from boardlab.games.block_and_key.components import components


def test_generated_shape_functions_compute_no_unread_shift() -> None:
    """A bridge that `shape_plan` drops (its two ends must rest anyway) used to leave its shifted boards computed
    and never read: wasted big-int shifts in the hottest function of random play."""
    for cells in components().shape_cells:
        source = geometry.plan_source(geometry.shape_plan(cells))
        assigned = re.findall(r"^    (s\d+) = ", source, re.M)
        body = source.split("return", 1)[1]
        assert assigned and all(re.search(rf"\b{name}\b", body) for name in assigned), cells
        boards = re.findall(r"^    (b\d+) = ", source, re.M)
        assert all(re.search(rf"= {name}\b", source) for name in boards), cells
