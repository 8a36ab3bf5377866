"""Screenshots of each game's table mid-game and at the end, desktop and phone, English and zh-TW (issue #31).

    PYTHONPATH=src python benchmarks/screenshots.py [--games cacao,petrichor] [--moves 6] [--seed 1]

Why: the issue's "done" asks for every table checked by eye at both sizes, in the middle of a game and at its
end; this is the one command that makes those pictures the same way each time, so a fix can be looked at again.

It starts the real server process (tests/server/srvkit.py) on SQLite in a temporary directory and Debian's chromium
(/usr/bin/chromium, Playwright, as tests/web/kit.py does). For each game it creates a 2-seat table, the person "Ada"
against an easy bot, plays `--moves` of Ada's decisions through the API (a seeded random legal move each), then
takes a desktop (1280×900) and a phone (390×844) full-page screenshot in English and in Traditional Chinese while
it is Ada's turn; plays on to the end the same way and takes the same four at the game-over box. Files go to
artifacts/screenshots/shots-<game>-<mid|end>-<desktop|phone>-<en|zh-TW>.png (gitignored) and the page's script
errors, if any, are printed. Exit status 1 if a page had a script error or a game did not end.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "server"))

from srvkit import Server, auth, make_table, wait_for  # noqa: E402

GAMES = ("cacao", "pocket_mars", "block_and_key", "petrichor", "cooper_island")
SHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SIZES = {"desktop": {"viewport": {"width": 1280, "height": 900}},
         "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}}
LANGS = ("en", "zh-TW")
MAX_DECISIONS = 3000


class Seat:
    """Ada's seat at one table, played through the HTTP API."""

    def __init__(self, c: httpx.Client, table: dict[str, Any], rng: random.Random) -> None:
        self.c, self.id, self.rng = c, table["id"], rng
        me = table["seats"][0]
        self.headers, self.link = auth(me["token"]), me["link"]

    def state(self) -> dict[str, Any]:
        r = self.c.get(f"/api/tables/{self.id}", headers=self.headers)
        r.raise_for_status()
        return dict(r.json())

    def my_turn_or_over(self) -> dict[str, Any]:
        """The state once Ada has to decide or the game is over (the bot moves on the server meanwhile)."""
        def ready() -> dict[str, Any] | None:
            s = self.state()
            return s if s["over"] or s["legal"] else None
        return dict(wait_for(ready, "Ada's turn or the end", timeout=120))

    def play(self, decisions: int) -> dict[str, Any]:
        """Play up to `decisions` of Ada's decisions (random legal moves); the state after, at her turn or the end."""
        s = self.my_turn_or_over()
        for _ in range(decisions):
            if s["over"]:
                break
            action = self.rng.choice(s["legal"])["action"]
            r = self.c.post(f"/api/tables/{self.id}/actions", json={"move": s["log_len"], "action": action},
                            headers=self.headers)
            r.raise_for_status()
            s = self.my_turn_or_over()
        return s


def shoot(browser: Any, url: str, version: int, name: str, errors: list[str]) -> list[Path]:
    """Both sizes in both languages of the page at `url` once it has drawn `version`; the files written."""
    out = []
    for lang in LANGS:
        for size, opts in SIZES.items():
            ctx = browser.new_context(**opts)
            ctx.add_init_script(f"localStorage.setItem('boardlab:lang', '{lang}')")
            page = ctx.new_page()
            page.on("pageerror", lambda e, w=f"{name} {size} {lang}": errors.append(f"{w}: {e}"))
            page.on("console", lambda m, w=f"{name} {size} {lang}": errors.append(f"{w}: {m.text}")
                    if m.type == "error" else None)
            page.goto(url)
            page.wait_for_function(
                f"() => {{ const b = document.getElementById('board'); return b && b.dataset.version === '{version}'"
                " && b.children.length > 0; }", timeout=30_000)
            page.wait_for_load_state("networkidle")
            path = SHOTS / f"shots-{name}-{size}-{lang}.png"
            page.screenshot(path=str(path), full_page=True)
            out.append(path)
            ctx.close()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated game names")
    ap.add_argument("--moves", type=int, default=6, help="Ada's decisions before the mid-game pictures")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    failed = False
    with tempfile.TemporaryDirectory(prefix="boardlab-shots-") as tmp, sync_playwright() as p:
        srv = Server(f"sqlite:///{Path(tmp) / 'boardlab.sqlite3'}", Path(tmp) / "server.log").start()
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            with httpx.Client(base_url=srv.url, timeout=30) as c:
                for k, game in enumerate(args.games.split(",")):
                    t0 = time.monotonic()
                    table = make_table(c, game=game, players=2,
                                       seats=[{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "easy"}])
                    seat = Seat(c, table, random.Random(args.seed * 1000 + k))
                    s = seat.play(args.moves)
                    files = shoot(browser, srv.url + seat.link, s["version"], f"{game}-mid", errors)
                    s = seat.play(MAX_DECISIONS)
                    if not s["over"]:
                        print(f"{game}: not over after {MAX_DECISIONS} decisions")
                        failed = True
                        continue
                    files += shoot(browser, srv.url + seat.link, s["version"], f"{game}-end", errors)
                    print(f"{game}: {len(files)} screenshots, {s['log_len']} moves, scores "
                          f"{[x['total'] for x in s['scores']]}, {time.monotonic() - t0:.1f}s")
        finally:
            browser.close()
            srv.stop()
    for e in errors:
        print("script error:", e)
    print(f"written to {SHOTS}")
    return 1 if errors or failed else 0


if __name__ == "__main__":
    sys.exit(main())
