"""Every component on screen is explained, in all five games, in a real browser (issue #31).

A hot-seat table of each game is played a few dozen moves over HTTP (both seats held, so no bot to wait for),
then its table page is opened in Debian's chromium. Every element the game draws as a component (card, tile,
building, order, boat, islet, ship, block, key...) must carry a `data-explain` id that the game's own text module
explains (GET /api/games/{game}/components), and hovering one of each kind (tapping, on a phone in zh-TW) must
show the web kit's one tooltip with that component's name. Screenshots go to artifacts/screenshots/.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from kit import SHOTS, Server, chromium, desktop_page, make_table, phone_page, running_server  # noqa: F401

pytestmark = pytest.mark.browser

# per game: the renderer's root, every selector that draws a component, and those any mid-game table shows
COMPONENTS: dict[str, tuple[str, list[str], list[str]]] = {
    "cacao": (".cc-root", [".cc-jcell", ".cc-worker-tile", ".cc-hand-tile", ".cc-display-tile", ".cc-pile",
                           ".cc-stat", ".cc-vwater", ".cc-tofill"],
              [".cc-jcell", ".cc-worker-tile", ".cc-stat", ".cc-vwater"]),
    "pocket_mars": (".pm-root", [".pm-card", ".pm-mini", ".pm-bldg"], [".pm-bldg"]),
    "block_and_key": (".bk-root", [".bk-block", ".bk-key", ".bk-iso polygon:not(.bk-floor):not(.bk-preview)",
                                   ".bk-swatch[class*='c-']"],
                      [".bk-block", ".bk-key", ".bk-iso polygon:not(.bk-floor):not(.bk-preview)"]),
    "petrichor": (".pt-root", [".pt-cell", ".pt-cloud", ".pt-weather", ".pt-die", ".pt-card"],
                  [".pt-cell", ".pt-weather", ".pt-die", ".pt-card"]),
    "cooper_island": (".ci-root", [".ci-space", ".ci-beach", ".ci-islet", ".ci-ship", ".ci-hex", ".ci-cube",
                                   ".ci-building", ".ci-statue", ".ci-ruin", ".ci-tile", ".ci-chip"],
                      [".ci-space", ".ci-beach.ci-sandbank", ".ci-beach.ci-harbour", ".ci-ship", ".ci-hex",
                       ".ci-chip[data-cargo]", ".ci-chip[data-order]"]),
}
MOVES = 30


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory, "web-explain") as srv:
        yield srv


def explained(c: httpx.Client, game: str, lang: str) -> dict[str, Any]:
    r = c.get(f"/api/games/{game}/components", params={"lang": lang})
    assert r.status_code == 200, r.text
    table: dict[str, Any] = r.json()["components"]
    assert table and all(e["name"] and e["what"] for e in table.values())
    return table


def mid_game(c: httpx.Client, game: str) -> str:
    """A hot-seat table of `game` played MOVES moves (a seeded random legal move each time); its hot-seat link."""
    t = make_table(c, game=game, players=2, seats=[{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}])
    tokens = {s["seat"]: s["token"] for s in t["seats"]}
    rng = random.Random(31)
    for _ in range(MOVES):
        s = c.get(f"/api/tables/{t['id']}", headers={"Authorization": f"Bearer {tokens[0]}"}).json()
        if s["over"]:
            break
        tok = tokens[s["current"]]
        s = c.get(f"/api/tables/{t['id']}", headers={"Authorization": f"Bearer {tok}"}).json()
        action = rng.choice(s["legal"])["action"]
        r = c.post(f"/api/tables/{t['id']}/actions", json={"move": s["log_len"], "action": action},
                   headers={"Authorization": f"Bearer {tok}"})
        assert r.status_code == 200, r.text
    return str(t["hotseat_link"])


def ids_on_screen(page: Any, selectors: list[str]) -> dict[str, list[str | None]]:
    return page.evaluate("(sels) => Object.fromEntries(sels.map((s) => [s, [...document.querySelectorAll(s)]"
                         ".map((e) => e.dataset.explain || null)]))", selectors)


AIM_JS = """n => {
  // a point of n (its centre, else a child's centre) where n itself is under the pointer, not what covers it
  const mine = (x, y) => { const e = document.elementFromPoint(x, y); const c = e && e.closest('[data-explain]');
    return c && c === n.closest('[data-explain]'); };
  for (const m of [n, ...n.querySelectorAll('*')].slice(0, 8)) {
    const r = m.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (r.width && mine(x, y)) return [x, y];
  }
  return null;
}"""


def tooltip_shows(page: Any, selector: str, table: dict[str, Any], tap: bool = False) -> None:
    """Point at (or tap) a `selector` element in sight (the last drawn first: in a drawing of stacked parts the
    first ones lie under the others); the tooltip names the component under the pointer. The table page may
    redraw the board at any moment (a seat connects, a clock ticks): an element replaced under the pointer is
    pointed at again, up to three times, rather than failing the test."""
    from playwright.sync_api import Error as PlaywrightError

    for attempt in range(3):
        try:
            _point_and_read(page, selector, table, tap)
            return
        except PlaywrightError:
            if attempt == 2:
                raise
            page.mouse.move(0, 0)


def _point_and_read(page: Any, selector: str, table: dict[str, Any], tap: bool) -> None:
    from playwright.sync_api import Error as PlaywrightError

    nodes = page.locator(selector)
    n = nodes.count()
    for i in range(n - 1, max(-1, n - 41), -1):
        node = nodes.nth(i)
        node.scroll_into_view_if_needed(timeout=5000)
        point = node.evaluate(AIM_JS)
        if point:
            break
    else:
        raise AssertionError(f"no {selector} in sight to point at")
    if tap:
        page.touchscreen.tap(*point)
    else:
        page.mouse.move(*point)
    under = page.evaluate("([x, y]) => { const e = document.elementFromPoint(x, y);"
                          " const c = e && e.closest('[data-explain]'); return c && c.dataset.explain; }", point)
    if under is None:  # the board was redrawn between aiming and pointing
        raise PlaywrightError(f"nothing explained under the pointer at {point} (a redraw?)")
    assert under in table, (selector, under)
    page.wait_for_function("(name) => { const t = document.getElementById('explain-tip');"
                           " return t && !t.hidden && t.textContent.includes(name); }", arg=table[under]["name"],
                           timeout=5000)


@pytest.mark.parametrize("game", sorted(COMPONENTS))
def test_every_component_on_screen_is_explained(server: Server, browser: Any, game: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    root, selectors, always = COMPONENTS[game]
    with httpx.Client(base_url=server.url, timeout=20) as c:
        en, zh = explained(c, game, "en"), explained(c, game, "zh-TW")
        assert en.keys() == zh.keys()
        link = mid_game(c, game)
    ctx, page, errors = desktop_page(browser, server.url + link)
    try:
        page.set_viewport_size({"width": 1280, "height": 800})
        page.wait_for_selector(root)
        found = ids_on_screen(page, selectors)
        for sel in always:
            assert found.get(sel) or ids_on_screen(page, [sel])[sel], f"{game}: nothing drawn as {sel}"
        bare = {sel: ids for sel, ids in found.items() if any(i not in en for i in ids)}
        assert not bare, f"{game}: components without an explanation: {bare}"
        for sel in always:
            tooltip_shows(page, sel, en)
        page.mouse.move(0, 0)
        page.screenshot(path=str(SHOTS / f"explain-{game}-desktop.png"), full_page=True)
        assert not errors, errors
    finally:
        ctx.close()
    with phone_page(browser, server.url + link, lang="zh-TW") as phone:
        phone.wait_for_selector(root)
        tooltip_shows(phone, always[0], zh, tap=True)
        phone.screenshot(path=str(SHOTS / f"explain-{game}-phone.png"), full_page=True)


def test_the_components_endpoint_refuses_unknown_games_and_languages(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=20) as c:
        assert c.get("/api/games/chess/components").json()["error"] == "no_game"
        r = c.get("/api/games/cacao/components", params={"lang": "fr"})
        assert r.status_code == 422 and r.json()["error"] == "bad_lang"
