"""Block and Key reads in words and pictures in a real browser (issue #31), on a real server against a bot:

- the first decision, turning the core cube, shows for each choice which colour faces each side (words and four
  swatches) and hovering a choice turns the core in the temple drawing before it is chosen;
- every block chip has a picture of its shape and a plain name ("red L-shaped four (RL4)") besides its code;
- the placement bar says the placement in words ("places the ... at column d, row 5, level 2"), not notation;
- white faces stay visible on the projection grids (outlined, and unlike an empty cell).

Screenshots of the table mid-game, desktop and phone, go to artifacts/screenshots/ (gitignored).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from kit import SHOTS, Board, Server, chromium, desktop_page, human_vs_bot, phone_page, running_server  # noqa: F401

pytestmark = pytest.mark.browser
BOARD = Board("bk", timeout_ms=60_000)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory, "web-block-and-key-readable") as srv:
        yield srv


CELLS_JS = """() => {
  // a white face and an empty cell as the projection grids draw them
  const grid = document.querySelector('.bk-view .bk-grid2');
  const probe = (cls) => { const s = document.createElement('span'); s.className = 'bk-cell ' + cls; grid.append(s);
    const st = getComputedStyle(s); const out = { bg: st.backgroundColor, shadow: st.boxShadow };
    s.remove(); return out; };
  return { white: probe('c-W'), none: probe('c-none') };
}"""


def _rgb(css: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", css)[:3])


def test_block_and_key_reads_in_words_and_pictures(server: Server, browser: Any) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with httpx.Client(base_url=server.url, timeout=20) as c:
        link = human_vs_bot(c, "block_and_key", bot="random")["seats"][0]["link"]
    ctx, page, errors = desktop_page(browser, server.url + link)
    page.wait_for_selector('.bk-root[data-phase="orient"][data-mine="1"] .bk-iso')

    # the core cube's four turns, previewed in words and swatches, and in the temple on hover
    turns = page.locator('.bk-bar button[data-action^="orient "]')
    assert turns.count() == 4
    seen = set()
    for i in range(4):
        b = turns.nth(i)
        assert "face looks south" in b.inner_text() and "face looks west" in b.inner_text()
        faces = b.locator(".bk-faces .bk-swatch")
        assert faces.count() == 4
        colours = "".join(faces.nth(k).get_attribute("class").split("c-")[1] for k in range(4))
        seen.add(colours)
        b.hover()
        page.wait_for_selector(f'.bk-iso[data-core="{colours}"]')
        turns = page.locator('.bk-bar button[data-action^="orient "]')  # the bar was redrawn
    assert len(seen) == 4
    BOARD.click_and_wait(page, turns.nth(1))

    # dig until a block can be placed
    while not BOARD.wait_mine_or_over(page) and not page.locator(".bk-mine .bk-block.bk-can").count():
        bar = page.locator(".bk-bar button[data-action]")
        BOARD.click_and_wait(page, bar.first if bar.count() else page.locator(".bk-dig[data-action]").first)
    chips = page.locator(".bk-mine .bk-block")
    assert chips.count() > 0
    for i in range(chips.count()):
        chip = chips.nth(i)
        code = chip.get_attribute("data-block")
        label = chip.get_attribute("aria-label") or ""
        assert re.fullmatch(rf"\w+ [\w -]+ \({code}\)", label), label
        assert chip.locator(".bk-shape i.on").count() == int(code[-1])  # the picture has the block's cubes

    # the placement bar in words
    block = page.locator(".bk-mine .bk-block.bk-can").first
    name = (block.get_attribute("aria-label") or "").split(" (")[0]
    block.click()
    page.locator(".bk-top .bk-target").first.click()
    choice = page.locator(".bk-choice")
    choice.wait_for()
    text = choice.inner_text()
    assert f"places the {name} (" in text and ", level " in text and "column " in text, text
    assert not re.search(r"\bplace [A-Z]{1,2}\d", text), text
    page.screenshot(path=str(SHOTS / "block-and-key-readable-desktop.png"), full_page=True)
    BOARD.click_and_wait(page, page.locator(".bk-go"))

    # white faces stand out from empty cells on the projection grids
    cells = page.evaluate(CELLS_JS)
    assert cells["white"]["shadow"] != "none", cells
    white, empty = _rgb(cells["white"]["bg"]), _rgb(cells["none"]["bg"])
    assert sum(white) - sum(empty) >= 60, cells
    assert not errors, errors
    ctx.close()

    with phone_page(browser, server.url + link) as phone:
        phone.wait_for_selector(".bk-root[lang='zh-TW'] .bk-mine .bk-block .bk-shape")
        assert "色" in (phone.locator(".bk-mine .bk-block").first.get_attribute("aria-label") or "")
        phone.screenshot(path=str(SHOTS / "block-and-key-readable-phone.png"), full_page=True)
