"""Friends, blocks, chat reports and the spectators' chat (issue #34), against a real server process on SQLite and
PostgreSQL: the lobby lists friends' open tables first; a blocked player's seat is refused (join and claim) and
their chat lines are not delivered to whoever blocked them (WebSocket and history); a report keeps the line as it
was for the admins and is rate-limited per account; spectators talk in their own channel, which the players of a
rated game do not see until it ends. Uses the test game tally."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from srvkit import Server, auth, serving, wait_for
from test_site import account, play_out, somewhere
from wsutil import Ws

ADMIN = "mod_ann"
REPORTS_PER_HOUR = 3


@pytest.fixture(scope="module")
def srv(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own: an admin account name and a small report budget are settings of the process."""
    env = {"BOARDLAB_ADMINS": ADMIN, "BOARDLAB_REPORTS_PER_HOUR": str(REPORTS_PER_HOUR)}
    with serving(backend, Path(tmp_path_factory.mktemp(f"social-{backend}")), env=env) as s:
        yield s


def csrf(csrf: str) -> dict[str, str]:
    return {"X-CSRF-Token": csrf}


def table(c: httpx.Client, token: str, rated: bool = False, public: bool = True) -> dict[str, Any]:
    """A tally table whose first seat is the signed-in creator's and whose second is open."""
    r = c.post("/api/site/tables", headers=csrf(token), json={
        "game": "tally", "players": 2, "options": {"target": 8}, "rated": rated, "public": public,
        "seats": [{"kind": "human"}, {"kind": "open"}]})
    assert r.status_code == 201, r.text
    return dict(r.json())


def sit(c: httpx.Client, token: str, tid: str) -> str:
    """Join the open seat signed in and keep it in the account, as the lobby does: the seat's token."""
    j = c.post(f"/api/tables/{tid}/join", json={})
    assert j.status_code == 200, j.text
    r = c.post(f"/api/tables/{tid}/claim", headers={**csrf(token), **auth(j.json()["token"])})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def say(c: httpx.Client, tid: str, text: str, **kw: Any) -> dict[str, Any]:
    r = c.post(f"/api/tables/{tid}/chat", json={"text": text, **kw.pop("body", {})}, **kw)
    assert r.status_code == 200, r.text
    return dict(r.json())


def texts(c: httpx.Client, tid: str, **kw: Any) -> list[str]:
    r = c.get(f"/api/tables/{tid}/chat", **kw)
    assert r.status_code == 200, r.text
    return [m["text"] for m in r.json()["chat"]]


def test_friends_open_tables_come_first_in_the_lobby(srv: Server) -> None:
    a, na, ca = account(srv)
    b, nb, cb = account(srv)
    c, _nc, cc = account(srv)
    friends_table = table(b, cb)["id"]
    newer = table(c, cc)["id"]  # newer, so listed before the friend's table until they are friends
    assert [r["id"] for r in a.get("/api/tables").json()][:2] == [newer, friends_table]
    assert a.put(f"/api/me/friends/{nb}").status_code == 403  # a change needs the CSRF token
    assert a.put(f"/api/me/friends/{nb}", headers=csrf(ca)).json() == {"friend": nb}
    assert a.put(f"/api/me/friends/{na}", headers=csrf(ca)).json()["error"] == "self"
    assert a.put("/api/me/friends/nobody_here", headers=csrf(ca)).json()["error"] == "no_user"
    assert a.get("/api/me/friends").json() == {"friends": [nb], "blocked": []}
    rows = a.get("/api/tables").json()
    assert rows[0]["id"] == friends_table and rows[0]["friends"] == [nb]
    assert next(r for r in rows if r["id"] == newer)["friends"] == []
    assert "friends" not in somewhere(srv).get("/api/tables").json()[0]  # signed out: the list as it was
    assert a.delete(f"/api/me/friends/{nb}", headers=csrf(ca)).status_code == 200
    assert a.get("/api/tables").json()[0]["id"] == newer


def test_a_blocked_player_cannot_take_a_seat_at_your_tables(srv: Server) -> None:
    a, na, ca = account(srv)
    b, nb, cb = account(srv)
    assert a.put(f"/api/me/friends/{nb}", headers=csrf(ca)).status_code == 200
    assert a.put(f"/api/me/blocks/{nb}", headers=csrf(ca)).json() == {"blocked": nb}
    assert a.get("/api/me/friends").json() == {"friends": [], "blocked": [nb]}  # a blocked friend is no friend
    tid = table(a, ca)["id"]
    r = b.post(f"/api/tables/{tid}/join", json={})
    assert r.status_code == 403 and r.json()["error"] == "blocked" and "blocked you" in r.json()["detail"]
    st = b.get(f"/api/tables/{tid}").json()
    assert st["seats"][1]["kind"] == "open"  # refused: nothing changed
    # joined signed out, the guest seat cannot be kept in the blocked account
    guest = somewhere(srv).post(f"/api/tables/{tid}/join", json={}).json()["token"]
    r = b.post(f"/api/tables/{tid}/claim", headers={**csrf(cb), **auth(guest)})
    assert r.status_code == 403 and r.json()["error"] == "blocked"
    assert a.get(f"/api/tables/{tid}", headers=auth(guest)).json()["site"]["users"] == [na, None]  # still a guest
    # the one who blocked cannot sit down with them either, and is told why
    theirs = table(b, cb)["id"]
    assert a.post(f"/api/tables/{theirs}/join", json={}).json()["error"] == "you_blocked"
    # unblocked from the account page: the seat is taken
    assert a.delete(f"/api/me/blocks/{nb}", headers=csrf(ca)).json() == {"unblocked": nb}
    assert a.get("/api/me/friends").json()["blocked"] == []
    sit(b, cb, table(a, ca)["id"])


def test_a_blocked_players_chat_is_not_delivered_to_whoever_blocked_them(srv: Server) -> None:
    a, _na, ca = account(srv)
    b, nb, cb = account(srv)
    made = table(a, ca)
    tid, ta = made["id"], made["seats"][0]["token"]
    tb = sit(b, cb, tid)
    assert a.put(f"/api/me/blocks/{nb}", headers=csrf(ca)).status_code == 200
    with Ws(srv.ws_url, tid, [ta]) as wa, Ws(srv.ws_url, tid) as watcher:
        wa.state()
        watcher.state()
        say(b, tid, "from the blocked one", headers=auth(tb))
        say(a, tid, "from a", headers=auth(ta))
        # pushes keep their order: a's own line arriving without b's before it means b's was not delivered
        got = wa.until(lambda m: m.get("type") == "chat")
        assert got["text"] == "from a"
        seen = [watcher.until(lambda m: m.get("type") == "chat")["text"] for _ in range(2)]
        assert seen == ["from the blocked one", "from a"]  # others still read both
    assert texts(a, tid, headers=auth(ta)) == ["from a"]  # the history leaves it out too
    assert texts(a, tid) == ["from a"]  # signed in, without the seat's token
    assert texts(b, tid, headers=auth(tb)) == ["from the blocked one", "from a"]
    assert a.delete(f"/api/me/blocks/{nb}", headers=csrf(ca)).status_code == 200
    assert texts(a, tid, headers=auth(ta)) == ["from the blocked one", "from a"]


def test_a_report_keeps_the_line_for_the_admins_and_is_rate_limited(srv: Server) -> None:
    a, na, ca = account(srv)
    b, nb, cb = account(srv)
    admin, _n, cadm = account(srv, ADMIN)
    made = table(a, ca)
    tid, ta = made["id"], made["seats"][0]["token"]
    tb = sit(b, cb, tid)
    lines = [say(b, tid, f"rude {i}", headers=auth(tb))["n"] for i in range(5)]
    mine = say(a, tid, "my own", headers=auth(ta))["n"]
    url = f"/api/tables/{tid}/chat/{lines[0]}/report"
    assert somewhere(srv).post(url).status_code == 401  # signed in only
    assert a.post(url).json()["error"] == "bad_csrf"
    r = a.post(url, headers=csrf(ca))
    assert r.status_code == 201 and r.json()["text"] == "rude 0" and r.json()["author"] == nb, r.text
    assert a.post(url, headers=csrf(ca)).json()["error"] == "already_reported"
    assert a.post(f"/api/tables/{tid}/chat/{mine}/report", headers=csrf(ca)).json()["error"] == "own_message"
    assert a.post(f"/api/tables/{tid}/chat/9999/report", headers=csrf(ca)).json()["error"] == "no_message"
    codes = [a.post(f"/api/tables/{tid}/chat/{n}/report", headers=csrf(ca)).status_code for n in lines[1:]]
    assert codes == [201] * (REPORTS_PER_HOUR - 1) + [429] * (len(lines) - REPORTS_PER_HOUR)
    assert a.get("/api/admin/reports").json()["error"] == "not_admin"
    assert admin.get("/api/admin/reports", headers=csrf(cadm)).status_code == 200
    reports = admin.get("/api/admin/reports").json()["reports"]
    assert [(x["reporter"], x["author"], x["text"], x["table"], x["n"]) for x in reversed(reports)] == [
        (na, nb, f"rude {i}", tid, lines[i]) for i in range(REPORTS_PER_HOUR)
    ]
    assert all(x["channel"] == "players" and x["at"] > 0 for x in reports)


def test_spectators_chat_is_hidden_from_the_players_of_a_rated_game_until_it_ends(srv: Server) -> None:
    a, _na, ca = account(srv)
    b, _nb, cb = account(srv)
    c, nc, cc = account(srv)
    made = table(a, ca, rated=True)
    tid, ta = made["id"], made["seats"][0]["token"]
    tb = sit(b, cb, tid)
    spectators = {"channel": "spectators"}
    r = somewhere(srv).post(f"/api/tables/{tid}/chat", json={"text": "hi", **spectators})
    assert r.json()["error"] == "not_signed_in"  # spectators talk signed in
    r = a.post(f"/api/tables/{tid}/chat", json={"text": "hi", **spectators}, headers={**csrf(ca), **auth(ta)})
    assert r.json()["error"] == "not_a_spectator"
    with Ws(srv.ws_url, tid, [ta]) as wa, Ws(srv.ws_url, tid) as watcher:
        wa.state()
        watcher.state()
        line = say(c, tid, "she should play add2", body=spectators, headers=csrf(cc))
        assert line["channel"] == "spectators" and line["seat"] is None and line["name"] == nc
        say(a, tid, "good luck", headers=auth(ta))
        assert wa.until(lambda m: m.get("type") == "chat")["text"] == "good luck"  # not the spectator's line
        seen = [watcher.until(lambda m: m.get("type") == "chat") for _ in range(2)]
        assert [(m["channel"], m["text"]) for m in seen] == [
            ("spectators", "she should play add2"), ("players", "good luck")]  # spectators read both
    q = {"params": {"channel": "spectators"}}
    for reader in ({"headers": auth(ta)}, {"headers": auth(tb)}, {}):
        who = b if reader.get("headers") == auth(tb) else a
        r = who.get(f"/api/tables/{tid}/chat", **q, **reader)
        assert r.status_code == 403 and r.json()["error"] == "spectator_chat_hidden", r.text
    assert texts(somewhere(srv), tid, **q) == ["she should play add2"]
    assert texts(a, tid, headers=auth(ta)) == ["good luck"]  # the players' channel holds the players' lines
    play_out(a, tid, {0: ta, 1: tb})
    wait_for(lambda: a.get(f"/api/tables/{tid}", headers=auth(ta)).json()["over"], "the end of the game")
    assert texts(a, tid, **q, headers=auth(ta)) == ["she should play add2"]  # after the game they may


def test_players_of_an_unrated_game_read_the_spectators_chat(srv: Server) -> None:
    a, _na, ca = account(srv)
    c, _nc, cc = account(srv)
    made = table(a, ca)
    say(c, made["id"], "nice move", body={"channel": "spectators"}, headers=csrf(cc))
    assert texts(a, made["id"], params={"channel": "spectators"}, headers=auth(made["seats"][0]["token"])) == [
        "nice move"]
