"""Measurements for Pocket Mars: random-play speed and the balance of the (reconstructed) deck.

    python -m boardlab.games.pocket_mars.sim bench [--seconds 5]
    python -m boardlab.games.pocket_mars.sim balance [--games 600] [--seed 1] [--components FILE]

Balance method (numbers in docs/rules/pocket_mars.md): games between epsilon-greedy players (1-ply
lookahead on the game's `evaluate`, 10% random moves) at 2, 3 and 4 players. For every card we record
(a) the win share of each player who was dealt it in their opening four cards, minus 1/players (the
"opening lift": unbiased by how the card is used), and (b) the win share of the player who played it
(from hand, own prep module or another's), minus the average of all plays. A card or colour dominates
if its lift is far outside the noise (more than 3 standard errors and more than 8 points).
"""

from __future__ import annotations

import argparse
import math
import time
from collections import defaultdict
from typing import Any

from boardlab.core.rng import Rng

from .components import CARD_IDS, COLOURS
from .rules import PocketMarsState


def _new(players: int, seed: int, **options: Any) -> PocketMarsState:
    from . import GAME

    return GAME.new_game(players, seed, **options)  # type: ignore[return-value]


def random_play(players: int, seed: int) -> int:
    """Play one game with uniformly random moves; return the number of decisions."""
    state = _new(players, seed)
    rng = Rng(seed ^ 0x5EED)
    n = 0
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(legal[rng.randbelow(len(legal))])
        n += 1
    return n


def bench(seconds: float = 5.0) -> dict[str, float]:
    """Decisions per second of random play (legal moves + validated apply), per player count."""
    out = {}
    for players in (1, 2, 3, 4):
        t0 = time.perf_counter()
        decisions = games = 0
        while time.perf_counter() - t0 < seconds / 4:
            decisions += random_play(players, games)
            games += 1
        out[f"{players}p"] = decisions / (time.perf_counter() - t0)
    out["all"] = sum(out.values()) / 4
    return out


def default_choice(state: PocketMarsState) -> Any:
    """A fixed, cheap policy for the decisions that follow a chosen action inside the same turn:
    use every optional step, spread settled colonists, promote your own, demote others."""
    legal = state.legal_actions()
    seat = state.current_player
    by_kind: dict[str, list[Any]] = defaultdict(list)
    for a in legal:
        by_kind[a[0]].append(a)
    if "do" in by_kind:
        return by_kind["do"][0]
    if "place" in by_kind:
        return min(by_kind["place"], key=lambda a: state.lo[a[1]][seat] + state.hi[a[1]][seat])
    for a in by_kind.get("shift", []):
        if (a[2] == seat) == a[3]:  # own colonist up, or another's down
            return a
    for a in by_kind.get("swap", []):
        if a[2] == seat:
            return a
    if "skip" in by_kind and len(by_kind) > 1 and "bury" not in by_kind and "look" not in by_kind:
        return by_kind["skip"][0]
    return legal[0]


def _finish_turn(state: PocketMarsState, limit: int = 12) -> None:
    """Play the rest of the current action with `default_choice`, up to the 4-card rule."""
    for _ in range(limit):
        if state.is_over or state.todo[-1][0] in ("turn", "trim", "fill", "ready", "draw1"):
            return
        state.apply(default_choice(state))


def greedy_move(state: PocketMarsState, rng: Rng, epsilon: float) -> Any:
    """Greedy on `evaluate` in one determinization (no peeking at hidden cards): each option is
    followed by the rest of its action under `default_choice`; epsilon random moves."""
    legal = state.legal_actions()
    if len(legal) == 1 or rng.random() < epsilon:
        return legal[rng.randbelow(len(legal))]
    seat = state.current_player
    assert seat is not None
    world = state.determinize(seat, rng)
    game = state.game
    best, best_value = [], -math.inf
    for a in legal:
        child = world.clone()
        child.apply(a)
        _finish_turn(child)
        v = game.evaluate(child, seat)
        if v > best_value + 1e-9:
            best, best_value = [a], v
        elif v > best_value - 1e-9:
            best.append(a)
    return best[rng.randbelow(len(best))]


def play_recorded(players: int, seed: int, epsilon: float = 0.1,
                  components: str = "") -> tuple[PocketMarsState, list[list[int]], list[tuple[int, int]]]:
    """A greedy game; returns the final state, each seat's opening four cards and (seat, card) plays."""
    state = _new(players, seed, components=components)
    opening = [sorted(state.hands[q]) for q in range(players)]
    rng = Rng(seed * 7919 + 1)
    plays: list[tuple[int, int]] = []
    while not state.is_over:
        a = greedy_move(state, rng, epsilon)
        kind = a[0]
        if kind in ("hand", "prep"):
            plays.append((state.current_player or 0, a[1]))
        elif kind == "opp":
            plays.append((state.current_player or 0, state.prep[a[1]][a[2]]))
        state.apply(a)
    return state, opening, plays


def _summary(samples: dict[Any, list[float]]) -> dict[Any, tuple[float, float, int]]:
    out = {}
    for key, xs in samples.items():
        n = len(xs)
        mean = sum(xs) / n
        var = sum((x - mean) ** 2 for x in xs) / max(1, n - 1)
        out[key] = (mean, math.sqrt(var / n), n)
    return out


def balance(games: int = 600, seed: int = 1, components: str = "") -> dict[str, Any]:
    """Run the balance study (games spread over 2, 3 and 4 players) and return its numbers."""
    opening: dict[int, list[float]] = defaultdict(list)
    played: dict[int, list[float]] = defaultdict(list)
    colour_open: dict[int, list[float]] = defaultdict(list)
    colour_played: dict[int, list[float]] = defaultdict(list)
    seat_share: dict[tuple[int, int], list[float]] = defaultdict(list)
    rounds: dict[int, list[float]] = defaultdict(list)
    t0 = time.perf_counter()
    for g in range(games):
        players = 2 + g % 3
        state, hands, plays = play_recorded(players, seed + g, components=components)
        share = state.returns()
        rounds[players].append(state.round)
        for k, q in enumerate(state.order()):
            seat_share[(players, k)].append(share[q])
        for q in range(players):
            for c in hands[q]:
                opening[c].append(share[q] - 1 / players)
                colour_open[state.cards.colour[c]].append(share[q] - 1 / players)
        for q, c in plays:
            played[c].append(share[q] - 1 / players)
            colour_played[state.cards.colour[c]].append(share[q] - 1 / players)
    all_plays = [x for xs in played.values() for x in xs]
    base = sum(all_plays) / len(all_plays)
    return {
        "games": games, "seconds": time.perf_counter() - t0, "play_baseline": base,
        "opening": _summary(opening), "played": _summary(played),
        "colour_opening": _summary(colour_open), "colour_played": _summary(colour_played),
        "seat_share": _summary(seat_share), "rounds": _summary(rounds),
    }


def flagged(stats: dict[Any, tuple[float, float, int]], base: float = 0.0) -> list[Any]:
    """Keys whose lift over `base` is beyond 3 standard errors and 8 percentage points."""
    return [k for k, (m, se, _) in stats.items() if abs(m - base) > max(3 * se, 0.08)]


def solo_study(games: int = 300, seed: int = 1) -> dict[str, float]:
    """The greedy player against the Devious Automatics: win share, points, rounds."""
    wins, mine, theirs, rounds = 0.0, 0, 0, 0
    for g in range(games):
        state = _new(1, seed + g)
        rng = Rng(seed + g)
        while not state.is_over:
            state.apply(greedy_move(state, rng, 0.1))
        wins += state.returns()[0]
        mine += state.scores()[0].total
        theirs += state.automaton_score().total
        rounds += state.round
    return {"win_share": wins / games, "points": mine / games, "automaton_points": theirs / games,
            "rounds": rounds / games}


def report(result: dict[str, Any]) -> str:
    lines = [f"{result['games']} games in {result['seconds']:.0f}s; mean win-share lift of a play "
             f"{result['play_baseline']:+.3f}"]
    lines.append("card  opening lift (se, n)    played lift vs all plays (se, n)")
    for c, cid in enumerate(CARD_IDS):
        m, se, n = result["opening"].get(c, (0.0, 0.0, 0))
        pm, pse, pn = result["played"].get(c, (0.0, 0.0, 0))
        lines.append(f"{cid:4}  {m:+.3f} ({se:.3f}, {n:4})   {pm - result['play_baseline']:+.3f} ({pse:.3f}, {pn:4})")
    lines.append("colour  opening lift   played lift")
    for ci, name in enumerate(COLOURS):
        m, se, _ = result["colour_opening"][ci]
        pm, pse, _ = result["colour_played"][ci]
        lines.append(f"{name:7} {m:+.3f} ({se:.3f})  {pm - result['play_baseline']:+.3f} ({pse:.3f})")
    lines.append("seat (players, position from start): win share")
    lines += [f"  {k}: {m:.3f} ({se:.3f})" for k, (m, se, _) in sorted(result["seat_share"].items())]
    lines += [f"rounds at {k} players: {m:.1f}" for k, (m, _, _) in sorted(result["rounds"].items())]
    lines.append(f"flagged cards (opening): {[CARD_IDS[c] for c in flagged(result['opening'])]}")
    lines.append("flagged cards (played): "
                 f"{[CARD_IDS[c] for c in flagged(result['played'], result['play_baseline'])]}")
    lines.append(f"flagged colours: {[COLOURS[c] for c in flagged(result['colour_opening'])]} / "
                 f"{[COLOURS[c] for c in flagged(result['colour_played'], result['play_baseline'])]}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("bench", "balance", "solo"))
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--components", default="")
    args = parser.parse_args()
    if args.what == "bench":
        for k, v in bench(args.seconds).items():
            print(f"{k}: {v:,.0f} decisions/s")
    elif args.what == "solo":
        print(solo_study(args.games, args.seed))
    else:
        print(report(balance(args.games, args.seed, args.components)))


if __name__ == "__main__":
    main()
