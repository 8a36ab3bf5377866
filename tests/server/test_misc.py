"""Migrations, static UI, languages, start-up message, unsafe options, and a real game (Cacao)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from srvkit import Server, auth, make_table

from boardlab.core import games
from boardlab.server.db import make_engine, metadata, migrate, normalize_url

WEB = Path(__file__).resolve().parents[2] / "src" / "boardlab" / "web"


def test_migrations_match_the_models(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    migrate(engine)
    migrate(engine)  # idempotent: a restart runs it again
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    assert diff == []
    engine.dispose()


def test_postgres_urls_use_psycopg3() -> None:
    assert normalize_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("sqlite:///x.db") == "sqlite:///x.db"


def test_pages_and_languages(client: httpx.Client, server: Server) -> None:
    for path in ("/", "/t/abc", "/r/abc"):
        r = client.get(path)
        assert r.status_code == 200 and '<script type="module"' in r.text
    for path in (
        "/static/common.js",
        "/static/generic.js",
        "/static/table.js",
        "/static/lobby.js",
        "/static/replay.js",
        "/static/style.css",
    ):
        assert client.get(path).status_code == 200
    en = client.get("/static/i18n/en.json").json()
    zh = client.get("/static/i18n/zh-TW.json").json()
    # every word in both languages; English adds singular forms (`<key>_one`, "1 key") that Chinese has no need of
    assert {k for k in en if not k.endswith("_one")} == set(zh) and en["undo"] == "Undo" and zh["undo"] == "悔棋"
    assert all(k.removesuffix("_one") in en for k in en if k.endswith("_one"))
    for page in WEB.glob("*.html"):  # nothing is fetched from elsewhere at run time
        assert "http://" not in page.read_text() and "https://" not in page.read_text()
    assert "boardlab server: http://127.0.0.1:" in server.log_path.read_text()


def test_renderer_discovery(client: httpx.Client) -> None:
    for g in client.get("/api/games").json()["games"]:
        exists = (WEB / "games" / f"{g['name']}.js").exists()
        assert g["renderer"] == (f"/static/games/{g['name']}.js" if exists else None)


@pytest.mark.skipif("cacao" not in games(), reason="Cacao is not importable")
def test_file_options_are_refused(client: httpx.Client) -> None:
    r = client.post(
        "/api/tables",
        json={
            "game": "cacao",
            "players": 2,
            "options": {"components": "/etc/passwd"},
            "seats": [{"kind": "human"}] * 2,
        },
    )
    assert r.status_code == 400 and r.json()["error"] == "bad_config"
    info = next(g for g in client.get("/api/games").json()["games"] if g["name"] == "cacao")
    assert "components" not in info["options"]


@pytest.mark.skipif("cacao" not in games(), reason="Cacao is not importable")
def test_cacao_with_bots_and_a_person(client: httpx.Client) -> None:
    t = make_table(
        client,
        game="cacao",
        players=3,
        seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}],
    )
    tid, tok = t["id"], t["seats"][0]["token"]
    deadline = time.monotonic() + 120
    while True:
        s = client.get(f"/api/tables/{tid}", headers=auth(tok)).json()
        if s["over"]:
            break
        assert time.monotonic() < deadline, "the Cacao game did not finish"
        if s["current"] == 0 and s["legal"]:
            r = client.post(
                f"/api/tables/{tid}/actions",
                headers=auth(tok),
                json={"move": s["version"], "action": s["legal"][0]["action"]},
            )
            assert r.status_code in (200, 409), r.text
        else:
            time.sleep(0.02)
    assert len(s["scores"]) == 3 and s["winners"]
    # each score's tie-break in the reader's words (the browser's end box shows it as given): cacao fruit left
    zh = client.get(f"/api/tables/{tid}", headers=auth(tok), params={"lang": "zh-TW"}).json()
    for en_score, zh_score in zip(s["scores"], zh["scores"], strict=True):
        fruit = en_score["tiebreak"][0]
        assert (en_score["tiebreak_text"], zh_score["tiebreak_text"]) == (f"cacao fruit {fruit}", f"可可果 {fruit}")
    spec = client.get(f"/api/tables/{tid}/replay", params={"step": s["log_len"] // 2}).json()
    assert spec["seat"] is None and "seed" not in json.dumps(spec)


def test_a_server_whose_port_was_taken_starts_again_on_another(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Parallel test workers pick ports on their own: when another process takes the port first, the test
    server exits saying so (the real message, from a real bind) and `Server.start` tries a new free port."""
    import socket

    import srvkit

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        ports = iter([taken.getsockname()[1]])
        real = srvkit.free_port
        monkeypatch.setattr(srvkit, "free_port", lambda: next(ports, None) or real())
        srv = Server(f"sqlite:///{tmp_path / 'p.db'}", tmp_path / "server.log").start()
        try:
            assert srv.port != taken.getsockname()[1]
            assert "is already in use" in (tmp_path / "server.log").read_text()
            assert httpx.get(srv.url + "/healthz").status_code == 200
        finally:
            srv.stop()
