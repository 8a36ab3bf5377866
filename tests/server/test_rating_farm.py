"""Ratings that cannot be farmed (issue #32), against real server processes on SQLite and PostgreSQL: people are
rated among people only (wins against bots moved a player 1500 -> 2450 in 5 games), a win against an account
that never moved gives no rating (throwaway accounts: 1500 -> 3298 in 8 games), and a new account's rating
is provisional, in the profile and at the table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from srvkit import Server, auth, serving, wait_for
from test_site import account

from boardlab.server import ratings
from boardlab.server.botseed import LADDER_FILE
from boardlab.sim.bot_ladder import load, seeds


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
    # the state message brings each seat's change for the game-over box (#34): before -> after, provisional both
    st = wait_for(lambda: (s := a.get(f"/api/tables/{tid}", headers=auth(tok_a)).json())["site"]["results_done"] and s,
                  "the results")
    won, lost = st["site"]["changes"]
    for c in (won, lost):
        assert c["before"] == 1500 and c["provisional_before"] and c["provisional_after"], c
    assert won["after"] > 1500 > lost["after"], (won, lost)
    assert [won["after"], lost["after"]] == [result(a, na)["recent"][0]["after"], result(a, nb)["recent"][0]["after"]]
    # a game on a provisional rating has no signed change to show (a first loss read as -183, #34): the box shows
    # the new figure, provisional, "game 1 of 5"; the profile's row says the same
    for c in (won, lost):
        assert c["delta"] is None and (c["rated_games"], c["settles_at"]) == (1, ratings.PROVISIONAL_GAMES), c
    for name in (na, nb):
        row = result(a, name)["recent"][0]
        assert row["delta"] is None and row["rated_games"] == 1 and row["provisional_before"] is True, row


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


def test_a_fresh_server_rates_every_offered_bot_level_from_the_ladder(server: Server) -> None:
    """Issue #34: "hard" has a number before anyone played it: every level of the shipped ladder file, as the
    site shows ratings (the conservative figure), listed as the ladder's."""
    shipped = seeds(load(LADDER_FILE))
    assert shipped, "the shipped ladder file rates no game"
    got = httpx.get(server.url + "/api/bots/ratings").json()
    for game, levels in shipped.items():
        for level, r in levels.items():
            assert got["ratings"][game][level] == ratings.shown(r.mu, r.sigma), (game, level)
        assert sorted(got["ladder"][game]) == sorted(levels), game


def ladder_file(path: Path, sigma: float) -> dict[str, str]:
    path.write_text(json.dumps({"format": 1, "runs": [
        {"game": "tally", "players": 2, "seed": 0, "date": "2026-11-28 00:00 UTC", "commit": "test",
         "command": "test", "games_per_pairing": 20,
         "levels": {"easy": {"mu": 30.0, "sigma": sigma, "games": 40}}}]}), encoding="utf-8")
    return {"BOARDLAB_BOT_LADDER": str(path)}


def test_a_bot_level_starts_from_its_ladder_rating_and_moves_from_there(backend: str, tmp_path: Path) -> None:
    """A level with no stored rating is seeded from the ladder (mu 30, sigma 2: shown 3900), on the picker and on
    the seat, settled (40 ladder games); its first rated game moves it from there, not from a new player's 1500;
    afterwards its stored rating is what the site shows."""
    with serving(backend, tmp_path, ladder_file(tmp_path / "ladder.json", 2.0)) as srv:
        a, _, csrf = account(srv)
        seeded = {"ratings": {"tally": {"easy": 3900}}, "ladder": {"tally": ["easy"]}}
        assert a.get("/api/bots/ratings").json() == seeded
        tid, tok = rated_table(a, csrf, {"kind": "bot", "bot": "random"})
        st = a.get(f"/api/tables/{tid}", headers=auth(tok)).json()
        assert st["site"]["ratings"][1] == 3900 and st["site"]["provisional"][1] is False
        play(a, tid, {0: tok})
        st = wait_for(lambda: (s := a.get(f"/api/tables/{tid}", headers=auth(tok)).json())["site"]["results_done"]
                      and s, "the results")
        bot = st["site"]["changes"][1]
        assert bot["before"] == 3900 and 3700 < bot["after"] < 4100 and bot["delta"] == bot["after"] - 3900, bot
        assert a.get("/api/bots/ratings").json() == {"ratings": {"tally": {"easy": bot["after"]}}, "ladder": {}}


def test_a_broken_ladder_file_stops_the_server_saying_where(tmp_path: Path) -> None:
    where = r"bad bot ladder file: .*: runs\[0\]\.levels\.easy\.sigma: must be above 0"
    with (pytest.raises(RuntimeError, match=where),
          serving("sqlite", tmp_path, ladder_file(tmp_path / "ladder.json", 0.0))):
        pass
