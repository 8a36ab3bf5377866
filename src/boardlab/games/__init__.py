"""Built-in games. Importing this package registers each of them."""

from . import (
    cacao,  # noqa: F401
    pocket_mars,  # noqa: F401
)
