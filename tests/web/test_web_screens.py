"""What the screenshots of the site's pages and the phone tables showed (issue #34, benchmarks/screenshots.py), each
fixed and checked here in Chromium against a real server.

The table page on a 390×844 phone: the five boards were 1.3-2.6 screens tall and the pages 1.8-3.1 (Block and Key
2,635 px, Cooper Island 2,477, Pocket Mars 2,118, Petrichor 1,719, Cacao 1,536), with 32 px of margin on each side
of the board's 390 px and nested boxes each adding their own; each game's phone CSS now gives the board the screen's
width and compacts its own parts. The bounds below are between the heights before (each above its bound) and after,
with room for the deal (a Pocket Mars hand of long cards is taller than one of short cards). Nothing tappable
shrank below 32 px.

The site's pages: My games named each table by its random id ("Cacao · 1_B3wTl1DJ4M"), it now says when it last
moved; the games' Traditional Chinese had half-width commas and colons between Chinese words (lobby cards, How-to
pages, the boards' notes, the labels the renderers' code joins with a colon: "手牌: 4"), and Cacao's "東 側"; the
lobby's options said "(seed rules)", jargon for the defaults; a Pocket Mars card's longest badge widened a phone's
page; the leaderboard's "?" was explained only on hover."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from kit import SHOTS, Server, chromium, make_table, phone_page, running_server  # noqa: F401
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
PHONE_W, PHONE_H = 390, 844
WAIT = 20_000
ADA_BO = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
# the table page's height at 390×844, in phone screens: before / the bound now
SCREENS = {"cacao": (1.82, 1.75), "petrichor": (2.04, 1.85), "pocket_mars": (2.51, 2.4),
           "block_and_key": (3.12, 2.45), "cooper_island": (2.93, 2.5)}
TAP = 32  # px: the smallest side of anything tappable on the board
HALF_WIDTH_AFTER_CHINESE = re.compile(r"[\u4e00-\u9fff][,:;]")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory, "web-screens") as srv:
        yield srv


def signed_in(srv: Server, name: str) -> tuple[httpx.Client, str]:
    """A client signed up as `name`: (client, csrf)."""
    c = httpx.Client(base_url=srv.url, timeout=20)
    r = c.post("/api/account/signup", json={"name": name, "password": "correct horse 1"})
    assert r.status_code == 201, r.text
    return c, str(r.json()["user"]["csrf"])


@pytest.mark.parametrize("game", list(SCREENS))
def test_the_table_page_on_a_phone_is_shorter_and_keeps_its_tap_targets(
        server: Server, browser: Any, game: str) -> None:
    with httpx.Client(base_url=server.url, timeout=20) as c:
        link = make_table(c, game=game, players=2, seats=ADA_BO)["seats"][0]["link"]
    with phone_page(browser, server.url + link, lang="en") as page:
        page.wait_for_function("() => { const b = document.getElementById('board'); return b && "
                               "b.dataset.version !== undefined && b.children.length > 0; }", timeout=WAIT)
        page.wait_for_load_state("networkidle")
        height = page.evaluate("document.documentElement.scrollHeight")
        before, bound = SCREENS[game]
        assert height <= bound * PHONE_H, (game, height, f"{height / PHONE_H:.2f} screens", before)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_W
        # the board has the screen's width, less thin margins (it had 326 px of 390)
        assert page.locator("#board").bounding_box()["width"] >= 355  # type: ignore[index]
        small = page.evaluate("""(tap) => [...document.querySelectorAll('#board button, #board [data-actions]')]
          .map((e) => [e.getBoundingClientRect(), e])
          .filter(([r, e]) => r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden')
          .filter(([r]) => Math.min(r.width, r.height) < tap)
          .map(([r, e]) => `${e.tagName}.${e.getAttribute('class')} ${e.textContent.slice(0, 20)} `
            + `${Math.round(r.width)}x${Math.round(r.height)}`)""",
                              TAP)
        assert not small, small
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"screens-phone-{game}.png"), full_page=True)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_my_games_names_a_table_by_its_game_and_when_it_moved_not_by_its_id(
        server: Server, browser: Any, lang: str) -> None:
    c, csrf = signed_in(server, f"mg{lang[:2]}")
    r = c.post("/api/site/tables", headers={"X-CSRF-Token": csrf}, json={
        "game": "cacao", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    with phone_page(browser, server.url + "/me", lang=lang) as page:
        page.context.add_cookies([{"name": k, "value": v, "url": server.url} for k, v in c.cookies.items()])
        page.goto(server.url + "/me")
        row = page.locator("li.my-table")
        expect(row).to_have_count(1, timeout=WAIT)
        expect(row.locator(".table-link")).to_have_text({"en": "Cacao", "zh-TW": "可可亞"}[lang])
        expect(row.locator(".table-when")).to_have_text(re.compile(r"\d"))
        when = row.locator(".table-when").bounding_box()
        assert when and when["height"] < 30, when  # one line: "2026年11月28日 凌晨" broke before "1:42"
        assert tid not in row.inner_text()  # "Cacao · 1_B3wTl1DJ4M" before
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_W
    c.close()


def test_the_chinese_game_summaries_use_full_width_punctuation(server: Server, browser: Any) -> None:
    """"在神廟裡堆疊方塊,讓它們…" (Block and Key), "你是田野上空的雲:打出…" (Petrichor): a comma or colon between
    Chinese words is full width (，：；), on the lobby's cards, on each How-to page and on each game's board (its
    words come from the game's terms.json and the renderer's own)."""
    with phone_page(browser, server.url + "/", lang="zh-TW") as page:
        cards = page.locator(".game-card")
        expect(cards.first).to_be_visible(timeout=WAIT)
        text = " ".join(cards.all_inner_texts())
        assert "方塊與鑰匙" in text and not HALF_WIDTH_AFTER_CHINESE.findall(text), text
        for game in ("block_and_key", "petrichor", "cooper_island"):
            page.goto(f"{server.url}/how/{game}")
            main = page.locator("main")
            expect(main.locator("ol li").first).to_be_visible(timeout=WAIT)
            said = main.inner_text()
            assert not HALF_WIDTH_AFTER_CHINESE.findall(said), (game, HALF_WIDTH_AFTER_CHINESE.findall(said))
    # and the renderers' own words: "關於配件:神廟地板…", "你的謎之卡顏色:灰" (Block and Key), "關於配件:規則文…"
    # (Cooper Island), and words the renderers' code joins with a colon ("手牌: 4", "起始玩家: Bo"), on every board
    fixed = {"block_and_key": ("關於配件：神廟地板", "你的謎之卡顏色：", "手牌："),
             "cooper_island": ("關於配件：規則文", "起始玩家："), "petrichor": ("起始玩家：",),
             "cacao": (), "pocket_mars": ()}
    for game, words in fixed.items():
        with httpx.Client(base_url=server.url, timeout=20) as c:
            link = make_table(c, game=game, players=2, seats=ADA_BO)["seats"][0]["link"]
        with phone_page(browser, server.url + link, lang="zh-TW") as page:
            page.wait_for_selector("#board [data-version]", timeout=WAIT)
            said = page.inner_text("#board")
            assert all(w in said for w in words), (game, said[:300])
            assert not HALF_WIDTH_AFTER_CHINESE.findall(said), (game, HALF_WIDTH_AFTER_CHINESE.findall(said))


def test_cacao_names_the_side_of_a_tile_as_one_chinese_word() -> None:
    """The phone's status bar read "使用 1,0 東 側的 0 個工人": a direction and 側 are one word ("東側")."""
    from boardlab.games.cacao.actions import Use
    from boardlab.games.cacao.text import describe

    assert describe(Use("use", 1, 0, 1, 2), "zh-TW") == "使用 1,0 東側的 2 個工人"
    assert describe(Use("use", 1, 0, 1, 2), "en") == "uses 2 worker(s) on the east edge of 1,0"


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_custom_table_options_name_the_default_not_the_seed_rules(
        server: Server, browser: Any, lang: str) -> None:
    """The lobby's options read "Any of the five views (seed rules)" / "(種子規則)": the project's name for its rules
    source, which means nothing to a player. Those choices are each option's default, and now say so."""
    default = {"en": "(default)", "zh-TW": "（預設）"}[lang]
    with phone_page(browser, server.url + "/", lang=lang) as page:
        expect(page.locator("#game option")).not_to_have_count(0, timeout=WAIT)
        for game in ("block_and_key", "cooper_island", "petrichor"):
            page.select_option("#game", game)
            form = page.locator("#game").locator("xpath=ancestor::section[1]")
            expect(form.locator("select option").filter(has_text=default).first).to_be_attached(timeout=WAIT)
            said = " ".join(form.locator("select option").all_inner_texts())
            assert "seed" not in said.lower() and "種子" not in said, (game, said)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_W


def test_a_pocket_mars_cards_longest_badge_stays_inside_its_card(server: Server, browser: Any) -> None:
    """G4's badge "✓ official · ◇ colour reconstructed" did not wrap: on a phone, in the right-hand column of the
    hand, it ran 14 px past the screen (a 404 px page). Any card of the hand is given that badge here."""
    with httpx.Client(base_url=server.url, timeout=20) as c:
        link = make_table(c, game="pocket_mars", players=2, seats=ADA_BO)["seats"][0]["link"]
    with phone_page(browser, server.url + link, lang="en") as page:
        page.wait_for_selector(".pm-mine .pm-card .pm-cfoot .pm-prov", timeout=WAIT)
        edges = page.evaluate("""() => [...document.querySelectorAll('.pm-mine .pm-card')].map((card) => {
          const b = card.querySelector('.pm-cfoot .pm-prov');
          if (!b) return null;
          b.className = 'pm-prov pm-prov-rec pm-prov-part';
          b.textContent = '\u2713 official \u00b7 \u25c7 colour reconstructed';
          return [b.getBoundingClientRect().right, card.getBoundingClientRect().right];
        }).filter(Boolean)""")
        assert edges and all(badge <= card + 0.5 for badge, card in edges), edges
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_W


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_leaderboard_says_what_its_question_mark_means(server: Server, browser: Any, lang: str) -> None:
    """A provisional rating reads "1844?" and the "?" was explained only in a hover title, which a phone does not
    have: the board now says it once under the table."""
    from test_rating_farm import join, play, rated_table
    from test_site import account

    a, _na, csrf_a = account(server)
    b, _nb, csrf_b = account(server)
    tid, tok_a = rated_table(a, csrf_a, {"kind": "open"})
    play(a, tid, {0: tok_a, 1: join(b, csrf_b, tid)})
    with phone_page(browser, f"{server.url}/leaders?game=tally&players=2", lang=lang) as page:
        expect(page.locator("table.leaders tr.leader .rating").first).to_contain_text("?", timeout=WAIT)
        legend = {"en": "? provisional: fewer than 5 rated games", "zh-TW": "? 暫定：計分賽少於 5 局"}[lang]
        expect(page.locator("#lb-provisional")).to_contain_text(legend)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_W


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_profiles_bot_ratings_say_what_they_are(server: Server, browser: Any, lang: str) -> None:
    """Every profile ended with a bare "Bot ratings" table (game, level, number) that said neither whose ratings
    these were nor why a new player's 1500 sits so far from them: it now has a header row, a sentence saying
    they are the site's bots, the same on every profile, and marks the levels whose figure is still the bot
    ladder's."""
    from test_site import account

    _c, name, _csrf = account(server)
    with phone_page(browser, f"{server.url}/u/{name}", lang=lang) as page:
        box = page.locator("#bot-ratings")
        expect(box.locator("tr[data-bot]").first).to_be_visible(timeout=WAIT)
        said = {"en": ("computer opponents", "ladder", "Level"), "zh-TW": ("電腦對手", "天梯", "難度")}[lang]
        text = box.inner_text()
        assert all(w in text for w in said), text
        laddered = httpx.get(f"{server.url}/api/bots/ratings").json()["ladder"]
        game, levels = next(iter(laddered.items()))
        expect(box.locator(f'tr[data-bot="{game}:{levels[0]}"] .bot-ladder')).to_be_visible()
