"""OpenSpiel's ISMCTS bot against boardlab's MCTS bot on the same simulation budget.

    python -m boardlab.rl.spiel_match --game cacao --games 100 --simulations 100 --out ismcts.jsonl

Games come in pairs on the same deal (deal seed = seed + i // 2) with the seats swapped. Both bots
get `simulations` iterations per decision with more than one legal action: OpenSpiel's
`ismcts.ISMCTSBot` with its `RandomRolloutEvaluator` (one random playout to the end, UCT c = 2,
most-visited final move; `--evaluator boardlab`: `openspiel.BoardlabEvaluator`, boardlab's truncated
playout + `Game.evaluate`) and boardlab's `MctsBot` with its defaults (playout depth 12, then
`Game.evaluate`). Each finished game is appended to the JSON-lines file, so a stopped run resumes
where it stopped; `--summary` prints the table (Wilson 95% intervals, time per searched move).

Equal CPU time (`--cpu-seconds S`, issue #35): at equal iterations OpenSpiel's bot spends ~18x our CPU, so the
iteration count flatters nobody. OpenSpiel's `ISMCTSBot` has no time budget, so before the games a short calibration
(`calibrate`: the first searched moves of a deal outside the match's, both bots at `--simulations`, CPU by
`time.process_time`) measures each bot's CPU seconds per iteration, and each bot then gets the iteration count that
spends S CPU seconds per searched move (`iterations_for`). Iteration counts keep the games a function of the seeds
and blind to load; the calibration is stored in every record, and each record's `cpu` shows the CPU actually spent.
A resumed run reuses the calibration of the records already in the file. A fixed count misses by up to ~1.7x
over a game (Cacao's random playouts to the end get shorter as the game goes on, OpenSpiel's information-state keys
longer), so `--adapt` re-derives each bot's count before each of its searched moves from its own CPU per iteration
over its searched moves so far in this game (`CpuBudget`; the calibration is only the first estimate): the CPU per
move then matches, at the price of games that depend on the host's timings.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from boardlab.sim.stats import wilson

SPIEL_MIN_SIMULATIONS = 2  # ISMCTSBot's first simulation only expands the root; its final policy needs a second


def _bots(sgame: Any, deal: int, index: int, spiel_simulations: int, boardlab_simulations: int,
          evaluator: str) -> tuple[Any, Any]:
    """OpenSpiel's ISMCTS and boardlab's MCTS, seeded from the deal and game index."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    from boardlab.bots import make_bot

    from . import openspiel

    rs = np.random.RandomState((deal * 7919 + index) % 2**31)
    ev = openspiel.BoardlabEvaluator(12, rs) if evaluator == "boardlab" else mcts.RandomRolloutEvaluator(1, rs)
    theirs = ismcts.ISMCTSBot(sgame, ev, 2.0, spiel_simulations, random_state=rs, allow_inconsistent_action_sets=True)
    ours = make_bot("mcts", (deal * 31 + index) & 0xFFFFFFFF, iterations=boardlab_simulations)
    return theirs, ours


def iterations_for(cpu_seconds: float, cpu_per_iteration: float) -> int:
    """The iterations a bot searching at `cpu_per_iteration` CPU seconds each gets for `cpu_seconds` (at least 1)."""
    if cpu_seconds <= 0 or cpu_per_iteration <= 0:
        raise ValueError("cpu_seconds and cpu_per_iteration must be > 0")
    return max(1, round(cpu_seconds / cpu_per_iteration))


class CpuBudget:
    """Iterations per searched move for one bot that spend `cpu_seconds` each: starts from the calibration's
    CPU per iteration and, with `adapt`, follows the bot's own CPU per iteration measured in the game so far."""

    def __init__(self, cpu_seconds: float, cpu_per_iteration: float, adapt: bool) -> None:
        self.cpu_seconds = cpu_seconds
        self.first = cpu_per_iteration
        self.adapt = adapt
        self.cpu = 0.0
        self.iterations = 0

    def next(self) -> int:
        """The iterations for the bot's next searched move."""
        per = self.cpu / self.iterations if self.adapt and self.iterations else self.first
        return iterations_for(self.cpu_seconds, per)

    def spent(self, cpu: float, iterations: int) -> None:
        """Record a searched move's CPU seconds and iterations."""
        self.cpu += cpu
        self.iterations += iterations


def calibrate(game: str, seed: int, simulations: int, evaluator: str = "random", moves: int = 6) -> dict[str, Any]:
    """CPU seconds per iteration of each bot: both search the first `moves` searched decisions each of a deal
    outside the match's (seed - 1) at `simulations` iterations; the totals and per-iteration ratios."""
    from boardlab.core import observe

    from . import openspiel

    deal = seed - 1
    sgame = openspiel.load(game, players=2, seed=deal, actions="flat")
    state = sgame.new_initial_state()
    theirs, ours = _bots(sgame, deal, 0, simulations, simulations, evaluator)
    cpu = [0.0, 0.0]
    searched = [0, 0]
    while not state.is_terminal() and min(searched) < moves:
        seat = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        c0 = time.process_time()
        if seat == 0:
            state.apply_action(int(theirs.step(state)))
        else:
            openspiel.apply_move(state, ours.choose(observe(state.inner, seat)))
        cpu[seat] += time.process_time() - c0
        searched[seat] += 1
    return {"deal": deal, "simulations": simulations, "evaluator": evaluator, "searched": searched, "cpu": cpu,
            "spiel_cpu_per_iteration": cpu[0] / max(1, searched[0] * simulations),
            "boardlab_cpu_per_iteration": cpu[1] / max(1, searched[1] * simulations)}


def play(game: str, index: int, seed: int, simulations: int, evaluator: str = "random",
         boardlab_simulations: int | None = None, extra: dict[str, Any] | None = None,
         adapt: bool = False) -> dict[str, Any]:
    """Game `index`: ISMCTS (OpenSpiel) in seat index % 2 with `simulations` iterations a searched move, boardlab
    MCTS in the other seat with `boardlab_simulations` (default: the same); `extra` is copied into the record.
    `adapt` (needs `extra["cpu_seconds"]`): each bot's count follows its CPU per iteration in this game
    (`CpuBudget`), starting from the given counts."""
    from boardlab.core import observe

    from . import openspiel

    ours_n = simulations if boardlab_simulations is None else boardlab_simulations
    deal = seed + index // 2
    spiel_seat = index % 2
    sgame = openspiel.load(game, players=2, seed=deal, actions="flat")  # whole moves, as the recorded figures
    state = sgame.new_initial_state()
    theirs, ours = _bots(sgame, deal, index, simulations, ours_n, evaluator)
    budgets = None
    if adapt:
        cpu_s = (extra or {})["cpu_seconds"]
        budgets = [CpuBudget(cpu_s, cpu_s / simulations, True), CpuBudget(cpu_s, cpu_s / ours_n, True)]
    iterations = [0, 0]
    wall = [0.0, 0.0]
    cpu = [0.0, 0.0]
    searched = [0, 0]
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        who = 0 if seat == spiel_seat else 1
        if budgets is not None:
            n = budgets[who].next()
            if who == 0:
                # ISMCTSBot has no budget setter; run_search reads this attribute
                theirs._max_simulations = max(SPIEL_MIN_SIMULATIONS, n)
            else:
                ours.iterations = n
        n = theirs._max_simulations if who == 0 else ours.iterations
        t0, c0 = time.perf_counter(), time.process_time()
        if who == 0:
            state.apply_action(int(theirs.step(state)))
        else:
            openspiel.apply_move(state, ours.choose(observe(state.inner, seat)))
        wall[who] += time.perf_counter() - t0
        spent = time.process_time() - c0
        cpu[who] += spent
        searched[who] += 1
        iterations[who] += n
        if budgets is not None:
            budgets[who].spent(spent, n)
    inner = state.inner
    returns = inner.returns()
    return {"index": index, "deal": deal, "spiel_seat": spiel_seat, "simulations": simulations, "evaluator": evaluator,
            "boardlab_simulations": ours_n, "spiel_share": returns[spiel_seat],
            "scores": [s.total for s in inner.scores()], "decisions": len(inner.history), "searched": searched,
            "iterations": iterations, "adapt": adapt, "wall": wall, "cpu": cpu, **(extra or {})}


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    share = sum(r["spiel_share"] for r in rows)
    lo, hi = wilson(share, n)
    out: dict[str, Any] = {"games": n, "spiel_wins": sum(r["spiel_share"] == 1 for r in rows),
                           "ties": sum(0 < r["spiel_share"] < 1 for r in rows),
                           "spiel_win_rate": share / n if n else 0.0, "ci95": [lo, hi]}
    for who, name in ((0, "spiel"), (1, "boardlab")):
        moves = sum(r["searched"][who] for r in rows) or 1
        out[f"{name}_wall_s_per_move"] = sum(r["wall"][who] for r in rows) / moves
        out[f"{name}_cpu_s_per_move"] = sum(r["cpu"][who] for r in rows) / moves
    out["spiel_iterations"] = sorted({r["simulations"] for r in rows})
    out["boardlab_iterations"] = sorted({r.get("boardlab_simulations", r["simulations"]) for r in rows})
    for who, name in ((0, "spiel"), (1, "boardlab")):
        timed = [r for r in rows if "iterations" in r]
        moves = sum(r["searched"][who] for r in timed) or 1
        out[f"{name}_iterations_per_move"] = sum(r["iterations"][who] for r in timed) / moves
    for first in (0, 1):
        sub = [r for r in rows if r["spiel_seat"] == first]
        out[f"spiel_win_rate_seat{first + 1}"] = sum(r["spiel_share"] for r in sub) / len(sub) if sub else 0.0
    spiel_scores = [r["scores"][r["spiel_seat"]] for r in rows]
    our_scores = [r["scores"][1 - r["spiel_seat"]] for r in rows]
    out["spiel_score_mean"] = sum(spiel_scores) / n if n else 0.0
    out["boardlab_score_mean"] = sum(our_scores) / n if n else 0.0
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="cacao")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=6_000_000)
    ap.add_argument("--simulations", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--evaluator", choices=("random", "boardlab"), default="random",
                    help="ISMCTS leaf evaluation: OpenSpiel's random rollout, or BoardlabEvaluator")
    ap.add_argument("--cpu-seconds", type=float, default=None,
                    help="equal CPU time: each bot gets the iterations that spend this many CPU seconds per searched "
                         "move, from a calibration at --simulations iterations (stored in every record)")
    ap.add_argument("--adapt", action="store_true",
                    help="with --cpu-seconds: each bot's iterations follow its CPU per iteration in the game so far")
    ap.add_argument("--calibration-moves", type=int, default=6, help="searched moves per bot in the calibration")
    ap.add_argument("--out", type=Path, default=Path("ismcts-vs-boardlab.jsonl"))
    ap.add_argument("--summary", action="store_true", help="only print the summary of --out")
    args = ap.parse_args(argv)
    rows = [json.loads(line) for line in args.out.read_text().splitlines() if line.strip()] if args.out.exists() else []
    if not args.summary:
        done = {r["index"] for r in rows}
        todo = [i for i in range(args.games) if i not in done]
        spiel_n, ours_n, extra = args.simulations, args.simulations, None
        if args.cpu_seconds is not None:
            cal = next((r["calibration"] for r in rows if "calibration" in r), None)
            if cal is None:
                cal = calibrate(args.game, args.seed, args.simulations, args.evaluator, args.calibration_moves)
            spiel_n = max(SPIEL_MIN_SIMULATIONS, iterations_for(args.cpu_seconds, cal["spiel_cpu_per_iteration"]))
            ours_n = iterations_for(args.cpu_seconds, cal["boardlab_cpu_per_iteration"])
            extra = {"cpu_seconds": args.cpu_seconds, "calibration": cal}
            print(f"calibration: {json.dumps(cal)}; iterations ISMCTS {spiel_n}, boardlab {ours_n}", flush=True)
        with args.out.open("a") as f, ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = [pool.submit(play, args.game, i, args.seed, spiel_n, args.evaluator, ours_n, extra,
                                   args.adapt and extra is not None) for i in todo]
            for k, fut in enumerate(as_completed(futures), 1):
                row = fut.result()
                rows.append(row)
                f.write(json.dumps(row) + "\n")
                f.flush()
                print(f"{k}/{len(todo)} game {row['index']}: ISMCTS share {row['spiel_share']} {row['scores']}",
                      flush=True)
    print(json.dumps(summary(rows), indent=1))


if __name__ == "__main__":
    main()
