"""Cacao in a real browser (Debian chromium driven by Playwright), against a real server process.

One whole 3-player game is created through the lobby (a person and two random bots, the fastest
level) and played to the end by clicking in the board only: hand tile -> highlighted space ->
rotation (key R and the button) -> confirm; display tile -> marked jungle space; activation:
"auto" (and once a per-edge "use"). A stretch of it is played on a phone-sized screen. At the end
the score breakdown must be shown and agree with the server, and the language switch must bring
the game's zh-TW terms. Screenshots go to artifacts/screenshots/ (start, mid-game, phone, end).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from kit import ROOT, chromium, running_server, sync_api  # noqa: F401  (chromium: the `browser` fixture)

ART = ROOT / "artifacts" / "screenshots"
TERMS = json.loads((ROOT / "src" / "boardlab" / "games" / "cacao" / "terms.json").read_text("utf-8"))

pytestmark = [pytest.mark.browser]

ROOT_SEL = ".cc-root"
WAIT_MS = 30_000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real server on a free port over a temporary SQLite file (the server's own absence grace)."""
    with running_server(tmp_path_factory, "web-cacao", {"BOARDLAB_ABSENT_GRACE": "60"}) as srv:
        yield srv.url


def shot(page: Any, name: str, full: bool = True) -> None:
    ART.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(150)  # let the last drawing settle
    page.screenshot(path=str(ART / f"cacao-{name}.png"), full_page=full)


def create_table_in_lobby(page: Any, url: str) -> str:
    """Lobby: Cacao, 3 players, me + two random bots; open my seat. Returns the table id."""
    page.goto(url + "/")
    page.wait_for_selector("#game option[value=cacao]", state="attached")
    page.select_option("#game", "cacao")
    page.fill("#players", "3")
    page.dispatch_event("#players", "change")
    rows = page.locator("#seats .seat-row")
    sync_api.expect(rows).to_have_count(3)
    rows.nth(0).locator(".kind").select_option("human")
    rows.nth(0).locator(".name").fill("Ann")
    for i in (1, 2):
        rows.nth(i).locator(".kind").select_option("bot")
        rows.nth(i).locator(".bot").select_option("random")
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("#created:not([hidden])")
    page.click("#created button.primary")
    page.wait_for_url("**/t/**")
    page.wait_for_selector(ROOT_SEL)
    return page.url.split("/t/")[1].split("#")[0]


def root_attr(page: Any, name: str) -> str | None:
    return page.locator(ROOT_SEL).get_attribute(name)


def wait_for_decision(page: Any) -> str:
    """Wait until this seat has something to decide (or the game is over); returns the phase."""
    page.wait_for_function(
        "() => { const r = document.querySelector('.cc-root');"
        " return r && (r.dataset.mine === '1' || r.dataset.phase === 'over'); }",
        timeout=WAIT_MS,
    )
    return str(root_attr(page, "data-phase"))


def wait_for_new_version(page: Any, version: str | None) -> None:
    page.wait_for_function(
        "v => { const r = document.querySelector('.cc-root'); return r && r.dataset.version !== v; }",
        arg=version,
        timeout=WAIT_MS,
    )


def place_a_tile(page: Any, rng: random.Random, use_button: bool) -> None:
    """Hand tile -> a highlighted space -> rotate (key R or the button) -> confirm."""
    hand = page.locator(".cc-hand-tile:not([disabled])")
    if hand.count() == 0:  # no legal space for any tile: the board offers discards
        page.locator(".cc-discard").first.click()
        return
    hand.nth(rng.randrange(hand.count())).click()
    spots = page.locator(".cc-spot.cc-armed")
    assert spots.count() > 0, "choosing a hand tile highlights its legal spaces"
    spot = spots.nth(rng.randrange(spots.count()))
    cell = spot.get_attribute("data-cell")
    spot.click()
    confirm = page.locator(".cc-confirm")
    before = confirm.get_attribute("data-action")
    assert before and before.endswith(f"@{cell}"), (before, cell)
    rotate = page.locator(".cc-rotate")
    if rotate.is_enabled():
        if use_button:
            rotate.click()
        else:
            page.keyboard.press("r")
        after = confirm.get_attribute("data-action")
        assert after != before and after.endswith(f"@{cell}"), "rotating changes the tile's rotation, not its space"
    action = confirm.get_attribute("data-action")
    confirm.click()
    owner_tile = f'.cc-tiles [data-cell="{cell}"][data-owner="0"]'
    page.wait_for_selector(owner_tile, state="attached", timeout=WAIT_MS)
    assert action


def fill_a_space(page: Any, rng: random.Random) -> None:
    """Display tile, then (when several spaces could take it) a highlighted jungle space."""
    version = root_attr(page, "data-version")
    tiles = page.locator(".cc-display-tile.cc-selectable")
    assert tiles.count() > 0
    tiles.nth(rng.randrange(tiles.count())).click()
    page.wait_for_function(
        "v => { const r = document.querySelector('.cc-root');"
        " return r && (r.dataset.version !== v || document.querySelector('.cc-display-tile.cc-selected')); }",
        arg=version,
        timeout=WAIT_MS,
    )
    if root_attr(page, "data-version") == version:
        targets = page.locator(".cc-tofill.cc-target")
        assert targets.count() > 0, "a chosen display tile highlights the spaces it may fill"
        targets.nth(rng.randrange(targets.count())).click()


def activate(page: Any, used_edge: list[bool]) -> None:
    """Auto (best order) by default; the first time, one per-edge `use` choice instead."""
    uses = page.locator(".cc-use")
    if not used_edge[0] and uses.count() > 0:
        used_edge[0] = True
        sync_api.expect(page.locator(".cc-pend.cc-pend-mine").first).to_be_attached()  # the edge is marked on the board
        shot(page, "activation")
        page.locator(".cc-use-max").first.click()
    else:
        page.locator(".cc-auto").click()


def test_web_cacao_whole_game_by_clicking(server: str, browser: Any) -> None:
    started = time.monotonic()
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        table = create_table_in_lobby(page, server)
        prov = page.locator(".cc-prov-ok")
        sync_api.expect(prov).to_contain_text("Official components")
        sync_api.expect(prov).to_contain_text("nothing reconstructed")
        sync_api.expect(prov).to_contain_text("cacao/components.json")
        sync_api.expect(page.locator(".cc-village")).to_have_count(3)
        shot(page, "start")

        rng = random.Random(3)
        placements, decisions, used_edge = 0, 0, [False]
        phone = False
        deadline = time.monotonic() + 150
        while True:
            assert time.monotonic() < deadline, "the game did not finish in time"
            phase = wait_for_decision(page)
            if phase == "over":
                break
            version = root_attr(page, "data-version")
            if phase == "place":
                if placements == 3 and not phone:  # a stretch of the game on a phone
                    phone = True
                    page.set_viewport_size({"width": 390, "height": 844})
                    page.wait_for_timeout(100)
                    width = page.evaluate("() => document.documentElement.scrollWidth")
                    assert width <= 390, f"the page is {width}px wide on a 390px screen"
                if placements == 5 and phone:
                    page.locator(".cc-hand-tile:not([disabled])").first.click()
                    page.locator(".cc-spot.cc-armed").first.click()
                    page.evaluate("() => window.scrollTo(0, 0)")
                    shot(page, "phone", full=False)
                    shot(page, "phone-full")
                    page.set_viewport_size({"width": 1280, "height": 900})
                    phone = False
                place_a_tile(page, rng, use_button=placements % 2 == 1)
                placements += 1
                if placements == 6:
                    page.wait_for_timeout(300)
                    assert page.locator(".cc-board .cc-last").count() == 1, "the last move is highlighted"
                    shot(page, "mid")
                    shot(page, "mid-screen", full=False)
            elif phase == "fill":
                fill_a_space(page, rng)
            else:
                activate(page, used_edge)
            decisions += 1
            wait_for_new_version(page, version)

        assert placements >= 8, placements
        final = page.locator(".cc-final")
        sync_api.expect(final).to_be_visible()
        sync_api.expect(final).to_contain_text("Final scores")
        state = page.evaluate("id => fetch('/api/tables/' + id).then(r => r.json())", table)
        assert state["over"] and state["scores"]
        rows = final.locator("tbody tr")
        assert rows.count() == 3
        for i in range(3):
            row = rows.nth(i)
            seat = int(row.get_attribute("data-seat"))
            parts = {
                c.get_attribute("data-cat"): int(c.inner_text()) for c in row.locator(".cc-part").all()
            }
            assert set(parts) == {"gold", "temples", "sun", "water"}, parts
            assert parts == state["scores"][seat]["breakdown"]
            total = int(row.locator(".cc-total strong").inner_text())
            assert total == sum(parts.values()) == state["scores"][seat]["total"]
        for word in ("gold", "temples", "sun_tokens", "water_track", "total"):
            sync_api.expect(final.locator("thead")).to_contain_text(TERMS["en"][word])
        shot(page, "end")

        # the language switch: the game's own terms in Traditional Chinese
        page.select_option("select.lang", "zh-TW")
        page.wait_for_selector('.cc-root[lang="zh-TW"]', timeout=WAIT_MS)
        zh = TERMS["zh-TW"]
        final = page.locator(".cc-final")
        sync_api.expect(final).to_contain_text("最終分數")
        for word in ("gold", "temples", "sun_tokens", "water_track", "total"):
            sync_api.expect(final.locator("thead")).to_contain_text(zh[word])
        sync_api.expect(page.locator(".cc-villages")).to_contain_text(zh["fruit"])
        sync_api.expect(page.locator(".cc-prov-ok")).to_contain_text("官方配件")
        page.locator(".cc-legend summary").click()
        for j in ("temple", "plantation2", "market3", "sun"):
            sync_api.expect(page.locator(".cc-legend")).to_contain_text(zh[j])
        sync_api.expect(page.locator("#log")).to_contain_text("放在")  # the log in words, in zh-TW too
        shot(page, "end-zh-TW")

        # the replay page draws the same board, step by step, with each step's move highlighted
        page.goto(f"{server}/r/{table}")
        page.wait_for_selector(".cc-root .cc-board")
        page.click("#next")
        sync_api.expect(page.locator(".cc-board .cc-last")).to_have_count(1)
        page.click("#last")
        sync_api.expect(page.locator(".cc-final")).to_be_visible()
        assert not errors, errors
    finally:
        context.close()
    print(f"\ncacao browser game: {placements} placements, {decisions} decisions, {time.monotonic() - started:.1f}s")
