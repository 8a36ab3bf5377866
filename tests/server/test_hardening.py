"""Bad input, limits and hardening (issue #11, items 7, 8 and 10), against a real server process."""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator

import httpx
import pytest
import rawclient
from srvkit import Server, auth, make_table, serving
from websockets.sync.client import connect
from wsutil import Ws


# -- item 8: bad input -----------------------------------------------------------------------------
@pytest.mark.parametrize("bad", ["a\x00b", "\x1b[31mred", "x\x7f", "a\x85b", "\ud800"])
def test_control_characters_are_refused_everywhere(client: httpx.Client, bad: str) -> None:
    """NUL gave a 500 on PostgreSQL; escapes and lone surrogates have no business in a name either."""
    body = json.dumps(
        {"game": "tally", "players": 2, "seats": [{"kind": "human", "name": bad}, {"kind": "open"}], "public": True}
    )
    r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert r.status_code in (400, 422), r.text
    t = make_table(client, seats=[{"kind": "human"}, {"kind": "open"}], public=True)
    r = client.post(
        f"/api/tables/{t['id']}/join", content=json.dumps({"name": bad}), headers={"content-type": "application/json"}
    )
    assert r.status_code in (400, 422), r.text
    tok = t["seats"][0]["token"]
    r = client.post(
        f"/api/tables/{t['id']}/actions",
        content=json.dumps({"move": 0, "action": "add1" + bad}),
        headers={"content-type": "application/json", **auth(tok)},
    )
    assert r.status_code in (400, 422), r.text
    state = client.get(f"/api/tables/{t['id']}").json()
    assert state["version"] == 0 and state["seats"][1]["kind"] == "open"  # nothing changed



@pytest.mark.parametrize("path", ["/api/users/a%00b", "/api/games?x=%00", "/t/a%00b", "/api/tables/a%00b"])
def test_nul_in_a_path_or_query_is_a_clean_refusal(client: httpx.Client, path: str) -> None:
    """PostgreSQL answered a user name with NUL (`/api/users/a%00b`) with a 500: NUL in a path or query is
    refused at the door with 400 on every backend, and the server goes on answering."""
    r = client.get(path)
    assert r.status_code == 400 and r.json()["error"] == "bad_request", (path, r.text)
    for name in ("a\x00b", "a\x1bb"):  # a sign-up or sign-in name with NUL: refused like any bad field
        for route in ("/api/account/signup", "/api/account/signin"):
            r = client.post(route, content=json.dumps({"name": name, "password": "correct horse 1"}),
                            headers={"content-type": "application/json"})
            assert r.status_code == 422 and r.json()["error"] == "invalid_request", (route, r.text)
    assert client.get("/api/users/nobody-here").status_code == 404


def test_seat_names_are_normalised_against_spoofing(client: httpx.Client) -> None:
    """A right-to-left override (U+202E) turns a name around on screen and a zero-width space (U+200B) makes
    two names look alike: seat names are NFKC-normalised and lose such format characters, at creation and
    when joining."""
    t = make_table(client, seats=[{"kind": "human", "name": "\u202eevil\u200b"}, {"kind": "open"}], public=True)
    r = client.post(f"/api/tables/{t['id']}/join", json={"name": "Ｂｏ\u200d\u2066"})
    assert r.status_code == 200, r.text
    names = [s["name"] for s in client.get(f"/api/tables/{t['id']}").json()["seats"]]
    assert names == ["evil", "Bo"], names
    only_marks = make_table(client, seats=[{"kind": "human", "name": "\u200b\u202e"}, {"kind": "human"}])
    assert [s["name"] for s in client.get(f"/api/tables/{only_marks['id']}").json()["seats"]] == ["#1", "#2"]

def test_websocket_bad_messages_get_clean_errors(client: httpx.Client, server: Server) -> None:
    t = make_table(client, options={"target": 10**6})
    toks = [s["token"] for s in t["seats"]]
    with Ws(server.ws_url, t["id"], [toks[1]]) as ws:
        ws.state(1)
        cases = [
            {"type": "act", "seat": 1.0, "move": 0, "action": "add1", "id": 1},  # 1.0 == 1 in Python
            {"type": "act", "seat": True, "move": 0, "action": "add1", "id": 2},
            {"type": "act", "seat": 1, "move": 0.0, "action": "add1", "id": 3},
            {"type": "act", "seat": 1, "move": 0, "action": "add1\x00", "id": 4},
        ]
        for msg in cases:
            ws.send(msg)
            e = ws.until(lambda m: m.get("type") == "error")
            assert 400 <= e["status"] < 500, e
        surrogate = '{"type":"act","seat":1,"move":0,"action":"\\ud800"}'
        for raw in ("[" * 60000, '{"a":' * 12000, surrogate, "[]", "nul\x00"):
            ws.conn.send(raw)
            e = ws.until(lambda m: m.get("type") == "error")
            assert e["status"] == 400, e
        ws.conn.send(b"\x00\x01binary")
        assert ws.until(lambda m: m.get("type") == "error")["status"] == 400
        ws.send({"type": "ping", "id": 9})  # the connection is still fine
        assert ws.until(lambda m: m.get("type") == "pong")["id"] == 9
    for hello in ("[" * 60000, '{"tokens": [1.0]}', "[]", '{"tokens": "x"}'):  # bad hellos
        with connect(f"{server.ws_url}/ws/tables/{t['id']}", open_timeout=10) as raw:
            raw.send(hello)
            assert json.loads(raw.recv(timeout=10))["error"] == "bad_hello"
    assert client.get(f"/api/tables/{t['id']}").json()["version"] == 0
    log = server.log_path.read_text()
    assert "Traceback" not in log and "RecursionError" not in log


# -- item 10: headers ---------------------------------------------------------------------------------
def test_security_headers(client: httpx.Client) -> None:
    for path in ("/", "/t/abc", "/api/games", "/static/table.js", "/no/such/page"):
        h = client.get(path).headers
        csp = h["content-security-policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-eval" not in csp
        assert h["x-frame-options"] == "DENY"
        assert h["referrer-policy"] == "no-referrer"
        assert h["x-content-type-options"] == "nosniff"


def test_seat_token_leaves_the_address_bar() -> None:
    from pathlib import Path

    js = (Path(__file__).resolve().parents[2] / "src" / "boardlab" / "web" / "common.js").read_text()
    start = js.index("export function tokensFor")
    body = js[start : js.index("\n}\n", start)]
    assert "history.replaceState" in body  # test_browser_hardening.py checks the address in chromium


# -- item 7: limits -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("strict")
    env = {
        "BOARDLAB_RATE_CREATE": "1000/minute",  # the caps below, not the rate (its own server: `throttled`)
        "BOARDLAB_MAX_TABLES_PER_CLIENT": "12",
        "BOARDLAB_MAX_LOBBY_PER_CLIENT": "2",
        "BOARDLAB_MAX_BOT_TABLES_PER_CLIENT": "2",
        "BOARDLAB_HEADER_TIMEOUT": "1",
        "BOARDLAB_BODY_TIMEOUT": "1",
        "BOARDLAB_BOT_DELAY": "30",  # bots think for ever: their tables stay unfinished
    }
    with serving("sqlite", tmp, env) as srv:
        yield srv


@pytest.fixture(scope="module")
def throttled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose table-creation rate is 8 a minute: a window no slow machine outlasts (5 a second was
    flaky under load: a loaded machine never sent 6 in one second)."""
    tmp = tmp_path_factory.mktemp("throttled")
    env = {"BOARDLAB_RATE_CREATE": "8/minute"}
    with serving("sqlite", tmp, env) as srv:
        yield srv


def _create(c: httpx.Client, client_ip: str, **kw: object) -> httpx.Response:
    seats = kw.pop("seats", [{"kind": "human"}] * 2)
    body = {"game": "tally", "players": 2, "seats": seats, **kw}
    # uvicorn trusts X-Forwarded-For from 127.0.0.1 (the proxy case): one machine, many clients
    return c.post("/api/tables", json=body, headers={"X-Forwarded-For": client_ip})


def test_rate_limit_on_table_creation(throttled: Server) -> None:
    with httpx.Client(base_url=throttled.url, timeout=10) as c:
        codes = [_create(c, "10.0.0.1").status_code for _ in range(12)]
        assert codes == [201] * 8 + [429] * 4, codes
        r = _create(c, "10.0.0.1")
        assert r.status_code == 429 and r.json()["error"] == "rate_limited" and "retry-after" in r.headers
        assert _create(c, "10.0.0.2").status_code == 201  # another client is not held back
        refused = sum(_create(c, "10.0.0.3").status_code == 429 for _ in range(40))
    assert refused == 32
    # each 429 wrote a WARNING line: now one a minute at most, saying how many were held back
    lines = [ln for ln in throttled.log_path.read_text().splitlines() if "exceeded at endpoint" in ln]
    assert 1 <= len(lines) <= 2, lines


def test_caps_per_client(strict: Server) -> None:
    with httpx.Client(base_url=strict.url, timeout=10) as c:
        lobby = [{"kind": "human"}, {"kind": "open"}]
        got = []
        for _ in range(3):
            got.append(_create(c, "10.0.1.1", seats=lobby, public=True).status_code)
        assert got == [201, 201, 429], got
        bots = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
        got = []
        for _ in range(3):
            got.append(_create(c, "10.0.1.1", seats=bots).status_code)
        assert got == [201, 201, 429], got
        r = _create(c, "10.0.1.1", seats=bots)
        assert r.json()["error"] == "too_many_tables"
        got = []
        for _ in range(10):
            got.append(_create(c, "10.0.1.1").status_code)
        assert got.count(201) == 8 and got[-1] == 429, got  # 12 unfinished tables in all
        # random bots are O(1) and do not count as bot tables; a finished table frees its place
        assert _create(c, "10.0.1.3", seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}]).status_code == 201
        t = _create(c, "10.0.1.4", options={"target": 1}).json()
        tok = t["seats"][0]["token"]
        assert c.post(f"/api/tables/{t['id']}/actions", headers=auth(tok), json={"move": 0, "action": "add1"}).json()[
            "over"
        ]


def test_header_and_body_limits(strict: Server) -> None:
    s = rawclient.connect(strict.port)
    # headers are read in chunks of at most 256 KiB; a request still incomplete past 16 KiB is refused
    with contextlib.suppress(OSError):  # the server may close before it has read everything
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 1_000_000 + b"\r\n\r\n")
    assert rawclient.http_status(s) in (400, None)
    s.close()
    # a complete request whose headers are over 16 KiB, sent at once: 431 (the parser's limit above holds only
    # while the headers are incomplete)
    s = rawclient.connect(strict.port)
    s.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 60_000 + b"\r\n\r\n")
    assert rawclient.http_status(s) == 431
    s.close()
    with httpx.Client(base_url=strict.url) as c:
        assert c.get("/api/games", headers={"X-Fine": "a" * 8_000}).status_code == 200
    # slowloris: headers that never end are cut after BOARDLAB_HEADER_TIMEOUT
    s = rawclient.connect(strict.port)
    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
    t0 = time.monotonic()
    for _ in range(10):
        time.sleep(0.3)
        try:
            s.sendall(b"X-a: b\r\n")
        except OSError:
            break
    s.settimeout(5)
    with contextlib.suppress(ConnectionResetError):
        assert s.recv(100) == b""
    assert time.monotonic() - t0 < 5
    s.close()
    # a body that stops coming: refused after BOARDLAB_BODY_TIMEOUT (FastAPI turns the read error into a 400)
    s = rawclient.connect(strict.port)
    s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{")
    t0 = time.monotonic()
    assert rawclient.http_status(s) in (400, 408)
    assert time.monotonic() - t0 < 4
    s.close()
    # a body over 64 KiB: 413 (the limit existed; kept)
    with httpx.Client(base_url=strict.url) as c:
        assert c.post("/api/tables", content=b"x" * 70_000).status_code == 413


def test_server_survives_a_flood_of_connections(strict: Server) -> None:
    socks = []
    for _ in range(200):
        s = socket.create_connection(("127.0.0.1", strict.port))
        socks.append(s)
    with httpx.Client(base_url=strict.url, timeout=10) as c:
        assert c.get("/healthz").status_code == 200
    for s in socks:
        s.close()
