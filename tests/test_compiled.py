"""The optional native build (boardlab/_compiled.py): the mode is the expected one, a stale or
disabled build is never imported, and native and pure Python play the very same games."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from boardlab import _compiled

PROBE = """
import json, sys
import boardlab
from boardlab import _compiled
from boardlab.bots import make_bot
from boardlab.core import get_game, observe

logs = {}
RUNS = (("cacao", 3, 60, 40), ("pocket_mars", 2, 60, 40), ("block_and_key", 2, 25, 30), ("cooper_island", 2, 40, 60),
        ("petrichor", 3, 40, 50))
for game, players, iterations, moves in RUNS:
    state = get_game(game).new_game(players, 5)
    bots = [make_bot("mcts", 40 + s, iterations=iterations) for s in range(players)]
    log = []
    while not state.is_over and len(log) < moves:
        seat = state.current_player
        action = bots[seat].choose(observe(state, seat))
        log.append(str(action))
        state.apply(action)
    logs[game] = log
# a learner's steps (the compiled rl modules): every observation tensor and mask of random PettingZoo games, hashed
import hashlib, random
import numpy as np
from boardlab.rl import pettingzoo
tensors = {}
for game, _, _, _ in RUNS:
    env, rng, digest = pettingzoo.raw_env(game, players=2), random.Random(3), hashlib.sha256()
    env.reset(seed=7)
    for _ in range(150):
        agent = env.agent_selection
        if env.terminations[agent]:
            break
        for other in env.agents:
            obs = env.observe(other)
            digest.update(obs["observation"].tobytes() + obs["action_mask"].tobytes())
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
    tensors[game] = digest.hexdigest()
files = {m: sys.modules[m].__file__ for m in _compiled.MODULES}
print(json.dumps({"compiled": _compiled.COMPILED, "reason": _compiled.REASON, "files": files, "logs": logs,
                  "tensors": tensors}))
"""


def probe(src: Path, pure: bool) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "BOARDLAB_PURE"}
    env["PYTHONPATH"] = str(src)
    if pure:
        env["BOARDLAB_PURE"] = "1"
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True,
                         timeout=600)
    return json.loads(out.stdout)


def native_built() -> bool:
    """A current native build is on disk (whether or not this process was told to ignore it)."""
    return _compiled.status(honour_env=False)[0]


def test_the_mode_is_the_expected_one() -> None:
    """`make test` sets BOARDLAB_EXPECT_NATIVE where a C compiler is: the build must then be in use."""
    loaded = {m: sys.modules[m].__file__ or "" for m in _compiled.MODULES if m in sys.modules}
    if os.environ.get("BOARDLAB_EXPECT_NATIVE"):
        assert _compiled.COMPILED, _compiled.REASON
    if _compiled.COMPILED:
        assert all(not f.endswith(".py") for f in loaded.values()), loaded
    else:
        assert all(f.endswith(".py") for f in loaded.values()), loaded


def test_native_and_pure_play_the_same_games() -> None:
    if not native_built():
        pytest.skip("no native build here (make native); `make test` requires one wherever a C compiler is")
    native, pure = probe(_compiled.SRC_DIR, pure=False), probe(_compiled.SRC_DIR, pure=True)
    assert native["compiled"] and not pure["compiled"]
    assert all(f.endswith(".so") for f in native["files"].values()), native["files"]
    assert all(f.endswith(".py") for f in pure["files"].values()), pure["files"]
    assert native["logs"] == pure["logs"]
    assert native["tensors"] == pure["tensors"]  # the observation tensors and masks too, bit for bit
    assert {game: len(log) for game, log in native["logs"].items()} == {"cacao": 40, "pocket_mars": 40,
                                                                        "block_and_key": 30, "cooper_island": 60,
                                                                        "petrichor": 50}


def test_a_changed_source_is_run_from_source(tmp_path: Path) -> None:
    """Editing a compiled module's .py after the build must not leave the old native code running."""
    if not native_built():
        pytest.skip("no native build here (make native)")
    src = tmp_path / "src"
    shutil.copytree(_compiled.PACKAGE_DIR, src / "boardlab", ignore=shutil.ignore_patterns("__pycache__"))
    for lib in _compiled.SRC_DIR.glob(f"{_compiled.GROUP}__mypyc.*"):
        shutil.copy(lib, src)
    intact = probe(src, pure=False)
    assert intact["compiled"], intact["reason"]
    rules = src / "boardlab" / "games" / "cacao" / "rules.py"
    rules.write_text(rules.read_text() + "\n# edited after the build\n")
    edited = probe(src, pure=False)
    assert not edited["compiled"]
    assert "games/cacao/rules.py changed since the build" in edited["reason"]
    assert all(f.endswith(".py") for f in edited["files"].values()), edited["files"]
    assert edited["logs"] == intact["logs"]
    rules.write_text(rules.read_text().removesuffix("\n# edited after the build\n"))
    helper = src / "boardlab" / "core" / "_splitmix.c"  # a C helper's source counts like a module's
    helper.write_text(helper.read_text() + "\n/* edited after the build */\n")
    edited = probe(src, pure=False)
    assert not edited["compiled"]
    assert "core/_splitmix.c changed since the build" in edited["reason"]
    assert edited["logs"] == intact["logs"]


def test_the_search_bot_and_the_rng_helper_are_native_exactly_when_the_build_is() -> None:
    """The bot is in the mypyc group and the narrow generator's draws come from the C helper, or neither."""
    from boardlab.bots import mcts
    from boardlab.core.rng import PURE_METHODS, Rng

    native_rng = Rng.__dict__["shuffle"] is not PURE_METHODS["shuffle"]
    assert native_rng == _compiled.COMPILED == (not (mcts.__file__ or "").endswith(".py"))


def test_status_without_a_build(tmp_path: Path) -> None:
    """A checkout never built (or cleaned) runs from source and says why."""
    src = tmp_path / "src"
    shutil.copytree(_compiled.PACKAGE_DIR, src / "boardlab",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "_compiled.json"))
    env = {k: v for k, v in os.environ.items() if k != "BOARDLAB_PURE"}
    env["PYTHONPATH"] = str(src)
    out = subprocess.run([sys.executable, "-c", "from boardlab import _compiled as c; print(c.COMPILED, c.REASON)"],
                         env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False not built (make native)"


def test_a_source_edited_during_the_build_reads_as_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The manifest holds the sources as the compiler read them: a file saved while mypyc runs (an editor, a
    branch switch) must read as changed afterwards, not as built. The compiler is replaced by a stand-in that
    saves an edit and leaves the extension files, on a copy of the package."""
    src = tmp_path / "src"
    shutil.copytree(_compiled.PACKAGE_DIR, src / "boardlab",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "_compiled.json"))
    monkeypatch.setattr(_compiled, "PACKAGE_DIR", src / "boardlab")
    monkeypatch.setattr(_compiled, "SRC_DIR", src)
    monkeypatch.setattr(_compiled, "MANIFEST", src / "boardlab" / "_compiled.json")
    rules = src / "boardlab" / "games" / "cacao" / "rules.py"

    def compiler(*args: object, **kwargs: object) -> subprocess.CompletedProcess[str]:
        rules.write_text(rules.read_text() + "\n# saved while the compiler ran\n")
        for module in _compiled.BUILT:
            _compiled._ext_path(module).write_bytes(b"")
        (src / (_compiled.GROUP + "__mypyc" + _compiled._abi())).write_bytes(b"")
        return subprocess.CompletedProcess([], 0, "", "")

    monkeypatch.setattr(subprocess, "run", compiler)
    assert _compiled.build()
    built, reason = _compiled.status(honour_env=False)
    assert not built
    assert "games/cacao/rules.py changed since the build" in reason
