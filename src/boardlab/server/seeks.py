"""Play now (issue #34): strangers paired for a game and a player count. Each "Play now" is a seek; seeks wait in
one list per (game, players, rated), and as soon as a list holds enough seekers of different accounts, they are
seated at a new table that starts at once. A seek lives only while its page keeps the seek's WebSocket open
(`/ws/seeks`): closing or leaving the page takes it off the list, so nobody is seated at a table they left.

Rated by default for accounts; a guest's seek is unrated (a rated table needs an account), so guests and
accounts asking for a rated game wait in different lists. A seek is asked for over HTTP (`POST /api/seeks`)
so it spends the client's table-creation budget and is held to its caps like any other way to make a table
(server/limits.py); the table it fills is counted against the first seeker's client.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from boardlab.core import games, get_game

from .accounts import User
from .errors import ApiError
from .site import Site
from .siteinfo import SiteInfo
from .tokens import hash_token, new_token

ATTACH_WAIT = 20.0
"""Seconds a seek may wait for its page's WebSocket before it is dropped (a request whose page never came)."""
SEEKS_PER_CLIENT = 8
"""Seeks one client (address) may hold at once: a page or two per person, not a list filled by one machine."""
SEEK_PACE = 1.0
"""The bot pace of a Play-now table (seconds), as the lobby's tables: only a leaver's stand-in moves."""


@dataclass(eq=False)
class Seek:
    id: str
    token_hash: str
    game: str
    players: int
    rated: bool
    client: str
    user: User | None
    created: float = field(default_factory=time.monotonic)
    outbox: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    attached: bool = False
    closed: bool = False

    @property
    def key(self) -> tuple[str, int, bool]:
        return (self.game, self.players, self.rated)


class Seeks:
    """The seek lists, in memory (a restart empties them: every page then sees its socket close and says so)."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self.seeks: dict[str, Seek] = {}
        self.lists: dict[tuple[str, int, bool], list[Seek]] = {}
        self.lock = asyncio.Lock()
        self.tasks: set[asyncio.Task[Any]] = set()

    # -- asking ------------------------------------------------------------------------------------------
    def add(self, game: str, players: int, rated: bool, client: str, user: User | None) -> tuple[Seek, str]:
        """A new seek, not yet on a list (its page's WebSocket puts it there); its secret token, once."""
        if game not in games():
            raise ApiError(404, "no_game", f"no game {game!r}")
        g = get_game(game)
        if not g.min_players <= players <= g.max_players:
            raise ApiError(400, "bad_players", f"{g.name} takes {g.min_players}-{g.max_players} players, not {players}")
        if players < 2:
            raise ApiError(400, "bad_players", "Play now pairs at least 2 players")
        if rated and user is None:
            raise ApiError(401, "not_signed_in", "rated tables need an account")
        if sum(1 for s in self.seeks.values() if s.client == client) >= SEEKS_PER_CLIENT:
            raise ApiError(429, "too_many_seeks", f"one client may wait for at most {SEEKS_PER_CLIENT} tables at once")
        svc = self.site.svc
        svc.holdings.check_caps(client, False, False, svc.limits)  # the table it fills is this client's too
        token = new_token()
        seek = Seek(secrets.token_urlsafe(12), hash_token(token), game, players, rated, client, user)
        self.seeks[seek.id] = seek
        self._spawn(self._expire_unattached(seek))
        return seek, token

    def find(self, seek_id: str, token: str) -> Seek:
        seek = self.seeks.get(seek_id)
        if seek is None or seek.attached or not hmac.compare_digest(seek.token_hash, hash_token(token)):
            raise ApiError(403, "bad_seek", "no such seek waiting (it expired, or is open elsewhere)")
        return seek

    async def _expire_unattached(self, seek: Seek) -> None:
        await asyncio.sleep(ATTACH_WAIT)
        if not seek.attached:
            self.seeks.pop(seek.id, None)

    # -- waiting -----------------------------------------------------------------------------------------
    async def enter(self, seek: Seek) -> None:
        """The page is there: the seek joins its list, and a full list is seated."""
        seek.attached = True
        async with self.lock:
            self.lists.setdefault(seek.key, []).append(seek)
            await self._seat_full(seek.key)
            self._tell_waiting(seek.key)

    def leave(self, seek: Seek) -> None:
        """The page went away (or the seek was seated): off the list at once."""
        seek.closed = True
        self.seeks.pop(seek.id, None)
        waiting = self.lists.get(seek.key)
        if waiting and seek in waiting:
            waiting.remove(seek)
            if not waiting:
                del self.lists[seek.key]
            self._tell_waiting(seek.key)

    def _tell_waiting(self, key: tuple[str, int, bool]) -> None:
        waiting = self.lists.get(key, [])
        for s in waiting:
            s.outbox.put_nowait({"type": "waiting", "waiting": len(waiting), "players": s.players})

    def listing(self) -> list[dict[str, Any]]:
        """What the lobby shows: how many wait for each game, player count and rated."""
        return [
            {"game": g, "players": n, "rated": r, "waiting": len(w)}
            for (g, n, r), w in sorted(self.lists.items()) if w
        ]

    # -- seating -----------------------------------------------------------------------------------------
    @staticmethod
    def _group(waiting: list[Seek], n: int) -> list[Seek] | None:
        """The first `n` seekers in order of arrival, one seek per account (nobody plays themselves)."""
        out: list[Seek] = []
        accounts: set[int] = set()
        for s in waiting:
            if s.closed:
                continue
            if s.user is not None:
                if s.user.id in accounts:
                    continue
                accounts.add(s.user.id)
            out.append(s)
            if len(out) == n:
                return out
        return None

    async def _seat_full(self, key: tuple[str, int, bool]) -> None:
        while (group := self._group(self.lists.get(key, []), key[1])) is not None:
            for s in group:
                self.lists[key].remove(s)
            if not self.lists[key]:
                del self.lists[key]
            try:
                await self._seat(group)
            except ApiError as e:
                for s in group:
                    s.outbox.put_nowait({"type": "error", "error": e.code, "detail": e.detail, "status": e.status})

    async def _seat(self, group: list[Seek]) -> None:
        """A new table for the group, in arrival order, started at once; each seeker gets their own link."""
        site = self.site
        first = group[0]
        specs = [{"kind": "human", "name": s.user.name if s.user else None} for s in group]
        t, tokens = await site.svc.create(first.game, first.players, {}, specs, False, client=first.client)
        info = SiteInfo(rated=first.rated, bot_level="medium", pace=SEEK_PACE, clock=None, stored=False)
        site.info[t.id] = info
        for seat, s in enumerate(group):
            if s.user is not None:
                tok = site.seat_token(t.id, seat, s.user.id)
                tokens[seat] = tok
                await site.link_seat(t, seat, s.user, tok)
        site.save(t, info)
        for seat, s in enumerate(group):
            s.outbox.put_nowait({"type": "seated", "table": t.id, "seat": seat, "link": f"/t/{t.id}#s={tokens[seat]}"})
            self.seeks.pop(s.id, None)

    # -- housekeeping ------------------------------------------------------------------------------------
    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            self.lists.clear()
