"""The built-in shapes' placement functions live in a generated module (compiled with the engine in the native
build, #36): it must be what `geometry.shapes_module_source` writes today, and be the one the engine uses."""

from __future__ import annotations

from pathlib import Path

from boardlab.games.block_and_key import geometry, shapes
from boardlab.games.block_and_key.components import components


def test_shapes_module_is_up_to_date() -> None:
    text = (Path(shapes.__file__).parent / "shapes.py").read_text(encoding="utf-8")  # the .so in the native build
    assert text == geometry.shapes_module_source(components().shape_cells), "run scripts/bk_shapes.py"


def test_built_in_shapes_use_the_generated_module() -> None:
    for cells in components().shape_cells:
        assert geometry.generated(cells) is shapes.BUILT_IN[cells]


def test_other_shapes_are_generated_at_run_time_and_agree() -> None:
    """A shape no component file of ours has still gets its function (exec'd), and the plan's source is the same
    whether typed for the module or not."""
    cells = ((0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0))
    assert cells not in shapes.BUILT_IN
    fn = geometry.generated(cells)
    board = [(1 << 800) - 1] * geometry.shape_plan(cells).kinds
    bounds = geometry.orientation_bounds(geometry.orientations(cells), 8, 8)
    assert len(fn(board, bounds)) == len(geometry.orientations(cells))
    for built in components().shape_cells:
        plan = geometry.shape_plan(built)
        untyped = geometry.plan_source(plan).splitlines()[1:]
        assert geometry.plan_source(plan, "x", typed=True).splitlines()[1:] == untyped
