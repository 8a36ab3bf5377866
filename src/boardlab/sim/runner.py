"""Mass simulation: many seeded games between bots, in parallel processes, with a summary.

Entrants rotate through the seats (game g puts entrant i in seat (i + g) mod n), so every entrant
plays every position equally often and seat effects (first-player advantage) can be measured.
Everything derives from one seed: the same command gives the same games when bots are budgeted by
iterations (time budgets depend on the machine).

Where games run: one process, a pool of `jobs` processes, or Ray tasks (`ray=` an address, or "local"
for a Ray started here): game i is the same pure function of (game, entrants, i, seed, options, budgets)
everywhere, so every backend gives the same records. With `results=` a JSON-lines file, each game is
appended as it finishes (a header line first), games already in the file are not played again (a
stopped run resumes), and at the end the file is rewritten in game order: for iteration-budgeted bots
it is then byte for byte the same whichever backend played it (thinking times are not in it). A results
file is never truncated: a rerun with fewer games returns those and keeps every game already in the file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from pathlib import Path
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
    seconds: tuple[float, ...]  # thinking time per seat (empty for a game read back from a results file)
    actions: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def result_json(self) -> dict[str, Any]:
        """What the results file keeps: everything but the thinking times (which vary run to run)."""
        d = asdict(self)
        del d["seconds"]
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> GameRecord:
        return cls(int(d["index"]), int(d["seed"]), tuple(d["seating"]), tuple(d["scores"]),
                   tuple(dict(b) for b in d["breakdown"]), tuple(d["winners"]), int(d["decisions"]),
                   tuple(d.get("seconds", ())), tuple(d["actions"]))


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
    bots = [TimedAgent(make_bot(entrants[e], (game_seed * 31 + s) & 0xFFFFFFFF, game=game,
                                **_bot_kwargs(entrants[e], budgets)))
            for s, e in enumerate(seating)]
    play_game(state, bots)
    scores = state.scores()
    return GameRecord(index, game_seed, seating, tuple(s.total for s in scores),
                      tuple(dict(s.breakdown) for s in scores), tuple(state.winners()), len(state.history),
                      tuple(b.seconds for b in bots), tuple(str(a) for a in state.history))


def simulate(game: str, entrants: Sequence[str], games: int, seed: int = 0, jobs: int = 1,
             game_options: Mapping[str, Any] | None = None, budgets: Mapping[str, Any] | None = None,
             progress: Callable[[int], None] | None = None, ray: str | None = None,
             results: str | Path | None = None) -> list[GameRecord]:
    """Play `games` games; `progress(done)` is called after each (games resumed from `results` count as
    done). Results come back in index order. `ray`: run as Ray tasks ("local" or a cluster address;
    `jobs` caps the CPUs of a local Ray). `results`: stream to (and resume from) a JSON-lines file."""
    g = get_game(game)
    if not g.min_players <= len(entrants) <= g.max_players:
        raise ValueError(f"{game} needs {g.min_players}-{g.max_players} seats, got {len(entrants)}")
    for kind in entrants:
        bot_options(kind)  # unknown kinds fail here, before any process starts
    opts, bud = dict(game_options or {}), dict(budgets or {})
    header = {"kind": "boardlab-simulation", "game": game, "entrants": list(entrants), "seed": seed,
              "game_options": opts, "budgets": bud}
    kept: dict[int, GameRecord] = {}  # every game in the file, even beyond `games`: a file is never truncated
    if results is not None:
        kept = _read_results(Path(results), header)
    out = {i: r for i, r in kept.items() if i < games}
    todo = [i for i in range(games) if i not in out]
    if progress and out:
        progress(len(out))
    sink = _ResultsFile(Path(results), header, bool(kept)) if results is not None else None
    try:
        for rec in _run(game, tuple(entrants), todo, seed, opts, bud, jobs, ray):
            out[rec.index] = kept[rec.index] = rec
            if sink:
                sink.append(rec)
            if progress:
                progress(len(out))
    finally:
        if sink:
            sink.close()
    if sink:
        sink.rewrite([kept[i] for i in sorted(kept)])
    return [out[i] for i in sorted(out)]


def _run(game: str, entrants: tuple[str, ...], todo: list[int], seed: int, opts: dict[str, Any],
         bud: dict[str, Any], jobs: int, ray: str | None) -> Iterator[GameRecord]:
    """Records of the games in `todo`, in the order they finish."""
    if ray is not None:
        yield from _run_ray(game, entrants, todo, seed, opts, bud, jobs, ray)
    elif jobs <= 1:
        for i in todo:
            yield play_one(game, entrants, i, seed, opts, bud)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(play_one, game, entrants, i, seed, opts, bud) for i in todo]
            for f in as_completed(futures):
                yield f.result()


def _run_ray(game: str, entrants: tuple[str, ...], todo: list[int], seed: int, opts: dict[str, Any],
             bud: dict[str, Any], jobs: int, address: str) -> Iterator[GameRecord]:
    """One Ray task per game. "local" starts a Ray on this machine with `jobs` CPUs (stopped at the
    end); any other value is passed to `ray.init(address=...)` ("auto", "ray://head:10001")."""
    import ray

    started_here = not ray.is_initialized()
    if started_here:
        if address in ("", "local"):
            ray.init(num_cpus=max(1, jobs), include_dashboard=False, log_to_driver=False,
                     configure_logging=False)
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
    try:
        task = ray.remote(num_cpus=1, max_retries=2)(play_one)
        pending = [task.remote(game, entrants, i, seed, opts, bud) for i in todo]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            yield ray.get(ready[0])
    finally:
        if started_here:
            ray.shutdown()


def _read_results(path: Path, header: dict[str, Any]) -> dict[int, GameRecord]:
    """Games already in a results file of the same simulation (a different one is refused)."""
    if not path.exists() or path.stat().st_size == 0:
        return {}
    lines = path.read_text(encoding="utf-8").splitlines()
    try:
        first = json.loads(lines[0])
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: not a results file ({e})") from None
    if first != header:
        raise ValueError(f"{path} holds another simulation ({first}); choose another file to start a new one")
    out: dict[int, GameRecord] = {}
    for n, line in enumerate(lines[1:], 2):
        if not line.strip():
            continue
        try:
            rec = GameRecord.from_json(json.loads(line))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            if n == len(lines):  # a last line cut off when the run was stopped: play that game again
                break
            raise ValueError(f"{path}:{n}: not a game record") from None
        out[rec.index] = rec
    return out


def _line(obj: Mapping[str, Any]) -> str:
    return json.dumps(obj, separators=(",", ":"), sort_keys=True) + "\n"


class _ResultsFile:
    """Appends each finished game at once (flushed), so a stopped run loses nothing."""

    def __init__(self, path: Path, header: dict[str, Any], resuming: bool) -> None:
        self.path, self.header = path, header
        if resuming:
            text = path.read_text(encoding="utf-8")
            if not text.endswith("\n"):  # drop a half-written last line
                path.write_text(text[: text.rfind("\n") + 1], encoding="utf-8")
            self.f = path.open("a", encoding="utf-8")
        else:
            self.f = path.open("w", encoding="utf-8")
            self.f.write(_line(header))
            self.f.flush()

    def append(self, rec: GameRecord) -> None:
        self.f.write(_line(rec.result_json()))
        self.f.flush()

    def close(self) -> None:
        self.f.close()

    def rewrite(self, records: Sequence[GameRecord]) -> None:
        """The finished file in game order (atomic replace), the same whichever backend ran it."""
        tmp = self.path.with_name(self.path.name + ".tmp")
        with tmp.open("w", encoding="utf-8") as f:
            f.write(_line(self.header))
            for rec in records:
                f.write(_line(rec.result_json()))
        os.replace(tmp, self.path)


def summarize(entrants: Sequence[str], records: Sequence[GameRecord]) -> dict[str, Any]:
    """Per entrant: win share (ties split) with 95% Wilson interval, score mean with interval, time per
    decision; per seat: win share (the first-player advantage is seat 0's share minus 1/n)."""
    n, games = len(entrants), len(records)
    per_entrant = []
    for e, kind in enumerate(entrants):
        share = 0.0
        scores: list[float] = []
        secs = 0.0
        timed = sum(1 for r in records if r.seconds)  # games read back from a results file have no times
        for r in records:
            seat = r.seating.index(e)
            scores.append(r.scores[seat])
            secs += r.seconds[seat] if r.seconds else 0.0
            if seat in r.winners:
                share += 1.0 / len(r.winners)
        low, high = wilson(share, games)
        mean, mlow, mhigh = mean_ci(scores)
        per_entrant.append({"entrant": e, "bot": kind, "wins": share, "win_rate": share / games if games else 0,
                            "win_rate_ci95": [low, high], "score_mean": mean, "score_ci95": [mlow, mhigh],
                            "seconds_per_game": secs / timed if timed else 0})
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
