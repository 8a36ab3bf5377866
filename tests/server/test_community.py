"""Issue #34's community parts against a real server process (SQLite and PostgreSQL): the count of tables waiting
for a player's move (the header's My games link), profiles that list each game with opponents, date, result and
leavers, leaderboards per game and player count, and player search. Uses the test game tally."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
from srvkit import Server, auth, serving, wait_for
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


def rated_game(server: Server) -> tuple[httpx.Client, str, str]:
    """A rated 2-player tally game between two new accounts that the first wins: (client, winner, loser)."""
    a, na, csrf_a = account(server)
    b, nb, csrf_b = account(server)
    tid, tok_a = rated_table(a, csrf_a, {"kind": "open"})
    tok_b = join(b, csrf_b, tid)
    play(a, tid, {0: tok_a, 1: tok_b})
    wait_for(lambda: a.get(f"/api/users/{nb}").json()["recent"], "the results")
    return a, na, nb


def test_leaderboard_per_game_and_player_count_paged_and_player_search(server: Server) -> None:
    a, na, nb = rated_game(server)
    board = a.get("/api/leaderboard/tally", params={"players": 2}).json()
    names = [r["name"] for r in board["rows"]]
    assert na in names and nb in names and names.index(na) < names.index(nb)  # the winner above
    assert board["total"] >= 2 and board["page"] == 0 and board["per_page"] == 50
    ratings = [r["rating"] for r in board["rows"]]
    assert ratings == sorted(ratings, reverse=True) and [r["place"] for r in board["rows"]] == list(
        range(1, len(ratings) + 1))
    mine = next(r for r in board["rows"] if r["name"] == na)
    assert mine["games_here"] == 1 and mine["provisional"] is True
    assert mine["rating"] == a.get(f"/api/users/{na}").json()["games"][0]["rating"]
    # another player count: only those who played rated games at it (nobody here at 3)
    assert a.get("/api/leaderboard/tally", params={"players": 3}).json()["rows"] == []
    far = a.get("/api/leaderboard/tally", params={"players": 2, "page": 1000}).json()
    assert far["rows"] == [] and far["total"] == board["total"]
    assert a.get("/api/leaderboard/tally", params={"players": 9}).json()["error"] == "bad_players"
    assert a.get("/api/leaderboard/nope", params={"players": 2}).json()["error"] == "no_game"
    # search by the start of a name, case and width folded; LIKE's wildcards are plain characters
    assert na in a.get("/api/users", params={"prefix": na[:5].upper()}).json()["users"]
    assert a.get("/api/users", params={"prefix": "％"}).json()["users"] == []
    assert a.get("/api/users", params={"prefix": "_"}).json()["users"] == []
    assert a.get("/api/users", params={"prefix": ""}).status_code == 422


def test_the_rating_changes_of_a_finished_table_survive_a_restart(tmp_path: Path) -> None:
    """The game-over box reads `site.changes`; after a restart they come back from the stored results, with the
    provisional marks as they were at that game."""
    with serving("sqlite", tmp_path) as server:
        a, _na, csrf_a = account(server)
        b, _nb, csrf_b = account(server)
        tid, tok_a = rated_table(a, csrf_a, {"kind": "open"})
        tok_b = join(b, csrf_b, tid)
        play(a, tid, {0: tok_a, 1: tok_b})
        st = wait_for(lambda: (s := a.get(f"/api/tables/{tid}", headers=auth(tok_a)).json())["site"]["results_done"]
                      and s, "the results")
        before = st["site"]["changes"]
        assert all(c is not None for c in before), before
        server.stop()
        server.start()
        with httpx.Client(base_url=server.url, timeout=20) as c:
            again = c.get(f"/api/tables/{tid}", headers=auth(tok_a)).json()["site"]
        assert again["results_done"] is True and again["changes"] == before
