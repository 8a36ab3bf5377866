"""Back-pressure (issue #11, item 6): a client that stops reading is dropped, its seat goes away and
can be handed to a bot, and a spectator joining costs one push, not one per connection."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import rawclient
from srvkit import Server, auth, make_table
from wsutil import Ws


@pytest.fixture(scope="module")
def tight(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with a small WebSocket queue and a short send deadline, so a stall shows quickly."""
    tmp = tmp_path_factory.mktemp("tight")
    env = {
        "BOARDLAB_WS_QUEUE": "16",
        "BOARDLAB_WS_SEND_TIMEOUT": "2",
        "BOARDLAB_ABSENT_GRACE": "1",
        "BOARDLAB_RATE_LIMIT": "100000/second",
        "BOARDLAB_SQLITE_SYNC": "OFF",  # thousands of changes: no fsync each
    }
    srv = Server(f"sqlite:///{tmp / 'db.sqlite3'}", tmp / "server.log", env=env).start()
    try:
        yield srv
    finally:
        srv.stop()


def _seat_connected(c: httpx.Client, tid: str, seat: int) -> bool:
    return bool(c.get(f"/api/tables/{tid}").json()["seats"][seat]["connected"])


def _flood(srv: Server, c: httpx.Client, tid: str, tok0: str, most: int = 20_000) -> int:
    """Seat 0 plays and takes back over its own WebSocket until seat 1 shows as gone; every change is
    pushed to the stalled socket. Messages go 100 at a time without waiting (the server handles one
    connection's messages in order), then their acks are checked. Returns the changes made."""
    n = 0
    with Ws(srv.ws_url, tid, [tok0]) as me:
        v = me.state(0)["version"]
        while n < most:
            for k in range(100):
                kind = "act" if (v + k) % 2 == 0 else "undo"
                me.send({"type": kind, "seat": 0, "move": v + k, "action": "add1", "id": v + k})
            for _ in range(100):
                ack = me.until(lambda m: m.get("type") in ("ack", "error"), timeout=60)
                assert ack["type"] == "ack", ack
            v, n = v + 100, n + 100
            if not _seat_connected(c, tid, 1):
                break
    return n


def test_client_that_stops_reading_is_dropped_and_replaced(tight: Server) -> None:
    with httpx.Client(base_url=tight.url, timeout=10) as c:
        t = make_table(c, options={"target": 10**6})
        tid, toks = t["id"], [s["token"] for s in t["seats"]]
        # the stalled client holds both seats (hot-seat): two pushes per change
        stalled = rawclient.ws_open(tight.port, tid, {"type": "hello", "tokens": toks[::-1]}, rcvbuf=2048)
        try:
            deadline = time.monotonic() + 5
            while not _seat_connected(c, tid, 1):
                assert time.monotonic() < deadline, "the seat never showed as connected"
                time.sleep(0.05)
            n = _flood(tight, c, tid, toks[0])
            assert not _seat_connected(c, tid, 1), f"a client that reads nothing still holds its seat after {n} changes"
            time.sleep(1.2)  # BOARDLAB_ABSENT_GRACE
            r = c.post(f"/api/tables/{tid}/seats/1/bot", headers=auth(toks[0]), json={"bot": "random", "confirm": True})
            assert r.status_code == 200, r.text
            assert "dropping a WebSocket that does not keep up" in tight.log_path.read_text()
            # the game goes on: seat 0 ends its turn, the bot plays seat 1, seat 0 is to move again
            v = c.get(f"/api/tables/{tid}", headers=auth(toks[0])).json()["version"]
            assert (
                c.post(
                    f"/api/tables/{tid}/actions", headers=auth(toks[0]), json={"move": v, "action": "end"}
                ).status_code
                == 200
            )
            deadline = time.monotonic() + 10
            while c.get(f"/api/tables/{tid}").json()["current"] != 0:
                assert time.monotonic() < deadline, "the bot did not play the dropped seat"
                time.sleep(0.05)
            # after the drop the server lets go of the socket itself: the stream ends, it does not hang
            time.sleep(2.5)  # the close frame cannot get through; the socket is aborted 2 s after the handler
            stalled.settimeout(10)
            got, t0 = 0, time.monotonic()
            try:
                while d := stalled.recv(1 << 20):
                    got += len(d)
            except ConnectionResetError:
                pass
            except TimeoutError:
                raise AssertionError(f"stalled after {got} bytes, {time.monotonic() - t0:.1f} s") from None
        finally:
            stalled.close()


@pytest.fixture(scope="module")
def pinging(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Pings every second (a server of its own: a well-behaved client on a loaded machine can be a
    second late with its pong, which would spoil the other tests)."""
    tmp = tmp_path_factory.mktemp("pinging")
    env = {"BOARDLAB_WS_PING": "1", "BOARDLAB_ABSENT_GRACE": "1"}
    srv = Server(f"sqlite:///{tmp / 'db.sqlite3'}", tmp / "server.log", env=env).start()
    try:
        yield srv
    finally:
        srv.stop()


def test_presence_comes_from_heartbeats(pinging: Server) -> None:
    """A peer that reads everything but never answers a ping (a dead browser tab behind a live proxy,
    say) is dropped after the ping interval + timeout (1 s + 1 s here), and its seat shows as away."""
    with httpx.Client(base_url=pinging.url, timeout=10) as c:
        t = make_table(c, options={"target": 10**6})
        tid, toks = t["id"], [s["token"] for s in t["seats"]]
        deaf = rawclient.ws_open(pinging.port, tid, {"type": "hello", "tokens": [toks[1]]})
        deaf.settimeout(0.2)
        try:
            t0 = time.monotonic()
            seen_connected = False
            while time.monotonic() - t0 < 10:
                try:  # read and throw away (pings included): never answer
                    if not deaf.recv(65536):
                        break
                except TimeoutError:
                    pass
                except ConnectionResetError:
                    break
                connected = _seat_connected(c, tid, 1)
                seen_connected |= connected
                if seen_connected and not connected:
                    break
            # the socket may end (closed or reset by the server) a moment before the seat's presence is
            # updated: give the server that moment rather than reading the state at the same instant
            while _seat_connected(c, tid, 1) and time.monotonic() - t0 < 10:
                time.sleep(0.05)
            assert seen_connected and not _seat_connected(c, tid, 1)
            assert time.monotonic() - t0 < 6
        finally:
            deaf.close()


def test_spectator_connect_pushes_only_to_itself(tight: Server) -> None:
    with httpx.Client(base_url=tight.url, timeout=10) as c:
        t = make_table(c, options={"target": 10**6})
        tid, toks = t["id"], [s["token"] for s in t["seats"]]
    with Ws(tight.ws_url, tid, [toks[0]]) as seat0:
        seat0.state(0)
        watchers = [Ws(tight.ws_url, tid) for _ in range(20)]
        try:
            for w in watchers:
                assert w.state()["seat"] is None
            # a seat holder's second tab changes nobody's view either
            with Ws(tight.ws_url, tid, [toks[0]]) as tab2:
                tab2.state(0)
            time.sleep(0.5)
            extra = []
            try:
                while True:
                    extra.append(seat0.recv(timeout=0.3))
            except TimeoutError:
                pass
            assert extra == [], f"{len(extra)} pushes to a seat while spectators came and went"
            # a seat coming online does change what everyone sees: one push each
            with Ws(tight.ws_url, tid, [toks[1]]) as seat1:
                seat1.state(1)
                m = seat0.state(0)
                assert m["seats"][1]["connected"] is True
                assert all(w.state()["seats"][1]["connected"] for w in watchers)
        finally:
            for w in watchers:
                w.close()


def test_presence_settings_are_documented() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "server.md").read_text()
    for setting in ("BOARDLAB_WS_QUEUE", "BOARDLAB_WS_SEND_TIMEOUT", "BOARDLAB_WS_PING"):
        assert setting in doc
