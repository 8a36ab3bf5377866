"""Issue #12's mend-list items in Cacao's web renderer, in real Chromium against a real server: the
activation panel lists plantations before markets, a market with nothing to sell offers a plain
"skip" (not "use 0"), the last-move frame follows an undo, an opponent's tile is animated into place,
hovering a log entry marks its spaces, and once the game is over (and in the replay) no hand/display
dock covers the board and the final breakdown is shown once. The game is driven by random legal moves
over HTTP (one browser page watches seat 0); a whole game takes a few seconds.
"""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from test_web_site import WAIT, Errors, browser, errors, expect, new_page, server  # noqa: F401

pytestmark = [pytest.mark.browser]
FILL_FRAMES = (
    "() => [...document.querySelectorAll('.cc-last-fill')]"
    ".map((r) => `${r.getAttribute('x')},${r.getAttribute('y')}`).sort()"
)
TOAST_OR_FILL = "() => !document.getElementById('toast').hidden || document.querySelectorAll('.cc-tofill').length > 0"


def state(c: httpx.Client, tid: str, tok: str) -> dict[str, Any]:
    return c.get(f"/api/tables/{tid}", headers={"Authorization": f"Bearer {tok}"}).json()


def act(c: httpx.Client, tid: str, tok: str, version: int, action: str) -> dict[str, Any]:
    r = c.post(
        f"/api/tables/{tid}/actions",
        json={"move": version, "action": action},
        headers={"Authorization": f"Bearer {tok}"},
    )
    assert r.status_code == 200, r.text
    return r.json()


def rank(jungle: str) -> int:
    return 0 if jungle.startswith("plantation") else 2 if jungle.startswith("market") else 1


def new_table(c: httpx.Client) -> tuple[str, dict[int, str], str]:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}]
    res = c.post("/api/site/tables", json={"game": "cacao", "players": 2, "seats": seats})
    assert res.status_code == 201, res.text
    body = res.json()
    return body["id"], {s["seat"]: s["token"] for s in body["seats"]}, body["seats"][0]["link"]


def watch_one_game(page: Any, c: httpx.Client, rng: random.Random, seen: dict[str, bool], url: str) -> str:
    """Play one table to the end with random moves; the page (seat 0) is checked along the way."""
    tid, tok, link = new_table(c)
    page.goto(url + link)
    expect(page.locator(".cc-root")).to_be_visible(timeout=WAIT)
    for _ in range(1000):
        st = state(c, tid, tok[0])
        if st["over"]:
            return tid
        seat = st["current"]
        s = state(c, tid, tok[seat])
        legal = [m["action"] for m in s["legal"]]
        pending = (s["view"].get("pending") or {}).get(str(seat)) or []
        if seat == 0 and pending:
            # the page (seat 0) shows its activation rows: plantations first, markets last
            by_edge = {f"{e['x']},{e['y']},{e['edge']}": e["jungle"] for e in pending}
            # wait for these very rows: a count alone can match the rows of the previous activation still shown
            page.wait_for_function(
                "want => { const got = [...document.querySelectorAll('.cc-activation .cc-act-row')]"
                ".map((r) => r.dataset.edge).sort(); return JSON.stringify(got) === JSON.stringify(want); }",
                arg=sorted(by_edge), timeout=WAIT)
            shown = page.evaluate("() => [...document.querySelectorAll('.cc-act-row')].map((r) => r.dataset.edge)")
            ranks = [rank(by_edge[k]) for k in shown]
            assert ranks == sorted(ranks), (shown, by_edge)
            seen["order"] |= {0, 2} <= set(ranks)
            for e in pending:
                uses = [a for a in legal if a.startswith(f"use {e['x']},{e['y']} ")]
                if len(uses) == 1 and uses[0].endswith(" 0"):
                    row = page.locator(f'.cc-act-row[data-edge="{e["x"]},{e["y"]},{e["edge"]}"]')
                    expect(row.locator("button")).to_have_text("nothing to do here: skip")
                    seen["skip"] = True
        if seat == 0 and s["view"]["phase"] == "fill" and not seen["undo"]:
            # a fill from the display may be undone (a placement may not: it shows a hidden tile); the
            # dashed last-move frame of the filled space must go with it
            expect(page.locator(f'.cc-root[data-version="{s["version"]}"]')).to_be_attached(timeout=WAIT)
            before = page.evaluate(FILL_FRAMES)
            s2 = act(c, tid, tok[0], s["version"], rng.choice([a for a in legal if a.startswith("fill")]))
            if s2["can_undo"]:
                expect(page.locator(f'.cc-root[data-version="{s2["version"]}"]')).to_be_attached(timeout=WAIT)
                expect(page.locator("#undo")).to_be_visible(timeout=WAIT)
                after = page.evaluate(FILL_FRAMES)  # one frame per tile the fill laid: a second space whose
                assert len(after) > len(before) and set(before) <= set(after)  # only tile is laid by itself
                page.click("#undo")
                page.wait_for_function(TOAST_OR_FILL, timeout=WAIT)
                if page.locator("#toast").is_hidden():
                    page.wait_for_function(f"() => ({FILL_FRAMES})().length === {len(before)}", timeout=WAIT)
                    assert page.evaluate(FILL_FRAMES) == before  # the frame went back with the tile
                    # and the log says so in its place (#31)
                    expect(page.locator("#log li").filter(has_text="takes back their last move")).to_have_count(
                        1, timeout=WAIT)
                    seen["undo"] = True
                else:  # a fill that drew a blind tile from the pile cannot be undone
                    page.evaluate("() => { document.getElementById('toast').hidden = true; }")
            continue
        if seat == 1 and s["view"]["phase"] == "place":
            a = rng.choice(legal)
            act(c, tid, tok[1], s["version"], a)
            if "@" in a and not seen["arrive"]:
                expect(page.locator(".cc-arrive").first).to_be_attached(timeout=WAIT)
                seen["arrive"] = True
            if "@" in a and not seen["hover"]:
                expect(page.locator("#log li.last-entry")).to_contain_text("Bo", timeout=WAIT)
                page.locator("#log li.last-entry").hover()
                expect(page.locator(".cc-hl").first).to_be_attached()
                page.locator("#status").hover()
                expect(page.locator(".cc-hl")).to_have_count(0)
                seen["hover"] = True
            continue
        act(c, tid, tok[seat], s["version"], rng.choice([a for a in legal if a != "auto"] or legal))
    raise AssertionError("the game did not end")


def test_cacao_mends(server: str, browser: Any, errors: Errors) -> None:  # noqa: F811
    rng = random.Random(12)
    c = httpx.Client(base_url=server, timeout=20)
    page = new_page(browser, errors)
    page.goto(server + "/")
    seen = {"order": False, "skip": False, "undo": False, "arrive": False, "hover": False}
    for _ in range(4):  # the deal is random: a few games until every situation was met (usually one)
        tid = watch_one_game(page, c, rng, seen, server)
        if all(seen.values()):
            break
    assert all(seen.values()), seen
    expect(page.locator("#end")).to_be_visible(timeout=WAIT)
    expect(page.locator(".cc-dock")).to_have_count(0)  # no hand/display over the final board
    expect(page.locator(".cc-root [class*=final]").first).to_be_visible()
    expect(page.locator("#end .scores table")).to_have_count(0)  # the renderer's breakdown only: once
    assert "null" not in page.locator("#end").inner_text()  # the left-out table is not printed as "null"
    page.goto(f"{server}/r/{tid}")
    expect(page.locator(".cc-root")).to_be_visible(timeout=WAIT)
    page.click("#next")
    expect(page.locator(".cc-dock")).to_have_count(0)
