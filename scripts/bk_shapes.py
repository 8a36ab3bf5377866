"""`python scripts/bk_shapes.py`: write Block and Key's src/boardlab/games/block_and_key/shapes.py, the built-in
shapes' placement functions (`geometry.shapes_module_source`), after a change to the shapes or to `plan_source`.
Why a checked-in file: the native build compiles it with the engine; tests/games/block_and_key checks it matches."""

from pathlib import Path

from boardlab.games.block_and_key import geometry
from boardlab.games.block_and_key.components import components

OUT = Path(geometry.__file__).with_name("shapes.py")

if __name__ == "__main__":
    OUT.write_text(geometry.shapes_module_source(components().shape_cells), encoding="utf-8")
    print(f"wrote {OUT}")
