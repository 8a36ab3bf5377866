"""Play now (issue #34) against a real server process (SQLite and PostgreSQL): two strangers asking for the same
game and player count are seated at one new rated table, a seek whose page closed its socket is off the list,
guests are seated unrated and never with accounts waiting for a rated game, nobody is paired with themselves,
and a client holds only so many seeks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from srvkit import Server, auth, serving, wait_for
from test_site import account, somewhere
from websockets.sync.client import ClientConnection, connect


def seek(c: httpx.Client, csrf: str | None, **body: Any) -> dict[str, Any]:
    headers = {"X-CSRF-Token": csrf} if csrf else {}
    r = c.post("/api/seeks", headers=headers, json={"game": "tally", "players": 2, **body})
    assert r.status_code == 201, r.text
    return dict(r.json())


def wait_socket(server: Server, s: dict[str, Any]) -> ClientConnection:
    ws = connect(f"{server.ws_url}/ws/seeks", open_timeout=10).__enter__()
    ws.send(json.dumps({"type": "hello", "seek": s["seek"], "token": s["token"]}))
    return ws


def until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        m = json.loads(ws.recv(timeout=15))
        if m["type"] == kind:
            return dict(m)
        assert m["type"] == "waiting", m


def waiting(c: httpx.Client, rated: bool = True) -> int:
    seeks = c.get("/api/seeks").json()["seeks"]
    return sum(x["waiting"] for x in seeks if x["game"] == "tally" and x["rated"] == rated)


def test_two_strangers_are_seated_at_one_rated_table(server: Server) -> None:
    a, na, csrf_a = account(server)
    b, nb, csrf_b = account(server)
    sa = seek(a, csrf_a)
    assert sa["rated"] is True  # rated by default for an account
    wa = wait_socket(server, sa)
    assert until(wa, "waiting")["waiting"] >= 1
    wb = wait_socket(server, seek(b, csrf_b))
    seated_a, seated_b = until(wa, "seated"), until(wb, "seated")
    assert seated_a["table"] == seated_b["table"] and {seated_a["seat"], seated_b["seat"]} == {0, 1}
    tid = seated_a["table"]
    tok_a = seated_a["link"].split("#s=")[1]
    st = a.get(f"/api/tables/{tid}", headers=auth(tok_a)).json()
    assert st["site"]["rated"] and sorted(st["site"]["users"]) == sorted([na, nb]) and not st["over"]
    assert all(s["kind"] == "human" for s in st["seats"])  # full: it starts at once
    # in both players' "My games"
    assert any(x["table"] == tid for x in b.get("/api/me/tables").json()["tables"])


def test_a_closed_page_withdraws_its_seek_and_nobody_plays_themselves(server: Server) -> None:
    a, _na, csrf_a = account(server)
    before = waiting(a)
    w1 = wait_socket(server, seek(a, csrf_a))
    until(w1, "waiting")
    assert waiting(a) == before + 1
    w1.close()  # the page closed
    wait_for(lambda: waiting(a) == before, "the seek withdrawn")
    # the same account in two tabs waits twice but is never seated against itself
    w2 = wait_socket(server, seek(a, csrf_a))
    until(w2, "waiting")
    w3 = wait_socket(server, seek(a, csrf_a))
    assert until(w3, "waiting")["waiting"] == before + 2
    w2.close()
    w3.close()
    wait_for(lambda: waiting(a) == before, "both withdrawn")


def test_guests_are_seated_unrated_and_apart_from_rated_seeks(server: Server) -> None:
    g1, g2 = somewhere(server), somewhere(server)
    r = g1.post("/api/seeks", json={"game": "tally", "players": 2, "rated": True})
    assert r.status_code == 401 and r.json()["error"] == "not_signed_in"
    s1 = seek(g1, None)
    assert s1["rated"] is False
    w1 = wait_socket(server, s1)
    until(w1, "waiting")
    w2 = wait_socket(server, seek(g2, None))
    seated = until(w1, "seated")
    assert until(w2, "seated")["table"] == seated["table"]
    st = g1.get(f"/api/tables/{seated['table']}", headers=auth(seated["link"].split("#s=")[1])).json()
    assert st["site"]["rated"] is False


def test_bad_seeks_are_refused_and_a_client_holds_only_so_many(server: Server) -> None:
    c = somewhere(server)
    assert c.post("/api/seeks", json={"game": "nope", "players": 2}).json()["error"] == "no_game"
    assert c.post("/api/seeks", json={"game": "tally", "players": 9}).json()["error"] == "bad_players"
    with connect(f"{server.ws_url}/ws/seeks", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "seek": "x", "token": "y"}))
        assert json.loads(ws.recv(timeout=10))["error"] == "bad_seek"
    codes = [c.post("/api/seeks", json={"game": "tally", "players": 3}).status_code for _ in range(9)]
    assert codes == [201] * 8 + [429], codes


def test_seeks_spend_the_shared_creation_budget_and_respect_the_table_cap(tmp_path: Path) -> None:
    env = {"BOARDLAB_RATE_CREATE": "3/minute", "BOARDLAB_MAX_TABLES_PER_CLIENT": "1"}
    with serving("sqlite", tmp_path, env) as server:
        c = somewhere(server)
        made = c.post("/api/site/tables", json={"game": "tally", "players": 2,
                                                "seats": [{"kind": "human"}, {"kind": "human"}]})
        assert made.status_code == 201, made.text
        # the client holds its one unfinished table: a seek, whose table would be its too, is refused
        r = c.post("/api/seeks", json={"game": "tally", "players": 2})
        assert r.status_code == 429 and r.json()["error"] == "too_many_tables"
        d = somewhere(server)
        assert d.post("/api/seeks", json={"game": "tally", "players": 2}).status_code == 201
        assert d.post("/api/seeks", json={"game": "tally", "players": 2}).status_code == 201
        # the budget is the one creating tables spends (3 a minute here: c spent 2, d 2 of its own)
        assert d.post("/api/seeks", json={"game": "tally", "players": 2}).status_code == 201
        r = d.post("/api/site/tables", json={"game": "tally", "players": 2,
                                             "seats": [{"kind": "human"}, {"kind": "human"}]})
        assert r.status_code == 429 and r.json()["error"] == "rate_limited"
