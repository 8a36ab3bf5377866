"""Built-in games. Importing this package registers each of them."""

from . import cacao  # noqa: F401
