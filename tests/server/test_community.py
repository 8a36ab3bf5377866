"""Issue #34's community parts against a real server process (SQLite and PostgreSQL): the count of tables waiting
for a player's move (the header's My games link), profiles that list each game with opponents, date, result and
leavers, leaderboards per game and player count, and player search. Uses the test game tally."""

from __future__ import annotations

from srvkit import Server, auth
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
