"""The tables service: the in-memory cache of live tables, their persistence and their push.

HTTP and WebSocket handlers stay thin and call this module. Every change to a table happens under
that table's asyncio lock (so racing tabs are serialised and the loser gets a clean 409), is
committed to the database before it is acknowledged, and is then pushed to every connection, each
getting the view of its own seat only.
"""


from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

from boardlab.core import (
    BoardlabError,
    ConfigError,
    Game,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    UnknownGameError,
    get_game,
    hints,
)
from boardlab.core.refusal import unreadable
from boardlab.core.rng import new_seed
from boardlab.core.tutorial import Tutorial

from . import policy
from .botpool import FairPool, fair_choose
from .bots import BotJob, BotRunner, game_modules, known_bot_kinds, random_choice
from .conn import Conn
from .errors import ApiError
from .limits import Holdings, Limits, Sockets, bad_text, clean_name
from .store import Store
from .table import (
    Note,
    Seat,
    Table,
    TableLog,
    Viewer,
    apply_row,
    build_table,
    entry_json,
    make_entry,
    network_options,
    note_json,
    replay_mismatch,
    replay_state,
    state_digest,
    state_message,
)
from .tabledb import append_row, insert_table, load_rows, log_row, open_rows, rows_after, tables_with_bots
from .tokens import hash_token, new_token

log = logging.getLogger("boardlab.server")

MAX_ACTION_CHARS = 200
MAX_CACHED = int(os.environ.get("BOARDLAB_MAX_CACHED_TABLES", "5000"))
RELOAD_AFTER = 1.0
"""Seconds before a table with a bot to move is rebuilt after a failed store, so its bots carry on (once a
second at most while the database keeps failing, instead of a retry loop)."""


def _share(seen: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """`view` with each part that another viewer's view of the same version holds as the very same object (a
    game builds its board once per position: Cacao's `_board_view`) replaced by that part's JSON, encoded once
    (the second time it is seen) and spliced into every later message (orjson.Fragment): the message text is
    unchanged, the board is no longer encoded once per seat and spectator language. `seen` maps each key to the
    last object seen under it (held, so its id is not reused) and its fragment."""
    out = view
    for k, v in view.items():
        if type(v) is not dict and type(v) is not list:
            continue
        hit = seen.get(k)
        if hit is None or hit[0] is not v:
            seen[k] = (v, None)
            continue
        frag = hit[1]
        if frag is None:
            frag = orjson.Fragment(orjson.dumps(v, option=orjson.OPT_NON_STR_KEYS))
            seen[k] = (v, frag)
        if out is view:
            out = dict(view)  # the game's view is its own: replaced parts go into a copy
        out[k] = frag
    return out


def unreadable_words(game: Game, text: str, error: Exception, lang: str) -> str:
    """Why `text` is no action of `game`, in `lang`: in English the game's own message (its notation's forms) or,
    for an error of no game's making, a plain one; in another language the core's sentence, since the games word
    their notation help in English only."""
    if lang != "en":
        return unreadable(text, game.title(lang), lang)
    return str(error) if isinstance(error, BoardlabError) else f"cannot read {text[:60]!r} as an action"


class TableService:
    """Owns the cache of live tables, the store and the bot runner."""

    def __init__(self, store: Store, bots: BotRunner, absent_grace: float | None = None) -> None:
        self.store = store
        self.bots = bots
        self.absent_grace = (
            absent_grace if absent_grace is not None else float(os.environ.get("BOARDLAB_ABSENT_GRACE", "60"))
        )
        self.bot_delay = float(os.environ.get("BOARDLAB_BOT_DELAY", "0"))
        self.limits = Limits.from_env()
        self.holdings = Holdings()  # per-client caps (server/limits.py)
        self.sockets = Sockets()  # open WebSockets per client (server/limits.py)
        self.bot_pool = FairPool(int(getattr(bots.pool, "_max_workers", 1)))  # fair share per client
        self.hooks: Any = None  # the site around the games (server/site.py): clocks, ratings, accounts
        self._tables: OrderedDict[str, Table] = OrderedDict()
        # every table object still referenced anywhere (a handler, a bot task, a timer): the LRU may evict a
        # table from `_tables` while it is in use, and `get` must then hand out that same object, never a
        # second copy that would write the same log rows beside it
        self._alive: weakref.WeakValueDictionary[str, Table] = weakref.WeakValueDictionary()
        self._loading: dict[str, asyncio.Future[Table]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        # several processes on one database (server/cluster.py, `--redis`): the leases and the messages between
        # them; None for a single server, which then behaves exactly as before
        self.cluster: Any = None
        self.bot_queue: Any = None  # in a cluster, the site's bot queue in Redis (server/sharedbots.py)
        self._following: set[str] = set()  # tables being rebuilt after another process changed them
        self._missed: set[str] = set()  # tables that changed elsewhere while they were being loaded here
        # a copy of another process's table follows its log row by row (`_catch_up`): the rows the owner told of,
        # not applied yet (table -> n -> row), and the copies that must read the database: True when more than log
        # rows may have changed (a change told without its row, a lost subscription: its site information is read
        # again too), False when rows may be missing only (a copy found behind the log)
        self._told: dict[str, dict[int, tuple[Any, ...]]] = {}
        self._unsure: dict[str, bool] = {}
        self._behind: dict[str, int] = {}  # copies a look-up found behind the log: table -> their version then
        # how the copies here followed their owners: rows applied as told, log rows read to catch up, whole
        # rebuilds from the log (O(moves) each); in /healthz, so that tests and operators see which path ran
        self.copies = {"applied": 0, "read": 0, "rebuilt": 0}
        self.on_chat: Callable[[Table, dict[str, Any]], Awaitable[None]] | None = None  # a line said elsewhere

    # -- loading ------------------------------------------------------------------------------------
    async def get(self, table_id: str) -> Table:
        t = self._tables.get(table_id)
        if t is not None:
            self._tables.move_to_end(table_id)
            return t
        t = self._alive.get(table_id)
        if t is not None and not t.retired:  # evicted from the cache but still in use: the same object
            self._remember(t)
            return t
        if len(table_id) > 64:
            raise ApiError(404, "no_table", "no such table")
        fut = self._loading.get(table_id)
        if fut is None:
            fut = asyncio.get_running_loop().create_future()
            self._loading[table_id] = fut
            try:
                rows = await self.store.read(lambda c: load_rows(c, table_id))
                t = await asyncio.to_thread(_build_checked, rows) if rows else None
                if t is not None and self.hooks is not None:
                    await self.hooks.preload(t)  # its first message must not read the database on the event loop
            except Exception as e:
                fut.set_exception(e)
                fut.exception()  # mark retrieved
                raise
            finally:
                self._loading.pop(table_id, None)
            if t is None:
                fut.set_exception(ApiError(404, "no_table", "no such table"))
                fut.exception()
                raise ApiError(404, "no_table", "no such table")
            self._remember(t)
            if table_id in self._missed:  # changed by another process while the log was being read
                self._missed.discard(table_id)
                t.stale = True
                self._unsure[table_id] = True
                self._follow(t)
            fut.set_result(t)
            self.kick(t)
            return t
        return await fut

    def _remember(self, t: Table) -> None:
        self._tables[t.id] = t
        self._alive[t.id] = t
        if len(self._tables) > MAX_CACHED:
            for tid, old in list(self._tables.items())[: len(self._tables) - MAX_CACHED]:
                if not old.conns and not old.thinking and not old.lock.locked():
                    del self._tables[tid]

    async def resume(self) -> int:
        """After a (re)start, load every unfinished table with a bot seat so its bots carry on."""
        ids = await self.store.read(tables_with_bots)
        for tid in ids:
            try:
                await self.get(tid)
            except Exception:
                log.exception("cannot resume table %s", tid)
        return len(ids)

    # -- creation -----------------------------------------------------------------------------------
    async def create(
        self,
        game_name: str,
        players: int,
        options: dict[str, Any],
        seat_specs: list[dict[str, Any]],
        public: bool,
        rematch_of: Table | None = None,
        client: str | None = None,
        tutorial: Tutorial | None = None,
    ) -> tuple[Table, dict[int, str]]:
        """Create a table; returns it with the clear tokens of its human seats (shown once).
        `client` (who asks) is held to the per-client caps of server/limits.py. With a `tutorial`, a guided first
        game: the tutorial's known deal (its seed, not a secret one), its script played before free play."""
        try:
            game = get_game(game_name)
        except UnknownGameError as e:
            raise ApiError(404, "no_game", str(e)) from None
        if len(seat_specs) != players:
            raise ApiError(
                400, "bad_seats", f"{players} players need {players} seat descriptions, not {len(seat_specs)}"
            )
        allowed = network_options(game)
        for key in options:
            if key not in allowed:
                raise ApiError(
                    400,
                    "bad_config",
                    f"option {key!r} cannot be set from the network "
                    f"(allowed: {', '.join(sorted(allowed)) or 'none'})",
                )
        # 128 secret bits: selects core/rng.py's wide generator, whose draws do not give the seed away (a
        # 64-bit SplitMix64 state is read off its outputs); never sent to anyone, not even after the game
        seed = new_seed() if tutorial is None else tutorial.seed
        try:
            state = game.new_game(players, seed, **options)
        except ConfigError as e:
            raise ApiError(400, "bad_config", str(e)) from None
        except (TypeError, ValueError) as e:
            raise ApiError(400, "bad_config", f"bad options: {e}") from None
        try:
            options_json = json.dumps(options, sort_keys=True)
        except (TypeError, ValueError):
            raise ApiError(400, "bad_config", "options must be JSON values") from None
        bots = known_bot_kinds()
        tokens: dict[int, str] = {}
        seats: list[Seat] = []
        for i, spec in enumerate(seat_specs):
            kind = spec.get("kind", "human")
            given = clean_name(spec.get("name"))
            name = given or f"#{i + 1}"
            if kind == "bot":
                bot = spec.get("bot") or "random"
                if bot not in bots:
                    raise ApiError(400, "bad_seats", f"unknown bot {bot!r}; known: {', '.join(bots)}")
                seats.append(Seat(i, "bot", bot, given or f"{bot} bot", None))
            elif kind == "human":
                if rematch_of is None:
                    tokens[i] = new_token()
                seats.append(Seat(i, "human", None, name, hash_token(tokens[i]) if i in tokens else None))
            elif kind == "open":
                seats.append(Seat(i, "open", None, name, None))
            else:
                raise ApiError(400, "bad_seats", f"seat kind must be human, open or bot, not {kind!r}")
        if any(bad_text(s.name) for s in seats):
            raise ApiError(400, "bad_name", "names may not hold control characters")
        lobby = public and any(s.kind == "open" for s in seats)
        thinking_bots = any(s.kind == "bot" and s.bot != "random" for s in seats)
        if client is not None:
            self.holdings.check_caps(client, lobby, thinking_bots, self.limits)
        tid = secrets.token_urlsafe(9)
        now = time.time()
        t = Table(
            tid,
            game,
            players,
            seed,
            options,
            public,
            "finished" if state.is_over else "playing",
            rematch_of.id if rematch_of else None,
            None,
            seats,
            state,
            TableLog(),
            0,
            tutorial=tutorial,
        )

        # In a cluster the creator takes the lease before the table exists: taken after, another process's
        # look-up for tables nobody holds could take a new bot table in between, and both would play it.
        if self.cluster is not None and not await self.cluster.take(tid):
            raise ApiError(503, "table_busy", "a new table's id was already held; nothing changed, try again")
        try:
            await self.store.write(insert_table(t, options_json, now))
        except Exception:
            if self.cluster is not None:
                with contextlib.suppress(Exception):
                    await self.cluster.release(tid)
            raise
        if client is not None and t.status == "playing":
            self.holdings.add(client, tid, lobby, thinking_bots)
        self._remember(t)
        if self.hooks is not None:
            self.hooks.created(t)
        self.kick(t)
        return t, tokens

    @staticmethod
    def check_live(t: Table) -> None:
        """Under the table's lock, before any change: a copy dropped after a failed store (`_forget`) may still
        be held by a request or a bot task in flight; it must change nothing, or it would play beside the copy
        rebuilt from the database (issue #32: duplicate log rows, a different state after a restart)."""
        if t.retired:
            raise ApiError(503, "storage", "this table was reloaded from the database; nothing changed: reload it")

    # -- several processes (server/cluster.py) ---------------------------------------------------------------
    def owns(self, t: Table) -> bool:
        """May this process change `t`, run its bots and its clock? Always, for a single server; in a cluster,
        while it holds the table's lease."""
        return self.cluster is None or (t.id in self.cluster.owned and not t.stale)

    async def own(self, t: Table, take: bool = True) -> None:
        """Under the table's lock, before any change: in a cluster, take the table's lease (asking its owner to
        let go, or after it expired; renewed first if this process may have stalled past it) and bring the copy up
        to the log, which another process may have extended; then change it. A bot or a clock (`take` False)
        never takes a table over: 409, nothing changed. A single server has nothing to do here."""
        if self.cluster is None:
            return
        if self.owns(t):
            if not self.cluster.doubtful(t.id):
                return
            try:  # a stall may have let the lease expire and another process take it: renew it first
                if await self.cluster.take(t.id):
                    return
            except Exception as e:
                log.warning("table %s: cannot renew its lease before a change (%r)", t.id, e)
                raise ApiError(503, "storage", "the database did not answer; nothing changed, try again") from None
            self._lost(t.id)
        if not take:
            raise ApiError(409, "not_owner", "another server process plays this table now; nothing changed")
        try:
            await self.cluster.acquire(t.id)
            # the copy here reads the rows after its version (and the seats); only a row it cannot apply exactly (an
            # undo, a digest that differs) rebuilds it from the whole log: two players of one table on two processes
            # hand it over at every move, and a rebuild per hand-over was O(moves) (docs/server.md)
            self._unsure[t.id] = True
            await self._catch_up(t)
        except ApiError as e:  # refused: let go unless the lease was never ours (table_busy)
            if e.code != "table_busy":
                with contextlib.suppress(Exception):
                    await self.cluster.release(t.id)
            raise
        except Exception as e:  # the database failed (a dropped connection): nothing changed; let go, so that the
            with contextlib.suppress(Exception):  # next request, or another process's look-up, takes it again
                await self.cluster.release(t.id)
            log.warning("table %s: cannot rebuild it from the log to take it over (%r)", t.id, e)
            raise ApiError(503, "storage", "the database did not answer; nothing changed, try again") from None
        if self.hooks is not None:
            await self.hooks.took_over(t)
        self.kick(t)

    async def _refresh(self, t: Table) -> None:
        """Rebuild `t` in place from the database (the objects that hold it keep holding the current table);
        who is connected stays as this process sees it."""
        t.stale = False  # a change announced while reading marks it again, and it is read again
        self._told.pop(t.id, None)
        self._unsure.pop(t.id, None)
        self.copies["rebuilt"] += 1
        try:
            rows = await self.store.read(lambda c: load_rows(c, t.id))
            if not rows:
                raise ApiError(404, "no_table", "no such table")
            fresh = await asyncio.to_thread(_build_checked, rows)
        except BaseException:
            t.stale = True
            self._unsure[t.id] = True
            raise
        self._take_seats(t, fresh.seats, fresh)
        t.state, t.entries, t.version, t.notes = fresh.state, fresh.entries, fresh.version, fresh.notes
        t._cache_version = -1

    @staticmethod
    def _take_seats(t: Table, seats: list[Seat], fresh: Any) -> None:
        """The seats, status and rematch link as stored; who is connected stays as this process sees it."""
        for s in seats:
            old = t.seats[s.seat]
            s.connected, s.last_seen, s.opened = old.connected, old.last_seen, old.opened
        t.seats, t.status, t.rematch_id = seats, fresh.status, fresh.rematch_id

    async def _catch_up(self, t: Table) -> bool:
        """Bring a copy of another process's table up to the owner's log, under its lock: apply the rows the owner
        told of, in order from the copy's version (`apply_row`); read from the database only the rows after the copy's
        version (and the seats) when a row is missing (a lost or late message), a change came without its row (a
        seat taken, a clock event) or the subscription was lost. Anything else, an undo included, or any row that
        does not apply exactly (its digest), rebuilds the copy from the whole log (`_refresh`): the owner's log is
        the truth, and a copy never runs ahead of it nor skips a row (sequence numbers). True if it only applied moves
        (nothing else changed: the site information of the table holds but for its clock)."""
        t.stale = False  # a change told while this runs marks it again, and the caller comes back
        told = self._told.pop(t.id, {})
        site = self._unsure.pop(t.id, None)  # None: nothing but the rows told; False: rows may be missing
        while (row := told.pop(t.version, None)) is not None:
            if not apply_row(t, *row):
                await self._refresh(t)
                return False
            self.copies["applied"] += 1
        if site is None and not any(n > t.version for n in told):
            t._cache_version = -1
            return True
        v = t.version
        try:
            got = await self.store.read(lambda c: rows_after(c, t.id, v))
        except BaseException:
            t.stale = True
            self._unsure[t.id] = bool(site) or self._unsure.get(t.id, False)
            raise
        if not got:
            raise ApiError(404, "no_table", "no such table")
        trow, srows, lrows = got
        for r in lrows:
            if not apply_row(t, r.n, r.seat, r.kind, r.text, r.digest):
                await self._refresh(t)
                return False
            self.copies["read"] += 1
        self._take_seats(t, [Seat(s.seat, s.kind, s.bot, s.name, s.token_hash) for s in srows], trow)
        t._cache_version = -1
        return not site

    def on_event(self, msg: dict[str, Any]) -> None:
        """A message from another process (cluster.py): a table changed there, or it asks for one of ours."""
        op, tid = msg.get("op"), msg.get("table")
        if op == "resync":  # Redis was away: any copy may have missed a change, any queued bot job may be gone
            if self.bot_queue is not None:
                self._spawn(self.bot_queue.resend())
            for t in list(self._alive.values()):
                if not self.owns(t):
                    t.stale = True
                    self._unsure[t.id] = True
                    self._follow(t)
            return
        if not isinstance(tid, str):
            return
        if op == "release":
            if tid in self.cluster.owned:
                self._spawn(self._give_up(tid))
            return
        t = self._alive.get(tid)
        if t is None:
            if tid in self._loading:
                self._missed.add(tid)
            return
        if op == "chat" and self.on_chat is not None and isinstance(msg.get("msg"), dict):
            self._spawn(self.on_chat(t, msg))  # chat.deliver: each socket by its own reader's rights
        elif op == "changed":
            if tid in self.cluster.owned:
                if int(msg.get("v", 0)) <= t.version:
                    return  # news from before we took it over
                self._lost(tid)
            row = msg.get("row")
            if isinstance(row, list) and len(row) == 5 and type(row[0]) is int and type(row[1]) is int:
                self._told.setdefault(tid, {})[row[0]] = (row[0], row[1], str(row[2]), str(row[3]), row[4])
            else:
                self._unsure[tid] = True  # a change without its row (seats, a clock): read the database
            t.stale = True
            self._follow(t)

    def _lost(self, tid: str) -> None:
        """Another process holds this table now (our lease expired): its bots and clock stop here."""
        self.cluster.owned.pop(tid, None)
        self.cluster.confirmed.pop(tid, None)
        t = self._alive.get(tid)
        if t is not None:
            log.warning("table %s: its lease was lost to another server process", tid)
            t.stale = True
            self._unsure[tid] = True
            if self.hooks is not None:
                self.hooks.gave_up(t)
            self._follow(t)

    async def _give_up(self, tid: str) -> None:
        """Another process asks for a table we own: let go between two changes (under its lock)."""
        t = self._alive.get(tid)
        if t is None:
            await self.cluster.release(tid)
            return
        async with t.lock:
            if tid not in self.cluster.owned:
                return
            await self.cluster.release(tid)
            if self.hooks is not None:
                self.hooks.gave_up(t)

    def _follow(self, t: Table) -> None:
        """Bring a copy another process changed up to date (`_catch_up`), then push it to this process's sockets."""
        if t.id in self._following:
            return
        self._following.add(t.id)

        async def go() -> None:
            tries = 0
            try:
                while t.stale and not t.retired and not self.owns(t):
                    try:
                        async with t.lock:
                            if not t.stale or self.owns(t):
                                break
                            moves_only = await self._catch_up(t)
                            if self.hooks is not None:
                                (self.hooks.moved_elsewhere if moves_only else self.hooks.refreshed)(t)
                                await self.hooks.preload(t)
                    except Exception as e:  # a dropped database connection: try again, or its watchers here
                        tries += 1  # would wait for the table's next change (found by benchmarks/cluster_faults.py)
                        if tries >= 30:
                            raise
                        log.warning("cannot rebuild table %s after a change by another process (%r); again", t.id, e)
                        await asyncio.sleep(0.5)
                        continue
                    self.broadcast(t)
            except Exception:
                log.exception("cannot rebuild table %s after a change by another process", t.id)
            finally:
                self._following.discard(t.id)

        self._spawn(go())

    async def adopt(self) -> None:
        """In a cluster, forever: take over the unfinished tables with a bot or a clock that nobody holds (their
        owner died: its lease expired), so their bots and clocks carry on here. Replaces `resume`."""
        from .cluster import orphans  # only in a cluster

        refused: set[str] = set()  # tables that cannot be resumed here (a log that no longer replays): not again
        while True:
            try:
                ids = await self.store.read(orphans)
            except Exception:
                log.exception("cannot look for the tables of a stopped server process")
                ids = []
            for tid in ids:
                if tid in self.cluster.owned or tid in refused:
                    continue
                try:
                    if not await self.cluster.take(tid):
                        continue
                    t = await self.get(tid)
                    async with t.lock:
                        await self._refresh(t)
                        if self.hooks is not None:
                            await self.hooks.took_over(t)
                    self.kick(t)
                    log.info("table %s taken over (its owner is gone)", tid)
                except ApiError as e:  # its log no longer replays (rules_changed): kept, not retried by anyone
                    log.error("table %s cannot be taken over: %s", tid, e.detail)
                    refused.add(tid)
                except Exception:  # the database failed: let go, so that it is tried again (here or elsewhere)
                    log.exception("cannot take table %s over", tid)
                    with contextlib.suppress(Exception):
                        await self.cluster.release(tid)
            await self._nudge_owned()
            await asyncio.sleep(self.cluster.ttl / 2)

    async def _nudge_owned(self) -> None:
        """Every look-up: each table this process holds gets its bot started if it is to move (`kick` leaves a
        thinking bot alone), and a copy dropped after a failed store whose reload failed too is loaded again; else
        a table whose lease we keep renewing could wait forever, since no other process takes a live lease. And
        copies watched here that are behind the log catch up, if they were already behind at that same version at the
        previous look-up: a copy is behind for a moment after every change (the message follows the commit, late on
        a loaded machine), and catching up each such copy from the database at each look-up (its rows, its seats,
        its site information) cost more CPU than following the messages (docs/benchmarks.md). Both found by
        benchmarks/cluster_faults.py (a bot's turn stuck after dropped database connections; a spectator stuck at an
        old move after a Redis restart)."""
        from .cluster import log_ends  # only in a cluster

        for tid in list(self.cluster.owned):
            t = self._alive.get(tid)
            try:
                if t is None or t.retired:
                    await self.get(tid)  # loads and kicks
                elif not t.stale:
                    self.kick(t)
                else:  # held but not usable (its rebuild failed, and so did letting go): let go now
                    await self._give_up(tid)
            except Exception as e:
                log.warning("table %s: cannot resume it here yet (%r)", tid, e)
        watched = [t for t in list(self._alive.values()) if t.conns and not t.retired and not self.owns(t)]
        if not watched:
            return
        try:  # a change whose message was lost (Redis restarting) is caught up here, not at the table's next one
            ends = await self.store.read(lambda c: log_ends(c, [t.id for t in watched]))
        except Exception as e:
            log.warning("cannot check the watched tables' logs (%r)", e)
            return
        behind, self._behind = self._behind, {}
        for t in watched:
            if ends.get(t.id, 0) <= t.version:
                continue
            if behind.get(t.id) != t.version:  # perhaps just a message on its way: looked at again next time
                self._behind[t.id] = t.version
                continue
            t.stale = True
            self._unsure.setdefault(t.id, False)
            self._follow(t)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- auth ---------------------------------------------------------------------------------------
    @staticmethod
    def require_seat(t: Table, token: str | None) -> int:
        if not token:
            raise ApiError(401, "no_token", "this needs a seat token (Authorization: Bearer <token>)")
        seat = t.seat_of(token)
        if seat is None:
            raise ApiError(403, "bad_token", "this token holds no seat at this table")
        return seat

    # -- playing ------------------------------------------------------------------------------------
    async def act(
        self, t: Table, seat: int, move: int, text: str, lang: str | None = "en", *, reply: bool = True
    ) -> str | None:
        """Play `text` for `seat` if the table is at `move`; committed before this returns. A refused or
        unreadable action is explained in `lang` (English without one). With a language and `reply`, returns the
        seat's new state message (JSON text, shared with the push); a WebSocket, which gets the push, asks none."""
        if not isinstance(text, str) or len(text) > MAX_ACTION_CHARS:
            raise ApiError(413, "too_long", f"an action is at most {MAX_ACTION_CHARS} characters")
        if bad_text(text):
            raise ApiError(400, "bad_action", "an action may not hold control characters")
        return await _shielded(self._act(t, seat, move, text, lang, by_bot=False, reply=reply))

    async def _act(
        self, t: Table, seat: int, move: int, text: str, lang: str | None, by_bot: bool, reply: bool = True
    ) -> str | None:
        async with t.lock:
            self.check_live(t)
            await self.own(t, take=not by_bot)
            if move != t.version:
                raise ApiError(409, "stale_move", f"move {move} is stale: this table is at move {t.version}")
            if t.over:
                raise ApiError(409, "game_over", "the game is over")
            if not by_bot and t.seats[seat].kind != "human":
                raise ApiError(409, "not_human", f"seat {seat} is played by a bot now")
            if t.state.current_player != seat:
                raise ApiError(
                    409,
                    "not_your_turn",
                    f"seat {seat} cannot act now: seat {t.state.current_player} is to decide",
                )
            words = lang or "en"
            try:
                action = t.game.parse_action(t.state, text)
            except Exception as e:
                raise ApiError(400, "bad_action", unreadable_words(t.game, text, e, words)) from None
            # apply to a copy; readers keep seeing the committed state until the move is stored
            before = t.state
            after = before.clone()
            try:
                after.apply(action, seat)
            except NotYourTurnError as e:
                raise ApiError(409, "not_your_turn", str(e)) from None
            except GameOverError as e:
                raise ApiError(409, "game_over", str(e)) from None
            except IllegalActionError as e:  # the copy is as it was: `apply` changes nothing when it refuses
                why = str(e) if words == "en" else after.why_illegal(action, words)
                raise ApiError(422, "illegal_action", why) from None
            step = t.tutorial.scripted(len(t.entries)) if t.tutorial is not None and not by_bot else None
            if step is not None and str(action) != step.move:
                # the guided part of a tutorial table: only the move the script teaches now (refused, nothing changed)
                expected = t.game.describe_action(t.game.parse_action(before, step.move), lang or "en")
                raise ApiError(409, "tutorial_step", f"the guided game asks for another move here: {expected}")
            n = t.version
            over = after.is_over
            digest = state_digest(after)
            try:
                entry = make_entry(t.game, n, seat, action, before, t.players, after)
                await self.store.write(append_row(t.id, n, seat, "act", str(action), over, digest))
            except BaseException as e:
                if not isinstance(e, Exception):
                    self._forget(t)
                    raise
                log.exception("cannot store a move at table %s", t.id)
                await self._settle(t, n, seat, "act", str(action), "move")  # stored after all? go on
            if by_bot and t.seats[seat].kind == "human":  # a seat out of time: a bot moves for it (clocks.py)
                t.notes.append(Note(len(t.entries), seat, "timeout"))
            t.state = after  # the swap, version and log entry change together (no await in between)
            t.version += 1
            t.entries.append(entry)
            if over:
                t.status = "finished"
                self.holdings.finish(t.id)
            self.touch(t, seat)
            if self.hooks is not None:
                self.hooks.after_move(t, seat, by_bot)
            self.kick(t)
            self.broadcast(t, (n, seat, "act", str(action), digest))
            return None if lang is None or not reply else self.encoded(t, seat, lang)

    async def undo(self, t: Table, seat: int, move: int, lang: str = "en") -> str:
        return await _shielded(self._undo(t, seat, move, lang))

    async def _undo(self, t: Table, seat: int, move: int, lang: str) -> str:
        async with t.lock:
            self.check_live(t)
            await self.own(t)
            if move != t.version:
                raise ApiError(409, "stale_move", f"move {move} is stale: this table is at move {t.version}")
            if t.over:
                raise ApiError(409, "game_over", "the game is over")
            if not t.entries or t.entries[-1].seat != seat or t.state.current_player != seat:
                raise ApiError(
                    409, "no_undo", "only your own last action, during your own turn, can be undone"
                )
            if self.hooks is not None:
                self.hooks.check_undo(t)
            last = t.entries[-1]
            before = replay_state(t, t.entries.upto(len(t.entries) - 1))
            after = t.state
            action = t.game.parse_action(before, last.notation)
            if not await asyncio.to_thread(policy.undo_allowed, t.game, before, action, after):
                raise ApiError(
                    409,
                    "undo_barrier",
                    "that action revealed information or involved chance; it cannot be undone",
                )
            try:
                await self.store.write(
                    append_row(t.id, t.version, seat, "undo", str(last.n), False, state_digest(before))
                )
            except Exception:
                log.exception("cannot store an undo at table %s", t.id)
                await self._settle(t, t.version, seat, "undo", str(last.n), "undo")
            t.version += 1
            t.entries.pop()
            t.notes.append(Note(len(t.entries), seat, "undo"))
            t.state = before
            self.touch(t, seat)
            if self.hooks is not None:
                self.hooks.after_undo(t, seat)
            self.kick(t)
            self.broadcast(t)
            return self.encoded(t, seat, lang)

    async def _settle(self, t: Table, n: int, seat: int, kind: str, text: str, what: str) -> None:
        """A write failed: was it committed anyway (the connection can die after the commit, before
        its answer)? Read the log row back. Stored: return, and the caller goes on as if the write
        had succeeded. Not stored: 503 "nothing changed", which is then true. Cannot tell (the database
        does not answer): 503 saying so; the table is rebuilt from the database when it answers."""
        try:
            row = await self.store.read(lambda c: log_row(c, t.id, n))
        except Exception:
            log.exception("cannot read back log row %s of table %s", n, t.id)
            self._forget(t)
            raise ApiError(
                503,
                "storage_unknown",
                f"the database did not answer: the {what} may or may not have been stored; reload the table",
            ) from None
        if row is not None and (row.seat, row.kind, row.text) == (seat, kind, text):
            log.warning("log row %s of table %s was committed although the write reported an error", n, t.id)
            return
        self._forget(t)
        raise ApiError(503, "storage", f"the {what} could not be stored; nothing changed")

    def _forget(self, t: Table) -> None:
        """After a failed commit the memory may disagree with the database: retire this copy (it changes
        nothing any more: `check_live`; its bots stop) and drop it from the cache; its clients reconnect and the
        table is rebuilt from the log, the source of truth. A table with a bot to move is rebuilt after
        `RELOAD_AFTER` seconds so its bots carry on."""
        t.retired = True
        self._told.pop(t.id, None)  # the copy loaded next is read from the whole log
        self._unsure.pop(t.id, None)
        if self._tables.get(t.id) is t:
            del self._tables[t.id]
        if self._alive.get(t.id) is t:
            del self._alive[t.id]
        t.state = replay_state(t, t.entries.upto())
        for c in list(t.conns):
            c.close()
        if any(s.kind == "bot" for s in t.seats) and t.status == "playing":
            task = asyncio.get_running_loop().create_task(self._reload_later(t.id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _reload_later(self, table_id: str) -> None:
        await asyncio.sleep(RELOAD_AFTER)
        try:
            await self.get(table_id)  # kicks its bots
        except Exception:
            log.exception("cannot reload table %s", table_id)

    # -- views --------------------------------------------------------------------------------------
    def encoded(self, t: Table, viewer: Viewer, lang: str) -> str:
        """The state message for `viewer` as JSON text, computed once per version and seat."""
        if t._cache_version != t.version or len(t._cache) > 64:
            t._cache.clear()
            t._parts.clear()
            t._cache_version = t.version
        key = (viewer, lang)
        text = t._cache.get(key)
        if text is None:
            msg = state_message(t, viewer, lang)
            msg["view"] = _share(t._parts.setdefault("view", {}), msg["view"])
            if self.hooks is not None:
                self.hooks.extend(t, viewer, msg, t._parts)
            text = orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()  # hot path
            t._cache[key] = text
        return text

    def broadcast(self, t: Table, row: tuple[Any, ...] | None = None, *, tell: bool = True) -> None:
        """Push `t` to every connection here and, in a cluster, tell the other processes (unless not `tell`); `row`
        (n, seat, kind, text, digest) is the log row this change appended, which their copies apply instead of
        reading the log."""
        t._cache_version = -1
        if tell and self.cluster is not None and self.owns(t):
            self.cluster.announce(t.id, t.version, row)  # the other processes' sockets (cluster.py)
        for c in list(t.conns):
            for v in c.seats:
                c.push(self.encoded(t, v, c.lang))
        t._parts.clear()  # what the messages shared: not kept with every cached table until its next change

    def log_for(self, t: Table, viewer: Viewer, lang: str, upto: int | None = None) -> list[dict[str, Any]]:
        """The log in words for `viewer`; the live log (no `upto`) tells the table's notes between the moves
        (an undo, a bot moving for a seat out of time), a replay only the moves."""
        moves = [entry_json(t, e, viewer, lang) for e in t.entries.upto(upto)]
        if upto is not None or not t.notes:
            return moves
        out: list[dict[str, Any]] = []
        notes = sorted(t.notes, key=lambda x: x.at)  # stable: notes at one place keep their order
        k = 0
        for i, m in enumerate([*moves, None]):
            while k < len(notes) and (notes[k].at <= i or m is None):
                out.append(note_json(notes[k], lang))
                k += 1
            if m is not None:
                out.append(m)
        return out

    def replay_step(self, t: Table, viewer: Viewer, step: int, lang: str) -> dict[str, Any]:
        """The position after `step` effective actions of a finished game, as `viewer` saw it."""
        if not t.over:
            raise ApiError(409, "not_over", "the replay viewer is for finished games")
        total = len(t.entries)
        if not 0 <= step <= total:
            raise ApiError(400, "bad_step", f"step must be between 0 and {total}")
        state = replay_state(t, t.entries.upto(step))
        return {
            "table": t.id,
            "game": t.game.name,
            "seat": viewer,
            "step": step,
            "total": total,
            "current": state.current_player,
            "view": state.view(viewer),
            "log": self.log_for(t, viewer, lang, step),
            "seats": [s.public() for s in t.seats],
        }

    # -- connections --------------------------------------------------------------------------------
    def attach(self, t: Table, conn: Conn) -> None:
        """Only a seat coming online changes what others see (its "connected" flag): then everyone
        gets the news; otherwise (a spectator, a second tab) only the newcomer gets its state, so
        1,000 watchers joining cost 1,000 pushes, not 500,000."""
        t.conns.add(conn)
        changed = False
        for v in conn.seats:
            if v is not None:
                t.seats[v].connected += 1
                t.seats[v].last_seen = time.monotonic()
                t.seats[v].opened = True
                changed |= t.seats[v].connected == 1
        if changed:
            if self.hooks is not None:
                self.hooks.seats_changed(t)  # a waiting clock may start now (site.py)
            self.broadcast(t, tell=False)  # presence is this process's own: the others have nothing to read
        else:
            for v in conn.seats:
                conn.push(self.encoded(t, v, conn.lang))

    def detach(self, t: Table, conn: Conn) -> None:
        if conn not in t.conns:
            return
        t.conns.discard(conn)
        changed = False
        for v in conn.seats:
            if v is not None:
                t.seats[v].connected -= 1
                t.seats[v].last_seen = time.monotonic()
                changed |= t.seats[v].connected == 0
        if changed:
            self.broadcast(t, tell=False)  # as in `attach`

    @staticmethod
    def touch(t: Table, seat: int) -> None:
        t.seats[seat].last_seen = time.monotonic()
        t.seats[seat].opened = True

    # -- bots ---------------------------------------------------------------------------------------
    def kick(self, t: Table) -> None:
        """Start the bot of the seat to move, if it is a bot and not already thinking."""
        cur = t.state.current_player
        if not self.owns(t):  # in a cluster, a table's bots run on its owner only
            return
        if t.retired or cur is None or t.seats[cur].kind != "bot" or cur in t.thinking:
            return
        t.thinking.add(cur)
        task = asyncio.get_running_loop().create_task(self._bot_move(t, cur, t.version))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _bot_move(self, t: Table, seat: int, version: int) -> None:
        s = t.seats[seat]
        # independent of the table seed: a bot's (random) moves must not leak bits of the deal; the
        # move itself is logged, so replays do not need the bot's seed
        bot_seed = secrets.randbits(62)
        text: str | None = None
        try:
            delay = self.hooks.bot_delay(t, seat) if self.hooks is not None else self.bot_delay
            if delay:
                await asyncio.sleep(delay)
            step = t.tutorial.scripted(len(t.entries)) if t.tutorial is not None else None
            if step is not None and step.seat == seat:  # a tutorial's scripted reply: the lesson's deal goes on
                text = step.move
            elif s.bot == "random":  # O(1): no need to leave the loop
                text = str(random_choice(t.state.legal_actions(), bot_seed))
            else:
                job = BotJob(
                    t.game.name,
                    game_modules(),
                    t.players,
                    t.seed,
                    t.options,
                    tuple(e.notation for e in t.entries.upto()),
                    seat,
                    s.bot or "random",
                    bot_seed,
                    self.bots.seconds,
                )
                try:
                    # round-robin over clients (tables without a known creator count as their own)
                    owner = self.holdings.owner.get(t.id, t.id)
                    text = await self._choose(owner, job)
                except (TimeoutError, Exception) as e:
                    log.warning("bot %s at table %s failed (%s); playing a random move", s.bot, t.id, e)
                    if t.version == version and t.state.current_player == seat:
                        text = str(random_choice(t.state.legal_actions(), bot_seed))
        finally:
            t.thinking.discard(seat)
        if t.retired or not self.owns(t):
            return  # dropped after a failed store (the copy rebuilt from the database plays on), or handed over
        if text is None or t.version != version or t.seats[seat].kind != "bot":
            self.kick(t)
            return
        try:
            await self._act(t, seat, version, text, None, by_bot=True)
        except ApiError as e:
            log.warning("bot move %r refused at table %s: %s", text, t.id, e.detail)
            self.kick(t)
        except Exception:
            log.exception("bot move failed at table %s", t.id)

    async def _choose(self, client: str, job: BotJob) -> str:
        """A bot's decision through the fair queue: this process's (botpool.py), or in a cluster the site's,
        which every process's workers serve (sharedbots.py)."""
        if self.bot_queue is not None:
            return str(await self.bot_queue.choose(client, job))
        return await fair_choose(self.bot_pool, self.bots, client, job)

    async def hint(self, t: Table, seat: int, move: int, kind: str, lang: str) -> dict[str, Any]:
        """The move a bot of `kind` would make for `seat` now, in words, and why in a sentence (core/hints.py,
        on a determinization for the seat: it tells nothing the seat does not know). Nothing is played."""
        if move != t.version:
            raise ApiError(409, "stale_move", f"move {move} is stale: this table is at move {t.version}")
        if t.over:
            raise ApiError(409, "game_over", "the game is over")
        if t.state.current_player != seat:
            raise ApiError(409, "not_your_turn", f"seat {seat} is not to decide now")
        state, version = t.state, t.version
        bot_seed = secrets.randbits(62)
        text: str | None = None
        if kind != "random":
            job = BotJob(t.game.name, game_modules(), t.players, t.seed, t.options,
                         tuple(e.notation for e in t.entries.upto()), seat, kind, bot_seed, self.bots.seconds)
            try:
                text = await self._choose(self.holdings.owner.get(t.id, t.id), job)
            except (TimeoutError, Exception) as e:
                log.warning("hint by %s at table %s failed (%s); suggesting a random move", kind, t.id, e)
        if t.version != version:
            raise ApiError(409, "stale_move", "the table moved on while the bot was thinking")
        action = t.game.parse_action(state, text) if text else random_choice(state.legal_actions(), bot_seed)
        why = await asyncio.to_thread(hints.why, state, action, seat, lang, secrets.randbits(62))
        return {"table": t.id, "seat": seat, "version": version, "bot": kind, "action": str(action),
                "text": str(t.game.describe_action(action, lang)), "why": why}

    async def open_tables(self) -> list[dict[str, Any]]:
        rows = await self.store.read(open_rows)
        return rows

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self.bot_queue is not None:
            self.bot_queue.close()
        if self.cluster is not None:
            await self.cluster.close()
        for t in self._tables.values():
            for c in list(t.conns):
                c.close()


def _build_checked(rows: Any) -> Table:
    """Rebuild a table from its log and check the replay against the digest stored with its last row: a
    different state than the one served before is logged as an error naming the first row that differs
    (the log, the source of truth, is served)."""
    try:
        t = build_table(rows)
    except BoardlabError as e:
        # a log written under an earlier version of the game's rules (a rule changed: a move once legal is not)
        # cannot be resumed; refuse it clearly rather than fail with a server error, and keep the log untouched
        log.error("table %s: its log does not replay under this version of the rules: %s", rows[0].id, e)
        raise ApiError(409, "rules_changed", "this game was played under an earlier version of the rules and "
                       "cannot be resumed: one of its moves is no longer legal (its moves are kept)") from None
    bad = replay_mismatch(rows, t)
    if bad is not None:
        log.error(
            "table %s: replaying its log gives another state than the one served before, from log row %s on",
            t.id, bad,
        )
    return t


async def _shielded(coro: Awaitable[Any]) -> Any:
    """Run a change to completion even if the client goes away mid-commit (never half-done)."""
    task = asyncio.ensure_future(coro)
    return await asyncio.shield(task)

