"""A compound move as a short sequence of small choices, for learning interfaces (issue #35).

Why: a game whose moves carry a tile, a cell and a rotation has a flat integer space of their product (Cacao:
1,031,747 ids, Block and Key: 737,433), too big for a policy head or a mask per step. A game may declare a
split instead: each move becomes a few sub-choices (place: tile -> column -> row -> rotation), each drawn from
one small shared vocabulary of *tokens*. The engine's actions, notation and rules are unchanged; the split is
only a way to name a move in parts, and the learning interfaces (boardlab.rl) step through it.

The split is declarative and knows no game. Every action is a NamedTuple whose first field is its kind (see
`action_table.Simple`); the game lists, per kind, the groups of fields chosen at each step, and the values
each field may take:

    ActionSplit(steps={"place": (("kind", "tile"), ("x",), ("y",), ("rot",)), "pass": (("kind",),)},
                domains={"tile": ("a", "b"), "x": range(-3, 4), "y": range(-3, 4), "rot": range(4)})

A token is a group of field names with their values (`(("x",), (2,))`); the same token (x = 2) has the same id
whichever kind uses it. The vocabulary is every value combination of every group, in declaration order. Every
kind has a fixed number of steps and its first group holds the kind, so no move's parts are a prefix of another
kind's, and a sequence of sub-choices names at most one move.

A learner's mask at each step is read from a `SplitMoves` of the position: by default one built from the legal list
(every legal move split into its parts, boardlab.rl.common.LegalTree); a game whose legal list is costly to build
(Block and Key: a Place per spot) may answer the same questions from its own state (`Game.split_moves`), down
the chosen path only.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from .errors import ActionParseError

Token = tuple[tuple[str, ...], tuple[Any, ...]]


class ActionSplit:
    """Moves as sequences of sub-choice ids over one vocabulary (`tokens`, index = id)."""

    def __init__(self, steps: Mapping[str, tuple[tuple[str, ...], ...]], domains: Mapping[str, Iterable[Any]]) -> None:
        values = {name: tuple(v) for name, v in domains.items()}
        tokens: dict[Token, int] = {}
        for kind, groups in steps.items():
            if not groups or groups[0][:1] != ("kind",):
                raise ValueError(f"the first step of {kind!r} must choose the kind")
            for group in groups:
                doms = [(kind,) if f == "kind" else values[f] for f in group]
                for combo in itertools.product(*doms):
                    tokens.setdefault((group, combo), len(tokens))
        self.steps = dict(steps)
        self.tokens: tuple[Token, ...] = tuple(tokens)
        self.index = tokens
        self.depth = max(len(g) for g in self.steps.values())
        self._plans: dict[tuple[type, Any], tuple[tuple[tuple[str, ...], tuple[int, ...]], ...]] = {}

    @property
    def size(self) -> int:
        """The number of sub-choice ids."""
        return len(self.tokens)

    def parts(self, action: Any) -> tuple[int, ...]:
        """The sub-choice ids of `action`, in order."""
        try:
            plan = self._plans.get((type(action), action[0]))
            if plan is None:
                plan = self._plan(action)
            index = self.index
            return tuple([index[(g, tuple([action[i] for i in at]))] for g, at in plan])
        except (KeyError, TypeError, IndexError, AttributeError, ValueError):
            raise ActionParseError(f"{action!r} has no parts in this game's action split") from None

    def _plan(self, action: Any) -> tuple[tuple[tuple[str, ...], tuple[int, ...]], ...]:
        """Per step of `action`'s kind, its group and the positions of the group's fields in the action's tuple
        (remembered per action type and kind: a learner's step splits every legal move, and reading fields by name
        cost most of it)."""
        fields = type(action)._fields
        plan = tuple((g, tuple(fields.index(f) for f in g)) for g in self.steps[action[0]])
        self._plans[(type(action), action[0])] = plan
        return plan

    def describe(self, token_id: int) -> str:
        """A sub-choice as text: the kind and its fields' values (`place 3`), or `x 2`, `edge,count 1,3`."""
        if not 0 <= token_id < len(self.tokens):
            raise ActionParseError(f"sub-choice id {token_id} is out of range 0..{len(self.tokens) - 1}")
        group, combo = self.tokens[token_id]
        if group[0] == "kind":
            return " ".join(str(v) for v in combo)
        return f"{','.join(group)} {','.join(str(v) for v in combo)}"


class SplitMoves(Protocol):
    """One position's legal moves by their sub-choices, asked one prefix at a time (`Game.split_moves`). Must be
    exact: `options` offers an id only if some legal move continues the prefix with it, and every legal move is
    reached; tests/rl/test_rl_split_moves.py holds a game's answers equal to the tree of its legal list. A snapshot
    of the position, as the legal list is: the state may move on while copies of the position still ask (OpenSpiel
    shares one per position)."""

    def options(self, prefix: tuple[int, ...]) -> list[int]:
        """The ids that may follow `prefix` (a prefix of some legal move's parts), ascending."""
        ...

    def move(self, parts: tuple[int, ...]) -> Any:
        """The legal move whose parts are exactly `parts`, or None (a legal move's parts go on after it)."""
        ...
