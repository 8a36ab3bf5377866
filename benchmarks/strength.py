"""Strength runs for docs/strength.md: one bot (usually MCTS with given options) against greedy
opponents at every seat but one, seats rotated, shared deals, 95% Wilson intervals.

    python benchmarks/strength.py --game pocket_mars --players 4 --games 200 --seed 7000000 \\
        --a mcts --a-options '{"iterations": 1000, "opponents": "playout"}' --out pm4.json

Prints one JSON summary line (and writes it, with every game's log, to --out). Budgeted by
iterations the games replay exactly from the printed command. `--summarize FILE ...` reads --stream files back
(plain or `.jsonl.gz`, as kept in benchmarks/results/strength-records/), and `--paired OLD ...` compares them game
by game with another run on the same deals and seats.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from boardlab.bots.arena import GameResult, match, play_one, summarize


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="pocket_mars")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0,
                        help="with --stream: play only games FIRST..GAMES-1 of the run (a run split between "
                             "processes or continued later plays exactly what one uninterrupted run would)")
    parser.add_argument("--seed", type=int, default=7_000_000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--a", default="mcts")
    parser.add_argument("--a-options", default="{}", help="JSON options for bot A")
    parser.add_argument("--b", default="greedy")
    parser.add_argument("--b-options", default="{}", help="JSON options for the other seats")
    parser.add_argument("--label", default="")
    parser.add_argument("--out")
    parser.add_argument("--stream", help="append each finished game here as a JSON line (a run cut short "
                                         "still counts; `--summarize FILE` reads it back)")
    parser.add_argument("--summarize", nargs="+", metavar="FILE",
                        help="print the summary of --stream files (one run's parts or several runs, pooled; "
                             "`.jsonl.gz` read as gzip) and exit")
    parser.add_argument("--whole-deals", action="store_true",
                        help="with --summarize: count only deals played from every seat (a stopped run's tail "
                             "would otherwise weigh some seats more)")
    parser.add_argument("--paired", nargs="+", metavar="FILE",
                        help="with --summarize: compare its games, game by game, with the games of these --stream "
                             "files dealt the same cards with MCTS in the same seat (a variant against the shipped "
                             "search on the same deals)")
    ns = parser.parse_args(argv)
    if ns.paired and not ns.summarize:
        parser.error("--paired needs --summarize (the games it compares)")
    if ns.summarize:
        games = read_streams(ns.summarize, ns.whole_deals)
        out = {"files": ns.summarize, "whole_deals": ns.whole_deals, **summarize(games)}
        if ns.paired:
            out["paired"] = {"files": ns.paired, **paired(games, read_streams(ns.paired))}
        print(json.dumps(out))
        return
    a_opts, b_opts = json.loads(ns.a_options), json.loads(ns.b_options)
    if ns.first and not ns.stream:
        parser.error("--first needs --stream (the games before it are in another file)")
    start = time.perf_counter()
    if ns.stream:
        results = stream(ns, a_opts, b_opts)
    else:
        results = match(ns.a, ns.b, ns.games, ns.seed, ns.jobs, ns.game, ns.players, a_options=a_opts,
                        b_options=b_opts)
    summary = {"label": ns.label, "game": ns.game, "players": ns.players, "a": ns.a, "a_options": a_opts, "b": ns.b,
               "b_options": b_opts, "seed": ns.seed, **summarize(results), "wall_seconds": time.perf_counter() - start,
               "fair_share": 1 / ns.players}
    print(json.dumps(summary), flush=True)
    if ns.out:
        Path(ns.out).write_text(json.dumps({"summary": summary, "games": [r.to_json() for r in results]}))


def read_streams(paths: list[str], whole_deals: bool = False) -> list[GameResult]:
    """The games of --stream files, pooled. A game is known by its index and deal: game `i` of a run from seed `S`
    is dealt from `S + i // N`, so runs from different seeds pool side by side, and a game found twice (the same
    index of the same run, a replay) must be the same game."""
    by_game: dict[tuple[int, int], GameResult] = {}
    for path in paths:
        for n, line in enumerate(read_text(path).splitlines(), 1):
            if not line.strip():
                continue
            try:
                r = GameResult(**{k: tuple(v) if isinstance(v, list) else v for k, v in json.loads(line).items()})
            except (ValueError, TypeError) as e:
                raise SystemExit(f"{path}:{n}: not a game of a --stream file ({e})") from e
            seen = by_game.get((r.index, r.deal_seed))
            if seen is not None and (seen.kinds, seen.history) != (r.kinds, r.history):
                raise SystemExit(f"{path}:{n}: game {r.index} differs from the game of that index read before")
            by_game[(r.index, r.deal_seed)] = r
    games = sorted(by_game.values(), key=lambda r: (r.deal_seed - r.index // len(r.kinds), r.index))
    if whole_deals:
        def deal(r: GameResult) -> tuple[int, int]:  # (the run's seed, the deal): one deal of one run
            return r.deal_seed - r.index // len(r.kinds), r.deal_seed

        seats: dict[tuple[int, int], int] = {}
        for r in games:
            seats[deal(r)] = seats.get(deal(r), 0) + 1
        games = [r for r in games if seats[deal(r)] == len(r.kinds)]
    return games


def paired(new: list[GameResult], old: list[GameResult]) -> dict[str, object]:
    """`new` against `old` on the games both played from the same deal and seat: win shares, the mean per-game
    difference of MCTS's share and of its score with their standard errors (z = mean / SE), how many games each
    side did better in, and MCTS's mean margin over the best other seat on each side."""
    same = {(r.deal_seed, r.seat_a): r for r in old}
    pairs = [(r, same[(r.deal_seed, r.seat_a)]) for r in new if (r.deal_seed, r.seat_a) in same]
    if len(pairs) < 2:
        raise SystemExit(f"--paired: {len(pairs)} game(s) share a deal and seat; a comparison needs two")
    shares = mean_se([a.score_a - b.score_a for a, b in pairs])
    points = mean_se([a.scores[a.seat_a] - b.scores[b.seat_a] for a, b in pairs])
    n = len(pairs)
    return {"games": n, "win_rate_new": sum(a.score_a for a, _ in pairs) / n,
            "win_rate_old": sum(b.score_a for _, b in pairs) / n,
            "difference": shares[0], "difference_se": shares[1], "difference_z": shares[2],
            "new_better": sum(a.score_a > b.score_a for a, b in pairs),
            "old_better": sum(a.score_a < b.score_a for a, b in pairs),
            "score_difference": points[0], "score_difference_se": points[1], "score_difference_z": points[2],
            "margin_new": sum(margin(a) for a, _ in pairs) / n, "margin_old": sum(margin(b) for _, b in pairs) / n}


def mean_se(xs: list[float]) -> tuple[float, float, float | None]:
    """Mean, its standard error, and z = mean / SE (None where every value is the same)."""
    mean = sum(xs) / len(xs)
    se = math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1) / len(xs))
    return mean, se, mean / se if se else None


def margin(r: GameResult) -> float:
    """MCTS's score minus the best other seat's."""
    return r.scores[r.seat_a] - max(s for i, s in enumerate(r.scores) if i != r.seat_a)


def read_text(path: str) -> str:
    """A --stream file, gzip-compressed when its name ends in `.gz` (the kept records are)."""
    if path.endswith(".gz"):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            return f.read()
    return Path(path).read_text(encoding="utf-8")


def stream(ns: argparse.Namespace, a_opts: dict[str, object], b_opts: dict[str, object]) -> list[GameResult]:
    """The match, game by game, each appended to `ns.stream` as soon as it ends (any order with jobs)."""
    args = [(i, ns.a, ns.b, ns.seed, ns.game, ns.players, None, a_opts, b_opts) for i in range(ns.first, ns.games)]
    out: list[GameResult] = []
    with open(ns.stream, "a", encoding="utf-8") as f:
        def keep(r: GameResult) -> None:
            out.append(r)
            f.write(json.dumps(r.to_json()) + "\n")
            f.flush()

        if ns.jobs <= 1:
            for a in args:
                keep(play_one(*a))
        else:
            with ProcessPoolExecutor(max_workers=ns.jobs) as pool:
                for fut in as_completed([pool.submit(play_one, *a) for a in args]):
                    keep(fut.result())
    return sorted(out, key=lambda r: r.index)


if __name__ == "__main__":
    main()
