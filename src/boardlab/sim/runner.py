"""Mass simulation: many seeded games between bots, in parallel processes, with a summary.

Entrants rotate through the seats (game g puts entrant i in seat (i + g) mod n), so every entrant
plays every position equally often and seat effects (first-player advantage) can be measured.
Everything derives from one seed: the same command gives the same games when bots are budgeted by
iterations (time budgets depend on the machine).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from typing import Any

from boardlab.bots import bot_options, make_bot
from boardlab.core import TimedAgent, get_game, play_game

from .stats import mean_ci, wilson


@dataclass(frozen=True)
class GameRecord:
    """One finished game: who sat where, the result, and its replayable log."""

    index: int
    seed: int
    seating: tuple[int, ...]  # seat -> entrant index
    scores: tuple[int, ...]  # per seat
    breakdown: tuple[dict[str, int], ...]  # per seat
    winners: tuple[int, ...]  # seats
    decisions: int
    seconds: tuple[float, ...]  # thinking time per seat
    actions: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _bot_kwargs(kind: str, budgets: Mapping[str, Any]) -> dict[str, Any]:
    accepted = set(bot_options(kind))
    return {k: v for k, v in budgets.items() if k in accepted}


def play_one(game: str, entrants: Sequence[str], index: int, seed: int,
             game_options: Mapping[str, Any], budgets: Mapping[str, Any]) -> GameRecord:
    """Game number `index` of a simulation (a pure function of its arguments)."""
    n = len(entrants)
    seating = tuple((s - index) % n for s in range(n))  # entrant i sits at seat (i + index) % n
    game_seed = seed * 100_003 + index
    state = get_game(game).new_game(n, game_seed, **dict(game_options))
    bots = [TimedAgent(make_bot(entrants[e], (game_seed * 31 + s) & 0xFFFFFFFF, **_bot_kwargs(entrants[e], budgets)))
            for s, e in enumerate(seating)]
    play_game(state, bots)
    scores = state.scores()
    return GameRecord(index, game_seed, seating, tuple(s.total for s in scores),
                      tuple(dict(s.breakdown) for s in scores), tuple(state.winners()), len(state.history),
                      tuple(b.seconds for b in bots), tuple(str(a) for a in state.history))


def simulate(game: str, entrants: Sequence[str], games: int, seed: int = 0, jobs: int = 1,
             game_options: Mapping[str, Any] | None = None, budgets: Mapping[str, Any] | None = None,
             progress: Callable[[int], None] | None = None) -> list[GameRecord]:
    """Play `games` games; `progress(done)` is called after each. Results come back in index order."""
    g = get_game(game)
    if not g.min_players <= len(entrants) <= g.max_players:
        raise ValueError(f"{game} needs {g.min_players}-{g.max_players} seats, got {len(entrants)}")
    for kind in entrants:
        bot_options(kind)  # unknown kinds fail here, before any process starts
    opts, bud = dict(game_options or {}), dict(budgets or {})
    out: list[GameRecord] = []
    if jobs <= 1:
        for i in range(games):
            out.append(play_one(game, entrants, i, seed, opts, bud))
            if progress:
                progress(len(out))
        return out
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(play_one, game, tuple(entrants), i, seed, opts, bud) for i in range(games)]
        for f in as_completed(futures):
            out.append(f.result())
            if progress:
                progress(len(out))
    return sorted(out, key=lambda r: r.index)


def summarize(entrants: Sequence[str], records: Sequence[GameRecord]) -> dict[str, Any]:
    """Per entrant: win share (ties split) with 95% Wilson interval, score mean with interval, time per
    decision; per seat: win share (the first-player advantage is seat 0's share minus 1/n)."""
    n, games = len(entrants), len(records)
    per_entrant = []
    for e, kind in enumerate(entrants):
        share = 0.0
        scores: list[float] = []
        secs = 0.0
        for r in records:
            seat = r.seating.index(e)
            scores.append(r.scores[seat])
            secs += r.seconds[seat]
            if seat in r.winners:
                share += 1.0 / len(r.winners)
        low, high = wilson(share, games)
        mean, mlow, mhigh = mean_ci(scores)
        per_entrant.append({"entrant": e, "bot": kind, "wins": share, "win_rate": share / games if games else 0,
                            "win_rate_ci95": [low, high], "score_mean": mean, "score_ci95": [mlow, mhigh],
                            "seconds_per_game": secs / games if games else 0})
    per_seat = []
    for s in range(n):
        share = sum(1.0 / len(r.winners) for r in records if s in r.winners)
        low, high = wilson(share, games)
        per_seat.append({"seat": s, "win_rate": share / games if games else 0, "win_rate_ci95": [low, high],
                         "score_mean": mean_ci([r.scores[s] for r in records])[0]})
    return {
        "games": games,
        "entrants": per_entrant,
        "seats": per_seat,
        "first_player_advantage": (per_seat[0]["win_rate"] - 1 / n) if games else 0.0,
        "ties": sum(1 for r in records if len(r.winners) > 1),
        "decisions_mean": sum(r.decisions for r in records) / games if games else 0,
    }
