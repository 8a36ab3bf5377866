"""Your-turn e-mails set up in real Chromium (issue #34): the account page's form keeps the address, the choice
and the language, survives the page's periodic refresh while typing, says when the site has no mail server, and
refuses a bad address with the words of the page's language. The sending itself is tested against a real SMTP
server in tests/server/test_mail.py."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from kit import running_server
from test_web_site import WAIT, Errors, api, browser, errors, expect, new_page, sign_up  # noqa: F401

pytestmark = [pytest.mark.browser]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory, "web-mail", {}) as srv:
        yield srv.url


def test_mail_settings_on_the_account_page(server: str, browser: Any, errors: Errors) -> None:  # noqa: F811
    page = new_page(browser, errors)
    name = sign_up(page, server)
    page.goto(f"{server}/me")
    expect(page.locator("#mail-settings h2")).to_have_text("E-mail when it is my turn", timeout=WAIT)
    expect(page.locator("#mail-settings")).to_contain_text("no mail server")
    page.fill("#mail-address", "not an address")
    page.check("#mail-turns")
    page.click("#mail-save")
    expect(page.locator("#mail-status")).to_have_text("That is not an e-mail address.", timeout=WAIT)
    assert api(page, "GET", "/api/me/mail")["turns"] is False  # nothing changed
    page.fill("#mail-address", f"{name}@example.org")
    page.select_option("#mail-lang", "zh-TW")
    page.click("#mail-save")
    expect(page.locator("#mail-status")).to_have_text("Saved: you will get an e-mail when it is your turn.",
                                                      timeout=WAIT)
    assert api(page, "GET", "/api/me/mail") == {"email": f"{name}@example.org", "turns": True, "lang": "zh-TW",
                                                "available": False}
    page.reload()
    expect(page.locator("#mail-address")).to_have_value(f"{name}@example.org", timeout=WAIT)
    expect(page.locator("#mail-turns")).to_be_checked()
    expect(page.locator("#mail-lang")).to_have_value("zh-TW")


def test_the_mail_language_offered_first_is_the_pages(server: str, browser: Any, errors: Errors) -> None:  # noqa: F811
    """A reader of the zh-TW page who has never chosen an e-mail language is offered 繁體中文, not English."""
    ctx = browser.new_context(locale="en-US")
    ctx.add_init_script("localStorage.setItem('boardlab:lang', 'zh-TW')")
    page = errors.watch(ctx.new_page())
    sign_up(page, server)
    page.goto(f"{server}/me")
    expect(page.locator("#mail-lang")).to_have_value("zh-TW", timeout=WAIT)
    assert api(page, "GET", "/api/me/mail")["lang"] is None  # not chosen yet
    ctx.close()
