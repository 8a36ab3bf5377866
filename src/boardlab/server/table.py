"""One live table in memory: its seats, its log and state, and the state message each viewer is shown.

No I/O here: the tables service (service.py) loads, changes, stores and pushes tables.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import time
from collections.abc import Iterable
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import orjson

from boardlab.core import Game, State, get_game, tutorial
from boardlab.core.narration import played
from boardlab.core.tutorial import Tutorial

from . import policy
from .conn import Conn
from .tokens import hash_token

Viewer = int | None


NETWORK_UNSAFE_OPTIONS = frozenset({"components"})
"""Options that name files on the server: never settable by a client (a game may list the options
it does accept over the network in `server_options`)."""


def network_options(game: Game) -> set[str]:
    allowed = getattr(game, "server_options", None)
    if allowed is not None:
        return set(allowed)
    return {k for k in game.options if k not in NETWORK_UNSAFE_OPTIONS}


@dataclass
class Seat:
    seat: int
    kind: str  # human | open | bot
    bot: str | None
    name: str
    token_hash: str | None
    connected: int = 0
    last_seen: float = field(default_factory=time.monotonic)
    opened: bool = False  # its holder has opened the table (a connection or a move) since this server started

    def public(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "bot": self.bot,
            "name": self.name,
            "connected": self.connected > 0,
        }


class Entry(NamedTuple):
    """One effective action of the log (undone actions are not entries)."""

    n: int
    seat: int
    notation: str
    visible: int  # bit v: seat v may read the notation; bit `players`: spectators may
    texts: tuple[str, ...]  # the line in words per viewer and language, masked per viewer (see policy)
    undoable: bool = False  # not an undo barrier (`policy.undo_allowed`): what `can_undo` offers

    def text(self, viewer: Viewer, lang: str, players: int) -> str:
        return self.texts[policy.text_index(viewer, lang, players)]

    def visible_to(self, viewer: Viewer, players: int) -> bool:
        return bool(self.visible >> policy.viewer_index(viewer, players) & 1)


class Note(NamedTuple):
    """A table event that is not a move, told in the log between the moves: a seat took back its last move
    (`undo`), or ran out of time and a bot moved for it (`timeout`). `at`: how many moves precede it."""

    at: int
    seat: int
    kind: str


NOTE_WORDS = {
    "undo": {"en": "takes back their last move", "zh-TW": "收回了上一步"},
    "timeout": {"en": "ran out of time: a bot makes the next move for them", "zh-TW": "時間用完：由機器人代下一步"},
}


def note_json(note: Note, lang: str) -> dict[str, Any]:
    """A note as a log entry: no move number and no notation; every viewer reads the same words."""
    words = NOTE_WORDS[note.kind]
    return {"n": None, "seat": note.seat, "action": None, "text": words.get(lang, words["en"]), "note": note.kind}


class TableLog:
    """A table's effective log entries, each stored as one flat tuple of ints and strings.

    Why not a list of Entry objects: the garbage collector stops tracking an exact tuple whose items
    are not containers, while it walks every NamedTuple or dataclass instance on each full
    collection. Hundreds of tables with hundreds of moves each made those collections pause the
    server for ~100 ms (measured; docs/benchmarks.md)."""

    __slots__ = ("_rows",)

    def __init__(self, entries: Iterable[Entry] = ()) -> None:
        self._rows: list[tuple[Any, ...]] = [self._flat(e) for e in entries]

    @staticmethod
    def _flat(e: Entry) -> tuple[Any, ...]:
        return (e.n, e.seat, e.notation, e.visible, e.undoable, *e.texts)

    @staticmethod
    def _entry(row: tuple[Any, ...]) -> Entry:
        return Entry(row[0], row[1], row[2], row[3], row[5:], row[4])

    def append(self, e: Entry) -> None:
        self._rows.append(self._flat(e))

    def pop(self) -> Entry:
        return self._entry(self._rows.pop())

    def __len__(self) -> int:
        return len(self._rows)

    def __bool__(self) -> bool:
        return bool(self._rows)

    def __getitem__(self, i: int) -> Entry:
        return self._entry(self._rows[i])

    def upto(self, n: int | None = None) -> list[Entry]:
        """The first `n` entries (all if None)."""
        rows = self._rows if n is None else self._rows[:n]
        return [self._entry(r) for r in rows]



@dataclass
class Table:
    id: str
    game: Game
    players: int
    seed: int
    options: dict[str, Any]
    public: bool
    status: str
    rematch_of: str | None
    rematch_id: str | None
    seats: list[Seat]
    state: State
    entries: TableLog
    version: int
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Conn] = field(default_factory=set)
    thinking: set[int] = field(default_factory=set)
    notes: list[Note] = field(default_factory=list)
    _cache: dict[tuple[Viewer, str], str] = field(default_factory=dict)
    _cache_version: int = -1
    # what the messages of `_cache_version` share, encoded once for all viewers (service.encoded); cleared with it
    _parts: dict[str, Any] = field(default_factory=dict)
    retired: bool = False  # dropped after a failed store (service._forget): it changes nothing any more
    tutorial: Tutorial | None = None  # a guided first game: its script (core/tutorial.py), then free play
    stale: bool = False  # in a cluster: another process changed it; rebuilt from the log before use (service.py)

    @property
    def over(self) -> bool:
        return self.state.is_over

    def seat_of(self, token: str | None) -> int | None:
        """The seat whose token this is, or None (constant-time comparison on the hashes)."""
        if not token:
            return None
        h = hash_token(token)
        found = None
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                found = s.seat
        return found


_OFFERS: dict[tuple[str, Any, str], dict[str, str]] = {}


def _offer(game: Game, action: Any, lang: str) -> dict[str, str]:
    """A legal action as offered to its seat, {"action": notation, "text": words}: it depends on the
    action and the language only, so it is built once and shared by every message (read-only)."""
    key = (game.name, action, lang)
    item = _OFFERS.get(key)
    if item is None:
        try:
            text = str(game.describe_action(action, lang))
        except Exception:
            text = str(action)
        if len(_OFFERS) > 200_000:
            _OFFERS.clear()
        item = _OFFERS[key] = {"action": str(action), "text": text}
    return item


def make_entry(
    game: Game, n: int, seat: int, action: Any, before: State, players: int, after: State | None = None
) -> Entry:
    """`after` (the state the action led to) decides whether the entry may be undone; without it, no."""
    visible = policy.visible_to(game, before, action, seat, players)
    mask = sum(1 << policy.viewer_index(v, players) for v in visible)
    undoable = after is not None and policy.undo_allowed(game, before, action, after)
    with nullcontext() if after is None else played(before, action, after):  # the words reuse `after`
        texts = policy.log_texts(game, before, action, visible, players)
    return Entry(n, seat, str(action), mask, texts, undoable)


def entry_json(t: Table, e: Entry, viewer: Viewer, lang: str) -> dict[str, Any]:
    notation = e.notation if e.visible_to(viewer, t.players) else None
    return {"n": e.n, "seat": e.seat, "action": notation, "text": e.text(viewer, lang, t.players)}


def state_message(t: Table, viewer: Viewer, lang: str) -> dict[str, Any]:
    """Everything a seat (or a spectator) is shown: built from its own view only."""
    st = t.state
    cur = st.current_player
    mine = viewer is not None and viewer == cur and t.seats[viewer].kind == "human"
    last = t.entries[-1] if t.entries else None  # rebuilt from its flat row at each index: once per message
    msg: dict[str, Any] = {
        "type": "state",
        "table": t.id,
        "game": t.game.name,
        "version": t.version,
        "seat": viewer,
        "players": t.players,
        "current": cur,
        "over": st.is_over,
        "view": st.view(viewer),
        "legal": [_offer(t.game, a, lang) for a in st.legal_actions()] if mine else [],
        "seats": [s.public() for s in t.seats],
        "thinking": sorted(t.thinking),
        "log_len": len(t.entries),
        "notes_len": len(t.notes),
        "last": entry_json(t, last, viewer, lang) if last is not None else None,
        "can_undo": bool(mine and last is not None and last.seat == viewer and last.undoable),
        "rematch": t.rematch_id,
        "public": t.public,
    }
    if t.tutorial is not None and viewer is not None:
        msg["tutorial"] = tutorial_part(t, t.tutorial, lang)
    if st.is_over:
        # the tie-break in the game's words (Game.tiebreak_text), as the terminal says it: the browser shows it
        # as given, so no renderer keeps a second copy of each game's tie-break sentence
        msg["scores"] = [{**s.to_json(), "tiebreak_text": t.game.tiebreak_text(s.tiebreak, lang)} for s in st.scores()]
        msg["winners"] = st.winners()
    return msg


def tutorial_part(t: Table, tut: Tutorial, lang: str) -> dict[str, Any]:
    """Where a guided first game stands, in `lang`: the step to play (its text, rules, what to highlight, the
    expected move and that move in words) or that the script is over and the game goes on."""
    part = tut.progress(len(t.entries), lang)
    if part["move"] is not None:
        part["move_text"] = str(t.game.describe_action(t.game.parse_action(t.state, part["move"]), lang))
    return part


def build_table(rows: tuple[Any, list[Any], list[Any]]) -> Table:
    """Rebuild a table by replaying its log (undo records pop the action they undo)."""
    trow, srows, lrows = rows
    game = get_game(trow.game)
    options = json.loads(trow.options)
    effective: list[Any] = []
    notes: list[Note] = []
    for r in lrows:
        if r.kind == "act":
            effective.append(r)
        elif r.kind == "undo" and effective:
            effective.pop()
            notes.append(Note(len(effective), r.seat, "undo"))
    seed = int(trow.seed)  # stored as decimal text (0003); rows from before hold the same number
    state = game.new_game(trow.players, seed, **options)
    entries = TableLog()
    for r in effective:
        action = game.parse_action(state, r.text)
        before = state.clone()
        state.apply(action, r.seat)
        entries.append(make_entry(game, r.n, r.seat, action, before, trow.players, state))
    seats = [Seat(s.seat, s.kind, s.bot, s.name, s.token_hash) for s in srows]
    return Table(
        trow.id,
        game,
        trow.players,
        seed,
        options,
        bool(trow.public),
        trow.status,
        trow.rematch_of,
        trow.rematch_id,
        seats,
        state,
        entries,
        len(lrows),
        notes=notes,
        tutorial=tutorial.load(game) if getattr(trow, "mode", None) == "tutorial" else None,
    )


def apply_row(t: Table, n: int, seat: int, kind: str, text: str, digest: str | None) -> bool:
    """Apply the owner's next log row to a copy held by another process (its move, as `build_table` would replay
    it), instead of rebuilding the copy from the whole log; True if it did. Refused, the copy unchanged, for
    anything but the next row (`n` is the copy's version) of kind "act", a move that does not apply, or a state
    whose digest is not the one the owner stored with the row: the caller then rebuilds it from the log."""
    if kind != "act" or n != t.version:
        return False
    try:
        action = t.game.parse_action(t.state, text)
        after = t.state.clone()
        after.apply(action, seat)
    except Exception:
        return False
    if digest is not None and digest != state_digest(after):
        return False
    entry = make_entry(t.game, n, seat, action, t.state, t.players, after)
    t.state = after  # the swap, version and log entry change together, as on the owner (service._act)
    t.version += 1
    t.entries.append(entry)
    if after.is_over:
        t.status = "finished"
    return True


def state_digest(state: State) -> str:
    """24 hex digits of the whole state (hidden parts included) and whose decision it is: stored with every
    log row, so a server that rebuilds a table from its log can check that it rebuilt the state it served
    (`replay_mismatch`). Keys sorted; a snapshot orjson cannot encode falls back to its repr."""
    snap = [state.current_player, state.snapshot()]
    try:
        raw = orjson.dumps(snap, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    except TypeError:
        raw = repr(snap).encode()
    return hashlib.blake2b(raw, digest_size=12).hexdigest()


def replay_mismatch(rows: tuple[Any, list[Any], list[Any]], t: Table) -> int | None:
    """The first log row after which replaying the log gives another state than the one the server had when
    it stored the row (its `digest`), or None when they agree. Only the last row is compared unless it
    differs (one digest per load); rows stored before digests existed (None) are not checked."""
    lrows = rows[2]
    if not lrows or lrows[-1].digest is None or lrows[-1].digest == state_digest(t.state):
        return None
    state = t.game.new_game(t.players, t.seed, **t.options)
    done: list[State] = []
    for r in lrows:
        if r.kind == "act":
            done.append(state.clone())
            state.apply(t.game.parse_action(state, r.text), r.seat)
        elif done:
            state = done.pop()
        if r.digest is not None and r.digest != state_digest(state):
            return int(r.n)
    return int(lrows[-1].n)


def replay_state(t: Table, entries: Iterable[Entry]) -> State:
    """The state after `entries`, replayed from the table's seed."""
    state = t.game.new_game(t.players, t.seed, **t.options)
    for e in entries:
        state.apply(t.game.parse_action(state, e.notation), e.seat)
    return state
