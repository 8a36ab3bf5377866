"""The log tells table events that are not moves (issue #31): a seat that takes back its last move, and a
seat out of time for which a bot moves, appear in the log in words, for every viewer, in both languages, in
their place between the moves; an undo is told again after the table is rebuilt from the database."""

from __future__ import annotations

import asyncio
from pathlib import Path

import toygame  # noqa: F401  (registers "tally")

from boardlab.server.bots import BotRunner
from boardlab.server.service import TableService
from boardlab.server.store import Store


def _service(path: Path) -> tuple[Store, TableService]:
    store = Store(f"sqlite:///{path / 'db.sqlite3'}")
    return store, TableService(store, BotRunner(workers=1, executor="thread", seconds=0.1))


def test_an_undo_and_a_timeout_are_told_in_the_log(tmp_path: Path) -> None:
    async def main() -> None:
        store, svc = _service(tmp_path)
        t, _ = await svc.create("tally", 2, {"target": 1000}, [{"kind": "human"}] * 2, False)
        await svc.act(t, 0, 0, "add1", "en")
        await svc.act(t, 0, 1, "add2", "en")
        await svc.undo(t, 0, 2, "en")
        await svc.act(t, 0, 3, "end", "en")
        await svc._act(t, 1, 4, "add1", None, by_bot=True)  # seat 1 out of time: a bot moves for it (clocks.py)
        for viewer in (0, 1, None):
            log = svc.log_for(t, viewer, "en")
            assert [(e["n"], e.get("note")) for e in log] == [(0, None), (None, "undo"), (3, None),
                                                               (None, "timeout"), (4, None)]
            assert log[1]["seat"] == 0 and log[1]["text"] == "takes back their last move"
            assert log[3]["seat"] == 1 and "a bot makes the next move" in log[3]["text"]
            zh = svc.log_for(t, viewer, "zh-TW")
            assert zh[1]["text"] == "收回了上一步" and "機器人" in zh[3]["text"]
        assert svc.log_for(t, 0, "en", upto=3) == [e for e in svc.log_for(t, 0, "en") if e["n"] is not None]
        message = svc.encoded(t, 0, "en")
        assert '"notes_len":2' in message.replace(" ", "")
        await svc.close()
        store.close()
        # rebuilt from the database: the undo is still told (the log rows say it); a timeout is not stored
        store, svc = _service(tmp_path)
        t = await svc.get(t.id)
        assert [e.get("note") for e in svc.log_for(t, None, "en")] == [None, "undo", None, None]
        await svc.close()
        store.close()

    asyncio.run(main())
