"""Write the golden Cacao playthroughs in golden/ (one each for 2, 3 and 4 players).

Each file holds a seeded random game: players, seed, the action log in notation, the final scores with
their breakdown, the winners and the final board and villages. test_cacao_golden.py replays every file
and requires exactly the same outcome, so any change of rules behaviour shows up as a diff.

RERUN ONLY WHEN A RULES CHANGE IS INTENDED (then review the diff of the JSON files, explain it in the
commit message):

    .venv/bin/python tests/games/cacao/make_golden.py

For each player count, the first seed from the base seed on whose game includes a rebuild and a fill
choice is used, so the goldens exercise the late game too. Random choices come from `choose` in
cacao_helpers with `random.Random(seed)`; the golden files do not depend on it once written.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from cacao_helpers import board_json, play_random

import boardlab
from boardlab.games.cacao.rules import CacaoState

GOLDEN = Path(__file__).parent / "golden"
BASE_SEEDS = {2: 1000, 3: 2000, 4: 3000}


def record(players: int, seed: int) -> tuple[dict[str, Any], CacaoState]:
    """Play one seeded random game and return its golden record."""
    s = boardlab.new_game("cacao", players=players, seed=seed)
    assert isinstance(s, CacaoState)
    play_random(s, random.Random(seed))
    data = {
        "game": "cacao",
        "players": players,
        "seed": seed,
        "actions": [str(a) for a in s.history],
        "scores": [x.to_json() for x in s.scores()],
        "winners": s.winners(),
        "final": board_json(s),
    }
    return data, s


def interesting(s: CacaoState) -> bool:
    kinds = {a[0] for a in s.history}
    return "rebuild" in kinds and "fill" in kinds and "use" in kinds


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for players, base in BASE_SEEDS.items():
        seed = base
        while True:
            data, s = record(players, seed)
            if interesting(s):
                break
            seed += 1
        path = GOLDEN / f"cacao_{players}p_seed{seed}.json"
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {path} ({len(data['actions'])} actions, winners {data['winners']})")


if __name__ == "__main__":
    main()
