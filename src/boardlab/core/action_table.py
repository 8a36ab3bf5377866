"""Default notation and integer-encoding methods for a `Game`, driven by the game's actions module.

Why: every game whose actions are one fixed, finite list wrote the same `parse_action`,
`num_distinct_actions`, `action_to_id` and `id_to_action`; the core keeps them once. The mixins know
no game: a game names its own actions module (`actions_module = A`) and lists itself before `Game`:

    class PetrichorGame(FixedActionTable, Game):
        actions_module = A   # has parse(text), ALL_ACTIONS (index = id) and ACTION_ID
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from .errors import ActionParseError

if TYPE_CHECKING:
    from .game import Action, State


class Simple(NamedTuple):
    """An action that is only its kind ("pass", "done", ...): its notation is the kind. A game's other action
    types are NamedTuples whose first field is also the kind, so different types never compare equal."""

    kind: str

    def __str__(self) -> str:
        return self.kind


class ParsesNotation:
    """`parse_action` reads notation with `actions_module.parse` (legality stays `apply`'s job)."""

    actions_module: ClassVar[Any]

    def parse_action(self, state: State, text: str) -> Action:
        return self.actions_module.parse(text)


class FixedActionTable(ParsesNotation):
    """The integer action space is `actions_module.ALL_ACTIONS`: an action's id is its index there
    (`actions_module.ACTION_ID` maps back), the same for every player count."""

    titles: ClassVar[dict[str, str]]

    def num_distinct_actions(self, players: int) -> int:
        return len(self.actions_module.ALL_ACTIONS)

    def action_to_id(self, action: Action, players: int) -> int:
        try:
            return self.actions_module.ACTION_ID[action]
        except (KeyError, TypeError):
            raise ActionParseError(f"{action!r} is not a {self.titles['en']} action") from None

    def id_to_action(self, action_id: int, players: int) -> Action:
        table = self.actions_module.ALL_ACTIONS
        if not isinstance(action_id, int) or not 0 <= action_id < len(table):
            raise ActionParseError(f"action id {action_id!r} is out of range 0..{len(table) - 1}")
        return table[action_id]
