"""A tiny test-only game ("tally") with hidden hands, a hidden pile order and a secret action, so
the server's tests do not depend on any real game's rules.

Each seat holds cards (hidden from the others). On your turn: `add1`/`add2` (public, up to two a
turn), `draw` (top card of the hidden pile: chance and hidden information), `play<c>` (a card from
your hand, face up: the counter goes up by c), `hide<c>` (a card face down: nobody else learns c),
`end` (next seat). The game ends when the counter reaches the target.
"""

from __future__ import annotations

import os
from typing import Any, NamedTuple

from boardlab.core import ActionParseError, Game, Option, Rng, Score, State, register


class Act(NamedTuple):
    kind: str
    card: int = 0

    def __str__(self) -> str:
        return f"{self.kind}{self.card}" if self.kind in ("play", "hide") else self.kind


KINDS = ("add1", "add2", "draw", "end")


class TallyState(State):
    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(players, seed, options)
        deck = [v for v in range(1, 10) for _ in range(2)]
        Rng(seed).shuffle(deck)
        self.deck = deck
        self.hands = [sorted(self.deck.pop() for _ in range(2)) for _ in range(players)]
        self.hidden: list[list[int]] = [[] for _ in range(players)]
        self.played: list[int] = []
        self.points = [0] * players
        self.counter = 0
        self.turn = 0
        self.adds = 0

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.turn

    @property
    def is_over(self) -> bool:
        return self.counter >= self.options["target"]

    def _legal_actions(self) -> list[Act]:
        out: list[Act] = []
        if self.adds < 2:
            out += [Act("add1"), Act("add2")]
        hand = self.hands[self.turn]
        if self.deck and len(hand) < 4:
            out.append(Act("draw"))
        for c in sorted(set(hand)):
            out.append(Act("play", c))
        for c in sorted(set(hand)):
            out.append(Act("hide", c))
        out.append(Act("end"))
        return out

    def _apply(self, a: Act) -> None:
        me = self.turn
        if a.kind in ("add1", "add2"):
            n = int(a.kind[-1])
            self.counter += n
            self.points[me] += n
            self.adds += 1
        elif a.kind == "draw":
            self.hands[me] = sorted([*self.hands[me], self.deck.pop()])
        elif a.kind == "play":
            self.hands[me].remove(a.card)
            self.played.append(a.card)
            self.counter += a.card
            self.points[me] += a.card
        elif a.kind == "hide":
            self.hands[me].remove(a.card)
            self.hidden[me].append(a.card)
        elif a.kind == "end":
            self.turn = (self.turn + 1) % self.num_players
            self.adds = 0

    def clone(self) -> TallyState:
        o = TallyState.__new__(TallyState)
        self._copy_base(o)
        o.deck = list(self.deck)
        o.hands = [list(h) for h in self.hands]
        o.hidden = [list(h) for h in self.hidden]
        o.played = list(self.played)
        o.points = list(self.points)
        o.counter, o.turn, o.adds = self.counter, self.turn, self.adds
        return o

    def scores(self) -> list[Score]:
        return [Score(p, {"points": p}, (-len(h),)) for p, h in zip(self.points, self.hands, strict=True)]

    def view(self, seat: int | None) -> dict[str, Any]:
        v: dict[str, Any] = {
            "counter": self.counter,
            "target": self.options["target"],
            "turn": self.turn,
            "adds": self.adds,
            "deck": len(self.deck),
            "hand_sizes": [len(h) for h in self.hands],
            "hidden_counts": [len(h) for h in self.hidden],
            "played": list(self.played),
            "points": list(self.points),
        }
        if seat is not None:
            v["hand"] = list(self.hands[seat])
            v["my_hidden"] = list(self.hidden[seat])
        return v

    def snapshot(self) -> dict[str, Any]:
        return {**self.view(None), "hands": self.hands, "hidden": self.hidden, "deck_order": self.deck}

    def determinize(self, seat: int, rng: Rng) -> TallyState:
        s = self.clone()
        unknown = list(s.deck)
        for i in range(self.num_players):
            if i != seat:
                unknown += s.hands[i] + s.hidden[i]
        rng.shuffle(unknown)
        for i in range(self.num_players):
            if i != seat:
                k, m = len(s.hands[i]), len(s.hidden[i])
                s.hands[i] = sorted(unknown[:k])
                s.hidden[i] = unknown[k : k + m]
                unknown = unknown[k + m :]
        s.deck = unknown
        s._legal = None
        return s


class Tally(Game):
    name = "tally"
    titles = {"en": "Tally (test game)", "zh-TW": "計數（測試遊戲）"}
    min_players = 2
    max_players = 3
    options = {"target": Option(12, "the counter value that ends the game")}
    hidden_information = True

    def _new_state(self, players: int, seed: int, options: dict[str, Any]) -> State:
        return TallyState(players, seed, options)

    def parse_action(self, state: State, text: str) -> Act:
        t = text.strip()
        if t in KINDS:
            return Act(t)
        for k in ("play", "hide"):
            if t.startswith(k) and t[len(k) :].isdigit() and len(t) == len(k) + 1:
                return Act(k, int(t[len(k) :]))
        raise ActionParseError(
            f"{text[:40]!r} is not a tally action (add1, add2, draw, play<c>, hide<c>, end)"
        )

    def num_distinct_actions(self, players: int) -> int:
        return 22

    def action_to_id(self, action: Any, players: int) -> int:
        return 0

    def id_to_action(self, action_id: int, players: int) -> Act:
        return Act("end")

    def undo_barrier(self, before: State, action: Any, after: State) -> bool:
        """Exact (the core's default is always a barrier): a draw and a card played face up reveal."""
        return action.kind in ("draw", "play")

    def describe_action(self, action: Any, lang: str = "en") -> str:
        if lang == "zh-TW":
            return {"add1": "加 1", "add2": "加 2", "draw": "抽一張牌", "end": "結束回合"}.get(
                str(action), f"{'打出' if action.kind == 'play' else '蓋下'} {action.card}"
            )
        return {"add1": "adds 1", "add2": "adds 2", "draw": "draws a card", "end": "ends the turn"}.get(
            str(action), f"{'plays' if action.kind == 'play' else 'hides'} a {action.card}"
        )


TallyState.game = register(Tally())  # type: ignore[misc]


class MuteTally(Tally):
    """Tally whose words fail (issue #32: Block and Key's solo discard raised in `term()` and the move was refused):
    the public `add2` cannot be worded for anyone, a hidden `hide<c>` not for those who may not see it."""

    name = "tally_mute"
    titles = {"en": "Tally that cannot word its moves (test game)", "zh-TW": "無法描述行動的計數（測試遊戲）"}

    def describe_move(self, before: State, action: Any, lang: str = "en") -> str:
        if str(action) == "add2":
            raise TypeError("term() got multiple values for argument 'key'")
        return super().describe_move(before, action, lang)

    def describe_for(self, before: State, action: Any, seat: int | None, lang: str = "en") -> str:
        if action.kind == "hide" and seat != before.current_player:
            raise TypeError("term() got multiple values for argument 'key'")
        return super().describe_for(before, action, seat, lang)


class HoldState(TallyState):
    """Every decision alternates between two options (`add1`, `end`) and one (`end` after an add), as Pocket Mars's
    "hold" questions offer `do`+`skip` or `skip` alone: a bot answers a one-option question at once."""

    def _legal_actions(self) -> list[Act]:
        return [Act("end")] if self.adds else [Act("add1"), Act("end")]

    def clone(self) -> TallyState:
        o = super().clone()
        o.__class__ = HoldState
        return o


class HoldTally(Tally):
    """Tally of `HoldState`s whose every decision's option count counts as hidden (`decision_kind` "hold"), so its
    bots' replies are paced: benchmarks/bot_pace.py measures one-option against two-option replies under load."""

    name = "tally_hold"
    titles = {"en": "Tally of one or two options (test game)", "zh-TW": "一或二個選項的計數（測試遊戲）"}

    def _new_state(self, players: int, seed: int, options: dict[str, Any]) -> State:
        return HoldState(players, seed, options)

    def decision_kind(self, state: State) -> str | None:
        return "hold"


# only the servers of the tests and benchmarks that ask for them know these games (BOARDLAB_TEST_GAMES=a,b)
if MuteTally.name in os.environ.get("BOARDLAB_TEST_GAMES", "").split(","):
    register(MuteTally())
if HoldTally.name in os.environ.get("BOARDLAB_TEST_GAMES", "").split(","):
    HoldState.game = register(HoldTally())  # type: ignore[misc]
