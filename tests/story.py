"""The log tells the story (issue #31): over random games, every change of any player's score is named in the
line of the move that made it, for every viewer (seats and spectators) in both languages, and the last line
says that the game ended, why, and the final scores. Shared by the per-game tests (tests/games/*/..._story.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from boardlab.core import get_game
from boardlab.core.game import State
from boardlab.core.narration import public_totals, signed, word

LANGS = ("en", "zh-TW")


def seat_part(line: str, who: str, lang: str) -> str:
    """The part of a log line that tells what happened to the seat called `who` ("" if none)."""
    if " — " not in line:
        return ""
    tail = line.split(" — ", 1)[1]
    for part in tail.split(word("seat_sep", lang)):
        if part.startswith(word("who", lang, who=who, items="")):
            return part
    return ""


def random_moves(name: str, players: int, seed: int, **options: Any) -> Iterator[tuple[State, Any, State]]:
    """A seeded random game of `name`, move by move: (the position before, the action, the position after; the
    latter is the live game, moved on by the next step)."""
    s = get_game(name).new_game(players, seed, **options)
    rng = random.Random(seed)
    while not s.is_over:
        action = rng.choice(s.legal_actions())
        before = s.clone()
        s.apply(action)
        yield before, action, s


def unnamed_changes(name: str, players: int, seeds: range, **options: Any) -> tuple[list[str], int, int]:
    """Play `seeds` random games; return (the score changes some viewer's line does not name, how many score
    changes there were, how many games ended with a line that tells it)."""
    game = get_game(name)
    missing: list[str] = []
    changes = endings = 0
    for seed in seeds:
        for before, action, s in random_moves(name, players, seed, **options):
            # the spectator (who sees least) and the next seat; every other seat reads one of these lines
            # or `describe_move` (Game.describe_for's contract)
            viewers: list[int | None] = [None, ((before.current_player or 0) + 1) % players]
            b, a = public_totals(before), public_totals(s)
            moved = [q for q in range(players) if a[q] != b[q]]
            changes += len(moved)
            for lang in LANGS:
                lines = {v: game.describe_for(before, action, v, lang) for v in viewers}
                lines["move"] = game.describe_move(before, action, lang)
                for v, line in lines.items():
                    for q in moved:
                        said = word("score", lang, total=a[q], delta=signed(a[q] - b[q]))
                        if said not in seat_part(line, game.seat_name(q, lang), lang):
                            missing.append(f"seed {seed} {action} for {v} ({lang}): {line!r} lacks {said!r}")
                    if s.is_over:
                        finals = [word("final_item", lang, who=game.seat_name(q, lang), total=sc.total)
                                  for q, sc in enumerate(s.scores())]
                        ended = word("ended_plain", lang)[:-1] in line and all(f in line for f in finals)
                        endings += ended and v == "move" and lang == "en"
                        if not ended:
                            missing.append(f"seed {seed} last move for {v} ({lang}): {line!r} does not end")
    return missing, changes, endings
