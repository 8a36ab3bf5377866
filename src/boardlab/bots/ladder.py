"""A ladder of bot levels: a seeded round robin between entrants, and ratings with intervals.

Why: against greedy alone, search saturates (MCTS wins every Cacao game), so "hard" needs a scale
that keeps going. Entrants are bot kinds, levels or MCTS at a fixed iteration budget ("mcts:300");
every group of `players` entrants plays `games` games on shared deals with the seats rotated.

Ratings: OpenSkill's Plackett-Luce model, the one the server rates people with (it rates whole
rankings, so 3-4 player tables need no pretend duels). Sequential updates depend on the order the
games are fed in, so the games are fed in `orders` seeded shuffles and mu and sigma are averaged;
the interval is mu +/- 1.96 sigma. A pairwise win share with a Wilson interval backs each rating.
Everything derives from `seed`: with iteration budgets, the same command gives the same games.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from itertools import combinations
from typing import Any

from boardlab.core import Rng, TimedAgent, get_game, play_game
from boardlab.core.stats import wilson

from . import LEVELS, make_bot

DEFAULT_ENTRANTS = ("random", "greedy", "mcts:30", "mcts:100", "mcts:300", "mcts:1000")


@dataclass(frozen=True)
class Entrant:
    label: str
    kind: str
    options: dict[str, Any] = field(default_factory=dict)


def parse_entrant(text: str) -> Entrant:
    """'random', 'greedy', a level ('easy', 'medium', 'hard'), 'mcts:300' (iterations) or 'mcts:0.5s'."""
    text = text.strip()
    if ":" not in text:
        make_bot(text)  # unknown kinds fail here
        return Entrant(text, text)
    kind, budget = text.split(":", 1)
    if kind != "mcts":
        raise ValueError(f"only mcts takes a budget ('mcts:300' or 'mcts:0.5s'), not {text!r}")
    try:
        if budget.endswith("s"):
            return Entrant(text, kind, {"seconds": float(budget[:-1])})
        return Entrant(text, kind, {"iterations": int(budget)})
    except ValueError:
        raise ValueError(f"bad budget in {text!r}: use 'mcts:300' or 'mcts:0.5s'") from None


@dataclass(frozen=True)
class TableResult:
    """One game: entrant index per seat, the finish rank per seat (1 = best, ties share) and timing."""

    index: int
    deal_seed: int
    seating: tuple[int, ...]
    ranks: tuple[int, ...]
    scores: tuple[int, ...]
    seconds_per_move: tuple[float, ...]
    iterations_per_move: tuple[float, ...]


def finish_ranks(scores: Sequence[int], winners: Sequence[int]) -> list[int]:
    """Winners share rank 1; the others follow by total score (equal totals share a rank)."""
    n = len(scores)
    key = [(0 if s in winners else 1, -scores[s]) for s in range(n)]
    order = sorted(range(n), key=lambda s: key[s])
    out = [0] * n
    for pos, s in enumerate(order):
        out[s] = out[order[pos - 1]] if pos and key[s] == key[order[pos - 1]] else pos + 1
    return out


def play_table(game: str, entrants: Sequence[Entrant], table: Sequence[int], index: int, seed: int,
               players: int) -> TableResult:
    """Game `index` of one table (a group of entrants): deal `seed + index // players`, seats rotated."""
    g = get_game(game)
    deal_seed = seed + index // players
    seating = tuple(table[(s + index) % players] for s in range(players))
    state = g.new_game(players, deal_seed)
    agents = []
    for s, e in enumerate(seating):
        bot_seed = (seed * 1_000_003 + index * 101 + s * 7 + e) & 0xFFFFFFFF
        agents.append(TimedAgent(make_bot(entrants[e].kind, bot_seed, game=game, **entrants[e].options)))
    play_game(state, agents)
    scores = tuple(s.total for s in state.scores())
    return TableResult(index, deal_seed, seating, tuple(finish_ranks(scores, state.winners())), scores,
                       tuple(a.seconds / a.searched if a.searched else 0.0 for a in agents),
                       tuple(getattr(a.agent, "total_iterations", 0) / a.searched if a.searched else 0.0
                             for a in agents))


def _play(args: tuple[Any, ...]) -> TableResult:
    return play_table(*args)


def run_ladder(game: str, entrants: Sequence[Entrant], games: int = 10, players: int = 2, seed: int = 0,
               jobs: int = 1, progress: Callable[[int, int], None] | None = None) -> list[TableResult]:
    """Every group of `players` entrants plays `games` games (a multiple of `players` keeps seats fair)."""
    g = get_game(game)
    if not g.min_players <= players <= g.max_players:
        raise ValueError(f"{game} takes {g.min_players}-{g.max_players} players, not {players}")
    if len(entrants) < players:
        raise ValueError(f"a {players}-player ladder needs at least {players} entrants")
    args = [(game, tuple(entrants), table, i, seed + 10_000 * t, players)
            for t, table in enumerate(combinations(range(len(entrants)), players)) for i in range(games)]
    out: list[TableResult] = []
    if jobs <= 1:
        for a in args:
            out.append(play_table(*a))
            if progress:
                progress(len(out), len(args))
        return out
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for r in pool.map(_play, args):
            out.append(r)
            if progress:
                progress(len(out), len(args))
    return out


def ratings(entrants: Sequence[Entrant], results: Sequence[TableResult], orders: int = 20,
            seed: int = 0) -> list[dict[str, Any]]:
    """OpenSkill Plackett-Luce ratings (averaged over `orders` shuffles of the games), best first."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    n = len(entrants)
    mu_sum, sigma_sum = [0.0] * n, [0.0] * n
    rng = Rng(seed)
    for _ in range(orders):
        games = list(results)
        rng.shuffle(games)
        rating = [model.rating() for _ in range(n)]
        for r in games:
            teams = [[rating[e]] for e in r.seating]
            new = model.rate(teams, ranks=list(r.ranks))
            for e, team in zip(r.seating, new, strict=True):
                rating[e] = team[0]
        for e in range(n):
            mu_sum[e] += rating[e].mu
            sigma_sum[e] += rating[e].sigma
    rows = []
    for e, ent in enumerate(entrants):
        mu, sigma = mu_sum[e] / orders, sigma_sum[e] / orders
        mine = [r for r in results if e in r.seating]
        firsts = sum(1.0 / r.ranks.count(1) for r in mine if r.ranks[r.seating.index(e)] == 1)
        secs = [r.seconds_per_move[r.seating.index(e)] for r in mine]
        its = [r.iterations_per_move[r.seating.index(e)] for r in mine]
        rows.append({"entrant": ent.label, "mu": mu, "sigma": sigma, "ci95": (mu - 1.96 * sigma, mu + 1.96 * sigma),
                     "ordinal": mu - 3 * sigma, "games": len(mine), "win_share": firsts / len(mine) if mine else 0.0,
                     "seconds_per_move": sum(secs) / len(secs) if secs else 0.0,
                     "iterations_per_move": sum(its) / len(its) if its else 0.0})
    return sorted(rows, key=lambda row: -row["mu"])


def pairwise(entrants: Sequence[Entrant], results: Sequence[TableResult]) -> dict[str, dict[str, Any]]:
    """For each pair (a, b): the share of games where a finished ahead of b (ties half), Wilson interval."""
    out: dict[str, dict[str, Any]] = {}
    for a, b in combinations(range(len(entrants)), 2):
        score, games = 0.0, 0
        for r in results:
            if a in r.seating and b in r.seating:
                ra, rb = r.ranks[r.seating.index(a)], r.ranks[r.seating.index(b)]
                score += 1.0 if ra < rb else 0.5 if ra == rb else 0.0
                games += 1
        if games:
            lo, hi = wilson(score, games)
            out[f"{entrants[a].label} vs {entrants[b].label}"] = {"games": games, "share_a": score / games,
                                                                   "wilson95": (lo, hi)}
    return out


def level_aliases() -> dict[str, str]:
    """The people's levels and what they are (easy = random, medium = greedy, hard = mcts by time)."""
    return {level: kind + (f" ({opts})" if opts else "") for level, (kind, opts) in LEVELS.items()}


def to_json(game: str, entrants: Sequence[Entrant], results: Sequence[TableResult], players: int,
            seed: int) -> dict[str, Any]:
    return {"game": game, "players": players, "seed": seed, "entrants": [asdict(e) for e in entrants],
            "rating_model": "openskill PlackettLuce (mu, sigma averaged over 20 shuffled game orders)",
            "ratings": ratings(entrants, results), "pairwise": pairwise(entrants, results),
            "games": [asdict(r) for r in results]}
