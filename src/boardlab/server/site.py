"""The site around the games: per-table site information, the hooks into the tables service, accounts
per seat. The parts live beside it: clocks (clocks.py), results and ratings (results.py), chat
(chat.py), accounts (accounts.py), and the HTTP routes in routes/.

It plugs into the tables service through `TableService.hooks` (state messages get a `site` part,
moves restart clocks, finished rated tables update ratings); the play path itself (log, undo, views)
stays in service.py. See docs/server.md, "The site".
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import secrets
import time
from typing import Any

import orjson
from sqlalchemy.engine import Connection

from .accounts import Accounts, User
from .clocks import ClockKeeper, deadline, new_state, start_turn
from .db import seats_t
from .errors import ApiError
from .mail import TurnMail
from .push import WebPush
from .results import record_results
from .service import TableService
from .sitedb import seat_users_t, site_secret_t
from .siteinfo import SiteInfo, load_info, load_ratings, read_secret, site_row, write_site_row
from .social import Social
from .table import Table
from .tokens import hash_token
from .turnlimit import TurnLimit

log = logging.getLogger("boardlab.server")
HANDOVER_WAIT = 8.0  # seconds a bot waits before its first move for a player who just left


class Site:
    def __init__(self, svc: TableService) -> None:
        self.svc = svc
        self.store = svc.store
        self.accounts = Accounts(svc.store)
        self.social = Social(svc.store)
        self.mail = TurnMail(svc.store)
        self.push = WebPush(svc.store)
        self.turn_limit = TurnLimit()  # shared by the e-mails and Web Push
        self.info: dict[str, SiteInfo] = {}
        # how tables' site information was read: ahead, off the event loop (`preload`), or while a message waited
        # for it (`ensure`, blocking every table of the process); in /healthz
        self.reads = {"ahead": 0, "blocking": 0}
        self.clocks = ClockKeeper(svc, self.ensure, self.save)
        self.tasks: set[asyncio.Task[Any]] = set()
        self.secret = b""
        svc.hooks = self

    async def start(self) -> None:
        self.secret = await self.store.read(read_secret)
        if not self.secret:
            new = secrets.token_hex(32)
            try:
                await self.store.write(lambda c: c.execute(site_secret_t.insert().values(id=1, secret=new)))
            except Exception:  # another process starting on the same fresh database stored its secret first
                log.info("the site secret was stored by another process; using it")
            self.secret = await self.store.read(read_secret)
        self.accounts.secret = self.secret  # signs the "known device" cookies
        self.mail.secret = self.secret  # signs the unsubscribe links
        await self.push.start()  # the VAPID key pair, made on the first start
        if self.svc.cluster is None:  # in a cluster, the tables service adopts the clocked tables nobody runs
            self._spawn(self.clocks.resume())

    def close(self) -> None:
        self.clocks.close()
        self.accounts.hashing.pool.shutdown(wait=False, cancel_futures=True)
        for task in list(self.tasks):
            task.cancel()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # -- per-table site information -------------------------------------------------------------------
    def ensure(self, t: Table) -> SiteInfo:
        """`t`'s site information, read now if it is not here. The service reads it ahead (`preload`) wherever it
        loads or rebuilds a table, so this read, which blocks the event loop, is the exception."""
        info = self.info.get(t.id)
        if info is None:
            self.reads["blocking"] += 1
            info = self._keep(t, self.store.read_sync(lambda c: load_info(c, t)))
        return info

    async def preload(self, t: Table) -> None:
        """Read `t`'s site information off the event loop, before its next message needs it. On PostgreSQL
        `ensure`'s read is 4-5 round trips during which the process serves nobody: a seat leaving a table watched
        on another process made that process read it there, and 500 tables at once stalled it for ~1 s
        (docs/benchmarks.md, "Pushes across processes")."""
        if t.id in self.info:
            return
        info = await self.store.read(lambda c: load_info(c, t))
        self.reads["ahead"] += 1
        if t.id not in self.info:  # if it was read meanwhile, that copy may have changed since: it stays
            self._keep(t, info)

    def _keep(self, t: Table, info: SiteInfo) -> SiteInfo:
        self.info[t.id] = info
        if len(self.info) > 20000:
            for k in list(self.info)[:5000]:
                if k not in self.svc._tables:
                    del self.info[k]
        self.clocks.arm(t, info)
        return info

    def save(self, t: Table, info: SiteInfo) -> None:
        """Store the table's site row (in the background: the write is ordered after earlier ones)."""
        row = site_row(t.id, info)
        stored = info.stored
        info.stored = True
        self._spawn(self.store.write(lambda conn: write_site_row(conn, t.id, row, stored)))

    def seat_token(self, tid: str, seat: int, user_id: int) -> str:
        """A signed-in player's token for their seat, derived (nothing stored in clear), so "My games"
        can link every table on any device."""
        mac = hmac.new(self.secret, f"seat:{tid}:{seat}:{user_id}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()

    async def link_seat(self, t: Table, seat: int, u: User, token: str) -> None:
        """Give a seat to a signed-in account: its token becomes the account's, its name the account's."""
        h = hash_token(token)
        s = t.seats[seat]

        def write(conn: Connection) -> None:
            conn.execute(seat_users_t.delete().where(seat_users_t.c.table_id == t.id, seat_users_t.c.seat == seat))
            conn.execute(seat_users_t.insert().values(table_id=t.id, seat=seat, user_id=u.id))
            conn.execute(
                seats_t.update().where(seats_t.c.table_id == t.id, seats_t.c.seat == seat).values(
                    token_hash=h, name=u.name
                )
            )

        await self.store.write(write)
        s.token_hash = h
        s.name = u.name
        info = self.ensure(t)
        info.users[seat] = (u.id, u.name)
        await self.store.read(lambda c: load_ratings(c, t, info))

    # -- hooks called by TableService -------------------------------------------------------------------
    def extend(self, t: Table, viewer: int | None, msg: dict[str, Any], parts: dict[str, Any] | None = None) -> None:
        """The site's part of a state message. Its `site` object is the same for every viewer: with `parts` (what
        the messages of one table version share, service.encoded) it is built and encoded once for all of them."""
        info = self.ensure(t)
        if info.rated:
            msg["can_undo"] = False
        # a bot that was about to stand in for a player who took their seat back is not "thinking" for them
        out = (info.clock_state or {}).get("out", [])
        msg["thinking"] = [s for s in msg["thinking"] if t.seats[s].kind == "bot" or s in out]
        if parts is None:
            msg["site"] = self._site_part(t, info)
            return
        shared = parts.get("site")
        if shared is None:
            part = orjson.dumps(self._site_part(t, info), option=orjson.OPT_NON_STR_KEYS)
            shared = parts["site"] = orjson.Fragment(part)
        msg["site"] = shared

    def _site_part(self, t: Table, info: SiteInfo) -> dict[str, Any]:
        """The accounts, ratings, clock and presence of the table's seats, as every viewer is shown them."""
        now_wall = time.time()
        now_mono = time.monotonic()
        return {
            "rated": info.rated,
            "bot_level": info.bot_level,
            "users": [info.users[i][1] if i in info.users else None for i in range(t.players)],
            "ratings": [info.ratings.get(i) for i in range(t.players)],
            "provisional": [info.provisional.get(i, False) for i in range(t.players)],
            # each seat's rating change at a finished rated table (null: not rated): the game-over box (#34)
            "changes": [info.changes.get(i) for i in range(t.players)],
            "results_done": info.results_stored,  # the results are stored: a seat without a change was not rated
            "leavers": info.leavers,
            "clock": None
            if info.clock is None
            else {**info.clock, **(info.clock_state or {}), "deadline": deadline(info.clock_state or {})},
            "away_since": [  # None: present, not a person, or never came (not to be replaced: seats.to_bot)
                None if (s.connected or s.kind != "human" or not s.opened) else now_wall - (now_mono - s.last_seen)
                for s in t.seats
            ],
            "handed": [info.handed.get(i) for i in range(t.players)],
            "turn_clock": info.clock is not None and info.clock.get("mode") == "turn",
            "grace": self.svc.absent_grace,
            # the table's bot pace (seconds): the browser shows moves that arrive together one at a time at it
            "pace": self.svc.bot_delay if info.pace is None else info.pace,
            "chat_n": info.chat_n,
        }

    # -- several processes (server/cluster.py) --------------------------------------------------------------
    async def took_over(self, t: Table) -> None:
        """This process now owns `t`: its site information is read again, ahead (the last owner kept it up to date
        in the database), and its clock is set here."""
        self.refreshed(t)
        await self.preload(t)

    def gave_up(self, t: Table) -> None:
        """Another process owns `t` now: its clock no longer runs here."""
        timer = self.clocks.timers.pop(t.id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    def refreshed(self, t: Table) -> None:
        """`t` was rebuilt from the database: so is its site information, at its next use."""
        self.gave_up(t)
        self.info.pop(t.id, None)

    def moved_elsewhere(self, t: Table) -> None:
        """A copy of another process's table applied that process's moves (service._catch_up). A move changes
        what the site shows of a table only through its clock (and, at the end, the results, announced apart):
        the site information is read again for a clocked or finished table only, not on every move of every
        watched table (it was 4-5 queries on the event loop per move per watching process, the larger part of
        that path's CPU once the log replay was gone: docs/benchmarks.md)."""
        info = self.info.get(t.id)
        if info is None or info.clock is not None or t.over:
            self.refreshed(t)

    def created(self, t: Table) -> None:
        """A new table has no site row yet: no database read for it (the site's own creation route then
        replaces this with the table's settings before anything reads them). A rematch keeps the old
        table's settings: rated, clock (restarted), bot level and pace."""
        old = self.info.get(t.rematch_of) if t.rematch_of else None
        if old is None or not old.stored:
            self.info.setdefault(t.id, SiteInfo())
            return
        info = SiteInfo(rated=old.rated, bot_level=old.bot_level, pace=old.pace, clock=old.clock)
        self.info[t.id] = info
        self.new_clock(t, info)
        self.save(t, info)
        self.clocks.arm(t, info)

    # -- when a clock starts ----------------------------------------------------------------------------
    @staticmethod
    def clock_ready(t: Table, info: SiteInfo) -> bool:
        """May the clock start? Every seat filled (no open seat), and on a real-time clock the seat to move
        present (a live connection) or a bot; a turn-based clock starts when the last seat is taken."""
        if info.clock is None or any(s.kind == "open" for s in t.seats):
            return False
        cur = t.state.current_player
        if info.clock["mode"] == "turn" or cur is None:
            return True
        return t.seats[cur].kind == "bot" or t.seats[cur].connected > 0

    def new_clock(self, t: Table, info: SiteInfo) -> None:
        """A new table's clock: running if it may start now, else waiting (`waiting` in the clock state) for
        the seats to fill and the player to move to arrive (a 2-minute clock read 1:36 when the invited friend
        first arrived, issue #32; an open seat's clock ran out before anyone sat there)."""
        if info.clock is None:
            return
        info.clock_state = new_state(info.clock, t.players)
        info.clock_state["waiting"] = True
        self._start_if_ready(t, info)

    def _start_if_ready(self, t: Table, info: SiteInfo) -> bool:
        st = info.clock_state
        if st is None or not st.get("waiting") or not self.clock_ready(t, info):
            return False
        st["waiting"] = False
        start_turn(info.clock or {}, st, None if t.over else t.state.current_player, time.time(), True)
        return True

    def seats_changed(self, t: Table) -> None:
        """A seat was taken, came online or was taken back from its bot: start a waiting clock, and set the
        timer again (a timer that fired while a bot held the seat did nothing; its player is back now)."""
        info = self.ensure(t)
        for seat in [s for s in info.handed if t.seats[s].kind != "bot"]:
            del info.handed[seat]
        if info.clock is None or info.clock_state is None:
            return
        if self._start_if_ready(t, info):
            self.save(t, info)
        self.clocks.arm(t, info)

    def check_undo(self, t: Table) -> None:
        if self.ensure(t).rated:
            raise ApiError(409, "rated_no_undo", "rated tables allow no undo")

    def after_undo(self, t: Table, seat: int) -> None:
        """An undo keeps the undoer's clock running, charged for the time taken: the timer is set again for the
        new version (a move and its undo stopped the clock for good before, issue #32)."""
        info = self.ensure(t)
        if info.clock is None or info.clock_state is None or info.clock_state.get("waiting"):
            return
        start_turn(info.clock, info.clock_state, t.state.current_player, time.time(), False)
        self.save(t, info)
        self.clocks.arm(t, info)

    def bot_delay(self, t: Table, seat: int) -> float:
        info = self.ensure(t)
        pace = self.svc.bot_delay if info.pace is None else info.pace
        since = info.handover.get(seat)
        if since is not None:
            pace = max(pace, HANDOVER_WAIT - (time.monotonic() - since))
            info.handover.pop(seat, None)
        return max(0.0, pace)

    def out_of_time(self, t: Table, seat: int) -> bool:
        return seat in (self.ensure(t).clock_state or {}).get("out", [])

    def turn_clock(self, t: Table) -> bool:
        clock = self.ensure(t).clock
        return clock is not None and clock.get("mode") == "turn"

    def seat_to_bot(self, t: Table, by: int, seat: int) -> None:
        info = self.ensure(t)
        if by == seat:
            info.handover[seat] = time.monotonic()
        else:  # the holder is told (their state message, `site.handed`) until they take the seat back
            info.handed[seat] = {"by": by, "name": t.seats[by].name, "at": time.time()}
        if info.rated and by == seat and seat not in info.leavers:
            info.leavers.append(seat)
            self.save(t, info)

    def may_take_back(self, t: Table, seat: int) -> bool:
        """May the holder of `seat` take it back from its bot? Not once expelled for running out of time (a bot
        plays it to the end: the expulsion would not stick otherwise)."""
        return seat not in (self.ensure(t).clock_state or {}).get("expelled", [])

    def after_move(self, t: Table, seat: int, by_bot: bool) -> None:
        info = self.ensure(t)
        changed = False
        if by_bot and t.seats[seat].token_hash is not None and seat not in info.stood_in:
            info.stood_in.append(seat)  # a stand-in bot moved for a person's seat (results.py: not rated)
            changed = True
        if not by_bot and seat not in info.moved:
            info.moved.append(seat)  # its player moved: the seat can be rated (results.py)
            changed = True
        if changed and info.clock is None:
            self.save(t, info)
        if info.clock is not None and info.clock_state is not None:
            st = info.clock_state
            if not by_bot and seat in st["out"]:
                st["out"].remove(seat)
            if not st.get("waiting"):
                start_turn(info.clock, st, None if t.over else t.state.current_player, time.time(), False)
            else:
                self._start_if_ready(t, info)
            self.save(t, info)
            self.clocks.arm(t, info)
        if t.over:
            self._spawn(record_results(self.svc, t, info))
        else:
            self._notify_turn(t, info, seat)

    def _notify_turn(self, t: Table, info: SiteInfo, mover: int) -> None:
        """The turn passed to a signed-in player who is not at the table: their your-turn e-mail and push
        messages, if they asked for them, within the limits both share (server/mail.py, push.py, turnlimit.py)."""
        cur = t.state.current_player
        if cur is None or cur == mover or cur not in info.users:
            return
        if t.seats[cur].kind != "human" or t.seats[cur].connected:
            return
        uid = info.users[cur][0]
        if not self.turn_limit.due(uid, t.id, time.time()):
            return
        titles = dict(t.game.titles)
        if self.mail.enabled:
            self._spawn(self.mail.your_turn(uid, t.id, titles))
        self._spawn(self.push.your_turn(uid, t.id, titles))

