"""A `State` driven by a stack of pending steps: the shape several games share.

Why: Petrichor, Pocket Mars and Cooper Island each wrote the same loop: the top step of `todo` lists its
answers; none drops it, one is played at once, two or more make a question for the step's seat. The core
keeps that loop once; a game says what a step offers and what an answer does, and lists the mixin before
`State`:

    class PetrichorState(StepMachine, State):
        def _step_options(self, step): ...      # answers, [] = nothing to do, None = the step changed todo
        def _resolve(self, step, action): ...   # carry out one answer (the step is already popped)

A step is a tuple whose items 0 and 1 are its kind and the seat that answers it.
"""

from __future__ import annotations

from typing import Any


class StepMachine:
    """`current_player`, `is_over`, `_legal_actions`, `_apply` and `_run` over `todo` (the stack of steps),
    `options_` (the answers of the question asked) and `decider` (its seat, None once the game is over)."""

    todo: list[Any]
    options_: list[Any]
    decider: int | None

    def _step_options(self, step: Any) -> list[Any] | None:
        """The answers of `step`: [] when there is nothing to do, None when it rearranged `todo` itself."""
        raise NotImplementedError

    def _resolve(self, step: Any, action: Any) -> None:
        """Carry out `action`, an answer of `step` (already taken off `todo`)."""
        raise NotImplementedError

    def _asks(self, step: Any, opts: list[Any]) -> bool:
        """Whether `step`'s seat is asked; otherwise `_auto_answer` is played. Default: two or more answers."""
        return len(opts) > 1

    def _auto_answer(self, step: Any, opts: list[Any]) -> Any:
        """The answer played without asking (after the step is popped). Default: the only one."""
        return opts[0]

    @property
    def current_player(self) -> int | None:
        return self.decider

    def observation_view(self, seat: int) -> dict[str, Any]:
        """`State.observation_view`: the view without the decider's options as text (every legal move's notation,
        which a learning environment gives as its action mask instead); each game's `_view` takes `options`."""
        state: Any = self  # a State too (the mixin is listed before it)
        return state._with_result(state._view(seat, options=False))

    @property
    def is_over(self) -> bool:
        return self.decider is None

    def _legal_actions(self) -> list[Any]:
        return self.options_

    def _apply(self, action: Any) -> None:
        step = self.todo.pop()
        self._resolve(step, action)
        self._run()

    def _run(self) -> None:
        """Carry out automatic steps until a question with two or more answers (or the end)."""
        todo = self.todo
        options, asks = self._step_options, self._asks  # bound once: this loop runs at every search step
        while todo:
            step = todo[-1]
            opts = options(step)
            if opts is None:
                continue
            if not opts:
                todo.pop()
            elif not asks(step, opts):
                todo.pop()
                self._resolve(step, self._auto_answer(step, opts))
            else:
                self.options_ = opts
                self.decider = step[1]
                return
        self.options_ = []
        self.decider = None
