"""Screenshots of each game's table mid-game and at the end, and of the site's pages, desktop and phone, English and
zh-TW (issues #31, #34).

    PYTHONPATH=src python benchmarks/screenshots.py [--games cacao,petrichor] [--moves 6] [--seed 1] [--shots pages]

Why: the issue's "done" asks for every table checked by eye at both sizes, in the middle of a game and at its
end; this is the one command that makes those pictures the same way each time, so a fix can be looked at again.

It starts the real server process (tests/server/srvkit.py) on SQLite in a temporary directory and Debian's chromium
(/usr/bin/chromium, Playwright, as tests/web/kit.py does). For each game it creates a 2-seat table, the person "Ada"
(an account, signed in) against an easy bot in a rated game, plays `--moves` of Ada's decisions through the API (a
seeded random legal move each), then takes a desktop (1280×900) and a phone (390×844) full-page screenshot in English
and in Traditional Chinese while it is Ada's turn; plays on to the end the same way and takes the same four at the
game-over box. Files go to artifacts/screenshots/shots-<game>-<mid|end>-<desktop|phone>-<en|zh-TW>.png (gitignored)
and the page's script errors, if any, are printed. Exit status 1 if a page had a script error or a game did not end.

Then Ada plays three rated games against the account Bea (people are rated against people only), and the site's pages
are pictured the same four ways, signed in as Ada with those finished games behind her: the lobby,
her profile, the leaderboard of the first game (2 players), My games, the How-to page of the first game, and the
account page (sign in / sign up, signed out): artifacts/screenshots/shots-page-<page>-<size>-<lang>.png.
`--shots pages` still plays the games (the profile and leaderboard need them) but takes only the pages' pictures.
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

from srvkit import Server, auth, wait_for  # noqa: E402

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


def shoot(browser: Any, url: str, version: int | None, name: str, errors: list[str],
          cookies: list[dict[str, Any]] | None = None) -> list[Path]:
    """Both sizes in both languages of the page at `url`, a table page once it has drawn `version` (None: a site
    page, once its main part is drawn); signed in with `cookies`; the files written."""
    out = []
    for lang in LANGS:
        for size, opts in SIZES.items():
            ctx = browser.new_context(**opts)
            if cookies:
                ctx.add_cookies(cookies)
            ctx.add_init_script(f"localStorage.setItem('boardlab:lang', '{lang}')")
            page = ctx.new_page()
            page.on("pageerror", lambda e, w=f"{name} {size} {lang}": errors.append(f"{w}: {e}"))
            page.on("console", lambda m, w=f"{name} {size} {lang}": errors.append(f"{w}: {m.text}")
                    if m.type == "error" else None)
            page.goto(url)
            if version is None:
                page.wait_for_function("() => { const m = document.querySelector('main'); return m && "
                                       "m.children.length > 0 && !m.querySelector('.loading'); }", timeout=30_000)
            else:
                page.wait_for_function(
                    f"() => {{ const b = document.getElementById('board'); return b && "
                    f"b.dataset.version === '{version}' && b.children.length > 0; }}", timeout=30_000)
            page.wait_for_load_state("networkidle")
            path = SHOTS / f"shots-{name}-{size}-{lang}.png"
            page.screenshot(path=str(path), full_page=True)
            out.append(path)
            ctx.close()
    return out


def signed_in(c: httpx.Client, name: str) -> str:
    """Sign `c` up as the account `name` (the client keeps its session cookie); its CSRF token."""
    r = c.post("/api/account/signup", json={"name": name, "password": "correct horse 1"})
    r.raise_for_status()
    return str(r.json()["user"]["csrf"])


def browser_cookies(c: httpx.Client, url: str) -> list[dict[str, Any]]:
    """The client's cookies (the session) for a Playwright context on the same server."""
    return [{"name": k, "value": v, "url": url} for k, v in c.cookies.items()]


def rated_pair_game(url: str, ada: httpx.Client, ada_csrf: str, bo: httpx.Client, bo_csrf: str, game: str,
                    rng: random.Random) -> None:
    """A rated 2-player `game` between the accounts Ada and Bea, both moving (random legal moves) to its end: people
    are rated only against people, so this is what puts a rating on the profile and the leaderboard."""
    r = ada.post("/api/site/tables", headers={"X-CSRF-Token": ada_csrf}, json={
        "game": game, "players": 2, "rated": True, "public": True, "pace": 0,
        "seats": [{"kind": "human"}, {"kind": "open"}]})
    r.raise_for_status()
    tid, tokens = r.json()["id"], {0: r.json()["seats"][0]["token"]}
    j = bo.post(f"/api/tables/{tid}/join", json={}).json()
    r = bo.post(f"/api/tables/{tid}/claim", headers={"X-CSRF-Token": bo_csrf, **auth(j["token"])})
    r.raise_for_status()
    tokens[1] = r.json()["token"]
    with httpx.Client(base_url=url, timeout=30) as c:
        for _ in range(MAX_DECISIONS):
            s = c.get(f"/api/tables/{tid}", headers=auth(tokens[0])).json()
            if s["over"]:
                return
            me = auth(tokens[s["current"]])
            legal = c.get(f"/api/tables/{tid}", headers=me).json()["legal"]
            c.post(f"/api/tables/{tid}/actions", json={"move": s["log_len"], "action": rng.choice(legal)["action"]},
                   headers=me).raise_for_status()
    raise RuntimeError(f"{game}: the rated game of Ada and Bea did not end")


def site_pages(game: str) -> dict[str, tuple[str, bool]]:
    """The site's pages to picture: name -> (path, signed in)."""
    return {"lobby": ("/", True), "profile": ("/u/Ada", True), "leaderboard": (f"/leaders?game={game}&players=2", True),
            "my-games": ("/me", True), "how": (f"/how/{game}", True), "account": ("/signin", False)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated game names")
    ap.add_argument("--moves", type=int, default=6, help="Ada's decisions before the mid-game pictures")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--shots", default="tables,pages", help="which pictures: tables, pages or both")
    args = ap.parse_args(argv)
    kinds = set(args.shots.split(","))
    games = args.games.split(",")
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    failed = False
    with tempfile.TemporaryDirectory(prefix="boardlab-shots-") as tmp, sync_playwright() as p:
        srv = Server(f"sqlite:///{Path(tmp) / 'boardlab.sqlite3'}", Path(tmp) / "server.log").start()
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            with httpx.Client(base_url=srv.url, timeout=30) as c:
                csrf = signed_in(c, "Ada")
                for k, game in enumerate(games):
                    t0 = time.monotonic()
                    r = c.post("/api/site/tables", headers={"X-CSRF-Token": csrf}, json={
                        "game": game, "players": 2, "rated": True, "bot_level": "easy", "pace": 0,
                        "seats": [{"kind": "human"}, {"kind": "bot"}]})
                    r.raise_for_status()
                    seat = Seat(c, r.json(), random.Random(args.seed * 1000 + k))
                    s = seat.play(args.moves)
                    files = []
                    if "tables" in kinds:
                        files += shoot(browser, srv.url + seat.link, s["version"], f"{game}-mid", errors)
                    s = seat.play(MAX_DECISIONS)
                    if not s["over"]:
                        print(f"{game}: not over after {MAX_DECISIONS} decisions")
                        failed = True
                        continue
                    if "tables" in kinds:
                        files += shoot(browser, srv.url + seat.link, s["version"], f"{game}-end", errors)
                    print(f"{game}: {len(files)} screenshots, {s['log_len']} moves, scores "
                          f"{[x['total'] for x in s['scores']]}, {time.monotonic() - t0:.1f}s")
                if "pages" in kinds:
                    with httpx.Client(base_url=srv.url, timeout=30) as bo:
                        bo_csrf = signed_in(bo, "Bea")
                        for k, game in enumerate(games[:3]):
                            rated_pair_game(srv.url, c, csrf, bo, bo_csrf, game, random.Random(args.seed * 77 + k))
                    wait_for(lambda: len(c.get("/api/users/Ada").json()["recent"]) >= len(games) + min(3, len(games)),
                             "Ada's results")
                    cookies = browser_cookies(c, srv.url)
                    for name, (path, signed) in site_pages(games[0]).items():
                        files = shoot(browser, srv.url + path, None, f"page-{name}", errors,
                                      cookies if signed else None)
                        print(f"page {name}: {len(files)} screenshots")
        finally:
            browser.close()
            srv.stop()
    for e in errors:
        print("script error:", e)
    print(f"written to {SHOTS}")
    return 1 if errors or failed else 0


if __name__ == "__main__":
    sys.exit(main())
