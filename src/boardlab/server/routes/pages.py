"""The HTML pages of the site. Every page's head (doctype, charset, viewport, title, style sheet, icon)
comes from one template, server/templates/head.html; the page file in web/ holds only the rest (its body)."""

from __future__ import annotations

import functools
import html
import importlib.resources
from pathlib import Path
from string import Template
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse

from ..deps import site_of

TITLES = {
    "index.html": "boardlab",
    "table.html": "boardlab",
    "replay.html": "boardlab replay",
    "signin.html": "boardlab",
    "me.html": "boardlab",
    "profile.html": "boardlab",
    "how.html": "boardlab",
    "admin.html": "boardlab",
    "leaders.html": "boardlab",
}
"""Every page the site serves, with its title."""

HEAD = Template(importlib.resources.files("boardlab.server").joinpath("templates/head.html").read_text("utf-8"))


def page_html(web: Path, page: str) -> str:
    """The page as served: the head from the template, then the page file's body."""
    path = web / page
    return _render(str(path), path.stat().st_mtime_ns, TITLES[page])


@functools.lru_cache(maxsize=32)
def _render(path: str, _mtime_ns: int, title: str) -> str:
    return HEAD.substitute(title=html.escape(title)) + Path(path).read_text("utf-8")


def router(web: Path) -> APIRouter:
    r = APIRouter()

    # the site's pages (one handler: one rate-limit bucket, as before)
    for path, page in (("/signin", "signin.html"), ("/me", "me.html"), ("/u/{name}", "profile.html"),
                       ("/how/{game}", "how.html"), ("/admin", "admin.html"), ("/leaders", "leaders.html")):
        def make(page: str = page) -> Any:
            async def serve_page() -> HTMLResponse:
                return HTMLResponse(page_html(web, page))
            return serve_page
        r.add_api_route(path, make(), include_in_schema=False, methods=["GET"])

    @r.get("/", include_in_schema=False)
    async def lobby_page() -> HTMLResponse:
        return HTMLResponse(page_html(web, "index.html"))

    @r.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> HTMLResponse:
        return HTMLResponse(page_html(web, "table.html"))

    @r.get("/unsubscribe/{token}", include_in_schema=False)
    async def unsubscribe_page(request: Request, token: str) -> HTMLResponse:
        """The link in every your-turn e-mail: turns them off without signing in (server/mail.py)."""
        ok = await site_of(request).mail.unsubscribe(token[:64])
        en, zh = (("You will get no more your-turn e-mails.", "你不會再收到輪到你的電子郵件。") if ok else
                  ("This link is not valid.", "此連結無效。"))
        return HTMLResponse(f"<!doctype html><html><head><meta charset=utf-8><title>boardlab</title></head><body>"
                            f"<p id=result lang=en>{en}</p><p lang=zh-TW>{zh}</p><p><a href='/me'>boardlab</a></p>"
                            "</body></html>", status_code=200 if ok else 404)

    @r.get("/sw.js", include_in_schema=False)
    async def service_worker() -> FileResponse:
        """The service worker of your-turn push messages (web/sw.js), at the root so its scope is the whole site;
        never cached long, so a new version reaches the browsers."""
        return FileResponse(web / "sw.js", media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    @r.get("/r/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> HTMLResponse:
        return HTMLResponse(page_html(web, "replay.html"))

    return r
