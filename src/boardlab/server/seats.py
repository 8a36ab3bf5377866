"""Seat changes at a table: joining a free seat, a bot standing in for a seat and its player taking it
back, and each seat's place at the rematch. Each change is made under the table's lock, committed,
then pushed (as every change of the tables service, service.py)."""

from __future__ import annotations

import hmac
import time
from collections.abc import Callable

from .bots import known_bot_kinds
from .errors import ApiError
from .limits import bad_text, clean_name
from .service import TableService
from .table import Table
from .tabledb import seat_update
from .tokens import hash_token, new_token, rematch_token


async def join(svc: TableService, t: Table, seat: int | None, name: str | None) -> tuple[int, str]:
    if name and bad_text(name):
        raise ApiError(400, "bad_name", "names may not hold control characters")
    async with t.lock:
        svc.check_live(t)
        await svc.own(t)
        free = [s.seat for s in t.seats if s.kind == "open"]
        if t.over or not free:
            raise ApiError(409, "no_free_seat", "this table has no free seat")
        if seat is None:
            seat = free[0]
        elif seat not in free:
            raise ApiError(409, "no_free_seat", f"seat {seat} is not free")
        token = new_token()
        s = t.seats[seat]
        new_name = clean_name(name) or s.name
        await svc.store.write(
            seat_update(t.id, seat, kind="human", bot=None, name=new_name, token_hash=hash_token(token))
        )
        s.kind, s.bot, s.name, s.token_hash = "human", None, new_name, hash_token(token)
        if not any(x.kind == "open" for x in t.seats):
            svc.holdings.unlist(t.id)
        svc.touch(t, seat)
        if svc.hooks is not None:
            svc.hooks.seats_changed(t)
        svc.kick(t)
        svc.broadcast(t)
        return seat, token

async def to_bot(svc: TableService, t: Table, by: int, seat: int, bot: str, confirm: bool = False) -> None:
    """Let a bot take `seat` so the others can finish: its holder may always do it; another seated player
    may when the seat is free, and a person's seat (asked with `confirm`) only when its clock ran out, or,
    without a turn-based clock, when its holder opened the table and has been away `absent_grace` seconds
    (issue #32: a seat with 11:58 of a 12-hour clock left was handed over after 60 s of absence, and one
    whose player had never come yet). The holder is told (`site.handed`) and can take it back."""
    if bot not in known_bot_kinds():
        raise ApiError(400, "bad_bot", f"unknown bot {bot!r}; known: {', '.join(known_bot_kinds())}")
    async with t.lock:
        svc.check_live(t)
        await svc.own(t)
        if not 0 <= seat < t.players:
            raise ApiError(404, "no_seat", f"no seat {seat}")
        s = t.seats[seat]
        if t.over:
            raise ApiError(409, "game_over", "the game is over")
        if s.kind == "bot":
            raise ApiError(409, "already_bot", f"seat {seat} is already a bot")
        if by != seat and s.kind == "human":
            _may_replace(svc, t, seat, confirm)
        await svc.store.write(
            seat_update(t.id, seat, kind="bot", bot=bot, name=s.name, token_hash=s.token_hash)
        )
        s.kind, s.bot = "bot", bot
        if bot != "random":
            svc.holdings.mark_bots(t.id)
        if svc.hooks is not None:
            svc.hooks.seat_to_bot(t, by, seat)
        svc.kick(t)
        svc.broadcast(t)

def _may_replace(svc: TableService, t: Table, seat: int, confirm: bool) -> None:
    """Refuse (409) to hand another player's seat to a bot unless the rules of `to_bot` allow it."""
    s = t.seats[seat]
    if not confirm:
        raise ApiError(409, "confirm_needed", "handing another player's seat to a bot needs confirm: true")
    if svc.hooks is not None and svc.hooks.out_of_time(t, seat):
        return
    if svc.hooks is not None and svc.hooks.turn_clock(t):
        raise ApiError(409, "seat_in_time", f"seat {seat} still has time on its clock; it can't be replaced now")
    if not s.opened:
        raise ApiError(409, "never_opened", f"seat {seat}'s player has not opened this table yet")
    if s.connected or time.monotonic() - s.last_seen < svc.absent_grace:
        raise ApiError(
            409,
            "seat_present",
            f"seat {seat} is present (or left less than {svc.absent_grace:g} s ago); it can't be replaced now",
        )


async def to_human(svc: TableService, t: Table, seat: int) -> None:
    """The holder of a seat's token takes it back from the bot that replaced them."""
    async with t.lock:
        svc.check_live(t)
        await svc.own(t)
        s = t.seats[seat]
        if s.kind != "bot" or s.token_hash is None:
            raise ApiError(409, "not_bot", f"seat {seat} is not a bot standing in for you")
        if svc.hooks is not None and not svc.hooks.may_take_back(t, seat):
            raise ApiError(409, "expelled", f"seat {seat} was expelled for running out of time: a bot plays it")
        await svc.store.write(
            seat_update(t.id, seat, kind="human", bot=None, name=s.name, token_hash=s.token_hash)
        )
        s.kind, s.bot = "human", None
        svc.touch(t, seat)
        if svc.hooks is not None:
            svc.hooks.seats_changed(t)
        svc.broadcast(t)

async def rematch(
    svc: TableService, t: Table, seat: int, token: str, client: str, token_at: Callable[[str], str] | None = None
) -> tuple[Table, str]:
    """The rematch table (created by the first who asks, held to that client's caps) and this seat's token there:
    derived from the old token, or `token_at(new table id)` (a signed-in player's seat keeps its account's token)."""
    if not t.over:
        raise ApiError(409, "not_over", "a rematch needs a finished game")
    async with t.lock:
        await svc.own(t)  # in a cluster (a single server: nothing)
        if t.rematch_id is None:
            specs = [
                {
                    "kind": "bot" if s.kind == "bot" else ("open" if s.kind == "open" else "human"),
                    "bot": s.bot,
                    "name": s.name,
                }
                for s in t.seats
            ]
            new, _ = await svc.create(t.game.name, t.players, t.options, specs, t.public, rematch_of=t, client=client)
            t.rematch_id = new.id
            svc.broadcast(t)
    new = await svc.get(t.rematch_id)
    mine = token_at(new.id) if token_at is not None else rematch_token(token, new.id)
    async with new.lock:
        await svc.own(new)
        s = new.seats[seat]
        if s.kind == "human" and s.token_hash is None:
            await svc.store.write(
                seat_update(
                    new.id, seat, kind="human", bot=None, name=s.name, token_hash=hash_token(mine)
                )
            )
            s.token_hash = hash_token(mine)
        elif s.token_hash is None or not hmac.compare_digest(s.token_hash, hash_token(mine)):
            raise ApiError(409, "no_rematch_seat", "your seat at the rematch is not a human seat")
    return new, mine
