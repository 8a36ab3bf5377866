"""What the routes share: their path and query parameters, the seat token, the services behind them,
links, and `At`: the table a route names with the token it came with (every table route's preamble)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from .schemas import ErrorOut, SiteError
from .service import TableService
from .site import Site
from .table import Table

WEB = Path(__file__).resolve().parent.parent / "web"
"""The browser client: pages, scripts, styles (served under /static, pages by routes/pages.py)."""

TableId = PathParam(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
SeatNo = PathParam(ge=0, le=15)
bearer = HTTPBearer(auto_error=False, description="a seat token from an invite link")
Lang = Annotated[str, Query(max_length=8, description="language of the words: en or zh-TW")]
Cred = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


OPTIONAL_AUTH: dict[str, Any] = {"security": [{}, {"HTTPBearer": []}]}
"""OpenAPI for "a token is optional": without one you are a spectator."""


def api_errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {c: {"model": ErrorOut} for c in codes}


def site_errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {c: {"model": SiteError} for c in (*codes, 413, 422)}


def svc_of(request: Request) -> TableService:
    svc: TableService = request.app.state.svc
    return svc


def site_of(request: Request) -> Site:
    site: Site = request.app.state.site
    return site


def bearer_token(request: Request) -> str | None:
    """The seat token of the site's routes, read from the Authorization header as they always did."""
    h = request.headers.get("authorization", "")
    return h[7:].strip() if h.lower().startswith("bearer ") else None


def link(tid: str, tokens: list[str] | None = None) -> str:
    """A table's page, with seat tokens after `#` (never sent to the server by a browser)."""
    return f"/t/{tid}" + (f"#s={','.join(tokens)}" if tokens else "")


def state_response(text: str | None) -> Response:
    """A state message already serialised for the push (the same bytes a WebSocket gets)."""
    return Response(text, media_type="application/json")


@dataclass
class TableAt:
    """The table a route names and the seat token it came with. The look-ups run when the route asks,
    after FastAPI has validated the rest of the request (so a bad body is still a 422 before an unknown
    table is a 404, or a token a 401/403)."""

    svc: TableService
    table_id: str
    token: str | None

    async def table(self) -> Table:
        """The table (404 no_table)."""
        return await self.svc.get(self.table_id)

    async def seated(self) -> tuple[Table, int]:
        """The table and the token's seat: the token is required (401 no_token, 403 bad_token)."""
        t = await self.table()
        return t, TableService.require_seat(t, self.token)

    async def viewing(self) -> tuple[Table, int | None]:
        """The table and who looks: no token, a spectator (None); a token, it must hold a seat here."""
        t = await self.table()
        return t, None if self.token is None else TableService.require_seat(t, self.token)


def _table_at(request: Request, table_id: str = TableId, cred: Cred = None) -> TableAt:
    return TableAt(svc_of(request), table_id, cred.credentials if cred is not None else None)


def _site_table_at(request: Request, table_id: str = TableId) -> TableAt:
    return TableAt(svc_of(request), table_id, bearer_token(request))


def _table_of(request: Request, table_id: str = TableId) -> TableAt:
    return TableAt(svc_of(request), table_id, None)


def _seat_no(seat: int = SeatNo) -> int:
    return seat


At = Annotated[TableAt, Depends(_table_at)]
"""The table of /api/tables/{table_id}/..., the token from `Authorization: Bearer` (documented in OpenAPI)."""
SiteAt = Annotated[TableAt, Depends(_site_table_at)]
"""The same for the site's routes (claim, expel, chat), whose token the OpenAPI schema does not declare."""
TableOf = Annotated[TableAt, Depends(_table_of)]
"""The table of a route that takes no token (join)."""
Seat = Annotated[int, Depends(_seat_no)]
"""The {seat} of /api/tables/{table_id}/seats/{seat}/...: a dependency after `At`, so that OpenAPI and
validation errors name the table before the seat, in the order of the path."""
