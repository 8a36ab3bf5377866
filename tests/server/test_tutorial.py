"""A guided first game on a real server (issue #31): `POST /api/tutorials/{game}` makes a private, unrated table
with the tutorial's deal; during the script the player may play only the move the script teaches (any other,
even a legal one, is refused and changes nothing) and the easy bot replies with the scripted moves; then the
table is a normal game. The mode is stored: a restarted server goes on with the script."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from srvkit import Server, auth, serving, wait_for

from boardlab.core import get_game, tutorial


def _state(c: httpx.Client, tid: str, tok: str) -> dict[str, Any]:
    r = c.get(f"/api/tables/{tid}", headers=auth(tok))
    assert r.status_code == 200, r.text
    return dict(r.json())


def _play_steps(c: httpx.Client, tid: str, tok: str, tut: tutorial.Tutorial, upto: int) -> dict[str, Any]:
    """Play the player's steps until `upto` log entries are the script's, waiting for the bot's scripted replies."""
    while True:
        s = wait_for(lambda: (x := _state(c, tid, tok))["current"] == tut.you and not x["thinking"] and x,
                     "the player's turn")
        n = s["log_len"]
        if n >= upto:
            return s
        assert s["tutorial"]["move"] == tut.steps[n].move and s["tutorial"]["text"] and s["tutorial"]["move_text"]
        body = {"move": s["version"], "action": s["tutorial"]["move"]}
        r = c.post(f"/api/tables/{tid}/actions", headers=auth(tok), json=body)
        assert r.status_code == 200, r.text


def test_a_tutorial_table_follows_its_script_then_plays_on(client: httpx.Client) -> None:
    tut = tutorial.load(get_game("cacao"))
    assert tut is not None
    r = client.post("/api/tutorials/cacao")
    assert r.status_code == 201, r.text
    tid, tok = r.json()["table"], r.json()["token"]
    s = _state(client, tid, tok)
    assert s["seat"] == tut.you and not s["public"] and not s["site"]["rated"]
    assert [x["kind"] for x in s["seats"]] == ["human" if i == tut.you else "bot" for i in range(tut.players)]
    part = s["tutorial"]
    assert part["step"] == 0 and part["steps"] == len(tut.player_steps) and not part["done"] and part["intro"]
    # another legal move than the lesson's: refused, nothing changed
    other = next(m["action"] for m in s["legal"] if m["action"] != part["move"])
    r = client.post(f"/api/tables/{tid}/actions", headers=auth(tok), json={"move": s["version"], "action": other})
    assert r.status_code == 409 and r.json()["error"] == "tutorial_step", r.text
    assert _state(client, tid, tok)["version"] == s["version"]
    # the script to its end: the bot's replies are the scripted ones
    s = _play_steps(client, tid, tok, tut, len(tut.steps))
    log = client.get(f"/api/tables/{tid}/log", headers=auth(tok)).json()["log"]
    assert [e["action"] for e in log] == [x.move for x in tut.steps]
    assert s["tutorial"]["done"] and s["tutorial"]["move"] is None and s["tutorial"]["done_text"]
    # free play: any legal move now
    last = s["legal"][-1]["action"]
    r = client.post(f"/api/tables/{tid}/actions", headers=auth(tok), json={"move": s["version"], "action": last})
    assert r.status_code == 200, r.text


def test_a_game_without_a_tutorial_or_no_game_is_refused(client: httpx.Client) -> None:
    r = client.post("/api/tutorials/tally")  # the test game has no tutorial.json
    assert r.status_code == 404 and r.json()["error"] == "no_tutorial", r.text
    r = client.post("/api/tutorials/no-such-game")
    assert r.status_code == 404 and r.json()["error"] == "no_game", r.text


def test_the_tutorial_mode_survives_a_restart(tmp_path: Path) -> None:
    tut = tutorial.load(get_game("block_and_key"))
    assert tut is not None
    middle = tut.player_steps[1]  # a few steps in, the bot's scripted replies still to come
    with serving("sqlite", tmp_path) as srv, httpx.Client(base_url=srv.url, timeout=20) as c:
        r = c.post("/api/tutorials/block_and_key")
        tid, tok = r.json()["table"], r.json()["token"]
        _play_steps(c, tid, tok, tut, middle)
        srv.kill()
        again = Server(srv.db_url, tmp_path / "server2.log").start()
        try:
            with httpx.Client(base_url=again.url, timeout=20) as c2:
                s = _state(c2, tid, tok)
                assert s["tutorial"]["move"] == tut.steps[middle].move
                s = _play_steps(c2, tid, tok, tut, len(tut.steps))
                log = c2.get(f"/api/tables/{tid}/log", headers=auth(tok)).json()["log"]
                assert [e["action"] for e in log] == [x.move for x in tut.steps] and s["tutorial"]["done"]
        finally:
            again.stop()
