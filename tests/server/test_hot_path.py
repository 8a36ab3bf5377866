"""The move's hot path (issue #36, docs/benchmarks.md "Server CPU per move"): what a move costs once instead of
once per language, seat or spectator, with the same messages and log lines as before."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path

import orjson

from boardlab.core import get_game, narration
from boardlab.server.bots import BotRunner
from boardlab.server.service import TableService, _share
from boardlab.server.site import Site
from boardlab.server.store import Store
from boardlab.server.table import make_entry, state_message


def _cacao(moves: int, players: int = 4, seed: int = 5):  # type: ignore[no-untyped-def]
    game = get_game("cacao")
    state = game.new_game(players, seed)
    for _ in range(moves):
        state.apply(state.legal_actions()[0])
    return game, state


def test_a_logged_move_is_worded_from_the_position_the_server_played_it_to() -> None:
    game, before = _cacao(6)
    for action in before.legal_actions()[:5]:
        after = before.clone()
        after.apply(action, before.current_player)
        with narration.played(before, action, after):
            assert narration.after_of(before, action) is after  # not played a second time
        # and not held past the block: the thread's cache keeps no server state alive
        assert all(e[1] is not after for e in narration._entries().values())
        seat = before.current_player
        fresh = make_entry(game, 6, seat, action, before.clone(), 4, after.clone())  # words from a played copy
        reused = make_entry(game, 6, seat, action, before, 4, after)
        assert reused == fresh


def test_views_share_the_parts_every_viewer_holds_encoded_once() -> None:
    _, state = _cacao(10)
    seen: dict[str, object] = {}
    views = [state.view(v) for v in (0, 1, 2, 3, None)]
    assert all(v["board"] is views[0]["board"] for v in views)  # Cacao builds its board once per position
    shared = [_share(seen, v) for v in views]
    assert all(isinstance(s["board"], orjson.Fragment) for s in shared[1:])
    assert shared[2]["board"] is shared[1]["board"]  # encoded once, from the second viewer on
    assert all(isinstance(v["board"], dict) for v in views)  # the game's own views are left as they were
    for v, s in zip(views, shared, strict=True):
        assert orjson.loads(orjson.dumps(s)) == json.loads(json.dumps(v))


def test_state_messages_build_the_site_part_once_per_version(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'db.sqlite3'}")
        svc = TableService(store, BotRunner(workers=1, executor="thread", seconds=0.1))
        site = Site(svc)
        built = []
        part = Site._site_part
        monkeypatch.setattr(Site, "_site_part", lambda self, t, info: built.append(t.version) or part(self, t, info))
        t, _ = await svc.create("cacao", 4, {}, [{"kind": "human"}] * 4, False)
        per_version = []
        for move in range(3):
            built.clear()
            texts = {(v, lang): svc.encoded(t, v, lang) for v in (0, 1, 2, 3, None) for lang in ("en", "zh-TW")}
            per_version.append(list(built))
            for (v, lang), text in texts.items():  # each message as it was built before: its own site object
                msg = state_message(t, v, lang)
                site.extend(t, v, msg)
                got, want = orjson.loads(text), json.loads(json.dumps(msg))
                # the wall time a seat left reads its clocks at each build: equal to the microsecond only
                away = got["site"].pop("away_since"), want["site"].pop("away_since")
                assert got == want
                assert [a is None for a in away[0]] == [a is None for a in away[1]]
                assert all(a is None or abs(a - b) < 0.01 for a, b in zip(*away, strict=True))
            await svc.act(t, t.state.current_player, move, str(t.state.legal_actions()[0]), None)
        assert per_version == [[0], [1], [2]]  # once per version for ten viewers and languages

    asyncio.run(main())


def test_a_committed_batch_wakes_the_event_loop_once_not_once_per_write(tmp_path: Path) -> None:
    """Group commit: the writes queued while a commit runs are committed together, and their callers are woken
    by one hand-over to the event loop (one write to its wake-up pipe), not one per write; each still gets its
    own result, in order."""

    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'db.sqlite3'}")
        loop = asyncio.get_running_loop()
        wakes = []
        threadsafe = loop.call_soon_threadsafe

        def counted(*args: object, **kw: object) -> object:
            wakes.append(args[0])
            return threadsafe(*args, **kw)  # type: ignore[arg-type]

        loop.call_soon_threadsafe = counted  # type: ignore[method-assign]
        inside, release = threading.Event(), threading.Event()

        def hold(conn: object) -> str:  # keeps the writer in its first batch while the others queue up
            inside.set()
            release.wait(10)
            return "first"

        first = asyncio.ensure_future(store.write(hold))
        await asyncio.to_thread(inside.wait, 10)
        wakes.clear()  # (to_thread's own hand-over)
        rest = [asyncio.ensure_future(store.write(lambda conn, i=i: i)) for i in range(50)]
        await asyncio.sleep(0)  # every write is queued before the first commit ends
        release.set()
        assert await first == "first"
        assert await asyncio.gather(*rest) == list(range(50))
        assert store.commits == 2  # the 50 in one transaction
        assert len(wakes) == 2  # the first batch's wake-up and one for the 50 (one per write before: 51)
        loop.call_soon_threadsafe = threadsafe  # type: ignore[method-assign]
        store.close()

    asyncio.run(main())
