"""Built-in games, one subpackage each. The registry finds them through the entry points of the group
`boardlab.games` (pyproject.toml) and imports each on the first question (`boardlab.get_game`, `games()`):
importing this package imports none of them.

`boardlab.games()` is also the public "list the game names" function: Python binds the attribute
`boardlab.games` to this subpackage as soon as it is imported, so the subpackage itself is made
callable and answers with the registry's names.
"""

import sys
import types


class _GamesPackage(types.ModuleType):
    def __call__(self) -> list[str]:
        """Names of every registered game, sorted."""
        from boardlab.core.registry import games

        return games()


sys.modules[__name__].__class__ = _GamesPackage
