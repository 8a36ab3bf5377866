"""The lobby trap of issue #32, against real server processes on SQLite and PostgreSQL: a rated table with a
2-second clock looked like any other in the lobby, and whoever joined ran out of time, was expelled and lost
rating though their stand-in bot won. The lobby list now says rated and clock; rated tables refuse clocks
shorter than the fast speed; a seat a stand-in bot moved for is ranked but not rated."""

from __future__ import annotations

import time
from typing import Any

import httpx
from srvkit import Server, auth, wait_for
from test_site import account
from wsutil import Ws

GRACE = 1.0  # BOARDLAB_ABSENT_GRACE of the test servers (srvkit)




def create(c: httpx.Client, csrf: str, **kw: Any) -> httpx.Response:
    body = {"game": "tally", "players": 2, "options": {"target": 10**6}, "seats": [{"kind": "human"}, {"kind": "open"}]}
    return c.post("/api/site/tables", headers={"X-CSRF-Token": csrf}, json={**body, **kw})


def test_the_lobby_list_shows_rated_and_clock(server: Server) -> None:
    a, _, csrf = account(server)
    rated = create(a, csrf, public=True, rated=True, clock="fast").json()["id"]
    plain = create(a, csrf, public=True, clock={"mode": "turn", "per_move": 30}).json()["id"]
    listed = {x["id"]: x for x in a.get("/api/tables").json()}
    assert listed[rated]["rated"] is True and listed[rated]["clock"]["speed"] == "fast"
    assert listed[rated]["clock"]["bank"] == 120 and listed[rated]["clock"]["per_move"] == 10
    assert listed[plain]["rated"] is False
    assert listed[plain]["clock"]["mode"] == "turn" and listed[plain]["clock"]["per_move"] == 30


def test_rated_tables_refuse_absurd_clocks(server: Server) -> None:
    a, _, csrf = account(server)
    for clock in ({"mode": "turn", "per_move": 2}, {"mode": "realtime", "bank": 60, "per_move": 10},
                  {"mode": "realtime", "bank": 600, "per_move": 2}, {"mode": "turn", "per_move": 3600}):
        r = create(a, csrf, rated=True, clock=clock)
        assert r.status_code == 400 and r.json()["error"] == "bad_clock", (clock, r.text)
    for clock in ("fast", "12h", None, {"mode": "realtime", "bank": 300, "per_move": 10}):
        assert create(a, csrf, rated=True, clock=clock).status_code == 201, clock
    assert create(a, csrf, clock={"mode": "turn", "per_move": 2}).status_code == 201  # unrated: any clock


def test_a_seat_a_stand_in_bot_moved_for_is_not_rated(server: Server) -> None:
    a, na, csrf_a = account(server)
    b, nb, csrf_b = account(server)
    r = create(a, csrf_a, public=True, rated=True, bot_level="easy", pace=0, options={"target": 12})
    assert r.status_code == 201, r.text
    tid, tok_a = r.json()["id"], r.json()["seats"][0]["token"]
    j = b.post(f"/api/tables/{tid}/join", json={}).json()
    tok_b = b.post(f"/api/tables/{tid}/claim", headers={"X-CSRF-Token": csrf_b, **auth(j["token"])}).json()["token"]
    with Ws(server.ws_url, tid, [tok_b]) as w:  # B comes, then goes away
        w.state(1)

    def away() -> bool:
        since = a.get(f"/api/tables/{tid}", headers=auth(tok_a)).json()["site"]["away_since"][1]
        return since is not None and time.time() - since > GRACE + 0.3

    wait_for(away, "B away past the grace period")
    r = a.post(f"/api/tables/{tid}/seats/1/bot", headers=auth(tok_a), json={"bot": "easy", "confirm": True})
    assert r.status_code == 200, r.text
    def a_to_play() -> dict[str, Any] | None:
        s = a.get(f"/api/tables/{tid}", headers=auth(tok_a)).json()
        return s if s["over"] or s["current"] == 0 else None

    for _ in range(200):  # A adds and ends its turns; B's stand-in bot plays B's
        st = wait_for(a_to_play, "A's turn")
        if st["over"]:
            break
        action = "add2" if "add2" in {m["action"] for m in st["legal"]} else "end"
        r = a.post(f"/api/tables/{tid}/actions", headers=auth(tok_a), json={"move": st["version"], "action": action})
        assert r.status_code == 200, r.text
    pb = wait_for(lambda: (p := b.get(f"/api/users/{nb}").json())["recent"] and p, "B's result")
    pa = wait_for(lambda: (p := a.get(f"/api/users/{na}").json())["recent"] and p, "A's result")
    # B's result was decided by a bot: ranked as played, not rated; A has no rated opponent left: not rated either
    assert pb["recent"][0]["rated"] is False and pb["recent"][0]["after"] is None
    assert pa["recent"][0]["rated"] is False
    assert all(g["rating"] is None for g in pb["games"]), pb
