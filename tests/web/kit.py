"""What every browser test shares: Debian chromium driven by Playwright, a real server process, pages.

Why: each game's browser test had written its own copy of the server and browser fixtures, the page
set-up (language, viewport, error capture) and the renderer helpers (candidate moves, "my turn or over",
clicking a move). They live here once; a test imports what it needs:

    from kit import SHOTS, Board, Server, chromium, running_server  # noqa: F401 (chromium: the `browser` fixture)

Importing this module skips the importing test module when chromium or Playwright is missing.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "artifacts" / "screenshots"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
TIMEOUT_MS = 30_000

if not CHROMIUM.exists():
    pytest.skip(f"browser tests need Debian chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")

sys.path.insert(0, str(ROOT / "tests" / "server"))
from srvkit import Server, make_table  # noqa: E402

__all__ = ["ARGS", "CHROMIUM", "ROOT", "SHOTS", "Board", "Server", "chromium", "desktop_page", "human_vs_bot",
           "make_table", "phone_page", "running_server", "sync_api"]


@contextlib.contextmanager
def running_server(tmp_path_factory: pytest.TempPathFactory, name: str,
                   env: dict[str, str] | None = None) -> Iterator[Server]:
    """The real server (tests/server/launch.py) on a free 127.0.0.1 port over a fresh SQLite file
    (`sqlite_path`), stopped afterwards. `env` overrides srvkit's test settings."""
    tmp = tmp_path_factory.mktemp(name)
    srv = Server(f"sqlite:///{tmp / 'boardlab.sqlite3'}", tmp / "server.log", env).start()
    try:
        yield srv
    finally:
        srv.stop()


def sqlite_path(srv: Server) -> Path:
    """The SQLite file of a server started by `running_server` (to rebuild the truth from its log)."""
    return Path(srv.db_url.removeprefix("sqlite:///"))


def replay_from_db(db: Path, table: str, version: int) -> Any:
    """The table's game rebuilt from the server's SQLite file (seed, options and the first `version` moves):
    the whole truth, hidden cards included, for tests that check a page shows none of it."""
    import json
    import sqlite3

    from boardlab.core.registry import get_game

    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        game, seed, players, options = con.execute(
            "SELECT game, seed, players, options FROM bl_tables WHERE id = ?", (table,)).fetchone()
        rows = con.execute("SELECT seat, kind, text FROM bl_log WHERE table_id = ? AND n < ? ORDER BY n",
                           (table, version)).fetchall()
    finally:
        con.close()
    assert len(rows) == version and all(kind == "act" for _, kind, _ in rows)
    state = get_game(game).new_game(players, int(seed), **json.loads(options or "{}"))
    for s, _, text in rows:
        state.apply_text(text, s)
    return state


@pytest.fixture(scope="module", name="browser")
def chromium() -> Iterator[Any]:
    """The fixture `browser`: one headless Debian chromium for the module's tests (import `chromium`)."""
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield b
        finally:
            b.close()


def human_vs_bot(c: Any, game: str, bot: str = "greedy") -> dict[str, Any]:
    """A 2-player table: seat 0 the person "Ada" (the browser), seat 1 a bot."""
    return make_table(c, game=game, players=2, seats=[{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": bot}])


def desktop_page(browser: Any, url: str, lang: str = "en") -> tuple[Any, Any, list[str]]:
    """A 1280×900 page at `url` in `lang`, with its script errors (page errors, console errors) collected
    in the returned list. The caller closes the context."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script(f"localStorage.setItem('boardlab:lang', '{lang}')")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(url)
    return ctx, page, errors


@contextlib.contextmanager
def phone_page(browser: Any, url: str, lang: str = "zh-TW") -> Iterator[Any]:
    """A 390×844 touch phone page at `url` in `lang` (Traditional Chinese unless told)."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    ctx.add_init_script(f"localStorage.setItem('boardlab:lang', '{lang}')")
    try:
        page = ctx.new_page()
        page.goto(url)
        yield page
    finally:
        ctx.close()


class Board:
    """A game renderer that marks its clickable moves the common way: root `.<p>-root` with data-mine,
    data-over and data-version; elements with `data-actions` (a|b|c) and `.<p>-bar button[data-action]`;
    an element offering several moves opens `.<p>-menu` with a button per move."""

    def __init__(self, prefix: str, timeout_ms: int = TIMEOUT_MS) -> None:
        self.prefix = prefix
        self.timeout_ms = timeout_ms
        self.root = f".{prefix}-root"
        self.targets = f"{self.root} [data-actions]"
        self.bar = f"{self.root} .{prefix}-bar button[data-action]"
        self.menu = f".{prefix}-menu"
        self.root_js = f"document.querySelector('{self.root}')"
        self.candidates_js = (
            "() => {\n  const out = [];\n"
            f"  document.querySelectorAll('{self.targets}')\n"
            "    .forEach((e, i) => out.push({sel: 'target', i, acts: e.dataset.actions.split('|')}));\n"
            f"  document.querySelectorAll('{self.bar}')\n"
            "    .forEach((e, i) => out.push({sel: 'bar', i, acts: [e.dataset.action]}));\n"
            "  const shell = [...document.querySelectorAll('#moves button[title]')].map((b) => b.title);\n"
            "  return {out, shell};\n}"
        )

    def wait_mine_or_over(self, page: Any) -> bool:
        """Wait until the seat has to decide or the game is over; True when it is over."""
        js = f"() => {{ const r = {self.root_js}; return r && (r.dataset.mine === '1' || r.dataset.over === '1'); }}"
        page.wait_for_function(js, timeout=self.timeout_ms)
        return page.eval_on_selector(self.root, "r => r.dataset.over") == "1"

    def candidates(self, page: Any) -> dict[str, Any]:
        """{out: [{sel, i, acts}], shell: [the shell's move titles]}; asserts the board reaches every shell move."""
        info: dict[str, Any] = page.evaluate(self.candidates_js)
        reachable = {a for cand in info["out"] for a in cand["acts"]}
        assert reachable and set(info["shell"]) <= reachable, (info["shell"], reachable)
        return info

    def element(self, page: Any, cand: dict[str, Any]) -> Any:
        return page.locator(self.targets if cand["sel"] == "target" else self.bar).nth(cand["i"])

    def click_action(self, page: Any, cand: dict[str, Any], action: str, dispatch: bool = False,
                     keep_open_menu: bool = False) -> None:
        """Click the element that offers `action` (a DOM click event with `dispatch`); when it offers
        several, pick `action` in its menu (with `keep_open_menu`, in a menu already open without clicking
        again). Waits until the server's next version is drawn."""
        version = page.eval_on_selector(self.root, "r => r.dataset.version")
        several = len(cand["acts"]) > 1
        if not (keep_open_menu and several and page.locator(self.menu).count()):
            el = self.element(page, cand)
            el.dispatch_event("click") if dispatch else el.click()
        if several:
            page.locator(f'{self.menu} button[data-action="{action}"]').click()
        self._wait_version_after(page, version)

    def click_and_wait(self, page: Any, locator: Any) -> None:
        """Click `locator` and wait until the server's next version is drawn."""
        version = page.eval_on_selector(self.root, "r => r.dataset.version")
        locator.click()
        self._wait_version_after(page, version)

    def _wait_version_after(self, page: Any, version: str) -> None:
        changed = f"() => {{ const r = {self.root_js}; return r && r.dataset.version !== '{version}'; }}"
        page.wait_for_function(changed, timeout=self.timeout_ms)
