"""The core step machine: what a step with no, one or several answers does, and the `_asks` hook."""

from __future__ import annotations

from typing import Any

from boardlab.core.step_machine import StepMachine


class Counter(StepMachine):
    """Steps ("pick", seat, answers...): answers are recorded; ("skip", seat) offers none; ("split", seat)
    replaces itself by two picks (returns None)."""

    def __init__(self, steps: list[tuple[Any, ...]], silent: int | None = None) -> None:
        self.todo, self.options_, self.decider, self.played, self.silent = list(reversed(steps)), [], None, [], silent
        self._run()

    def _step_options(self, step: tuple[Any, ...]) -> list[Any] | None:
        if step[0] == "split":
            self.todo[-1:] = [("pick", step[1], "y"), ("pick", step[1], "x")]
            return None
        return list(step[2:])

    def _resolve(self, step: tuple[Any, ...], action: Any) -> None:
        self.played.append((step[1], action))

    def _asks(self, step: tuple[Any, ...], opts: list[Any]) -> bool:
        return super()._asks(step, opts) and step[1] != self.silent

    def _auto_answer(self, step: tuple[Any, ...], opts: list[Any]) -> Any:
        return opts[0] if len(opts) == 1 else max(opts)


def test_single_answers_play_themselves_and_empty_steps_drop() -> None:
    m = Counter([("skip", 0), ("pick", 1, "a"), ("split", 0), ("pick", 1, "b", "c")])
    assert m.played == [(1, "a"), (0, "x"), (0, "y")]
    assert m.current_player == 1 and not m.is_over and m._legal_actions() == ["b", "c"]
    m._apply("c")
    assert m.played[-1] == (1, "c") and m.is_over and m.current_player is None and m._legal_actions() == []


def test_a_seat_that_is_never_asked_gets_the_auto_answer() -> None:
    m = Counter([("pick", 0, "a", "b"), ("pick", 1, "c", "d")], silent=0)
    assert m.played == [(0, "b")] and m.current_player == 1
