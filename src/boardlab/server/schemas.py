"""What goes over the wire: request bodies and responses of the HTTP API (documented in /openapi.json)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from .limits import clean_text


# -- the tables API ------------------------------------------------------------------------------------
class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "open", "bot"] = "human"
    bot: str | None = Field(None, max_length=16, description="bot kind or level, for kind=bot")
    name: str | None = Field(None, max_length=40)


class NewTable(BaseModel):
    """What every new table names first: its game, players and options (then its seats)."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=64)
    players: int = Field(ge=1, le=16)
    options: dict[str, Any] = Field(default_factory=dict)


class CreateTable(NewTable):
    seats: list[SeatSpec] = Field(max_length=16)
    public: bool = False


class ActionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: int = Field(ge=0, le=10**9, description="the log length this action expects (else 409)")
    action: str = Field(max_length=200, description="the action's notation")


class UndoIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: int = Field(ge=0, le=10**9)


class HintIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: int = Field(ge=0, le=10**9)


class HintOut(BaseModel):
    table: str
    seat: int
    version: int
    bot: str
    action: str
    text: str
    why: str


class JoinIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = Field(None, ge=0, le=15)
    name: str | None = Field(None, max_length=40)


class BotIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    bot: str = Field("random", max_length=16)
    confirm: bool = Field(False, description="needed to hand another player's seat to a bot (409 confirm_needed)")


class ErrorOut(BaseModel):
    error: str = Field(description="a stable code the UI translates, e.g. stale_move, bad_token")
    detail: Any = Field(description="a sentence in English (a list of problems for invalid_request)")


class SeatOut(BaseModel):
    seat: int
    kind: str
    bot: str | None
    name: str
    connected: bool


class LogEntry(BaseModel):
    n: int | None = Field(description="the move's number; null for a note (an undo, a bot moving for a seat "
                                      "out of time)")
    seat: int
    action: str | None = Field(description="notation, or null when this viewer may not see it")
    text: str | None
    note: str | None = Field(None, description="a note's kind: undo | timeout (absent for a move)")


class LegalOut(BaseModel):
    action: str
    text: str


class StateOut(BaseModel):
    type: Literal["state"]
    table: str
    game: str
    version: int
    seat: int | None
    players: int
    current: int | None
    over: bool
    view: dict[str, Any]
    legal: list[LegalOut]
    seats: list[SeatOut]
    thinking: list[int]
    log_len: int
    notes_len: int = 0
    last: LogEntry | None
    can_undo: bool
    rematch: str | None
    public: bool
    scores: list[dict[str, Any]] | None = None
    winners: list[int] | None = None
    site: dict[str, Any] | None = Field(
        None,
        description="the site's part (server/site.py): rated, bot_level, users and ratings per seat, leavers, "
        "clock {mode, speed, bank, per_move, cap, remaining, seat, since, out, deadline}, away_since, grace, "
        "pace (the table's bot pace in seconds: the browser draws moves that arrive together one at a time at it)",
    )


class CreatedSeat(BaseModel):
    seat: int
    kind: str
    token: str | None
    link: str | None


class CreatedOut(BaseModel):
    id: str
    seats: list[CreatedSeat]
    spectator_link: str
    hotseat_link: str | None


class OptionOut(BaseModel):
    default: Any
    doc: str
    choices: list[Any] | None


class GameOut(BaseModel):
    name: str
    titles: dict[str, str]
    min_players: int
    max_players: int
    hidden_information: bool
    options: dict[str, OptionOut]
    renderer: str | None
    tutorial: bool = Field(False, description="the game has a guided first game (POST /api/tutorials/{name})")
    renderer_data: dict[str, Any] = Field(
        default_factory=dict,
        description="data files the game's package ships for its renderer, by name: terms (the game's "
        "vocabulary per language, terms.json), components (the component set with provenance, "
        "components.json), cards (a card deck with provenance, cards.json) and rules (fixed components "
        "and rule numbers, rules.json) and about (the lobby card and How-to-play page, about.json); a name is "
        "absent when the package has no such file",
    )


class GamesOut(BaseModel):
    games: list[GameOut]
    bots: list[str]
    langs: list[str]


class OpenTableOut(BaseModel):
    id: str
    game: str
    players: int
    seats: list[SeatOut]
    created_at: float
    rated: bool = False
    clock: dict[str, Any] | None = Field(None, description="{mode, bank, per_move, cap, speed} in seconds, or none")
    friends: list[str] | None = Field(None, description="signed in: your friends seated here (their tables first)")


class JoinedOut(BaseModel):
    table: str
    seat: int
    token: str
    link: str


class LogOut(BaseModel):
    table: str
    seat: int | None
    log: list[LogEntry]


class ReplayOut(BaseModel):
    table: str
    game: str
    seat: int | None
    step: int
    total: int
    current: int | None
    view: dict[str, Any]
    log: list[LogEntry]
    seats: list[SeatOut]


# -- the site: accounts, site tables, chat -------------------------------------------------------------
class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, AfterValidator(clean_text)] = Field(max_length=60)  # no NUL (PostgreSQL) nor controls
    password: str = Field(max_length=200)


class MailSettings(BaseModel):
    """Your-turn e-mails (server/mail.py): the address, whether to send them, their language."""

    model_config = ConfigDict(extra="forbid")
    email: str | None = Field(None, max_length=254)
    turns: bool = False
    lang: str = Field("en", pattern="^(en|zh-TW)$")


class PushKeys(BaseModel):
    """The browser's keys of a push subscription (base64url): its P-256 public key and its 16-byte secret."""

    model_config = ConfigDict(extra="ignore")
    p256dh: str = Field(max_length=100, pattern="^[A-Za-z0-9_-]+=*$")
    auth: str = Field(max_length=40, pattern="^[A-Za-z0-9_-]+=*$")


class PushSubscription(BaseModel):
    """A browser's push subscription (`PushSubscription.toJSON()` in the page) and the language of its messages
    (server/push.py)."""

    model_config = ConfigDict(extra="ignore")  # toJSON() adds expirationTime
    endpoint: str = Field(max_length=1000)
    keys: PushKeys
    lang: str = Field("en", pattern="^(en|zh-TW)$")


class PushEndpoint(BaseModel):
    model_config = ConfigDict(extra="ignore")
    endpoint: str = Field(max_length=1000)


class SiteSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: str = Field("human", pattern="^(human|open|bot)$")
    bot: str | None = Field(None, max_length=16)
    name: str | None = Field(None, max_length=40)


class SiteTable(NewTable):
    seats: list[SiteSeat] = Field(max_length=16)
    public: bool = False
    rated: bool = False
    clock: Any = Field(None, description="a speed (fast, normal, slow, 12h, 1d, 3d) or {mode, per_move, bank, cap}")
    bot_level: str = Field("medium", max_length=16)
    pace: float | None = Field(None, ge=0, le=10, description="seconds a bot waits before it moves")


class ChatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(max_length=2000)
    channel: Literal["players", "spectators"] = Field("players", description="spectators talk in their own channel")


class SiteError(BaseModel):
    error: str = Field(description="a stable code the UI translates, e.g. bad_name, rated_no_undo")
    detail: Any = Field(description="a sentence in English (a list of problems for invalid_request)")


class SeekIn(BaseModel):
    """Play now: a game and player count; rated unless a signed-in player says otherwise (guests: unrated)."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=64)
    players: int = Field(ge=2, le=16)
    rated: bool | None = None
