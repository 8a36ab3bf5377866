"""Optional native builds of the hot engine modules, the search bot and a learner's observation encoders (mypyc),
and of the C helpers in `HELPERS`, with the pure-Python source as fallback.

Why: a search bot spends its time in the rules' own Python (`_apply`, the legal lists, the
evaluation) and its own loop; compiling those modules with mypyc makes every iteration cheaper without a line of
game logic changing (docs/benchmarks.md has the measured gain). Compiling is optional: a machine
without a C compiler, or a checkout whose sources changed since the last build, runs the same
modules from source. Which one runs is decided once, at `import boardlab`:

* compiled: the build manifest (`_compiled.json`, written by the build) lists every module of
  `MODULES` and `HELPERS` with the SHA-256 of the source it was built from, every source still has that hash,
  and `BOARDLAB_PURE` is not set;
* otherwise pure: a finder placed first on `sys.meta_path` loads the modules of `MODULES` from
  their `.py` files, so a stale or partial build is never imported (a helper is imported only in
  compiled mode, by the module it serves).

Both modes play identical games (tests/test_compiled.py checks it move for move). Build with
`make native` (= `python scripts/compile.py build`); `make run` and `make test` do it for you.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

MODULES = (
    "boardlab.games.cacao.actions",
    "boardlab.games.cacao.evaluate",
    "boardlab.games.cacao.rules",
    "boardlab.games.pocket_mars.actions",
    "boardlab.games.pocket_mars.effects",
    "boardlab.games.pocket_mars.evaluate",
    "boardlab.games.pocket_mars.rules",
    "boardlab.games.block_and_key.actions",
    "boardlab.games.block_and_key.evaluate",
    "boardlab.games.block_and_key.geometry",
    "boardlab.games.block_and_key.rules",
    "boardlab.games.cooper_island.actions",
    "boardlab.games.cooper_island.evaluate",
    "boardlab.games.cooper_island.rules",
    "boardlab.games.petrichor.actions",
    "boardlab.games.petrichor.evaluate",
    "boardlab.games.petrichor.rules",
    "boardlab.bots.mcts",
    # a learner's step (#35): the hand-made observation tensors and the masks, which cost more than the engine's
    # own work; they import numpy, an optional dependency (the `rl` extra), only when used, and build without it
    "boardlab.rl.common",
    "boardlab.rl.encoders.kit",
    "boardlab.rl.encoders.block_and_key",
    "boardlab.rl.encoders.cacao",
    "boardlab.rl.encoders.cooper_island",
    "boardlab.rl.encoders.petrichor",
    "boardlab.rl.encoders.pocket_mars",
)
"""The modules compiled, one mypyc group: they call each other natively, so they are built and
loaded together or not at all."""

HELPERS = ("boardlab.core._splitmix", "boardlab.games.block_and_key._spots")
"""Hand-written C extensions built and loaded with the group (each from `<module>.c`): code that mypyc
cannot make fast (SplitMix64's 64-bit arithmetic overflows its small integers; Block and Key's placement
masks are big-integer operations on ~800-bit ints, which mypyc runs slower than the interpreter). Each has a
Python reference that runs in pure mode."""

BUILT = (*MODULES, *HELPERS)
"""Everything one build makes, and so everything its manifest hashes."""

GROUP = "boardlab"  # the shared library is `boardlab__mypyc.<abi>.so`, beside the package
PACKAGE_DIR = Path(__file__).resolve().parent
SRC_DIR = PACKAGE_DIR.parent
MANIFEST = PACKAGE_DIR / "_compiled.json"


def source(module: str) -> Path:
    return SRC_DIR.joinpath(*module.split(".")).with_suffix(".c" if module in HELPERS else ".py")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def status(honour_env: bool = True) -> tuple[bool, str]:
    """(compiled?, why): whether the native build is present, complete and built from today's sources
    (and not switched off by BOARDLAB_PURE, unless `honour_env` is False)."""
    if honour_env and os.environ.get("BOARDLAB_PURE"):
        return False, "BOARDLAB_PURE is set"
    try:
        manifest = json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        return False, "not built (make native)"
    if manifest.get("modules", {}).keys() != set(BUILT) or manifest.get("abi") != _abi():
        return False, "the build is for other modules or another Python (make native)"
    if not (SRC_DIR / (GROUP + "__mypyc" + _abi())).exists():
        return False, "the shared native library is missing (make native)"
    for module, sha in manifest["modules"].items():
        if not _ext_path(module).exists():
            return False, f"{module} has no native build (make native)"
        if digest(source(module)) != sha:
            return False, f"{source(module).relative_to(SRC_DIR)} changed since the build (make native)"
    return True, "native build of " + ", ".join(MODULES)


def _abi() -> str:
    return importlib.machinery.EXTENSION_SUFFIXES[0]


def _ext_path(module: str) -> Path:
    path = source(module)
    return path.with_name(path.stem + _abi())


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Loads the modules of `MODULES` from their .py files even where an extension file sits beside."""

    def find_spec(self, name: str, path: Sequence[str] | None, target: ModuleType | None = None
                  ) -> importlib.machinery.ModuleSpec | None:
        if name not in MODULES or not path:
            return None
        leaf = name.rpartition(".")[2] + ".py"
        for entry in path:
            if (Path(entry) / leaf).is_file():
                return importlib.util.spec_from_file_location(name, Path(entry) / leaf)
        return None


COMPILED, REASON = False, ""


def install() -> None:
    """Decide the mode once (at `import boardlab`); in pure mode make sure no extension is imported."""
    global COMPILED, REASON
    COMPILED, REASON = status()
    if not COMPILED and not any(isinstance(f, _SourceFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFirst())


def build() -> bool:
    """Compile `MODULES` in place with mypyc; on any failure remove what was built and return False
    (the package then runs from source, which is always correct, only slower)."""
    import shutil
    import subprocess
    import tempfile

    clean()
    # the digests of the sources as they are when the compiler reads them: a file edited during the build must
    # read as stale afterwards, not as built
    digests = {m: digest(source(m)) for m in BUILT}
    paths = [str(source(m).relative_to(SRC_DIR)) for m in MODULES]
    helpers = [(m, str(source(m).relative_to(SRC_DIR))) for m in HELPERS]
    with tempfile.TemporaryDirectory(prefix="boardlab-mypyc-") as tmp:
        script = (
            "import sys\nfrom setuptools import Extension, setup\nfrom mypyc.build import mypycify\n"
            f"helpers = [Extension(m, [p], extra_compile_args=['-O2']) for m, p in {helpers!r}]\n"
            f"setup(name='boardlab-native', ext_modules=mypycify({paths!r}, opt_level='3', group_name={GROUP!r}, "
            "verbose=False) + helpers, script_args=['build_ext', '--inplace', '--build-temp', sys.argv[1]])\n")
        env = {**os.environ, "MYPY_FORCE_COLOR": "0"}
        cmd = [sys.executable, "-c", script, tmp]
        try:
            done = subprocess.run(cmd, cwd=SRC_DIR, env=env, capture_output=True, text=True, timeout=1800)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return _failed(str(exc))
        shutil.rmtree(SRC_DIR / ".mypy_cache", ignore_errors=True)
        shutil.rmtree(SRC_DIR / "build", ignore_errors=True)
        if done.returncode != 0 or not all(_ext_path(m).exists() for m in BUILT):
            return _failed((done.stdout + done.stderr)[-4000:])
    MANIFEST.write_text(json.dumps({"abi": _abi(), "modules": digests}, indent=1))
    print(f"boardlab: compiled {len(MODULES)} modules with mypyc and {len(HELPERS)} C helper(s)")
    return True


def clean() -> None:
    """Remove every native build (the package runs from source afterwards)."""
    MANIFEST.unlink(missing_ok=True)
    for path in PACKAGE_DIR.rglob("*.so"):  # boardlab ships no other native code: a module dropped from
        path.unlink()                       # MODULES must not leave its old build behind
    for path in SRC_DIR.glob(f"{GROUP}__mypyc.*.so"):
        path.unlink()


def _failed(log: str) -> bool:
    clean()
    print("boardlab: the mypyc build failed; the package runs from source (same games, slower).\n" + log,
          file=sys.stderr)
    return False


def main(argv: list[str] | None = None) -> int:
    """`scripts/compile.py build [--force]|clean|status`: build never fails the caller (pure fallback)."""
    args = sys.argv[1:] if argv is None else argv
    command = args[0] if args else "status"
    if command == "build":
        if status()[0] and "--force" not in args:
            print("boardlab: the native build is up to date")
            return 0
        try:
            import mypyc  # noqa: F401
        except ImportError:
            print("boardlab: mypy (mypyc) is not installed; the package runs from source", file=sys.stderr)
            return 0
        build()
        return 0
    if command == "clean":
        clean()
        return 0
    ok, why = status()
    print(("compiled: " if ok else "pure Python: ") + why)
    return 0
