"""A refused move reaches the player in the player's language: the service words an illegal action (422
illegal_action) and an unreadable one (400 bad_action) in the language of the request (REST's `lang`, the
WebSocket's hello), with the same error codes; English as before; the table does not move."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from boardlab.server.bots import BotRunner
from boardlab.server.conn import Conn
from boardlab.server.errors import ApiError
from boardlab.server.routes.ws import _ws_command
from boardlab.server.service import TableService
from boardlab.server.store import Store
from boardlab.server.table import Table
from zh_marks import CJK, stray_marks


async def refusal(svc: TableService, t: Table, text: str, lang: str | None, reply: bool = True) -> ApiError:
    with pytest.raises(ApiError) as e:
        await svc.act(t, t.state.current_player or 0, t.version, text, lang, reply=reply)
    return e.value


def test_a_refusal_is_worded_in_the_language_of_the_request(tmp_path: Path) -> None:
    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'db.sqlite3'}")
        svc = TableService(store, BotRunner(workers=1, executor="thread", seconds=0.1))
        t, _ = await svc.create("cacao", 2, {}, [{"kind": "human"}] * 2, False)
        before = (t.version, t.state.snapshot())
        action = t.game.parse_action(t.state, "fill temple@2,0")  # the game asks for a worker tile first

        zh = await refusal(svc, t, "fill temple@2,0", "zh-TW")
        assert (zh.status, zh.code) == (422, "illegal_action")
        assert CJK.search(zh.detail) and not stray_marks(zh.detail)
        assert zh.detail == t.state.why_illegal(action, "zh-TW") and "要先回答「放置一塊工人板塊」" in zh.detail
        ws = await refusal(svc, t, "fill temple@2,0", "zh-TW", reply=False)  # the WebSocket's act
        assert ws.detail == zh.detail
        en = await refusal(svc, t, "fill temple@2,0", "en")
        assert (en.status, en.code) == (422, "illegal_action")
        assert en.detail == t.state.why_illegal(action) and "must answer 'place a worker tile'" in en.detail

        unread = await refusal(svc, t, "jump!", "zh-TW")
        assert (unread.status, unread.code, unread.detail) == (400, "bad_action", "無法把 'jump!' 讀成可可亞的動作")
        unread = await refusal(svc, t, "jump!", "en")
        assert (unread.status, unread.code) == (400, "bad_action")
        assert unread.detail.startswith("cannot read 'jump!' as a Cacao action; expected e.g.")
        assert (t.version, t.state.snapshot()) == before

        async def send(text: str) -> None: ...

        for lang, words in (("zh-TW", zh.detail), ("en", en.detail)):  # what the browser's socket is answered
            conn = Conn([0, 1], lang, send)
            msg = json.dumps({"type": "act", "seat": 0, "move": t.version, "action": "fill temple@2,0"})
            answer = await _ws_command(svc, t, conn, msg)
            assert answer is not None and (answer["error"], answer["detail"]) == ("illegal_action", words)
        await svc.close()
        store.close()

    asyncio.run(main())
