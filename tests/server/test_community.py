"""Issue #34's community parts against a real server process (SQLite and PostgreSQL): the count of tables waiting
for a player's move (the header's My games link), profiles that list each game with opponents, date, result and
leavers, leaderboards per game and player count, and player search. Uses the test game tally."""

from __future__ import annotations

import time

import httpx
from srvkit import Server, auth, wait_for
from test_rating_farm import join, play, rated_table
from test_site import account


def test_my_turns_counts_unfinished_tables_waiting_for_my_move(server: Server) -> None:
    a, _na, csrf = account(server)
    assert a.get("/api/me/turns").json() == {"count": 0, "tables": []}
    made = []
    for _ in range(2):
        r = a.post("/api/site/tables", headers={"X-CSRF-Token": csrf},
                   json={"game": "tally", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})
        assert r.status_code == 201, r.text
        made.append(r.json())
    got = a.get("/api/me/turns").json()
    assert got["count"] == 2 and sorted(got["tables"]) == sorted(m["id"] for m in made)
    tid, tok = made[0]["id"], made[0]["seats"][0]["token"]
    r = a.post(f"/api/tables/{tid}/actions", headers=auth(tok), json={"move": 0, "action": "end"})
    assert r.status_code == 200, r.text
    assert a.get("/api/me/turns").json() == {"count": 1, "tables": [made[1]["id"]]}
    assert server.url and a.cookies  # signed in; a guest is refused
    assert a.__class__(base_url=server.url).get("/api/me/turns").status_code == 401


def left_game(server: Server) -> tuple[httpx.Client, str, str, str]:
    """A rated game of A against B in which B moves once, then leaves (a bot finishes it): (client, A, B, table)."""
    a, na, csrf_a = account(server)
    b, nb, csrf_b = account(server)
    tid, tok_a = rated_table(a, csrf_a, {"kind": "open"})
    tok_b = join(b, csrf_b, tid)
    for tok in (tok_a, tok_b):
        st = a.get(f"/api/tables/{tid}", headers=auth(tok_a)).json()
        r = a.post(f"/api/tables/{tid}/actions", headers=auth(tok), json={"move": st["version"], "action": "end"})
        assert r.status_code == 200, r.text
    assert b.post(f"/api/tables/{tid}/seats/1/bot", headers=auth(tok_b), json={"bot": "easy"}).status_code == 200
    play(a, tid, {0: tok_a})
    return a, na, nb, tid


def test_a_profile_lists_each_game_with_opponents_date_result_and_who_left(server: Server) -> None:
    a, na, nb, tid = left_game(server)
    mine = wait_for(lambda: (p := a.get(f"/api/users/{na}").json())["recent"] and p, "A's result")
    theirs = a.get(f"/api/users/{nb}").json()
    g = mine["recent"][0]
    assert g["table"] == tid and g["players"] == 2 and g["rank"] == 1 and g["left"] is False
    assert g["opponents"] == [{"seat": 1, "name": nb, "kind": "account", "rank": 2, "left": True}]
    assert abs(g["at"] - time.time()) < 600
    h = theirs["recent"][0]
    assert h["table"] == tid and h["left"] is True and h["rank"] == 2
    assert h["opponents"][0]["name"] == na and h["opponents"][0]["left"] is False
    assert mine["page"] == 0 and mine["more"] is False
    later = a.get(f"/api/users/{na}", params={"page": 1}).json()
    assert later["recent"] == [] and later["more"] is False and later["games"] == mine["games"]
    assert a.get(f"/api/users/{na}", params={"page": -1}).status_code == 422
