"""HTTP and WebSocket API against a real server process, on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import random
import threading
import time
from typing import Any

import httpx
from srvkit import Server, auth, make_table
from wsutil import Ws


def st(c: httpx.Client, tid: str, token: str | None = None) -> dict[str, Any]:
    r = c.get(f"/api/tables/{tid}", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    return dict(r.json())


def act(c: httpx.Client, tid: str, token: str, move: int, action: str) -> httpx.Response:
    return c.post(f"/api/tables/{tid}/actions", headers=auth(token), json={"move": move, "action": action})


def test_games_and_openapi(client: httpx.Client) -> None:
    data = client.get("/api/games").json()
    names = [g["name"] for g in data["games"]]
    assert "tally" in names and "random" in data["bots"] and data["langs"] == ["en", "zh-TW"]
    spec = client.get("/openapi.json").json()
    assert "/api/tables/{table_id}/actions" in spec["paths"]
    assert client.get("/docs").status_code == 404  # no CDN-backed docs page


def test_create_and_views(client: httpx.Client) -> None:
    t = make_table(client)
    tid, tok0, tok1 = t["id"], t["seats"][0]["token"], t["seats"][1]["token"]
    assert t["seats"][0]["link"] == f"/t/{tid}#s={tok0}" and t["spectator_link"] == f"/t/{tid}"
    s0, s1, spec = st(client, tid, tok0), st(client, tid, tok1), st(client, tid)
    assert s0["seat"] == 0 and s1["seat"] == 1 and spec["seat"] is None
    assert "hand" in s0["view"] and "hand" in s1["view"] and "hand" not in spec["view"]
    assert s0["legal"] and not s1["legal"] and not spec["legal"]  # only the seat to move gets moves
    for s in (s0, s1, spec):
        assert "seed" not in json.dumps(s) and "deck_order" not in json.dumps(s)


def test_bad_requests_change_nothing(client: httpx.Client) -> None:
    t = make_table(client)
    tid, tok0, tok1 = t["id"], t["seats"][0]["token"], t["seats"][1]["token"]
    before = st(client, tid, tok0)
    hand = before["view"]["hand"]
    missing = next(c for c in range(1, 10) if c not in hand)
    cases = [
        (act(client, tid, tok1, 0, "add1"), 409, "not_your_turn"),
        (act(client, tid, tok0, 5, "add1"), 409, "stale_move"),
        (act(client, tid, tok0, 0, "jump!"), 400, "bad_action"),
        (act(client, tid, tok0, 0, f"play{missing}"), 422, "illegal_action"),
        (act(client, tid, "forged-token", 0, "add1"), 403, "bad_token"),
        (client.post(f"/api/tables/{tid}/actions", json={"move": 0, "action": "add1"}), 401, "no_token"),
        (
            client.post("/api/tables/nope/actions", headers=auth(tok0), json={"move": 0, "action": "add1"}),
            404,
            "no_table",
        ),
    ]
    for r, status, code in cases:
        assert r.status_code == status, r.text
        assert r.json()["error"] == code
    assert act(client, tid, tok0, 0, "x" * 500).status_code == 422
    assert (
        client.post(
            f"/api/tables/{tid}/actions",
            headers=auth(tok0),
            content=b'{"move":0,"action":"' + b"a" * 100_000 + b'"}',
        ).status_code
        == 413
    )
    assert (
        client.post(f"/api/tables/{tid}/actions", headers=auth(tok0), content=b"{not json").status_code == 422
    )
    # another table's token is refused here
    other = make_table(client)
    assert act(client, tid, other["seats"][0]["token"], 0, "add1").status_code == 403
    assert st(client, tid, tok0) == before
    # a good move, then the same submit again (duplicate): the second is stale
    assert act(client, tid, tok0, 0, "add1").status_code == 200
    r = act(client, tid, tok0, 0, "add1")
    assert r.status_code == 409 and r.json()["error"] == "stale_move"
    assert st(client, tid, tok0)["version"] == 1 and st(client, tid, tok0)["view"]["counter"] == 1


def test_racing_tabs(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=20) as c:
        t = make_table(c)
    tid, tok0 = t["id"], t["seats"][0]["token"]
    results: list[int] = []

    def submit(action: str) -> None:
        with httpx.Client(base_url=server.url, timeout=20) as c:
            results.append(act(c, tid, tok0, 0, action).status_code)

    threads = [threading.Thread(target=submit, args=(a,)) for a in ["add1", "add2"] * 6]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(results) == [200] + [409] * 11
    with httpx.Client(base_url=server.url) as c:
        assert st(c, tid, tok0)["version"] == 1


def test_websocket_push_and_act(client: httpx.Client, server: Server) -> None:
    t = make_table(client)
    tid, tok0, tok1 = t["id"], t["seats"][0]["token"], t["seats"][1]["token"]
    with (
        Ws(server.ws_url, tid, [tok0]) as w0,
        Ws(server.ws_url, tid, [tok1], lang="zh-TW") as w1,
        Ws(server.ws_url, tid) as spec,
    ):
        m0, ms = w0.state(0), spec.state(None)
        w1.state(1)
        assert m0["view"]["hand"] == st(client, tid, tok0)["view"]["hand"]
        assert "hand" not in ms["view"] and ms["legal"] == []
        assert act(client, tid, tok0, 0, "add2").status_code == 200
        p1 = w1.state(1, version=1)
        assert p1["last"]["text"] == "加 2 — 座位 1：分數 2（+2 分）" and p1["view"]["counter"] == 2  # with its story
        assert spec.state(None, version=1)["view"]["counter"] == 2
        # acting over the WebSocket: ack to the sender, state to everyone
        w0.send({"type": "act", "move": 1, "action": "end", "id": 7})
        ack = w0.until(lambda m: m["type"] in ("ack", "error"))
        assert ack == {"type": "ack", "id": 7, "version": 2}
        w0.send({"type": "act", "move": 2, "action": "add1", "id": 8})
        err = w0.until(lambda m: m["type"] in ("ack", "error"))
        assert err["error"] == "not_your_turn" and err["status"] == 409
        w1.send({"type": "act", "move": 1, "action": "add1", "id": 9})
        assert w1.until(lambda m: m["type"] in ("ack", "error"))["error"] == "stale_move"
        spec.send({"type": "act", "move": 2, "action": "add1"})
        assert spec.until(lambda m: m["type"] == "error")["error"] == "no_token"
        w1.send({"type": "act", "move": 2, "seat": 0, "action": "add1"})
        assert w1.until(lambda m: m["type"] == "error")["error"] == "bad_token"
        w1.send({"type": "ping", "id": "p"})
        assert w1.until(lambda m: m["type"] == "pong")["id"] == "p"
        w1.conn.send("not json")
        assert w1.until(lambda m: m["type"] == "error")["error"] == "bad_message"
    assert st(client, tid)["version"] == 2


def test_websocket_refuses_forged_token(client: httpx.Client, server: Server) -> None:
    t = make_table(client)
    w = Ws(server.ws_url, t["id"], ["forged"])
    m = w.recv()
    assert m["type"] == "error" and m["error"] == "bad_token"
    w.close()
    w = Ws(server.ws_url, "no-such-table", [])
    assert w.recv()["error"] == "no_table"
    w.close()


def test_hotseat_one_socket_two_seats(client: httpx.Client, server: Server) -> None:
    t = make_table(client)
    tid, tok0, tok1 = t["id"], t["seats"][0]["token"], t["seats"][1]["token"]
    with Ws(server.ws_url, tid, [tok0, tok1]) as w:
        seats = {w.state()["seat"], w.state()["seat"]}
        assert seats == {0, 1}
        w.send({"type": "act", "seat": 0, "move": 0, "action": "end"})
        w.until(lambda m: m["type"] == "ack")
        w.send({"type": "act", "seat": 1, "move": 1, "action": "add1"})
        assert w.until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"


def test_undo_policy(client: httpx.Client) -> None:
    t = make_table(client)
    tid, tok0, tok1 = t["id"], t["seats"][0]["token"], t["seats"][1]["token"]

    def undo(tok: str, move: int) -> httpx.Response:
        return client.post(f"/api/tables/{tid}/undo", headers=auth(tok), json={"move": move})

    assert undo(tok0, 0).json()["error"] == "no_undo"  # nothing to undo
    assert act(client, tid, tok0, 0, "add2").status_code == 200
    assert st(client, tid, tok0)["can_undo"]
    assert undo(tok1, 1).json()["error"] == "no_undo"  # not yours
    assert undo(tok0, 0).json()["error"] == "stale_move"
    r = undo(tok0, 1)
    assert r.status_code == 200, r.text
    assert r.json()["view"]["counter"] == 0 and r.json()["log_len"] == 0 and r.json()["version"] == 2
    assert act(client, tid, tok0, 2, "draw").status_code == 200  # chance + hidden: a barrier
    r = undo(tok0, 3)
    assert r.status_code == 409 and r.json()["error"] == "undo_barrier"
    assert act(client, tid, tok0, 3, "end").status_code == 200
    assert undo(tok0, 4).json()["error"] == "no_undo"  # the turn is over
    log = client.get(f"/api/tables/{tid}/log", headers=auth(tok0)).json()["log"]
    assert [e["action"] for e in log] == [None, "draw", "end"]  # the undo is told first (#31)
    assert log[0]["note"] == "undo" and log[0]["n"] is None and log[0]["text"] == "takes back their last move"


def _forbidden_keys(obj: Any, path: str = "") -> list[str]:
    bad = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in ("hands", "deck_order", "hidden", "seed", "token_hash", "snapshot"):
                bad.append(path + "/" + k)
            bad += _forbidden_keys(v, path + "/" + k)
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            bad += _forbidden_keys(v, f"{path}[{i}]")
    return bad


def test_no_leak_on_any_channel(client: httpx.Client, server: Server) -> None:
    """Play a whole game with secret actions; check every message each seat ever got."""
    t = make_table(client, options={"target": 25})
    tid = t["id"]
    toks = [s["token"] for s in t["seats"]]
    got: dict[Any, list[dict[str, Any]]] = {0: [], 1: [], None: []}
    truth: dict[tuple[int, int], list[int]] = {}  # (seat, version) -> that seat's hand
    secret: dict[int, tuple[int, str]] = {}  # log n -> (actor, action) for hidden actions
    rng = random.Random(4)
    with (
        Ws(server.ws_url, tid, [toks[0]]) as w0,
        Ws(server.ws_url, tid, [toks[1]]) as w1,
        Ws(server.ws_url, tid) as ws,
    ):
        for version in range(200):
            states = [st(client, tid, toks[i]) for i in (0, 1)]
            got[0].append(states[0])
            got[1].append(states[1])
            got[None].append(st(client, tid))
            for i in (0, 1):
                truth[(i, version)] = states[i]["view"]["hand"]
            if states[0]["over"]:
                break
            me = states[0]["current"]
            legal = [m["action"] for m in states[me]["legal"]]
            hides = [a for a in legal if a.startswith("hide")]
            choice = rng.choice(hides) if hides and rng.random() < 0.5 else rng.choice(legal)
            if choice.startswith("hide"):
                secret[version] = (me, choice)
            # the other seat tries to act and gets an error: errors go to it only, and say nothing secret
            err = act(client, tid, toks[1 - me], version, "add1")
            assert err.status_code == 409
            got[1 - me].append(err.json())
            r = act(client, tid, toks[me], version, choice)
            assert r.status_code == 200, r.text
            got[me].append(r.json())
        assert st(client, tid)["over"]
        for viewer, sock in ((0, w0), (1, w1), (None, ws)):
            sock.until(lambda m: m.get("over") is True)
            got[viewer] += sock.seen
    for viewer in (0, 1, None):
        tok = {} if viewer is None else auth(toks[viewer])
        got[viewer].append(client.get(f"/api/tables/{tid}/log", headers=tok).json())
        total = len(got[viewer][-1]["log"])
        for step in range(total + 1):
            got[viewer].append(
                client.get(f"/api/tables/{tid}/replay", params={"step": step}, headers=tok).json()
            )
    assert secret, "the scripted game should contain hidden actions"
    for viewer, msgs in got.items():
        for m in msgs:
            assert not _forbidden_keys(m), (viewer, m)
            view = m.get("view")
            if view is not None:
                if viewer is None:
                    assert "hand" not in view and "my_hidden" not in view
                elif "version" in m:
                    assert view["hand"] == truth.get((viewer, m["version"]), view["hand"])
            entries = list(m.get("log") or []) + ([m["last"]] if m.get("last") else [])
            for e in entries:
                if e["n"] in secret:
                    actor, action = secret[e["n"]]
                    if viewer == actor:
                        assert e["action"] == action
                    else:
                        assert e["action"] is None, (viewer, e)
                        assert e["text"] in (None, "makes a hidden move", "做了一個祕密行動"), (viewer, e)


def test_replay_viewer(client: httpx.Client) -> None:
    t = make_table(client, options={"target": 3})
    tid, tok0, tok1 = t["id"], t["seats"][0]["token"], t["seats"][1]["token"]
    assert client.get(f"/api/tables/{tid}/replay", params={"step": 0}).json()["error"] == "not_over"
    for i, a in enumerate(["add1", "end"]):
        assert act(client, tid, tok0, i, a).status_code == 200
    assert act(client, tid, tok1, 2, "add2").status_code == 200
    assert st(client, tid)["over"]
    steps = [
        client.get(f"/api/tables/{tid}/replay", params={"step": k}, headers=auth(tok1)).json()
        for k in range(4)
    ]
    assert [s["view"]["counter"] for s in steps] == [0, 1, 1, 3]
    assert [len(s["log"]) for s in steps] == [0, 1, 2, 3] and steps[0]["total"] == 3
    assert all(s["view"]["hand"] == steps[0]["view"]["hand"] for s in steps)
    spec = client.get(f"/api/tables/{tid}/replay", params={"step": 2}).json()
    assert "hand" not in spec["view"] and spec["seat"] is None
    assert client.get(f"/api/tables/{tid}/replay", params={"step": 9}).status_code == 400
    assert client.get(f"/api/tables/{tid}/replay", params={"step": 1}, headers=auth("x")).status_code == 403
    end = st(client, tid, tok0)
    assert end["scores"][1]["total"] == 2 and end["winners"] == [1]


def test_bots_play_and_thinking(client: httpx.Client, server: Server) -> None:
    t = make_table(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    tid, tok0 = t["id"], t["seats"][0]["token"]
    assert t["seats"][1]["token"] is None
    with Ws(server.ws_url, tid, [tok0]) as w:
        w.state(0)
        assert act(client, tid, tok0, 0, "end").status_code == 200
        back = w.until(
            lambda m: (m["type"] == "state" and m["current"] == 0 and m["version"] > 1) or m["over"]
        )
        assert back["version"] >= 2
    # an all-bot table with a process-pool bot (greedy) plays to the end on its own
    t = make_table(
        client,
        seats=[{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
        options={"target": 6},
    )
    deadline = time.monotonic() + 60
    while not st(client, t["id"])["over"]:
        assert time.monotonic() < deadline, "bots did not finish"
        time.sleep(0.2)


def test_join_open_seat_and_lobby(client: httpx.Client) -> None:
    t = make_table(client, seats=[{"kind": "human", "name": "Ann"}, {"kind": "open"}], public=True)
    tid = t["id"]
    listed = {x["id"]: x for x in client.get("/api/tables").json()}
    assert tid in listed and listed[tid]["seats"][1]["kind"] == "open"
    r = client.post(f"/api/tables/{tid}/join", json={"name": "Bo"})
    assert r.status_code == 200 and r.json()["seat"] == 1
    tok1 = r.json()["token"]
    assert st(client, tid, tok1)["seat"] == 1 and st(client, tid)["seats"][1]["name"] == "Bo"
    assert client.post(f"/api/tables/{tid}/join", json={}).json()["error"] == "no_free_seat"
    assert tid not in {x["id"] for x in client.get("/api/tables").json()}
    private = make_table(client, seats=[{"kind": "human"}, {"kind": "open"}])
    assert private["id"] not in {x["id"] for x in client.get("/api/tables").json()}


def test_replace_absent_player_with_bot(client: httpx.Client, server: Server) -> None:
    t = make_table(client, options={"target": 1000})
    tid, tok0, tok1 = t["id"], t["seats"][0]["token"], t["seats"][1]["token"]
    with Ws(server.ws_url, tid, [tok1]) as w1:
        w1.state(1)
        r = client.post(f"/api/tables/{tid}/seats/1/bot", headers=auth(tok0), json={"bot": "random", "confirm": True})
        assert r.status_code == 409 and r.json()["error"] == "seat_present"
    time.sleep(1.2)  # the grace period is 1 s in the tests
    r = client.post(f"/api/tables/{tid}/seats/1/bot", headers=auth(tok0), json={"bot": "random", "confirm": True})
    assert r.status_code == 200, r.text
    assert act(client, tid, tok0, 0, "end").status_code == 200
    deadline = time.monotonic() + 20
    while (s := st(client, tid, tok0))["current"] != 0 and not s["over"]:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    assert s["version"] >= 2
    assert act(client, tid, tok1, s["version"], "add1").json()["error"] in ("not_human", "not_your_turn")
    r = client.post(f"/api/tables/{tid}/seats/1/human", headers=auth(tok1))
    assert r.status_code == 200 and r.json()["seats"][1]["kind"] == "human"
    assert client.post(f"/api/tables/{tid}/seats/0/human", headers=auth(tok1)).status_code == 403


def test_rematch(client: httpx.Client) -> None:
    t = make_table(client, options={"target": 2})
    tid, tok0, tok1 = t["id"], t["seats"][0]["token"], t["seats"][1]["token"]
    assert client.post(f"/api/tables/{tid}/rematch", headers=auth(tok0)).json()["error"] == "not_over"
    assert act(client, tid, tok0, 0, "add2").status_code == 200
    r0 = client.post(f"/api/tables/{tid}/rematch", headers=auth(tok0)).json()
    r0b = client.post(f"/api/tables/{tid}/rematch", headers=auth(tok0)).json()
    r1 = client.post(f"/api/tables/{tid}/rematch", headers=auth(tok1)).json()
    assert r0["table"] == r0b["table"] == r1["table"] and r0["token"] == r0b["token"] != r1["token"]
    assert st(client, tid)["rematch"] == r0["table"]
    new = r0["table"]
    assert st(client, new, r0["token"])["seat"] == 0 and st(client, new, r1["token"])["seat"] == 1
    assert st(client, new)["version"] == 0
    assert client.post(f"/api/tables/{tid}/rematch").status_code == 401
