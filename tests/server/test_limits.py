"""Abuse limits of issue #32 against real server processes (SQLite and PostgreSQL): every route that creates a
table or changes a seat shares one budget and the same per-client caps.

Each test speaks for its own made-up client addresses (`X-Forwarded-For`, which uvicorn trusts from 127.0.0.1,
the proxy case), so the tests of this module do not spend each other's budgets."""

from __future__ import annotations

import concurrent.futures as cf
import json
import secrets
import threading
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from srvkit import Server, auth, serving
from websockets.sync.client import connect
from wsutil import Ws

STRICT = {
    "BOARDLAB_RATE_CREATE": "8/minute",
    "BOARDLAB_RATE_SEATS": "6/minute",
    "BOARDLAB_MAX_TABLES_PER_CLIENT": "7",
    "BOARDLAB_MAX_LOBBY_PER_CLIENT": "2",
    "BOARDLAB_MAX_BOT_TABLES_PER_CLIENT": "2",
    "BOARDLAB_BOT_DELAY": "60",  # thinking bots never move: their tables stay unfinished
    "BOARDLAB_SIGNUPS_PER_ADDRESS": "3",
    "BOARDLAB_HASH_QUEUE": "100",
    "BOARDLAB_SIGNIN_FAILS_PER_NAME": "5",  # 20 and 50 by default: each check is a password hash (~0.1-1 s here)
    "BOARDLAB_SIGNIN_FAILS_PER_ADDRESS": "8",
    "BOARDLAB_CHAT_PER_CLIENT": "8",
}


@pytest.fixture(scope="module")
def strict(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp(f"limits-{backend}")
    with serving(backend, tmp, STRICT) as srv:
        yield srv


def as_client(srv: Server, address: str) -> httpx.Client:
    return httpx.Client(base_url=srv.url, timeout=20, headers={"X-Forwarded-For": address})


HUMANS = [{"kind": "human"}, {"kind": "human"}]


def create(
    c: httpx.Client, route: str = "/api/tables", seats: list[dict[str, Any]] = HUMANS, **kw: Any
) -> httpx.Response:
    return c.post(route, json={"game": "tally", "players": 2, "seats": seats, **kw})


def test_every_create_route_spends_one_budget(strict: Server) -> None:
    """The lobby's `POST /api/site/tables` had no limit at all (415 tables/s from one address): it, `POST
    /api/tables` and rematch now share one budget per client (8 a minute here)."""
    with as_client(strict, "10.32.1.1") as c:
        t = create(c, options={"target": 1}).json()
        tok = t["seats"][0]["token"]
        assert c.post(f"/api/tables/{t['id']}/actions", headers=auth(tok), json={"move": 0, "action": "add1"}).json()[
            "over"
        ]
        assert c.post(f"/api/tables/{t['id']}/rematch", headers=auth(tok)).status_code == 200  # 2 spent
        codes = [create(c, "/api/site/tables").status_code for _ in range(3)]  # 5
        codes += [create(c).status_code for _ in range(3)]  # 8
        assert codes == [201] * 6, codes  # 7 unfinished tables: the cap, not past it
        for route in ("/api/site/tables", "/api/tables"):
            r = create(c, route)
            assert r.status_code == 429 and r.json()["error"] == "rate_limited", (route, r.text)
        assert c.post(f"/api/tables/{t['id']}/rematch", headers=auth(tok)).status_code == 429
    with as_client(strict, "10.32.1.2") as other:  # another client is not held back
        assert create(other, "/api/site/tables").status_code == 201


def test_the_lobby_route_is_held_to_the_per_client_caps(strict: Server) -> None:
    """Tables made through the lobby's route count for the client that made them: its thinking-bot tables (the
    bot queue's share is per client too) and its tables in the lobby are capped as on `POST /api/tables`."""
    bots = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    lobby = [{"kind": "human"}, {"kind": "open"}]
    with as_client(strict, "10.32.2.1") as c:
        codes = [create(c, "/api/site/tables", seats=bots).status_code for _ in range(2)]
        r = create(c, "/api/tables", seats=bots)
        assert codes == [201, 201] and r.status_code == 429 and r.json()["error"] == "too_many_tables", (codes, r.text)
        r = create(c, "/api/site/tables", seats=bots)
        assert r.status_code == 429 and r.json()["error"] == "too_many_tables", r.text
    with as_client(strict, "10.32.2.2") as c:
        codes = [create(c, "/api/site/tables", seats=lobby, public=True).status_code for _ in range(3)]
        assert codes == [201, 201, 429], codes
        listed = [t["id"] for t in c.get("/api/tables").json()]
    with as_client(strict, "10.32.2.3") as c:
        codes = [create(c, "/api/site/tables").status_code for _ in range(4)]
        codes += [create(c).status_code for _ in range(3)]
        r = create(c, "/api/site/tables")
        assert codes == [201] * 7 and r.status_code == 429, (codes, r.text)  # 7 unfinished tables at most,
        assert r.json()["error"] == "too_many_tables"  # whichever route made them
    assert len(listed) >= 2


def test_a_bot_handed_a_seat_counts_like_a_bot_asked_for_at_creation(strict: Server) -> None:
    """Tables of two people whose seats are then handed to hard bots were a way around the cap on thinking-bot
    tables: the table counts against its creator from the moment a thinking bot takes a seat."""
    with as_client(strict, "10.32.3.1") as c:
        tables = [create(c, "/api/site/tables").json() for _ in range(3)]
        codes = []
        for t in tables:
            tok = t["seats"][1]["token"]
            codes.append(c.post(f"/api/tables/{t['id']}/seats/1/bot", headers=auth(tok), json={"bot": "hard"}))
        assert [r.status_code for r in codes] == [200, 200, 429], [r.text for r in codes]
        assert codes[2].json()["error"] == "too_many_tables"
        st = c.get(f"/api/tables/{tables[2]['id']}").json()
        assert st["seats"][1]["kind"] == "human"  # refused: nothing changed
        # a random bot is O(1) and does not count; a refused change does not keep a place
        tid, tok = tables[2]["id"], tables[2]["seats"][1]["token"]
        assert c.post(f"/api/tables/{tid}/seats/1/bot", headers=auth(tok), json={"bot": "random"}).status_code == 200


def test_every_seat_route_spends_one_budget(strict: Server) -> None:
    """Join, a bot takes a seat, its player takes it back, claim and expel share one budget per client (6 a
    minute here): before, each route had a budget of its own."""
    with as_client(strict, "10.32.4.1") as maker:
        tables = [create(maker, seats=[{"kind": "human"}, {"kind": "open"}], public=True).json() for _ in range(2)]
    with as_client(strict, "10.32.4.2") as c:
        codes = [c.post(f"/api/tables/{t['id']}/join", json={}).status_code for t in tables]  # 2
        tid, tok = tables[0]["id"], tables[0]["seats"][0]["token"]
        for _ in range(2):  # 6
            r = c.post(f"/api/tables/{tid}/seats/0/bot", headers=auth(tok), json={"bot": "random"})
            codes.append(r.status_code)
            codes.append(c.post(f"/api/tables/{tid}/seats/0/human", headers=auth(tok)).status_code)
        assert codes == [200] * 6, codes
        r = c.post(f"/api/tables/{tid}/seats/0/bot", headers=auth(tok), json={"bot": "random"})
        assert r.status_code == 429 and r.json()["error"] == "rate_limited", r.text
        r = c.post(f"/api/tables/{tid}/seats/1/expel", headers=auth(tok))
        assert r.status_code == 429, r.text


# -- WebSockets: per client, per table for spectators, room kept for newcomers -------------------------------------
@pytest.fixture(scope="module")
def crowded(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with room for 40 connections in all (the default is 4,096)."""
    tmp = tmp_path_factory.mktemp(f"sockets-{backend}")
    env = {"BOARDLAB_MAX_CONNECTIONS": "40", "BOARDLAB_MAX_WEBSOCKETS": "30", "BOARDLAB_MAX_WS_PER_CLIENT": "8",
           "BOARDLAB_MAX_SPECTATORS_PER_TABLE": "12", "BOARDLAB_HASH_WORKERS": "1", "BOARDLAB_HASH_QUEUE": "2"}
    with serving(backend, tmp, env) as srv:
        yield srv


def watch(srv: Server, table: str, address: str) -> tuple[Any, dict[str, Any]]:
    """A spectator's WebSocket from `address`: (the socket, its first message)."""
    url = f"{srv.ws_url}/ws/tables/{table}"
    ws = connect(url, open_timeout=10, additional_headers={"X-Forwarded-For": address}).__enter__()
    ws.send(json.dumps({"type": "hello", "tokens": []}))
    return ws, json.loads(ws.recv(timeout=10))


def test_one_client_cannot_fill_the_server_with_websockets(crowded: Server) -> None:
    """One address holding idle spectator sockets up to the server's connection cap made every newcomer's
    request a 503 (4,300 sockets against 4,096): a client may hold 8 here, and the newcomer is served."""
    with as_client(crowded, "10.32.5.1") as c:
        tid = create(c).json()["id"]
    held, refused = [], []
    try:
        for _ in range(45):
            try:
                ws, first = watch(crowded, tid, "10.32.5.2")
            except Exception as e:  # before: the upgrade itself was refused once the server was full
                refused.append(repr(e))
                continue
            (held if first["type"] == "state" else refused).append(ws)
            if first["type"] != "state":
                assert first["error"] == "too_many_sockets" and first["status"] == 429, first
        assert len(held) == 8, (len(held), refused[:3])
        with as_client(crowded, "10.32.5.3") as newcomer:  # a newcomer's page and API requests are answered
            assert newcomer.get("/api/games").status_code == 200
            assert newcomer.get(f"/api/tables/{tid}").status_code == 200
        ws, first = watch(crowded, tid, "10.32.5.3")
        assert first["type"] == "state"
        ws.close()
    finally:
        for ws in held:
            ws.close()
    ws, first = watch(crowded, tid, "10.32.5.2")  # closed sockets are given back
    assert first["type"] == "state"
    ws.close()


def test_spectators_per_table_are_capped_and_seats_still_connect(crowded: Server) -> None:
    with as_client(crowded, "10.32.6.1") as c:
        t = create(c).json()
    socks = []
    try:
        for i in range(12):
            ws, first = watch(crowded, t["id"], f"10.32.6.{10 + i}")
            socks.append(ws)
            assert first["type"] == "state", first
        ws, first = watch(crowded, t["id"], "10.32.6.99")
        assert first["error"] == "too_many_sockets", first
        ws.close()
        with Ws(crowded.ws_url, t["id"], [t["seats"][0]["token"]]) as player:  # a seat is never refused
            assert player.state(0)["seat"] == 0
    finally:
        for ws in socks:
            ws.close()


# -- sign-ins and sign-ups ---------------------------------------------------------------------------------------------
def at_once(n: int, call: Callable[[int], httpx.Response]) -> list[httpx.Response]:
    """`call(i)` for i < n from n threads released together (a flood, or guesses sent at the same moment)."""
    gate = threading.Barrier(n)

    def one(i: int) -> httpx.Response:
        gate.wait()
        return call(i)

    with cf.ThreadPoolExecutor(n) as pool:
        return list(pool.map(one, range(n)))


def sign_in(srv: Server, address: str, name: str, password: str, **cookies: str) -> httpx.Response:
    with httpx.Client(base_url=srv.url, timeout=90, headers={"X-Forwarded-For": address}) as c:
        c.cookies.update(cookies)
        return c.post("/api/account/signin", json={"name": name, "password": password})


def test_sign_ins_for_unknown_names_are_counted_per_address(strict: Server) -> None:
    """A flood of sign-ins for names that do not exist cost a password hash each and was never slowed down: every
    attempt from an address counts now (50 at most in 15 minutes by default, 8 here; slowed down past 10), so 16
    at once are at most 8 hashes and the rest 429 at once."""
    rs = at_once(16, lambda i: sign_in(strict, "10.32.7.1", f"ghost{secrets.token_hex(4)}", "some password"))
    codes = [r.status_code for r in rs]
    assert set(codes) <= {401, 429} and codes.count(401) <= 8 and codes.count(429) >= 8, codes
    assert all(r.json()["error"] == "too_many_attempts" for r in rs if r.status_code == 429)
    assert sign_in(strict, "10.32.7.2", "ghost-x", "some password").status_code == 401  # another address: heard


def test_guessers_do_not_lock_the_owner_out(strict: Server) -> None:
    """20 wrong passwords from anywhere gave the account's owner 429 for 15 minutes (5 here). The name's count now
    holds back the guessers only: a browser that signed in to the account before (its signed device cookie)
    still gets in; a new browser, or that cookie for another name, does not."""
    name = f"own{secrets.token_hex(3)}"
    with as_client(strict, "10.32.8.1") as owner:
        assert owner.post("/api/account/signup", json={"name": name, "password": "correct horse 1"}).status_code == 201
        device = owner.cookies.get("bl_device")
    assert device
    rs = at_once(8, lambda i: sign_in(strict, f"10.32.9.{i}", name, f"wrong {i}"))
    codes = [r.status_code for r in rs]
    assert codes.count(401) <= 5 and codes.count(429) >= 3, codes
    assert sign_in(strict, "10.32.9.200", name, "correct horse 1").status_code == 429  # a new browser waits
    r = sign_in(strict, "10.32.8.1", name, "correct horse 1", bl_device=device)
    assert r.status_code == 200 and r.json()["user"]["name"] == name, r.text
    other = f"oth{secrets.token_hex(3)}"
    with as_client(strict, "10.32.8.2") as c:
        assert c.post("/api/account/signup", json={"name": other, "password": "correct horse 1"}).status_code == 201
    at_once(8, lambda i: sign_in(strict, f"10.32.10.{i}", other, f"wrong {i}"))
    r = sign_in(strict, "10.32.8.1", other, "correct horse 1", bl_device=device)  # not this name's device
    assert r.status_code == 429, r.text
    forged = device.split(".")[0] + ".AAAAAAAAAAAAAAAAAAAAAAAA"
    assert sign_in(strict, "10.32.8.1", other, "correct horse 1", bl_device=forged).status_code == 429


def test_sign_ups_are_limited_per_address(strict: Server) -> None:
    """Throwaway accounts farmed ratings (2.6 sign-ups/s from one address): 3 an hour per address here (10 by
    default). A refused sign-up (name taken) is not counted; another address is not held back."""
    taken = f"tkn{secrets.token_hex(3)}"
    with as_client(strict, "10.32.11.1") as c:
        assert c.post("/api/account/signup", json={"name": taken, "password": "correct horse 1"}).status_code == 201
    with as_client(strict, "10.32.11.2") as c:
        assert c.post("/api/account/signup", json={"name": taken, "password": "correct horse 1"}).status_code == 409
        codes = [
            c.post("/api/account/signup", json={"name": f"s{i}{secrets.token_hex(3)}", "password": "correct horse 1"})
            for i in range(4)
        ]
        assert [r.status_code for r in codes] == [201, 201, 201, 429], [r.text for r in codes]
        assert codes[3].json()["error"] == "too_many_signups"
    with as_client(strict, "10.32.11.3") as c:
        assert c.post("/api/account/signup", json={"name": f"n{secrets.token_hex(3)}", "password": "correct horse 1"}
                      ).status_code == 201


def test_password_hashing_has_a_bounded_pool_of_its_own(crowded: Server) -> None:
    """A flood of sign-ins queued its hashes in the thread pool the database reads share (the lobby list went from
    3 ms to 2.55 s): hashing has a pool of its own, one thread and 2 waiting here; past that a sign-in is answered
    503 `busy` at once, and the lobby is answered meanwhile."""
    with as_client(crowded, "10.32.12.1") as c:
        flooded: list[httpx.Response] = []
        flood = threading.Thread(
            target=lambda: flooded.extend(
                at_once(24, lambda i: sign_in(crowded, f"10.32.13.{i}", f"nobody{i}", "some password"))
            )
        )
        flood.start()
        answers = [c.get("/api/tables").status_code for _ in range(5)]
        flood.join()
    codes = [r.status_code for r in flooded]
    assert set(codes) <= {401, 503} and codes.count(503) >= 1, codes
    assert all(r.json()["error"] == "busy" for r in flooded if r.status_code == 503)
    assert answers == [200] * 5


# -- chat -------------------------------------------------------------------------------------------------------------
def seated_table(c: httpx.Client, name: str = "") -> tuple[str, dict[str, str]]:
    t = create(c, "/api/site/tables", seats=[{"kind": "human", "name": name}, {"kind": "human"}]).json()
    return t["id"], auth(t["seats"][0]["token"])


def test_chat_is_capped_per_client_across_tables(strict: Server) -> None:
    """Each seat may say 5 things in 10 s, but one client stored 98 messages/s spread over 150 tables: a client
    may say 20 in 10 s at all its tables together (8 here); another client is not held back."""
    with as_client(strict, "10.32.14.1") as c:
        tables = [seated_table(c) for _ in range(3)]
        codes = [c.post(f"/api/tables/{tid}/chat", json={"text": f"hi {i}"}, headers=h).status_code
                 for i in range(3) for tid, h in tables]
        assert codes[:8] == [200] * 8 and codes[8] == 429, codes
        r = c.post(f"/api/tables/{tables[0][0]}/chat", json={"text": "again"}, headers=tables[0][1])
        assert r.json()["error"] == "chat_flood", r.text
        assert len(c.get(f"/api/tables/{tables[2][0]}/chat").json()["chat"]) == 2  # refused: not stored
    with as_client(strict, "10.32.14.2") as other:
        tid, h = seated_table(other)
        assert other.post(f"/api/tables/{tid}/chat", json={"text": "hello"}, headers=h).status_code == 200


def test_chat_history_is_paged_and_names_are_clean(strict: Server) -> None:
    """Reading a table's chat returned everything at once: it comes a page at a time, newest first (`before`,
    `limit`, `more`). Guest names are shown NFKC-normalised, without bidi controls or zero-width characters."""
    with as_client(strict, "10.32.15.1") as c:
        tid, h = seated_table(c, name="\u202eＥｖｅ\u200b")
        for i in range(5):
            assert c.post(f"/api/tables/{tid}/chat", json={"text": f"m{i}"}, headers=h).status_code == 200
        pages, before = [], None
        while True:
            params: dict[str, Any] = {"limit": 2} if before is None else {"limit": 2, "before": before}
            r = c.get(f"/api/tables/{tid}/chat", params=params).json()
            pages.append([m["text"] for m in r["chat"]])
            if not r["more"]:
                break
            before = r["chat"][0]["n"]
        assert pages == [["m3", "m4"], ["m1", "m2"], ["m0"]], pages
        whole = c.get(f"/api/tables/{tid}/chat").json()
        assert [m["text"] for m in whole["chat"]] == [f"m{i}" for i in range(5)] and not whole["more"]
        assert {m["name"] for m in whole["chat"]} == {"Eve"}
        assert c.get(f"/api/tables/{tid}/chat", params={"limit": 1000}).status_code == 422
