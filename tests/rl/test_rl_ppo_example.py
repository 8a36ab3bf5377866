"""The learning baseline's script (examples/train_ppo.py) without torch: its command line, the adapter SB3
reads, the evaluation with its Wilson interval and the curve files. Training itself needs the `learn` extra
and is run by hand (docs/research.md); the default test run never imports torch."""

from __future__ import annotations

import csv
import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from boardlab.core.stats import wilson

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "examples" / "train_ppo.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_ppo", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_importing_the_script_does_not_import_torch() -> None:
    code = f"import importlib.util, sys; s = importlib.util.spec_from_file_location('t', {str(SCRIPT)!r}); " \
           "m = importlib.util.module_from_spec(s); s.loader.exec_module(m); " \
           "assert 'torch' not in sys.modules and 'sb3_contrib' not in sys.modules"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr


def test_arguments_default_to_both_games_and_refuse_bad_input() -> None:
    tp = load()
    args = tp.parse_args(["--steps", "1000", "--seed", "3", "--out", "runs"])
    assert args.games == ["pocket_mars", "petrichor"] and args.steps == 1000 and args.seed == 3
    assert args.out == Path("runs")
    assert tp.parse_args(["--game", "petrichor"]).games == ["petrichor"]
    for bad in (["--game", "chess"], ["--steps", "0"], ["--eval-games", "0"], ["--game", ","]):
        with pytest.raises(SystemExit):
            tp.parse_args(bad)


def test_adapter_gives_a_vector_and_the_mask_sb3_asks_for() -> None:
    tp = load()
    env = tp.make_env("pocket_mars")
    obs, _ = env.reset(seed=1)
    assert env.observation_space.contains(obs) and obs.shape == (1012,)
    mask = env.action_masks()
    assert mask.dtype == bool and mask.shape == (env.action_space.n,) and mask.any()
    rng = np.random.default_rng(1)
    done = False
    while not done:
        assert env.action_masks().any()
        obs, reward, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        done = terminated or truncated
    assert env.episodes == [(env.steps, reward)] and reward in (-1.0, 0.0, 1.0)


def test_evaluation_of_the_random_policy_has_a_wilson_interval_and_is_seeded() -> None:
    tp = load()
    first = tp.evaluate(tp.random_policy(0), "petrichor", "random", games=3, seed=0)
    again = tp.evaluate(tp.random_policy(0), "petrichor", "random", games=3, seed=0)
    assert first == again
    assert first["games"] == 3 and 0.0 <= first["win_share"] <= 1.0
    assert first["ci95"] == list(wilson(first["win_share"] * 3, 3))
    with pytest.raises(ValueError, match="at least 1"):
        tp.evaluate(tp.random_policy(0), "petrichor", "random", games=0, seed=0)


def test_curve_is_a_rolling_win_share_written_as_csv_and_png(tmp_path: Path) -> None:
    tp = load()
    rows = tp.curve_rows([(10, 1.0), (25, -1.0), (40, 0.0)], window=2)
    assert [r["steps"] for r in rows] == [10, 25, 40]
    assert [r["win_share"] for r in rows] == [1.0, 0.5, 0.25]
    tp.write_curve(rows, "petrichor", tmp_path, baseline=0.1)
    with open(tmp_path / "petrichor-curve.csv") as f:
        read = list(csv.DictReader(f))
    assert [float(r["win_share"]) for r in read] == [1.0, 0.5, 0.25]
    assert (tmp_path / "petrichor-curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_research_doc_reports_the_committed_runs_and_the_command_parses() -> None:
    """docs/research.md shows the figures of the runs committed under docs/ppo/ (curve, win shares with their
    intervals, steps, wall time) and a one-line command the script accepts."""
    import json
    import shlex

    tp = load()
    doc = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    section = doc.split("### A baseline that learns", 1)[1].split("\n## ", 1)[0]
    command = next(line for line in section.splitlines() if "examples/train_ppo.py" in line and "--steps" in line)
    argv = shlex.split(command.strip().strip("`"))
    args = tp.parse_args(argv[argv.index("examples/train_ppo.py") + 1:])
    assert args.games == ["pocket_mars", "petrichor"]
    for game in args.games:
        summary = json.loads((ROOT / "docs" / "ppo" / f"{game}-summary.json").read_text())
        assert summary["steps"] >= args.steps and summary["seed"] == args.seed
        assert f"ppo/{game}-curve.png" in section and (ROOT / "docs" / "ppo" / f"{game}-curve.png").exists()
        assert f"{summary['steps']:,}" in section and f"{summary['train_seconds'] / 60:.1f} min" in section
        for who in ("ppo", "random_policy"):
            for r in summary["evaluation"][who]:
                assert f"{r['win_share']:.3f} [{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]" in section, (game, who, r)
