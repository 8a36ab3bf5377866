"""Clocks per BGA: real-time speeds (a bank, time added per move, capped) and turn-based speeds
(hours or days per move). The arithmetic first (pure functions); then `ClockKeeper`, which enforces
the clocks of live tables: runs their timers, makes the moves of seats out of time, expels them.

A seat's clock runs while it is that seat's turn. When a turn begins, `per_move` is added to the
seat's bank (never above `cap`); when the turn ends, the time it took is taken off. A bank below
zero is "out of time": the server lets a bot make that move (zombie move) and the other players may
expel the player (their seat goes to a bot for the rest of the game and they lose a rated game).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from .bots import BotJob, game_modules, known_bot_kinds, random_choice
from .errors import ApiError
from .service import TableService
from .siteinfo import SiteInfo, clocked_tables
from .table import Table
from .tabledb import seat_update

log = logging.getLogger("boardlab.server")

SPEEDS: dict[str, dict[str, Any]] = {
    # real time: minutes of bank, seconds per move
    "fast": {"mode": "realtime", "bank": 120.0, "per_move": 10.0, "cap": 180.0},
    "normal": {"mode": "realtime", "bank": 300.0, "per_move": 20.0, "cap": 480.0},
    "slow": {"mode": "realtime", "bank": 600.0, "per_move": 40.0, "cap": 900.0},
    # turn based: the bank is one move's time, refilled every turn
    "12h": {"mode": "turn", "bank": 12 * 3600.0, "per_move": 12 * 3600.0, "cap": 12 * 3600.0},
    "1d": {"mode": "turn", "bank": 86400.0, "per_move": 86400.0, "cap": 86400.0},
    "3d": {"mode": "turn", "bank": 3 * 86400.0, "per_move": 3 * 86400.0, "cap": 3 * 86400.0},
}
MIN_SECONDS = 2.0  # custom clocks (the API, tests) may be this short
RATED_MIN: dict[str, dict[str, float]] = {
    "realtime": {"bank": 120.0, "per_move": 10.0},  # the fast speed: 2 min + 10 s a move
    "turn": {"per_move": 12 * 3600.0},  # 12 hours a move
}
"""The shortest clocks a rated table takes (issue #32: a rated table with a 2-second clock was a trap that
cost whoever joined it their rating)."""


def rated_clock(clock: dict[str, Any]) -> None:
    """Raise ValueError when `clock` (from `settings`) is shorter than a rated table allows (RATED_MIN)."""
    least = RATED_MIN[clock["mode"]]
    if any(clock[k] < v for k, v in least.items()):
        raise ValueError(
            "a rated table's clock is at least 2 min + 10 s a move in real time, or 12 hours a move turn-based"
        )


def settings(spec: Any) -> dict[str, Any] | None:
    """A clock from a speed name or {mode, per_move, bank?, cap?} (seconds); None = no clock."""
    if spec in (None, "", "none"):
        return None
    if isinstance(spec, str):
        if spec not in SPEEDS:
            raise ValueError(f"unknown speed {spec!r}; known: {', '.join(SPEEDS)}")
        return dict(SPEEDS[spec], speed=spec)
    if not isinstance(spec, dict):
        raise ValueError("a clock is a speed name or {mode, per_move, bank, cap}")
    mode = spec.get("mode")
    if mode not in ("realtime", "turn"):
        raise ValueError("clock mode is realtime or turn")
    try:
        per = float(spec.get("per_move", 0))
        bank = float(spec.get("bank", per))
        cap = float(spec.get("cap", max(bank, per)))
    except (TypeError, ValueError):
        raise ValueError("clock times are numbers of seconds") from None
    limit = 30 * 86400.0
    if not (MIN_SECONDS <= bank <= limit and 0 <= per <= limit and bank <= cap <= limit and per <= cap):
        raise ValueError(f"clock times: {MIN_SECONDS:g} s <= bank <= cap <= 30 days, per move <= cap")
    return {"mode": mode, "bank": bank, "per_move": per, "cap": cap, "speed": "custom"}


def new_state(clock: dict[str, Any], players: int) -> dict[str, Any]:
    """Every seat starts with its bank; nobody's clock runs until `start_turn`."""
    return {"remaining": [clock["bank"]] * players, "seat": None, "since": None, "out": []}


def start_turn(clock: dict[str, Any], st: dict[str, Any], seat: int | None, now: float, first: bool) -> None:
    """Stop the running clock (charging the time taken) and start `seat`'s."""
    run = st.get("seat")
    if run is not None and st.get("since") is not None:
        st["remaining"][run] -= max(0.0, now - st["since"])
    if seat is not None and (run != seat or first):
        rem = st["remaining"][seat]
        if clock["mode"] == "turn":
            rem = clock["per_move"]  # turn-based: every turn has its full time
        elif not first:
            rem += clock["per_move"]
        st["remaining"][seat] = min(rem, clock["cap"])
    st["seat"] = seat
    st["since"] = now if seat is not None else None


def deadline(st: dict[str, Any]) -> float | None:
    """Wall time at which the running seat runs out, or None."""
    if st.get("seat") is None or st.get("since") is None:
        return None
    return float(st["since"]) + float(st["remaining"][st["seat"]])


class ClockKeeper:
    """Where the clock is enforced: one timer per clocked table for the seat to move. When it runs out,
    the seat is marked out of time, a bot of the table's level makes the move (zombie move), and the
    other players may expel the seat (`expel`: a bot plays it to the end; a leaver in a rated game).
    Clocks keep running across restarts (`resume`). The site (site.py) arms the timer after every move."""

    def __init__(
        self,
        svc: TableService,
        ensure: Callable[[Table], SiteInfo],
        save: Callable[[Table, SiteInfo], None],
    ) -> None:
        self.svc = svc
        self.store = svc.store
        self.ensure = ensure
        self.save = save
        self.timers: dict[str, asyncio.Task[None]] = {}

    async def resume(self) -> None:
        """Clocks keep running across restarts: load every unfinished clocked table."""
        ids = await self.store.read(clocked_tables)
        for tid in ids:
            try:
                t = await self.svc.get(tid)
                self.ensure(t)
            except Exception:
                log.exception("cannot resume the clock of table %s", tid)

    def close(self) -> None:
        for task in list(self.timers.values()):
            task.cancel()

    def arm(self, t: Table, info: SiteInfo) -> None:
        old = self.timers.pop(t.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if info.clock is None or info.clock_state is None or t.over or not self.svc.owns(t):
            return  # in a cluster, a table's clock runs on its owner only (service.owns)
        seat = info.clock_state.get("seat")
        end = deadline(info.clock_state)
        if seat is None or end is None:
            return
        self.timers[t.id] = asyncio.get_running_loop().create_task(self._expire(t, info, seat, t.version, end))

    async def _expire(self, t: Table, info: SiteInfo, seat: int, version: int, end: float) -> None:
        await asyncio.sleep(max(0.0, end - time.time()))
        t = await self.svc.get(t.id)  # the cached table (it may have been evicted and rebuilt meanwhile)
        if not self.svc.owns(t):
            return  # handed over to another process meanwhile: its clock runs there
        if t.version != version or t.over or t.state.current_player != seat or t.seats[seat].kind != "human":
            return
        st = info.clock_state or {}
        if seat not in st.get("out", []):
            st.setdefault("out", []).append(seat)
        self.svc.broadcast(t)
        text = await self._zombie_move(t, info, seat, version)
        if text is None or t.version != version:
            return
        try:
            await self.svc._act(t, seat, version, text, None, by_bot=True)
        except ApiError as e:
            log.warning("zombie move refused at table %s: %s", t.id, e.detail)

    async def _zombie_move(self, t: Table, info: SiteInfo, seat: int, version: int) -> str | None:
        """The move a bot of the table's level makes for a seat out of time."""
        # independent of the table seed (as in TableService._bot_move): the bot's moves are logged, and a
        # seed derived from the table's would let its random moves leak bits of the deal
        bot_seed = secrets.randbits(62)
        level = info.bot_level if info.bot_level in known_bot_kinds() else "random"
        if level in ("random", "easy"):
            return str(random_choice(t.state.legal_actions(), bot_seed))
        job = BotJob(
            t.game.name, game_modules(), t.players, t.seed, t.options,
            tuple(e.notation for e in t.entries.upto()), seat, level, bot_seed, self.svc.bots.seconds,
        )
        t.thinking.add(seat)
        try:
            return await self.svc.bots.choose(job)
        except Exception:
            return str(random_choice(t.state.legal_actions(), bot_seed)) if t.version == version else None
        finally:
            t.thinking.discard(seat)

    async def expel(self, t: Table, by: int, seat: int) -> None:
        """Another player expels a seat that ran out of time: a bot plays it to the end; a leaver."""
        info = self.ensure(t)
        async with t.lock:
            self.svc.check_live(t)
            await self.svc.own(t)
            info = self.ensure(t)  # taking the table over reloads its site information
            if t.over:
                raise ApiError(409, "game_over", "the game is over")
            if not 0 <= seat < t.players or seat == by:
                raise ApiError(404, "no_seat", "no such other seat")
            st = info.clock_state or {}
            s = t.seats[seat]
            if seat not in st.get("out", []) or s.kind != "human":
                raise ApiError(409, "not_out_of_time", "only a player out of time can be expelled")
            level = info.bot_level
            await self.store.write(
                seat_update(t.id, seat, kind="bot", bot=level, name=s.name, token_hash=s.token_hash)
            )
            s.kind, s.bot = "bot", level
            if seat not in info.leavers:
                info.leavers.append(seat)
            if seat not in st.setdefault("expelled", []):
                st["expelled"].append(seat)  # for good: its holder may not take it back (site.may_take_back)
            self.save(t, info)
            self.svc.kick(t)
            self.svc.broadcast(t)
