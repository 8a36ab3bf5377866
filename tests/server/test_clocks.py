"""When clocks run (issue #32), against real server processes on SQLite and PostgreSQL: a clock starts when
every seat is filled and the player to move is present (turn-based: when the last seat is taken), an open
seat's clock does not run out before anyone sits there, and a move taken back does not stop the clock."""

from __future__ import annotations

import time
from typing import Any

import httpx
from srvkit import Server, auth, wait_for
from wsutil import Ws


def site_table(c: httpx.Client, clock: dict[str, Any], seats: list[str], **kw: Any) -> tuple[str, dict[int, str]]:
    r = c.post(
        "/api/site/tables",
        json={"game": "tally", "players": len(seats), "options": {"target": 10**6}, "bot_level": "easy",
              "clock": clock, "seats": [{"kind": k} for k in seats], **kw},
    )
    assert r.status_code == 201, r.text
    return r.json()["id"], {s["seat"]: s["token"] for s in r.json()["seats"] if s["token"]}


def clock_of(c: httpx.Client, tid: str, token: str | None = None) -> dict[str, Any]:
    st = c.get(f"/api/tables/{tid}", headers=auth(token) if token else {}).json()
    return dict(st["site"]["clock"])


def test_a_real_time_clock_waits_for_the_player_to_move(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=20) as c:
        tid, tok = site_table(c, {"mode": "realtime", "bank": 60, "per_move": 5, "cap": 60}, ["human", "human"])
        clock = clock_of(c, tid, tok[1])
        assert clock.get("waiting") and clock["deadline"] is None and clock["seat"] is None
        other = Ws(server.ws_url, tid, [tok[1]])  # the player not to move arrives: still waiting
        try:
            assert other.state(1)["site"]["clock"]["deadline"] is None
            mover = Ws(server.ws_url, tid, [tok[0]])  # the player to move arrives: seat 0's clock runs, full bank
            try:
                st = mover.until(lambda m: m.get("type") == "state" and m["site"]["clock"]["deadline"] is not None)
                clock = st["site"]["clock"]
                assert clock["seat"] == 0 and not clock["waiting"]
                assert 50 < clock["deadline"] - time.time() <= 60.5
            finally:
                mover.conn.close()
        finally:
            other.conn.close()


def test_an_open_seat_clock_starts_when_it_is_taken(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=20) as c:
        tid, _ = site_table(c, {"mode": "turn", "per_move": 2}, ["open", "human"], public=True)
        clock = clock_of(c, tid)
        assert clock.get("waiting") and clock["deadline"] is None  # nobody's clock runs at an open seat
        r = c.post(f"/api/tables/{tid}/join", json={"seat": 0})
        assert r.status_code == 200, r.text
        clock = clock_of(c, tid)
        assert clock["seat"] == 0 and 0 < clock["deadline"] - time.time() <= 2.1
        # and it runs: the newcomer's time runs out and a bot moves for them
        st = wait_for(lambda: (s := c.get(f"/api/tables/{tid}").json())["log_len"] and s, "the zombie move")
        assert st["last"]["seat"] == 0 and 0 in st["site"]["clock"]["out"]


def test_a_move_taken_back_does_not_stop_the_clock(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=20) as c:
        tid, tok = site_table(c, {"mode": "turn", "per_move": 3}, ["human", "human"])
        h = auth(tok[0])
        assert c.post(f"/api/tables/{tid}/actions", headers=h, json={"move": 0, "action": "add1"}).status_code == 200
        r = c.post(f"/api/tables/{tid}/undo", headers=h, json={"move": 1})
        assert r.status_code == 200, r.text
        assert r.json()["site"]["clock"]["seat"] == 0
        # seat 0 still runs out of time: a bot makes the move for it (the timer was set again after the undo)
        st = wait_for(lambda: (s := c.get(f"/api/tables/{tid}").json())["log_len"] > 0 and s, "the zombie move")
        assert st["last"]["seat"] == 0 and 0 in st["site"]["clock"]["out"]
