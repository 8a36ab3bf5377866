"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012).

Why this algorithm: the bot must never see the hidden state, so every iteration searches a fresh
determinization drawn from `obs.sample`, and all iterations share one tree keyed by action
sequences. Because the actions available differ between determinizations (an opponent's hand is
different in each), UCB uses *availability counts* (how often a child could have been chosen) in
place of the parent's visit count; otherwise rarely-available actions would look under-explored
forever.

Rewards are per seat in [0, 1]: `State.returns()` at the end of a game, or, for truncated playouts,
the game's `evaluate` squashed by a logistic whose scale is the RMS of the evaluations seen in
this search (so no game-specific constant is needed, and a fresh bot per move - as the server
makes - decides exactly like a long-lived one with the same random state). Each node stores the
reward of the seat that chose the action leading to it, which handles several seats deciding within
one turn and any player count.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Callable, Sequence

from boardlab.core import Action, Game, Observation, Rng, State

DEFAULT_SECONDS = 0.95
"""Budget when none is given: the search stops on a predicted overrun, but iterations vary and the
final bookkeeping takes a little, so 5% headroom keeps a move under 1 s."""


class _Node:
    """Statistics of one action sequence from the root, over all determinizations that allowed it."""

    __slots__ = ("avail", "children", "player", "reward", "visits")

    def __init__(self, player: int) -> None:
        self.player = player  # the seat that chose the action leading here
        self.visits = 0
        self.reward = 0.0
        self.avail = 0
        self.children: dict[Action, _Node] = {}


def _legal(state: State) -> list[Action]:
    return state.legal_actions()


def _policy(game: Game) -> Callable[[State, Rng], Action]:
    """The game's playout policy; `random_search_action` directly when the game keeps the default (a call
    less per playout step)."""
    if type(game).playout_action is Game.playout_action:
        return game.random_search_action
    return game.playout_action


class MctsBot:
    """SO-ISMCTS with UCB1 over available actions and random (optionally truncated) playouts.

    Budget: `iterations` (reproducible for a given seed) and/or `seconds` (wall clock, an upper bound
    up to the final bookkeeping; whichever is reached first stops the search). `playout_depth`
    truncates playouts after that many decisions of the game's playout policy and scores the leaf
    with `game.evaluate`; None plays out to the end of the game; "game" (the default) takes the
    game's `playout_depth` (12, measured stronger on Cacao than 4 or playing to the end,
    docs/strength-log.md, unless the game measured better).
    `playout_samples`: with k >= 2, each playout decision draws k random search actions and plays the one the
    deciding seat's `evaluate` likes best one move ahead (opponents modelled as a little greedy, at k times
    the cost of a playout step); 1 (the default) plays the game's playout policy. Measured on Pocket Mars at
    3 and 4 players and not adopted there (docs/strength-log.md).
    `mast`: with a value e in (0, 1], playouts follow the Move-Average Sampling Technique (Finnsson and
    Bjornsson 2008): each playout decision with a choice is, with probability e, a uniform pick from the search
    actions, and otherwise the action with the best mean reward for its seat over this search's iterations so
    far (actions never tried first, in list order). The table is per search, so a fresh bot decides like a
    long-lived one. None plays the game's playout policy; "game" (the default) takes the game's `mast` (None
    for most games), unless `playout_samples` > 1 chose the other playout policy.
    `eval_scale` fixes the logistic scale for evaluations (None: the RMS of this search's evaluations).
    `depth_per_seat`, when set, makes the playout depth that many decisions per seat at the table
    (overriding `playout_depth`), so a playout covers the same share of a round at any table size.
    `opponents`: "tree" grows nodes for every seat's decisions (max-n: each node keeps the reward
    of the seat that chose it); "playout" keeps only this seat's decisions in the tree and lets the
    other seats' in-tree decisions follow the playout policy, so the whole budget goes to branches
    of one's own choices.
    `tree_actions`: "search" (the game's `search_actions`, e.g. Cacao's single `auto` for
    activations) or "legal" (every legal action in the tree; playouts keep the search set).
    """

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float = 0.7,
        playout_depth: int | str | None = "game",
        eval_scale: float | None = None,
        depth_per_seat: int | None = None,
        opponents: str = "tree",
        tree_actions: str = "search",
        playout_samples: int = 1,
        mast: float | str | None = "game",
        name: str = "mcts",
    ) -> None:
        if iterations is None and seconds is None:
            seconds = DEFAULT_SECONDS
        if iterations is not None and iterations < 1:
            raise ValueError("mcts needs iterations >= 1")
        if seconds is not None and seconds <= 0:
            raise ValueError("mcts needs seconds > 0")
        if playout_depth != "game" and not (playout_depth is None or (isinstance(playout_depth, int)
                                             and playout_depth >= 0)):
            raise ValueError("playout_depth must be >= 0, None or 'game'")
        if depth_per_seat is not None and depth_per_seat < 0:
            raise ValueError("depth_per_seat must be >= 0 or None")
        if opponents not in ("tree", "playout"):
            raise ValueError("opponents must be 'tree' or 'playout'")
        if tree_actions not in ("search", "legal"):
            raise ValueError("tree_actions must be 'search' or 'legal'")
        if not isinstance(playout_samples, int):  # (compiled, the call itself refuses a non-int: same error)
            raise TypeError(f"playout_samples must be an integer, not {playout_samples!r}")
        if playout_samples < 1:
            raise ValueError("playout_samples must be an integer >= 1")
        if mast != "game" and not (mast is None or (isinstance(mast, (int, float)) and not isinstance(mast, bool)
                                                    and 0 < mast <= 1)):
            raise ValueError("mast must be in (0, 1], None or 'game'")
        if mast is not None and mast != "game" and playout_samples > 1:
            raise ValueError("mast and playout_samples > 1 are two playout policies: choose one")
        self.playout_samples = playout_samples
        self.mast = mast
        self._mast: dict[Action, list[float]] = {}  # action -> [reward sum, count], this search only
        self.depth_per_seat = depth_per_seat
        self.opponents = opponents
        self.tree_actions = tree_actions
        self.name = name
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.playout_depth = playout_depth
        self.eval_scale = eval_scale
        self.rng = Rng(seed)
        # Statistics: for the adaptive logistic scale (per search) and for reports (iterations/s).
        self._eval_sq = 0.0
        self._eval_n = 0
        self.searches = 0
        self.total_iterations = 0
        self.total_seconds = 0.0
        self.last_iterations = 0
        self.last_stats: dict[Action, tuple[int, float]] = {}  # root action -> (visits, mean reward)

    # -- the search ---------------------------------------------------------------------------------
    def choose(self, obs: Observation) -> Action:
        legal = list(obs.legal_actions)
        if not legal:
            raise ValueError(f"seat {obs.seat} was asked to choose with no legal action")
        if len(legal) == 1:
            return legal[0]
        rng = self.rng.fork()
        self._eval_sq, self._eval_n = 0.0, 0
        self._mast = {}
        root = _Node(obs.seat)
        start = time.perf_counter()
        deadline = None if self.seconds is None else start + self.seconds
        limit = self.iterations
        done = 0
        # The cyclic garbage collector is paused for the search: a search allocates hundreds of thousands of
        # objects (states, nodes) and makes no cycles (all of it is freed by reference counting; a test checks
        # every game), yet py-spy put up to 5% of a compiled search in the collector's passes over the tree.
        collecting = gc.isenabled()
        gc.disable()
        try:
            while limit is None or done < limit:
                if deadline is not None:
                    # Stop when one more iteration at the pace so far would overrun: `seconds` is a bound.
                    now = time.perf_counter()
                    if now >= deadline or (done and now + (now - start) / done > deadline):
                        break
                self._iterate(root, obs.sample(rng), rng)
                done += 1
        finally:
            if collecting:
                gc.enable()
        self.searches += 1
        self.last_iterations = done
        self.total_iterations += done
        self.total_seconds += time.perf_counter() - start
        self.last_stats = {a: (ch.visits, ch.reward / ch.visits if ch.visits else 0.0)
                           for a, ch in root.children.items()}
        return self._best(root, legal, rng)

    def _best(self, root: _Node, legal: Sequence[Action], rng: Rng) -> Action:
        """The most visited legal root action (robust child); mean reward breaks ties."""
        best: Action | None = None
        key = (-1, -1.0)
        for action in legal:
            child = root.children.get(action)
            if child is None or child.visits == 0:
                continue
            k = (child.visits, child.reward / child.visits)
            if k > key:
                best, key = action, k
        return best if best is not None else rng.choice(list(legal))

    def _iterate(self, root: _Node, det: State, rng: Rng) -> None:
        """One iteration on one determinization: select, expand one node, play out, back up.

        Hot loop: actions come from this very state's `search_actions`, so they are applied without
        the legality re-check (`apply_unchecked`)."""
        search_actions = det.game.search_actions if self.tree_actions == "search" else _legal
        c = self.exploration
        log = math.log
        sqrt = math.sqrt
        node = root
        path: list[_Node] = []
        me = root.player if self.opponents == "playout" else None
        pick = _policy(det.game)
        epsilon = self._epsilon(det.game)
        trail: list[tuple[int, Action]] | None = None if epsilon is None else []  # MAST: who took what
        while True:
            player = det.current_player
            if player is None:
                break
            if me is not None and player != me:
                other = pick(det, rng)
                det.apply_unchecked(other)  # another seat: playout policy, no node
                if trail is not None:
                    trail.append((player, other))
                continue
            actions = search_actions(det)
            children = node.children
            get = children.get
            untried: list[Action] | None = None
            best_child: _Node | None = None
            best_action: Action | None = None
            best_score = -1.0
            for a in actions:  # one pass: availability counts, untried actions and UCB together
                child = get(a)
                if child is None:
                    if untried is None:
                        untried = [a]
                    else:
                        untried.append(a)
                    continue
                avail = child.avail = child.avail + 1
                if untried is None:
                    v = child.visits
                    score = child.reward / v + c * sqrt(log(avail) / v)
                    if score > best_score:
                        best_score, best_child, best_action = score, child, a
            if untried:
                action = untried[rng.randbelow(len(untried))] if len(untried) > 1 else untried[0]
                child = _Node(player)
                child.avail = 1
                children[action] = child
                det.apply_unchecked(action)
                path.append(child)
                if trail is not None:
                    trail.append((player, action))
                break
            assert best_child is not None
            det.apply_unchecked(best_action)
            path.append(best_child)
            node = best_child
            if trail is not None:
                trail.append((player, best_action))
        rewards = self._playout(det, rng) if trail is None else self._mast_playout(det, rng, trail, epsilon)
        root.visits += 1
        for n in path:
            n.visits += 1
            n.reward += rewards[n.player]

    def _playout(self, det: State, rng: Rng) -> list[float]:
        """Playout-policy decisions to the end (or `playout_depth` of them), then per-seat rewards in [0, 1]."""
        game = det.game
        depth = self._depth(det)
        samples = self.playout_samples
        steps = 0
        if samples > 1:
            search, evaluate = game.search_actions, game.evaluate
            while not det.is_over and (depth is None or steps < depth):
                actions = search(det)
                best = actions[0]
                seat = det.current_player
                if len(actions) > 1 and seat is not None:
                    best_value = -math.inf
                    for _ in range(samples):  # drawn with replacement: a sample, not a ranking
                        a = actions[rng.randbelow(len(actions))]
                        after = det.clone()
                        after.apply_unchecked(a)
                        value = evaluate(after, seat)
                        if value > best_value:
                            best, best_value = a, value
                det.apply_unchecked(best)
                steps += 1
        else:
            pick = _policy(game)
            play = det.apply_unchecked
            while not det.is_over and (depth is None or steps < depth):
                play(pick(det, rng))
                steps += 1
        return self._leaf_rewards(det)

    def _leaf_rewards(self, det: State) -> list[float]:
        """Per-seat rewards in [0, 1] where a playout stopped: the game's returns at its end, else the squashed
        evaluations."""
        if det.is_over:
            return det.returns()
        return [self._squash(v) for v in det.game.evaluate_all(det)]

    def _depth(self, det: State) -> int | None:
        """How many playout decisions before the leaf is evaluated (None: to the end of the game)."""
        if self.depth_per_seat is not None:
            return self.depth_per_seat * det.num_players
        told = self.playout_depth
        return det.game.playout_depth if isinstance(told, str) else told  # "game" is the only str allowed

    def _epsilon(self, game: Game) -> float | None:
        """This search's MAST share: the one told, else the game's unless `playout_samples` chose sampling."""
        told = self.mast
        if isinstance(told, str):  # "game" is the only str allowed
            return game.mast if self.playout_samples == 1 else None
        return told

    def _mast_playout(self, det: State, rng: Rng, taken: list[tuple[int, Action]], epsilon: float | None
                      ) -> list[float]:
        """`_playout` with the MAST policy; then every action of this iteration (`taken`: the tree's, then the
        playout's) adds the reward of the seat that took it to its mean."""
        depth = self._depth(det)
        assert epsilon is not None
        table = self._mast
        search = det.game.search_actions
        steps = 0
        while not det.is_over and (depth is None or steps < depth):
            seat = det.current_player
            assert seat is not None
            actions = search(det)
            if len(actions) == 1:
                action = actions[0]
            elif rng.random() < epsilon:
                action = actions[rng.randbelow(len(actions))]
            else:
                action = actions[0]
                best = -1.0
                for a in actions:
                    stat = table.get(a)
                    if stat is None:  # never tried: first
                        action = a
                        break
                    mean = stat[0] / stat[1]
                    if mean > best:
                        action, best = a, mean
            det.apply_unchecked(action)
            taken.append((seat, action))
            steps += 1
        rewards = self._leaf_rewards(det)
        for seat, action in taken:
            stat = table.get(action)
            if stat is None:
                table[action] = [rewards[seat], 1.0]
            else:
                stat[0] += rewards[seat]
                stat[1] += 1.0
        return rewards

    def _squash(self, value: float) -> float:
        """Map an evaluation to (0, 1) with a logistic; the scale adapts to the evaluations seen."""
        self._eval_sq += value * value
        self._eval_n += 1
        scale = self.eval_scale or max(math.sqrt(self._eval_sq / self._eval_n), 1e-9)
        x = value / scale
        if x < -40:
            return 0.0
        if x > 40:
            return 1.0
        return 1.0 / (1.0 + math.exp(-x))

    @property
    def iterations_per_second(self) -> float:
        """Measured search speed over this bot's life (for strength reports)."""
        return self.total_iterations / self.total_seconds if self.total_seconds > 0 else 0.0
