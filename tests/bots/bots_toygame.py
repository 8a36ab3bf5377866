"""A tiny 2-player hidden-hand trick game, only for testing bots without depending on a real game.

Rules: each seat has its own shuffled face-down pile of cards 1..8 and holds 3 of them (hidden from
the other seat); nobody knows the order of any pile, their own included. The leader plays a card
face up, then the *other* seat answers (a decision by another seat inside the leader's turn). The
higher card wins (the leader wins ties) and scores both cards; then each seat draws from its own
pile and the winner leads next. Eight tricks. Identical decks keep luck small.

Playing well matters (answer cheaply, keep high cards for fat tricks), so a search bot should beat
random clearly. `LeakyToyGame` has a determinize that depends on the true hidden order, exactly the
bug the independence tests must catch.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from boardlab.core import ActionParseError, Game, Rng, Score, State

CARDS = tuple(range(1, 9))
HAND = 3


class Play(NamedTuple):
    card: int

    def __str__(self) -> str:
        return f"play {self.card}"


class ToyState(State):
    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(players, seed, options)
        rng = Rng(seed)
        self.hands: list[list[int]] = []
        self.piles: list[list[int]] = []
        for _ in range(players):
            deck = list(CARDS)
            rng.shuffle(deck)
            self.hands.append(sorted(deck[:HAND]))
            self.piles.append(deck[HAND:])
        self.points = [0, 0]
        self.tricks = [0, 0]
        self.leader = 0
        self.led: int | None = None
        self.played: list[list[int]] = [[], []]

    @property
    def current_player(self) -> int | None:
        if self.is_over:
            return None
        return self.leader if self.led is None else 1 - self.leader

    @property
    def is_over(self) -> bool:
        return not self.hands[0] and not self.hands[1]

    def _legal_actions(self) -> list[Any]:
        return [Play(c) for c in self.hands[self.current_player]]

    def _apply(self, action: Any) -> None:
        seat = self.current_player
        assert seat is not None
        self.hands[seat].remove(action.card)
        self.played[seat].append(action.card)
        if self.led is None:
            self.led = action.card
            return
        winner = self.leader if self.led >= action.card else seat
        self.points[winner] += self.led + action.card
        self.tricks[winner] += 1
        self.led = None
        self.leader = winner
        for s in (winner, 1 - winner):
            if self.piles[s]:
                self.hands[s].append(self.piles[s].pop())
                self.hands[s].sort()

    def clone(self) -> ToyState:
        other = ToyState.__new__(ToyState)
        self._copy_base(other)
        other.hands = [list(h) for h in self.hands]
        other.piles = [list(p) for p in self.piles]
        other.points = list(self.points)
        other.tricks = list(self.tricks)
        other.leader = self.leader
        other.led = self.led
        other.played = [list(p) for p in self.played]
        return other

    def scores(self) -> list[Score]:
        return [Score(self.points[s], {"tricks": self.tricks[s]}, (self.tricks[s],)) for s in range(2)]

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "hand": None if seat is None else list(self.hands[seat]),
            "hand_sizes": [len(h) for h in self.hands],
            "piles": [len(p) for p in self.piles],
            "points": list(self.points),
            "leader": self.leader,
            "led": self.led,
            "played": [list(p) for p in self.played],
        }

    def snapshot(self) -> dict[str, Any]:
        return {**self.view(None), "hands": [list(h) for h in self.hands],
                "pile_cards": [list(p) for p in self.piles]}

    def determinize(self, seat: int, rng: Rng) -> ToyState:
        other = self.clone()
        for s in range(self.num_players):
            unseen = sorted(set(CARDS) - set(self.played[s]) - (set(self.hands[s]) if s == seat else set()))
            rng.shuffle(unseen)
            k = 0 if s == seat else len(self.hands[s])
            other.hands[s] = sorted(unseen[:k]) if s != seat else list(self.hands[s])
            other.piles[s] = unseen[k:]
        return other


class ToyGame(Game):
    name = "toy-tricks"
    titles = {"en": "Toy tricks"}
    min_players = 2
    max_players = 2

    def _new_state(self, players: int, seed: int, options: dict[str, Any]) -> State:
        return ToyState(players, seed, options)

    def parse_action(self, state: State, text: str) -> Any:
        parts = text.split()
        if len(parts) != 2 or parts[0] != "play" or not parts[1].isdigit():
            raise ActionParseError(f"not a toy action: {text!r}")
        return Play(int(parts[1]))

    def num_distinct_actions(self, players: int) -> int:
        return len(CARDS)

    def action_to_id(self, action: Any, players: int) -> int:
        return int(action.card) - 1

    def id_to_action(self, action_id: int, players: int) -> Any:
        return Play(action_id + 1)


ToyState.game = ToyGame()


class LeakyToyState(ToyState):
    """Determinizes from the true order of the unseen cards: the samples leak the hidden deal."""

    def clone(self) -> LeakyToyState:
        other = LeakyToyState.__new__(LeakyToyState)
        base = ToyState.clone(self)
        other.__dict__.update(base.__dict__)
        return other

    def determinize(self, seat: int, rng: Rng) -> LeakyToyState:
        other = self.clone()
        opp = 1 - seat
        unseen = list(self.hands[opp]) + list(self.piles[opp])  # true order: the bug
        # A "partial" shuffle that keeps most of the true deal, as a buggy engine might.
        if len(unseen) > 1:
            i, j = rng.randbelow(len(unseen)), rng.randbelow(len(unseen))
            unseen[i], unseen[j] = unseen[j], unseen[i]
        k = len(self.hands[opp])
        other.hands[opp] = sorted(unseen[:k])
        other.piles[opp] = unseen[k:]
        return other


class LeakyToyGame(ToyGame):
    name = "toy-tricks-leaky"

    def _new_state(self, players: int, seed: int, options: dict[str, Any]) -> State:
        return LeakyToyState(players, seed, options)


LeakyToyState.game = LeakyToyGame()


def new_toy(seed: int, leaky: bool = False) -> ToyState:
    game = LeakyToyGame() if leaky else ToyGame()
    state = game.new_game(2, seed)
    assert isinstance(state, ToyState)
    return state
