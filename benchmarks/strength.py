"""Strength runs for docs/strength.md: one bot (usually MCTS with given options) against greedy
opponents at every seat but one, seats rotated, shared deals, 95% Wilson intervals.

    python benchmarks/strength.py --game pocket_mars --players 4 --games 200 --seed 7000000 \\
        --a mcts --a-options '{"iterations": 1000, "opponents": "playout"}' --out pm4.json

Prints one JSON summary line (and writes it, with every game's log, to --out). Budgeted by
iterations the games replay exactly from the printed command.
"""

from __future__ import annotations

import argparse
import gzip
import json
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
                        help="print the summary of --stream files (one run's parts, pooled; `.jsonl.gz` read as "
                             "gzip) and exit")
    parser.add_argument("--whole-deals", action="store_true",
                        help="with --summarize: count only deals played from every seat (a stopped run's tail "
                             "would otherwise weigh some seats more)")
    ns = parser.parse_args(argv)
    if ns.summarize:
        games = read_streams(ns.summarize, ns.whole_deals)
        print(json.dumps({"files": ns.summarize, "whole_deals": ns.whole_deals, **summarize(games)}))
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
