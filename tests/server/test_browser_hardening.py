"""In a real browser (Debian chromium via Playwright): the seat token leaves the address bar once the
table page has read it, the game still works from the token the page kept, and the pages run under
the Content-Security-Policy without a single violation (issue #11, item 10)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from srvkit import Server, make_table

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="browser tests need Debian chromium at /usr/bin/chromium"),
]
sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need Playwright for Python")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("browser-hardening")
    srv = Server(f"sqlite:///{tmp / 'db.sqlite3'}", tmp / "server.log").start()
    try:
        yield srv
    finally:
        srv.stop()


def test_token_leaves_the_address_bar_and_csp_holds(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=10) as c:
        t = make_table(c, options={"target": 10**6})
        tok = t["seats"][0]["token"]
        offer = c.get(f"/api/tables/{t['id']}", headers={"Authorization": f"Bearer {tok}"}).json()["legal"][0]["text"]
    link = t["seats"][0]["link"]
    assert "#s=" in link
    problems: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.on("console", lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None)
            page.on("pageerror", lambda e: problems.append(str(e)))
            page.goto(server.url + link)
            page.wait_for_function("() => !location.hash", timeout=15_000)
            assert page.url == f"{server.url}/t/{t['id']}"
            # the page still acts for the seat (it kept the token): the legal moves are offered
            page.get_by_text(offer).first.wait_for(timeout=15_000)
            page.reload()  # and after a reload, from localStorage
            page.get_by_text(offer).first.wait_for(timeout=15_000)
            page.goto(server.url + "/")  # the lobby under the same policy
            page.wait_for_load_state("networkidle")
        finally:
            browser.close()
    assert problems == []
