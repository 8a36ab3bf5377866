"""The bot ladder: a calibration run that rates every bot level the site offers, per game and player count.

Why: a level is rated on the site only once people have played it (bots are rated against the people at their
table), so the bot picker showed "Easy · ★1654" beside an unrated "Medium" (issue #34). The ladder plays the
levels against each other (`boardlab.bots.ladder`'s seeded round robin, seats rotated), rates them with the
model the site rates people with (OpenSkill Plackett-Luce, its default parameters), and keeps the result in a
JSON file that the server seeds a level's rating from until the level has a rating of its own.

Cheap on purpose: a few dozen games a pairing, and `hard` (MCTS for 0.95 s a move on the site) searches a fixed
iteration budget instead, so a run replays exactly and fits a shared 2-core machine; the file records both.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardlab.bots import LEVELS, level_preset
from boardlab.bots.ladder import Entrant, ratings, run_ladder
from boardlab.core import get_game

FORMAT = 1
MODEL = ("openskill PlackettLuce (default mu 25, sigma 25/3), as the site; mu and sigma averaged over 20 shuffled "
         "game orders")


class LadderFileError(ValueError):
    """A ladder file the server cannot use: the message names the place in the file."""


@dataclass(frozen=True)
class LevelRating:
    """One level's ladder rating in one game at one player count."""

    game: str
    players: int
    level: str
    mu: float
    sigma: float
    games: int


def entrants(game: str, hard_iterations: int) -> list[Entrant]:
    """The site's levels as the ladder plays them: each its game's preset, except that a level searching by
    wall clock (hard) searches `hard_iterations` a move instead (reproducible, and affordable here)."""
    out = []
    for level in LEVELS:
        kind, preset = level_preset(level, game)
        opts: dict[str, Any] = {}
        if kind == "mcts" and "iterations" not in preset:
            opts = {"iterations": hard_iterations, "seconds": None}
        out.append(Entrant(level, level, opts))
    return out


def plays(game: str, entrant: Entrant) -> str:
    """What a level played in the run, in words, for the file (e.g. "mcts {'iterations': 100}")."""
    kind, preset = level_preset(entrant.kind, game)
    opts = {k: v for k, v in {**preset, **entrant.options}.items() if v is not None}
    return f"{kind} {opts}" if opts else kind


def calibrate(game: str, players: int = 2, games: int = 24, seed: int = 0, hard_iterations: int = 100,
              progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """One run: every group of `players` levels plays `games` games; the run's entry for the file."""
    field = entrants(game, hard_iterations)
    results = run_ladder(game, field, games, players, seed, jobs=1, progress=progress)
    rows = {r["entrant"]: r for r in ratings(field, results, seed=seed)}
    return {
        "game": game, "players": players, "seed": seed, "games_per_pairing": games, "games": len(results),
        "hard_iterations": hard_iterations,
        "levels": {e.label: {"mu": rows[e.label]["mu"], "sigma": rows[e.label]["sigma"],
                             "games": rows[e.label]["games"], "win_share": rows[e.label]["win_share"],
                             "plays": plays(game, e)} for e in field},
    }


def merge(data: dict[str, Any] | None, run: dict[str, Any]) -> dict[str, Any]:
    """The file with `run` in it: a new run of a game and player count replaces the old one."""
    runs = [r for r in (data or {}).get("runs", []) if (r["game"], r["players"]) != (run["game"], run["players"])]
    runs.append(run)
    runs.sort(key=lambda r: (r["game"], r["players"]))
    return {"format": FORMAT, "model": MODEL,
            "about": "Bot levels rated against each other by `boardlab ladder` (docs/server.md, 'The bot ladder'); "
                     "the server seeds a level's rating from its game's 2-player run until the level has a rating "
                     "of its own. Small runs: see games_per_pairing and hard_iterations in each run.",
            "runs": runs}


def _number(where: str, value: Any, positive: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise LadderFileError(f"{where}: must be a number, not {value!r}")
    if positive and value <= 0:
        raise LadderFileError(f"{where}: must be above 0, not {value!r}")
    return float(value)


def _count(where: str, value: Any, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise LadderFileError(f"{where}: must be a whole number >= {least}, not {value!r}")
    return value


def validate(data: Any, games: Sequence[str] | None = None) -> list[LevelRating]:
    """Every level rating in a ladder file, or LadderFileError saying where the file is wrong. `games`: the
    installed games (a run of another game is an error: a misspelt name would seed nothing, silently)."""
    if not isinstance(data, dict):
        raise LadderFileError(f"the file must hold a JSON object, not {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise LadderFileError(f"format: must be {FORMAT}, not {data.get('format')!r}")
    runs = data.get("runs")
    if not isinstance(runs, list):
        raise LadderFileError("runs: must be a list")
    out: list[LevelRating] = []
    seen: set[tuple[str, int]] = set()
    for i, run in enumerate(runs):
        at = f"runs[{i}]"
        if not isinstance(run, dict):
            raise LadderFileError(f"{at}: must be an object")
        for key in ("game", "players", "levels", "seed", "date", "commit", "command", "games_per_pairing"):
            if key not in run:
                raise LadderFileError(f"{at}: '{key}' is missing")
        game = run["game"]
        if not isinstance(game, str) or (games is not None and game not in games):
            raise LadderFileError(f"{at}.game: no such game {game!r}")
        players = _count(f"{at}.players", run["players"], 1)
        g = get_game(game) if games is None or game in games else None
        if g is not None and not g.min_players <= players <= g.max_players:
            raise LadderFileError(f"{at}.players: {game} takes {g.min_players}-{g.max_players} players, not {players}")
        if (game, players) in seen:
            raise LadderFileError(f"{at}: a second run of {game} at {players} players")
        seen.add((game, players))
        _count(f"{at}.games_per_pairing", run["games_per_pairing"], 1)
        levels = run["levels"]
        if not isinstance(levels, dict) or not levels:
            raise LadderFileError(f"{at}.levels: must be an object of levels")
        for level, row in levels.items():
            where = f"{at}.levels.{level}"
            if level not in LEVELS:
                raise LadderFileError(f"{where}: no such level (the site offers {', '.join(LEVELS)})")
            if not isinstance(row, dict):
                raise LadderFileError(f"{where}: must be an object")
            for key in ("mu", "sigma", "games"):
                if key not in row:
                    raise LadderFileError(f"{where}: '{key}' is missing")
            out.append(LevelRating(game, players, level, _number(f"{where}.mu", row["mu"]),
                                   _number(f"{where}.sigma", row["sigma"], positive=True),
                                   _count(f"{where}.games", row["games"], 1)))
    return out


def load(path: Path, games: Sequence[str] | None = None) -> list[LevelRating]:
    """A ladder file's ratings (validated); LadderFileError names the file and the place."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise LadderFileError(f"{path}: {e}") from None
    try:
        return validate(data, games)
    except LadderFileError as e:
        raise LadderFileError(f"{path}: {e}") from None


def seeds(rows: Sequence[LevelRating]) -> dict[str, dict[str, LevelRating]]:
    """game -> level -> its rating from the game's 2-player run (else its smallest): the site keeps one rating
    per level and game, whatever the player count, and most of its bot games are 2-player."""
    best: dict[str, int] = {}
    for r in rows:
        if r.game not in best or (r.players != 2, r.players) < (best[r.game] != 2, best[r.game]):
            best[r.game] = r.players
    out: dict[str, dict[str, LevelRating]] = {}
    for r in rows:
        if r.players == best[r.game]:
            out.setdefault(r.game, {})[r.level] = r
    return out
