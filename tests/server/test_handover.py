"""Handing another player's seat to a bot (issue #32), against real server processes on SQLite and PostgreSQL:
a turn-based seat only once its clock ran out, never a seat whose player has not opened the table yet, always
behind a confirmation, and its holder is told."""

from __future__ import annotations

import time
from typing import Any

import httpx
from srvkit import Server, auth, wait_for
from wsutil import Ws

GRACE = 1.0  # BOARDLAB_ABSENT_GRACE of the test servers (srvkit)




def site_table(c: httpx.Client, seats: int = 2, **kw: Any) -> tuple[str, dict[int, str]]:
    r = c.post(
        "/api/site/tables",
        json={"game": "tally", "players": seats, "options": {"target": 10**6}, "bot_level": "easy",
              "seats": [{"kind": "human"}] * seats, **kw},
    )
    assert r.status_code == 201, r.text
    return r.json()["id"], {s["seat"]: s["token"] for s in r.json()["seats"] if s["token"]}


def to_bot(c: httpx.Client, tid: str, seat: int, by: str, confirm: bool = True) -> httpx.Response:
    return c.post(f"/api/tables/{tid}/seats/{seat}/bot", headers=auth(by), json={"bot": "easy", "confirm": confirm})


def away_long_enough(c: httpx.Client, tid: str, seat: int, token: str) -> bool:
    since = c.get(f"/api/tables/{tid}", headers=auth(token)).json()["site"]["away_since"][seat]
    return since is not None and time.time() - since > GRACE + 0.3


def test_a_turn_based_seat_in_time_is_not_handed_over(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=20) as c:
        tid, tok = site_table(c, clock="12h")
        with Ws(server.ws_url, tid, [tok[0]]) as w:  # seat 0 opens the table, then leaves
            w.state(0)
        wait_for(lambda: away_long_enough(c, tid, 0, tok[1]), "seat 0 away past the grace period")
        r = to_bot(c, tid, 0, tok[1])
        assert r.status_code == 409 and r.json()["error"] == "seat_in_time", r.text  # 11:59 left: not yours to give
        assert c.get(f"/api/tables/{tid}").json()["seats"][0]["kind"] == "human"


def test_a_seat_whose_player_never_came_is_not_handed_over(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=20) as c:
        tid, tok = site_table(c)  # no clock; seat 1's player has the link but never opened the table
        created = time.time()
        wait_for(lambda: time.time() > created + GRACE + 0.3, "the grace period")
        st = c.get(f"/api/tables/{tid}", headers=auth(tok[0])).json()
        assert st["site"]["away_since"][1] is None  # the page offers nothing
        r = to_bot(c, tid, 1, tok[0])
        assert r.status_code == 409 and r.json()["error"] == "never_opened", r.text


def test_out_of_time_seat_is_handed_over_behind_a_confirmation_and_its_holder_told(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=20) as c:
        tid, tok = site_table(c, clock={"mode": "turn", "per_move": 2})
        wait_for(lambda: 0 in c.get(f"/api/tables/{tid}").json()["site"]["clock"]["out"], "seat 0 out of time")
        r = to_bot(c, tid, 0, tok[1], confirm=False)
        assert r.status_code == 409 and r.json()["error"] == "confirm_needed", r.text
        assert to_bot(c, tid, 0, tok[1]).status_code == 200
        st = c.get(f"/api/tables/{tid}", headers=auth(tok[0])).json()
        assert st["seats"][0]["kind"] == "bot"
        handed = st["site"]["handed"][0]
        assert handed["by"] == 1 and handed["name"] == st["seats"][1]["name"]  # the holder is told who did it
        r = c.post(f"/api/tables/{tid}/seats/0/human", headers=auth(tok[0]))  # and takes it back
        assert r.status_code == 200, r.text
        assert r.json()["site"]["handed"][0] is None
