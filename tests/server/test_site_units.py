"""The site's pure parts: clock arithmetic, ranks and ratings, name rules (no server needed)."""

from __future__ import annotations

import pytest

from boardlab.server import clocks, ratings
from boardlab.server.accounts import Throttle, check_name, check_password, name_key
from boardlab.server.errors import ApiError
from boardlab.server.siteinfo import change


def test_real_time_clock_bank_per_move_and_cap() -> None:
    c = clocks.settings("fast")
    assert c is not None and (c["bank"], c["per_move"], c["cap"]) == (120.0, 10.0, 180.0)
    st = clocks.new_state(c, 2)
    clocks.start_turn(c, st, 0, 1000.0, True)  # the first turn: the bank, nothing added
    assert st["remaining"] == [120.0, 120.0] and clocks.deadline(st) == 1120.0
    clocks.start_turn(c, st, 0, 1005.0, False)  # a second decision in the same turn: the clock runs on
    assert st["remaining"][0] == 115.0 and clocks.deadline(st) == 1120.0
    clocks.start_turn(c, st, 1, 1030.0, False)  # seat 0 took 30 s; seat 1's turn adds 10 s
    assert st["remaining"] == [90.0, 130.0]
    clocks.start_turn(c, st, 0, 1031.0, False)  # +10 s for seat 0
    assert st["remaining"] == [100.0, 129.0]
    for i in range(20):  # quick moves cannot grow the bank past the cap
        clocks.start_turn(c, st, i % 2, 1032.0 + i, False)
    assert max(st["remaining"]) <= 180.0
    clocks.start_turn(c, st, None, 2000.0, False)  # game over: nothing runs
    assert clocks.deadline(st) is None


def test_turn_based_clock_gives_every_turn_its_time() -> None:
    c = clocks.settings({"mode": "turn", "per_move": 3600})
    assert c is not None
    st = clocks.new_state(c, 2)
    clocks.start_turn(c, st, 0, 0.0, True)
    clocks.start_turn(c, st, 1, 3000.0, False)
    clocks.start_turn(c, st, 0, 3100.0, False)
    assert st["remaining"][0] == 3600.0 and clocks.deadline(st) == 6700.0


@pytest.mark.parametrize(
    "spec",
    [
        "warp",
        {"mode": "turn", "per_move": 1},
        {"mode": "chess"},
        {"mode": "realtime", "bank": 10, "cap": 5},
        {"mode": "turn", "per_move": "x"},
        {"mode": "turn", "per_move": 40 * 86400},
    ],
)
def test_bad_clocks_are_refused(spec: object) -> None:
    with pytest.raises(ValueError):
        clocks.settings(spec)


def test_ranks_winners_scores_and_leavers() -> None:
    assert ratings.ranks([10, 20, 15], [1], []) == [3, 1, 2]
    assert ratings.ranks([10, 10, 5], [0, 1], []) == [1, 1, 3]  # a shared win
    assert ratings.ranks([30, 20, 15], [0], [0]) == [3, 1, 2]  # the leaver's bot won; the leaver still lost
    assert ratings.ranks([30, 20, 15, 1], [0], [0, 2]) == [3, 1, 3, 2]  # two leavers share the last place


def test_openskill_moves_winner_up_and_loser_down_and_new_players_show_1500() -> None:
    assert ratings.shown(ratings.MU, ratings.SIGMA) == 1500
    (won, lost) = ratings.rate([(ratings.MU, ratings.SIGMA)] * 2, [1, 2])
    assert ratings.shown(*won) > 1500 > ratings.shown(*lost)
    four = ratings.rate([(ratings.MU, ratings.SIGMA)] * 4, [1, 2, 3, 4])
    mus = [m for m, _ in four]
    assert mus == sorted(mus, reverse=True)  # one ranking of four players, rated at once


def test_a_change_on_a_provisional_rating_has_no_signed_figure() -> None:
    """Issue #34: a new player's first loss read "1500? -> 1317? (-183)". While the rating is provisional (the
    first PROVISIONAL_GAMES rated games) the change carries no delta, only the new figure and which game it was;
    the first game on a settled rating has its signed change."""
    first = change(1500, 1317, 0)
    assert first["delta"] is None and (first["rated_games"], first["settles_at"]) == (1, ratings.PROVISIONAL_GAMES)
    assert change(1400, 1450, ratings.PROVISIONAL_GAMES - 1)["delta"] is None  # the game that settles it
    settled = change(1642, 1630, ratings.PROVISIONAL_GAMES)
    assert settled["delta"] == -12 and not settled["provisional_before"] and not settled["provisional_after"]


def test_names_and_passwords() -> None:
    assert check_name("小明_2") == "小明_2"  # any script
    assert name_key("ＡＮＮ") == name_key("ann")  # full-width and case fold to one name
    for bad in ("ab", "a b", "x" * 21, "<b>", "Admin", "bot", "a\u200bb"):
        with pytest.raises(ApiError):
            check_name(bad)
    with pytest.raises(ApiError):
        check_password("annann12", "ANNANN12")
    check_password("a long enough password", "ann")


def test_sign_in_delays_grow_and_are_capped() -> None:
    assert [Throttle.delay(n) for n in range(8)] == [0, 0, 0, 1, 2, 4, 8, 8]


def test_every_page_head_comes_from_the_one_template() -> None:
    """Every HTML page is served with the head of server/templates/head.html, its own title, and the body of
    its file in web/; no page file carries a head of its own."""
    from boardlab.server.deps import WEB
    from boardlab.server.routes.pages import HEAD, TITLES, page_html

    assert set(TITLES) == {p.name for p in WEB.glob("*.html")}
    for page, title in TITLES.items():
        text = (WEB / page).read_text("utf-8")
        assert text.startswith("<body>") and "<head>" not in text and "<!doctype" not in text.lower(), page
        served = page_html(WEB, page)
        assert served == HEAD.substitute(title=title) + text, page
        assert served.count("<head>") == 1 and f"<title>{title}</title>" in served, page


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_site_row_inserted_twice_keeps_the_first(kind: str, tmp_path: object) -> None:
    """A save that thinks the table's site row is not stored yet inserts it; if another process (the table's owner
    now) stored it meanwhile, the insert leaves that row alone instead of failing ("duplicate key" in the log of a
    process stopped past its lease that woke up to a save it had queued: test_cluster's stalled owner)."""
    import asyncio
    from pathlib import Path

    import sqlalchemy as sa
    from srvkit import pg_schema

    from boardlab.server.bots import BotRunner
    from boardlab.server.service import TableService
    from boardlab.server.site import Site
    from boardlab.server.sitedb import table_site_t
    from boardlab.server.siteinfo import SiteInfo, site_row, write_site_row
    from boardlab.server.store import Store

    async def run(url: str) -> list[object]:
        store = Store(url)
        svc = TableService(store, BotRunner(workers=1, executor="thread", seconds=0.1))
        Site(svc)
        t, _ = await svc.create("tally", 2, {}, [{"kind": "human"}] * 2, False)
        first, second = SiteInfo(), SiteInfo()
        first.leavers, second.leavers = [0], [1]
        await store.write(lambda c: write_site_row(c, t.id, site_row(t.id, first), False))
        await store.write(lambda c: write_site_row(c, t.id, site_row(t.id, second), False))
        rows = await store.read(
            lambda c: list(c.execute(sa.select(table_site_t.c.leavers).where(table_site_t.c.table_id == t.id))))
        store.engine.dispose()
        return [r.leavers for r in rows]

    if kind == "sqlite":
        assert asyncio.run(run(f"sqlite:///{Path(str(tmp_path)) / 'db.sqlite3'}")) == ["[0]"]
        return
    with pg_schema() as url:
        assert asyncio.run(run(url)) == ["[0]"]
