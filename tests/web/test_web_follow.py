"""Moves you can follow (issue #31), in real Chromium for each of the five games, against a bot on a real server.

A bot's moves that reach the page together (here: the test holds the server's WebSocket messages while the bot
plays, then lets them through at once, as a busy page or a slow link would get them) are drawn one at a time, each
no sooner than the table's pace after the one before, not as one jump; what the bot's move changed is marked on
the board (.rk-last) until the player acts; hovering the move's log line marks the pieces it changed (.rk-hl).
With prefers-reduced-motion nothing is animated and the page ends on the same position.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from kit import Server, chromium, running_server  # noqa: F401
from srvkit import wait_for

pytestmark = pytest.mark.browser

PACE = 0.2  # seconds: the table's bot pace
WAIT_MS = 30_000
GAMES = ["cacao", "pocket_mars", "block_and_key", "petrichor", "cooper_island"]

# every time the board's data-version is set: which position, when, how many pieces were animated, changed, marked
RECORD = """() => {
  window.__seen = [];
  const b = document.getElementById('board');
  const note = () => window.__seen.push({ v: Number(b.dataset.version), t: performance.now(),
    anim: Number(b.dataset.animated || 0), changed: Number(b.dataset.changed || 0),
    last: b.querySelectorAll('.rk-last').length });
  new MutationObserver(note).observe(b, { attributes: true, attributeFilter: ['data-version'] });
}"""

# the server's version once it is the seat's turn again, asked from the page (a synchronous request: wait_for_function
# takes a returned promise for a truthy answer); the test thread stays in Playwright, which passes the messages on
SERVER_READY = """([tid, token, after]) => {
  const x = new XMLHttpRequest();
  x.open('GET', `/api/tables/${tid}`, false);
  x.setRequestHeader('Authorization', `Bearer ${token}`);
  x.send();
  const s = JSON.parse(x.responseText);
  return s.version > after && (s.over || s.legal.length > 0) ? String(s.version) : false;
}"""


# my move: one that ends my part of the turn when there is one (the bot then plays), else the first
PLAY = """() => {
  const moves = [...document.querySelectorAll('#moves button[title]')];
  (moves.find((b) => /^(done|pass|skip|end)\\b/.test(b.title)) || moves[0]).click();
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory, "web-follow") as srv:
        yield srv


class Gate:
    """The page's table WebSocket through the test: server messages pass, or are held and then let through at once."""

    def __init__(self) -> None:
        self.hold = False
        self.held: list[Any] = []
        self.route: Any = None

    def __call__(self, ws: Any) -> None:
        self.route = ws
        srv = ws.connect_to_server()  # the page's own messages go to the server as they are

        def from_server(msg: Any) -> None:
            if self.hold:
                self.held.append(msg)
            else:
                ws.send(msg)

        srv.on_message(from_server)

    def release(self) -> None:
        self.hold = False
        for msg in self.held:
            self.route.send(msg)
        self.held = []


def open_table(browser: Any, srv: Server, game: str, reduced: bool) -> tuple[Any, Any, list[str], Gate, dict[str, Any]]:
    """A site table (the person "Ada", a random bot) at the pace PACE, and its page with the WebSocket gated."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "random"}]
    with httpx.Client(base_url=srv.url, timeout=20) as c:
        r = c.post("/api/site/tables", json={"game": game, "players": 2, "pace": PACE, "seats": seats})
        assert r.status_code == 201, r.text
        table = r.json()
    motion = "reduce" if reduced else "no-preference"
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion=motion)
    ctx.add_init_script("localStorage.setItem('boardlab:lang', 'en')")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    gate = Gate()
    page.route_web_socket(re.compile(r"/ws/tables/"), gate)
    page.goto(srv.url + table["seats"][0]["link"])
    return ctx, page, errors, gate, table


def drawn_after(page: Any, version: int) -> list[dict[str, Any]]:
    """The positions drawn after `version`, each once (its first drawing), in order."""
    out: list[dict[str, Any]] = []
    for e in page.evaluate("() => window.__seen"):
        if e["v"] > version and (not out or out[-1]["v"] != e["v"]):
            out.append(e)
    return out


def wait_js(page: Any, js: str) -> None:
    page.wait_for_function(js, timeout=WAIT_MS)


def wait_drawn(page: Any, version: int) -> None:
    wait_js(page, f"() => document.getElementById('board').dataset.version === '{version}'")


def my_turn_after(page: Any, tid: str, token: str, version: int) -> int:
    """Wait until the server has a position after `version` where it is my turn (or the game is over)."""
    answer = page.wait_for_function(SERVER_READY, arg=[tid, token, version], polling=100, timeout=WAIT_MS)
    return int(answer.json_value())


def get(page: Any, path: str, token: str) -> Any:
    return page.evaluate("([p, t]) => fetch(p, { headers: { Authorization: `Bearer ${t}` } }).then((r) => r.json())",
                         [path, token])


def follow_game(browser: Any, srv: Server, game: str, reduced: bool = False) -> dict[str, Any]:
    """Play moves (the bot answering in bursts) until each thing to see was seen; what was seen."""
    ctx, page, errors, gate, table = open_table(browser, srv, game, reduced)
    tid, token = table["id"], table["seats"][0]["token"]
    seen = {"paced": 0, "marked": False, "cleared": False, "hovered": False, "animated": 0}
    try:
        page.wait_for_selector("#board[data-version]", state="attached", timeout=WAIT_MS)
        page.evaluate(RECORD)
        version = my_turn_after(page, tid, token, -1)
        for _ in range(60):
            wait_drawn(page, version)
            if get(page, f"/api/tables/{tid}", token)["over"]:
                break
            marked_before = page.locator("#board .rk-last").count()
            gate.hold = True  # the server's answers wait: my move and the bot's moves will come at once
            page.evaluate(PLAY)
            if marked_before:  # my action clears the last move's marks at once
                wait_js(page, "() => document.querySelectorAll('#board .rk-last').length === 0")
                seen["cleared"] = True
            new = my_turn_after(page, tid, token, version)
            gate.release()  # what was held arrives at once (what the server sends after this passes as it comes)
            wait_drawn(page, new)
            drawn = drawn_after(page, version)
            # every move drawn, in order: not one jump to the last position
            assert [d["v"] for d in drawn] == list(range(version + 1, new + 1)), (drawn, version, new)
            log = get(page, f"/api/tables/{tid}/log", token)["log"]
            seat_of = {e["n"]: e["seat"] for e in log if e["n"] is not None}
            for a, b in itertools.pairwise(drawn):
                if seat_of[b["v"] - 1] == 1:  # the bot's move: drawn at the table's pace after the one before
                    assert b["t"] - a["t"] >= PACE * 1000 * 0.9, (a, b)
                    seen["paced"] += 1
            seen["animated"] += sum(d["anim"] for d in drawn)
            if seat_of[new - 1] == 1 and drawn[-1]["last"] > 0:
                seen["marked"] = True  # the bot's moves stay marked, through redraws, until I act
                assert page.locator("#board .rk-last").count() > 0
                shown = [d["v"] - 1 for d in drawn if d["changed"] and seat_of[d["v"] - 1] == 1]
                if shown and not seen["hovered"]:  # the log line of a bot's move that changed something
                    page.locator(f'#log li[data-n="{shown[-1]}"]').hover()
                    wait_js(page, "() => document.querySelectorAll('#board .rk-hl').length > 0")
                    page.mouse.move(0, 0)
                    wait_js(page, "() => document.querySelectorAll('#board .rk-hl').length === 0")
                    seen["hovered"] = True
            version = new
            if seen["paced"] >= 2 and seen["marked"] and seen["cleared"] and seen["hovered"]:
                break
        assert not errors, errors
        seen["follow_animations"] = page.evaluate(
            "() => document.getAnimations().filter((a) => a.id === 'rk-follow').length")
        return seen
    finally:
        ctx.close()


@pytest.mark.parametrize("game", GAMES)
def test_bot_moves_are_shown_one_by_one_marked_and_linked_to_the_log(server: Server, browser: Any, game: str) -> None:
    seen = follow_game(browser, server, game)
    assert seen["paced"] >= 2, seen
    assert seen["marked"] and seen["cleared"] and seen["hovered"], seen
    assert seen["animated"] > 0, seen


def test_reduced_motion_animates_nothing(server: Server, browser: Any) -> None:
    seen = follow_game(browser, server, "cacao", reduced=True)
    assert seen["paced"] >= 2 and seen["marked"], seen
    assert seen["animated"] == 0 and seen["follow_animations"] == 0, seen


def test_a_spectator_sees_each_players_moves_marked_until_the_next_player_moves(server: Server, browser: Any) -> None:
    """A spectator never acts: a player's moves stay marked until another player moves, not for ever."""
    seats = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    with httpx.Client(base_url=server.url, timeout=20) as c:
        r = c.post("/api/site/tables", json={"game": "cacao", "players": 2, "pace": PACE, "seats": seats})
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        try:
            page = ctx.new_page()
            page.goto(f"{server.url}/t/{tid}")
            page.wait_for_selector("#board[data-version]", state="attached", timeout=WAIT_MS)
            page.evaluate(RECORD)
            start = int(page.get_attribute("#board", "data-version") or 0)

            def two_turns_later() -> dict[int, int] | None:  # the log once the mover changed twice after `start`
                seats = {e["n"]: e["seat"] for e in c.get(f"/api/tables/{tid}/log").json()["log"] if e["n"] is not None}
                movers = [seats[n] for n in sorted(seats) if n >= start]
                return seats if sum(x != y for x, y in itertools.pairwise(movers)) >= 2 else None

            seat_of = wait_for(two_turns_later, "two changes of player")
            wait_js(page, f"() => Number(document.getElementById('board').dataset.version) >= {max(seat_of) + 1}")
            drawn = [d for d in drawn_after(page, -1) if d["v"] <= max(seat_of) + 1]
        finally:
            ctx.close()
    turns = 0
    for a, b in itertools.pairwise(drawn):
        if a["v"] == 0:  # the page opened before the first move: no mover before b's
            continue
        if seat_of[b["v"] - 1] != seat_of[a["v"] - 1]:  # the next player's first move: only it is marked
            assert b["last"] == b["changed"], (a, b)
            turns += 1
        else:  # the same player's moves add up
            assert b["last"] >= b["changed"], (a, b)
    assert turns >= 2, drawn


def test_a_move_made_before_the_page_opened_is_marked_by_what_it_names(server: Server, browser: Any) -> None:
    """The page did not draw it, so it cannot know what it changed: hovering its line marks the pieces its notation
    names (here the field cell of "cloud <cell>")."""
    with httpx.Client(base_url=server.url, timeout=20) as c:
        seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "random"}]
        table = c.post("/api/tables", json={"game": "petrichor", "players": 2, "seats": seats}).json()
        tid, token = table["id"], table["seats"][0]["token"]
        def mine() -> Any:
            s = c.get(f"/api/tables/{tid}", headers={"Authorization": f"Bearer {token}"}).json()
            return s if s["legal"] else None

        st = wait_for(mine, "my first turn")  # the bot may place its cloud first
        move = next(m["action"] for m in st["legal"] if m["action"].startswith("cloud "))
        r = c.post(f"/api/tables/{tid}/actions", json={"move": st["version"], "action": move},
                   headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = ctx.new_page()
        page.goto(server.url + table["seats"][0]["link"])
        page.locator(f'#log li[data-n="{st["version"]}"]').hover()  # my move
        cell = move.split()[1]
        wait_js(page, f"() => document.querySelector('#board [data-track=\"cell:{cell}\"].rk-hl') !== null")
        assert page.locator("#board .rk-hl").count() <= 2  # the cell and its cloud, nothing else
    finally:
        ctx.close()
