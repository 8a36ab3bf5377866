"""Ratings that cannot be farmed (issue #32), against real server processes on SQLite and PostgreSQL: people are
rated among people only (wins against bots moved a player 1500 -> 2450 in 5 games), a win against an account
that never moved gives no rating (throwaway accounts: 1500 -> 3298 in 8 games), and a new account's rating
is provisional, in the profile and at the table."""

from __future__ import annotations

from typing import Any

import httpx
from srvkit import Server, auth, wait_for
from test_site import account


def rated_table(c: httpx.Client, csrf: str, second: dict[str, Any]) -> tuple[str, str]:
    r = c.post(
        "/api/site/tables",
        headers={"X-CSRF-Token": csrf},
        json={"game": "tally", "players": 2, "options": {"target": 8}, "rated": True, "public": True,
              "bot_level": "easy", "pace": 0, "seats": [{"kind": "human"}, second]},
    )
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["seats"][0]["token"]


def join(b: httpx.Client, csrf: str, tid: str) -> str:
    j = b.post(f"/api/tables/{tid}/join", json={}).json()
    r = b.post(f"/api/tables/{tid}/claim", headers={"X-CSRF-Token": csrf, **auth(j["token"])})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def play(c: httpx.Client, tid: str, toks: dict[int, str]) -> dict[str, Any]:
    """Seat 0 adds 2 twice a turn; seat 1, when a person plays it here, ends its turns; bots play their own."""
    def ready() -> dict[str, Any] | None:
        s = c.get(f"/api/tables/{tid}", headers=auth(toks[0])).json()
        return s if s["over"] or (s["current"] in toks and not s["thinking"]) else None

    while True:
        st = wait_for(ready, "a person's turn or the end")
        if st["over"]:
            return st
        me = st["current"]
        legal = {m["action"] for m in c.get(f"/api/tables/{tid}", headers=auth(toks[me])).json()["legal"]}
        action = "add2" if me == 0 and "add2" in legal else "end"
        r = c.post(f"/api/tables/{tid}/actions", headers=auth(toks[me]), json={"move": st["version"], "action": action})
        assert r.status_code == 200, r.text


def result(c: httpx.Client, name: str) -> dict[str, Any]:
    return dict(wait_for(lambda: (p := c.get(f"/api/users/{name}").json())["recent"] and p, f"{name}'s result"))


def test_a_win_against_a_bot_does_not_rate_people(server: Server) -> None:
    a, na, csrf = account(server)
    tid, tok = rated_table(a, csrf, {"kind": "bot", "bot": "random"})
    end = play(a, tid, {0: tok})
    p = result(a, na)
    assert p["recent"][0]["rank"] == (1 if 0 in end["winners"] else 2)  # ranked as played ...
    assert p["recent"][0]["rated"] is False and p["games"][0]["rating"] is None  # ... but not rated
    assert "easy" in a.get("/api/bots/ratings").json()["ratings"]["tally"]  # bots are rated against people


def test_no_rating_for_a_win_against_an_account_that_never_moved(server: Server) -> None:
    a, na, csrf_a = account(server)
    b, nb, csrf_b = account(server)
    tid, tok_a = rated_table(a, csrf_a, {"kind": "open"})
    tok_b = join(b, csrf_b, tid)
    r = b.post(f"/api/tables/{tid}/seats/1/bot", headers=auth(tok_b), json={"bot": "easy"})  # and leaves at once
    assert r.status_code == 200, r.text
    play(a, tid, {0: tok_a})
    pa, pb = result(a, na), result(b, nb)
    assert pa["recent"][0]["rated"] is False and pa["games"][0]["rating"] is None
    assert pb["recent"][0]["rated"] is False


def test_a_new_accounts_rating_is_provisional(server: Server) -> None:
    a, na, csrf_a = account(server)
    b, nb, csrf_b = account(server)
    tid, tok_a = rated_table(a, csrf_a, {"kind": "open"})
    tok_b = join(b, csrf_b, tid)
    st = a.get(f"/api/tables/{tid}", headers=auth(tok_a)).json()
    assert st["site"]["provisional"] == [True, True]  # the table shows it (the page: "★ 1500?")
    play(a, tid, {0: tok_a, 1: tok_b})
    for name in (na, nb):
        g = result(a, name)["games"][0]
        assert g["rated_games"] == 1 and g["rating"] is not None and g["provisional"] is True


def test_a_bot_level_on_two_seats_is_rated_once(server: Server) -> None:
    """Issue #34: two Easy bots in one game showed two ratings (★1825 and ★1654) while the level has one; the
    level is rated once per game and both seats show its one rating."""
    a, na, csrf = account(server)
    r = a.post(
        "/api/site/tables",
        headers={"X-CSRF-Token": csrf},
        json={"game": "tally", "players": 3, "options": {"target": 8}, "rated": True, "public": True,
              "bot_level": "easy", "pace": 0,
              "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]},
    )
    assert r.status_code == 201, r.text
    tid, tok = r.json()["id"], r.json()["seats"][0]["token"]
    before = a.get("/api/bots/ratings").json()["ratings"].get("tally", {}).get("easy")
    play(a, tid, {0: tok})
    easy = wait_for(lambda: (e := a.get("/api/bots/ratings").json()["ratings"].get("tally", {}).get("easy")) != before
                    and e, "the Easy level's new rating")
    st = a.get(f"/api/tables/{tid}", headers=auth(tok)).json()
    assert st["site"]["ratings"][1] == st["site"]["ratings"][2] == easy
    rows = [g for g in result(a, na)["recent"] if g["table"] == tid]
    assert rows and rows[0]["rated"] is False  # the person is not rated against bots
