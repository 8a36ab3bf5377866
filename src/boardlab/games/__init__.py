"""Built-in games, one subpackage each. Importing this package registers each of them.

`boardlab.games()` is also the public "list the game names" function: Python binds the attribute
`boardlab.games` to this subpackage as soon as it is imported, so the subpackage itself is made
callable and answers with the registry's names.
"""

import sys
import types

from . import (
    block_and_key,  # noqa: F401
    cacao,  # noqa: F401
    cooper_island,  # noqa: F401
    petrichor,  # noqa: F401
    pocket_mars,  # noqa: F401
)


class _GamesPackage(types.ModuleType):
    def __call__(self) -> list[str]:
        """Names of every registered game, sorted."""
        from boardlab.core.registry import games

        return games()


sys.modules[__name__].__class__ = _GamesPackage
