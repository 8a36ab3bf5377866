"""`--option key=value` on `play` and `simulate`: a game's options (the seed-vs-English rule choices, a user's
component file) reach the engine from the terminal, typed by the option's default, and bad ones are refused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BOARDLAB = [sys.executable, "-m", "boardlab.cli"]


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*BOARDLAB, *args], capture_output=True, text=True, timeout=300, cwd=cwd,
                          env={"COLUMNS": "160", "PATH": "/usr/bin:/bin", "TERM": "dumb"})


def test_play_passes_options_to_the_game_and_the_save(tmp_path: Path) -> None:
    r = run(["play", "block_and_key", "--seats", "random,random", "--seed", "3", "--option", "key_views=own-side",
             "--option", "enigma_rounding=down", "--save", "s.json"], tmp_path)
    assert r.returncode == 0, r.stderr
    save = json.loads((tmp_path / "s.json").read_text())
    assert save["options"]["key_views"] == "own-side" and save["options"]["enigma_rounding"] == "down"


def test_simulate_passes_typed_options(tmp_path: Path) -> None:
    r = run(["simulate", "pocket_mars", "--seats", "random", "--games", "2", "--option", "automaton_ship=7",
             "--out", "r.json"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads((tmp_path / "r.json").read_text())["options"] == {"automaton_ship": 7}


def test_bad_options_are_refused_with_the_list_of_options(tmp_path: Path) -> None:
    r = run(["play", "cacao", "--seats", "random,random", "--option", "nope=1"], tmp_path)
    assert r.returncode == 2 and "components" in r.stdout
    r = run(["play", "pocket_mars", "--seats", "random", "--option", "automaton_ship=x"], tmp_path)
    assert r.returncode == 2 and "not a int" in r.stdout
    r = run(["play", "block_and_key", "--seats", "random,random", "--option", "key_views=sideways"], tmp_path)
    assert r.returncode == 2 and "own-side" in r.stdout


def test_games_lists_each_games_options(tmp_path: Path) -> None:
    r = run(["games"], tmp_path)
    assert r.returncode == 0 and "--option key_views='any'" in r.stdout and "--option length='short'" in r.stdout


def test_components_flag_loads_a_users_file_and_refuses_a_broken_one(tmp_path: Path) -> None:
    from boardlab.games import block_and_key

    data = json.loads((Path(block_and_key.__file__).parent / "components.json").read_text())
    (tmp_path / "mine.json").write_text(json.dumps(data))
    r = run(["play", "block_and_key", "--seats", "random,random", "--seed", "4", "--components", "mine.json",
             "--save", "s.json"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads((tmp_path / "s.json").read_text())["options"]["components"] == "mine.json"
    r = run(["simulate", "block_and_key", "--seats", "random,random", "--games", "1", "--components", "mine.json",
             "--out", "r.json"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads((tmp_path / "r.json").read_text())["options"] == {"components": "mine.json"}
    (tmp_path / "broken.json").write_text(json.dumps({**data, "keys": data["keys"][:3]}))
    r = run(["play", "block_and_key", "--seats", "random,random", "--components", "broken.json"], tmp_path)
    assert r.returncode == 2 and "keys" in r.stdout, r.stdout
    r = run(["play", "pocket_mars", "--seats", "random", "--components", "mine.json"], tmp_path)
    assert r.returncode == 2, r.stdout  # a Block and Key file is no Pocket Mars deck
