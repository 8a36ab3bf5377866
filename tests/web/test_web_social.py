"""Issue #34's community items clicked through in real Chromium against a real server: a friend added from their
profile page has their open table first in the lobby (and it is joined from there); a spectator talks in the
spectators' chat, which the players of the rated game do not see until it ends; a player reports a chat line, which
the admins' page lists; a player blocked from a profile page has their chat lines no longer shown, and is unblocked
from the account page. English and Traditional Chinese."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from kit import ROOT, running_server
from test_web_site import WAIT, Errors, api, browser, errors, expect, new_page, shot, sign_up  # noqa: F401

sys.path.insert(0, str(ROOT / "tests" / "server"))
from test_site import play_out

pytestmark = [pytest.mark.browser]
ADMIN = "mod_cy"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory, "web-social", {"BOARDLAB_ADMINS": ADMIN}) as srv:
        yield srv.url


def chat_texts(page: Any, list_id: str) -> Any:
    return page.locator(f"#{list_id} .chat-text")


def test_friends_block_report_and_spectator_chat(server: str, browser: Any, errors: Errors) -> None:  # noqa: F811
    ann = new_page(browser, errors)
    bo = new_page(browser, errors)
    cy = new_page(browser, errors)
    na, nb = sign_up(ann, server), sign_up(bo, server)
    sign_up(cy, server, ADMIN)
    # Ann opens a rated table with a free seat; Bo makes her a friend from her profile page
    seats = [{"kind": "human"}, {"kind": "open"}]
    made = api(ann, "POST", "/api/site/tables", {"game": "tally", "players": 2, "rated": True, "public": True,
                                                "options": {"target": 8}, "seats": seats})
    tid, ta = made["id"], made["seats"][0]["token"]
    api(cy, "POST", "/api/site/tables", {"game": "tally", "players": 2, "public": True,
                                         "seats": seats})  # newer, a stranger's
    bo.goto(f"{server}/u/{na}")
    bo.click("#add-friend")
    expect(bo.locator("#friend-note")).to_have_text("Your friend", timeout=WAIT)
    bo.goto(server + "/")
    first = bo.locator("#open-list li").first
    expect(first).to_contain_text(f"Friends here: {na}", timeout=WAIT)
    shot(bo, "social-lobby")
    first.locator("button.join").click()
    bo.wait_for_url(f"**/t/{tid}*")
    expect(bo.locator("#chat-input")).to_be_visible(timeout=WAIT)
    ann.goto(f"{server}/t/{tid}#s={ta}")
    expect(ann.locator("#spec-chat-hidden")).to_have_text(
        "During a rated game the players do not see the spectators' chat; it shows when the game ends.", timeout=WAIT)
    # a signed-in spectator talks in the spectators' channel and reads the players'
    cy.goto(f"{server}/t/{tid}")
    cy.fill("#spec-chat-input", "Ann, add two!")
    cy.press("#spec-chat-input", "Enter")
    expect(chat_texts(cy, "spec-chat-list")).to_have_text(["Ann, add two!"], timeout=WAIT)
    bo.fill("#chat-input", "you will lose")
    bo.press("#chat-input", "Enter")
    expect(chat_texts(cy, "chat-list")).to_have_text(["you will lose"], timeout=WAIT)
    expect(chat_texts(ann, "chat-list")).to_have_text(["you will lose"], timeout=WAIT)
    expect(ann.locator("#spec-chat-list")).to_be_hidden()
    shot(cy, "social-spectator")
    shot(ann, "social-player")
    # Ann reports Bo's line (her own lines have no Report button)
    ann.locator("#chat-list .chat-line", has_text="you will lose").locator("button.report").click()
    expect(ann.locator("#confirm")).to_contain_text(f"Report this message by {nb}")
    ann.click("#confirm-yes")
    expect(ann.locator("#chat-list .reported")).to_have_text("Reported", timeout=WAIT)
    cy.goto(server + "/admin")
    row = cy.locator("#reports .report-row")
    expect(row).to_have_count(1, timeout=WAIT)
    expect(row).to_contain_text(na)
    expect(row).to_contain_text(nb)
    expect(row).to_contain_text("you will lose")
    shot(cy, "social-admin")
    # Ann blocks Bo from his profile page (in another tab); his next lines are not shown to her
    profile = ann.context.new_page()
    errors.watch(profile)
    profile.goto(f"{server}/u/{nb}")
    profile.click("#block")
    profile.click("#confirm-yes")
    expect(profile.locator("#blocked-note")).to_contain_text("Blocked", timeout=WAIT)
    shot(profile, "social-profile-blocked")
    bo.fill("#chat-input", "still here")
    bo.press("#chat-input", "Enter")
    expect(chat_texts(bo, "chat-list")).to_have_text(["you will lose", "still here"], timeout=WAIT)
    ann.fill("#chat-input", "bye")
    ann.press("#chat-input", "Enter")
    expect(chat_texts(ann, "chat-list")).to_have_text(["you will lose", "bye"], timeout=WAIT)
    ann.reload()  # the history leaves his lines out, the earlier ones too
    expect(chat_texts(ann, "chat-list")).to_have_text(["bye"], timeout=WAIT)
    expect(ann.locator("#chat-list .chat-line", has_text="bye").locator("button.report")).to_have_count(0)
    # in Chinese the spectators' chat still says why it is hidden
    ann.evaluate("localStorage.setItem('boardlab:lang', 'zh-TW')")
    ann.reload()
    expect(ann.locator("#spec-chat-hidden")).to_have_text(
        "積分對局進行時，玩家看不到觀眾聊天；對局結束後就會顯示。", timeout=WAIT)
    # the game ends: the players may read the spectators' chat now
    with httpx.Client(base_url=server, timeout=20) as c:
        tb = api(bo, "GET", "/api/me/tables")["tables"][0]["link"].split("#s=")[1]
        play_out(c, tid, {0: ta, 1: tb})
    expect(chat_texts(ann, "spec-chat-list")).to_have_text(["Ann, add two!"], timeout=WAIT)
    # unblocked from the account page (in Chinese)
    profile.goto(server + "/me")
    expect(profile.locator("#blocked-list li")).to_contain_text(nb, timeout=WAIT)
    shot(profile, "social-account-zh")
    profile.locator("#blocked-list button.unblock").click()
    expect(profile.locator("#no-blocked")).to_have_text("你沒有封鎖任何人。", timeout=WAIT)
    expect(profile.locator("#social-lists h2").first).to_have_text("好友")
    for p in (ann, bo, cy):
        p.context.close()
