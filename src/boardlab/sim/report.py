"""Balance reports for designers: many seeded bot games -> one self-contained HTML page and raw data.

What a designer asks of a (reconstructed) component set, answered at a glance: are the seats fair
(win share per seat with 95% Wilson intervals, the first player's advantage), how scores spread, how
long games last and how they end (`Game.end_reason`), and which components carry games
(`Game.component_uses`: per component, how often it is played, the win share of the seats that played
it against those that did not, i.e. its value estimate). Works for every registered game; a game
without `component_uses` gets every section but that one.

Files written to the output folder: `report.html` (plots inline as SVG, no other file needed),
`report.json` (every number on the page), `components.csv`, and `games.jsonl` (each game's seed,
seating, scores and full action log, streamed as games finish; running the same report again resumes
it, see `boardlab.sim.runner`).
"""

from __future__ import annotations

import csv
import html
import io
import json
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from boardlab.core import get_game

from .runner import GameRecord, simulate
from .stats import mean_ci, wilson


def default_seats(game: str, players: int | None) -> list[str]:
    g = get_game(game)
    n = players if players is not None else max(2, g.min_players)
    return ["greedy"] * n


def analyse(game: str, records: Sequence[GameRecord], game_options: Mapping[str, Any] | None = None,
            progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Every number of the report, from the games' records (each game is replayed from its log to ask
    the game's hooks which components were played and how it ended)."""
    g = get_game(game)
    opts = dict(game_options or {})
    n = len(records[0].scores) if records else 0
    games = len(records)
    seats = []
    for s in range(n):
        share = sum(1.0 / len(r.winners) for r in records if s in r.winners)
        lo, hi = wilson(share, games)
        mean, mlo, mhi = mean_ci([r.scores[s] for r in records])
        seats.append({"seat": s, "win_share": share / games if games else 0.0, "win_ci95": [lo, hi],
                      "score_mean": mean, "score_ci95": [mlo, mhi],
                      "scores": [r.scores[s] for r in records]})
    fair = 1 / n if n else 0.0
    first = seats[0] if seats else {"win_share": 0.0, "win_ci95": [0.0, 0.0]}
    categories: dict[str, list[float]] = defaultdict(list)
    for r in records:
        for b in r.breakdown:
            for k, v in b.items():
                categories[k].append(v)
    lengths = [r.decisions for r in records]
    margins = []
    for r in records:
        top = sorted(r.scores, reverse=True)
        margins.append(top[0] - top[1] if len(top) > 1 else top[0])
    ends: Counter[str] = Counter()
    uses: dict[str, Counter[int]] = defaultdict(Counter)  # component -> game index -> times (any seat)
    played: dict[str, list[tuple[int, int]]] = defaultdict(list)  # component -> [(game index, seat)]
    for k, r in enumerate(records):
        state = g.new_game(n, r.seed, **opts)
        seen: set[tuple[str, int]] = set()
        for text in r.actions:
            action = g.parse_action(state, text)
            seat = state.current_player
            for c in g.component_uses(state, action):
                uses[c][k] += 1
                if (c, seat) not in seen:
                    seen.add((c, seat))
                    played[c].append((k, seat))
            state.apply(action)
        ends[g.end_reason(state)] += 1
        if progress:
            progress(k + 1)
    components = []
    seat_games = games * n
    total_share = float(sum(1 for r in records if r.winners))  # each game's win, split among its winners
    for c in sorted(uses, key=lambda c: (-sum(uses[c].values()), c)):
        pairs = played[c]
        share = sum(1.0 / len(records[k].winners) for k, s in pairs if s in records[k].winners)
        m = len(pairs)
        lo, hi = wilson(share, m)
        other = seat_games - m
        other_share = total_share - share
        when = share / m if m else 0.0
        without = other_share / other if other else None  # every seat played it: nothing to compare with
        components.append({"component": c, "times_played": sum(uses[c].values()),
                           "games_with_it": len(uses[c]), "seat_games_played": m,
                           "played_per_game": sum(uses[c].values()) / games if games else 0.0,
                           "win_share_when_played": when, "win_ci95": [lo, hi],
                           "win_share_when_not_played": without,
                           "value": None if without is None else when - without})
    return {
        "game": game, "title": g.title("en"), "players": n, "games": games, "fair_share": fair,
        "seats": seats,
        "first_player_advantage": {"value": first["win_share"] - fair,
                                   "ci95": [first["win_ci95"][0] - fair, first["win_ci95"][1] - fair]},
        "ties": sum(1 for r in records if len(r.winners) > 1),
        "length": {"mean": mean_ci(lengths)[0], "ci95": list(mean_ci(lengths)[1:]), "min": min(lengths, default=0),
                   "max": max(lengths, default=0), "decisions": lengths},
        "margin": {"mean": mean_ci(margins)[0], "values": margins},
        "ends": dict(ends.most_common()),
        "categories": {k: sum(v) / len(v) for k, v in categories.items()},
        "components": components,
    }


# -- plots (matplotlib, inline SVG) --------------------------------------------------------------------
def _svg(fig: Any) -> str:
    import matplotlib.pyplot as plt

    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def _plots(data: dict[str, Any]) -> dict[str, str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out: dict[str, str] = {}
    seats = data["seats"]
    fig, ax = plt.subplots(figsize=(7, 3.4))
    lo = min((min(s["scores"]) for s in seats if s["scores"]), default=0)
    hi = max((max(s["scores"]) for s in seats if s["scores"]), default=1)
    bins = list(range(int(lo), int(hi) + 2, max(1, (int(hi) - int(lo) + 1) // 25 or 1)))
    for s in seats:
        ax.hist(s["scores"], bins=bins, alpha=0.45, label=f"seat {s['seat'] + 1}")
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.legend()
    ax.set_title("Score distribution per seat")
    out["scores"] = _svg(fig)

    fig, ax = plt.subplots(figsize=(5, 3.2))
    rates = [s["win_share"] for s in seats]
    errs = [[max(0.0, r - s["win_ci95"][0]) for r, s in zip(rates, seats, strict=True)],
            [max(0.0, s["win_ci95"][1] - r) for r, s in zip(rates, seats, strict=True)]]
    ax.bar([f"seat {s['seat'] + 1}" for s in seats], rates, yerr=errs, capsize=4, color="#4a7fb0")
    ax.axhline(data["fair_share"], color="grey", linestyle="--", linewidth=1, label="fair share")
    ax.set_ylabel("win share (95% CI)")
    ax.legend()
    ax.set_title("Win share by seat")
    out["seats"] = _svg(fig)

    fig, (a1, a2) = plt.subplots(1, 2, figsize=(9, 3.2))
    a1.hist(data["length"]["decisions"], bins=20, color="#7a9e54")
    a1.set_xlabel("decisions per game")
    a1.set_ylabel("games")
    a1.set_title("Game length")
    a2.hist(data["margin"]["values"], bins=20, color="#b07a4a")
    a2.set_xlabel("winner's lead over the runner-up")
    a2.set_title("Winning margin")
    out["length"] = _svg(fig)

    comps = data["components"][:40]
    if comps:
        fig, ax = plt.subplots(figsize=(8, max(3.0, 0.24 * len(comps) + 1)))
        names = [c["component"] for c in comps][::-1]
        vals = [c["win_share_when_played"] for c in comps][::-1]
        errs = [[max(0.0, v - c["win_ci95"][0]) for v, c in zip(vals, comps[::-1], strict=True)],
                [max(0.0, c["win_ci95"][1] - v) for v, c in zip(vals, comps[::-1], strict=True)]]
        ax.barh(names, vals, xerr=errs, capsize=2, color="#8a6fb0")
        ax.axvline(data["fair_share"], color="grey", linestyle="--", linewidth=1)
        ax.set_xlabel("win share of the seats that played it (95% CI); dashed: fair share")
        ax.set_title("Components, most played first")
        out["components"] = _svg(fig)
    return out


# -- the page ---------------------------------------------------------------------------------------------
_CSS = """body{font-family:system-ui,sans-serif;max-width:1000px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#f0f0f0}td:first-child,th:first-child{text-align:left}.note{color:#555;font-size:.92em}
svg{max-width:100%;height:auto}"""


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _opt_pct(x: float | None) -> str:
    return "—" if x is None else _pct(x)


def _points(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:+.1f} pts"


def render_html(data: dict[str, Any], meta: dict[str, Any]) -> str:
    """The report page: tables and inline SVG plots, no external file or script."""
    plots = _plots(data)
    e = html.escape
    fpa = data["first_player_advantage"]
    rows = "".join(
        f"<tr><td>seat {s['seat'] + 1}</td><td>{_pct(s['win_share'])}</td>"
        f"<td>{_pct(s['win_ci95'][0])} – {_pct(s['win_ci95'][1])}</td><td>{s['score_mean']:.1f}</td>"
        f"<td>{s['score_ci95'][0]:.1f} – {s['score_ci95'][1]:.1f}</td></tr>" for s in data["seats"])
    ends = "".join(f"<tr><td>{e(k)}</td><td>{v}</td><td>{_pct(v / data['games'])}</td></tr>"
                   for k, v in data["ends"].items())
    cats = "".join(f"<tr><td>{e(str(k))}</td><td>{v:.2f}</td></tr>" for k, v in data["categories"].items())
    comp_rows = "".join(
        f"<tr><td>{e(c['component'])}</td><td>{c['times_played']}</td><td>{c['played_per_game']:.2f}</td>"
        f"<td>{_pct(c['win_share_when_played'])}</td><td>{_pct(c['win_ci95'][0])} – {_pct(c['win_ci95'][1])}</td>"
        f"<td>{_opt_pct(c['win_share_when_not_played'])}</td>"
        f"<td>{_points(c['value'])}</td></tr>"
        for c in data["components"])
    comp_section = (
        "<h2>Components</h2><p class=note>Per component (ids from the game's data file): times played, "
        "win share of the seats that played it at least once in a game, and its <b>value</b>: that share "
        "minus the win share of the seats that did not (percentage points). Correlation, not cause: strong "
        "players and long games play more components.</p>" + plots.get("components", "") +
        "<table><tr><th>component</th><th>played</th><th>per game</th><th>win share when played</th>"
        f"<th>95% CI</th><th>when not played</th><th>value</th></tr>{comp_rows}</table>"
    ) if data["components"] else (
        "<h2>Components</h2><p class=note>This game does not report component uses "
        "(<code>Game.component_uses</code>).</p>")
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>{e(data['title'])}: balance report</title><style>{_CSS}</style></head><body>
<h1>{e(data['title'])}: balance report</h1>
<p class=note>{data['games']} games, {data['players']} players, seats: {e(', '.join(meta['seats']))};
seed {meta['seed']}; budgets {e(json.dumps(meta['budgets']))}; made {e(meta['date'])} by
<code>{e(meta['command'])}</code>. Raw data: <code>games.jsonl</code>, <code>report.json</code>,
<code>components.csv</code> beside this page.</p>
<h2>Seats</h2>
<p><b>First-player advantage: {100 * fpa['value']:+.1f} points</b> of win share over the fair
{_pct(data['fair_share'])} (95% CI {100 * fpa['ci95'][0]:+.1f} to {100 * fpa['ci95'][1]:+.1f}); ties: {data['ties']}.
Every seat is played by the same kind of bot, so differences between seats are the game's.</p>
<table><tr><th>seat</th><th>win share</th><th>95% Wilson CI</th><th>mean score</th><th>95% CI</th></tr>
{rows}</table>{plots['seats']}
<h2>Scores</h2>{plots['scores']}
<table><tr><th>score category</th><th>mean per seat</th></tr>{cats}</table>
<h2>Length and endings</h2>
<p>Mean {data['length']['mean']:.1f} decisions per game (min {data['length']['min']}, max
{data['length']['max']}); mean winning margin {data['margin']['mean']:.1f}.</p>{plots['length']}
<table><tr><th>how the game ended</th><th>games</th><th>share</th></tr>{ends}</table>
{comp_section}
</body></html>
"""


def report(game: str, out_dir: str | Path, players: int | None = None, games: int = 200,
           seats: Sequence[str] | None = None, seed: int = 1, jobs: int = 1,
           budgets: Mapping[str, Any] | None = None, game_options: Mapping[str, Any] | None = None,
           ray: str | None = None, progress: Callable[[str, int, int], None] | None = None,
           command: str = "") -> Path:
    """Play (or resume) the games, analyse them and write the report files; the HTML page's path.
    `progress(phase, done, total)` is called as games finish ("play") and as they are analysed."""
    g = get_game(game)
    entrants = list(seats) if seats else default_seats(game, players)
    if players is not None and len(entrants) != players:
        raise ValueError(f"{len(entrants)} seats given for {players} players")
    if not g.min_players <= len(entrants) <= g.max_players:
        raise ValueError(f"{game} is for {g.min_players}-{g.max_players} players, not {len(entrants)}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    bud = dict(budgets or {})
    records = simulate(game, entrants, games, seed, jobs, game_options=game_options, budgets=bud, ray=ray,
                       results=out / "games.jsonl",
                       progress=(lambda d: progress("play", d, games)) if progress else None)
    data = analyse(game, records, game_options,
                   progress=(lambda d: progress("analyse", d, games)) if progress else None)
    meta = {"seats": entrants, "seed": seed, "budgets": bud, "date": datetime.now(UTC).strftime("%Y-%m-%d"),
            "command": command or f"boardlab report {game} --games {games} --seats {','.join(entrants)}"}
    (out / "report.json").write_text(json.dumps({"meta": meta, **data}, indent=1), encoding="utf-8")
    with (out / "components.csv").open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["component", "times_played", "games_with_it", "played_per_game", "win_share_when_played",
                    "ci95_low", "ci95_high", "win_share_when_not_played", "value"])
        for c in data["components"]:
            w.writerow([c["component"], c["times_played"], c["games_with_it"], f"{c['played_per_game']:.4f}",
                        f"{c['win_share_when_played']:.4f}", f"{c['win_ci95'][0]:.4f}", f"{c['win_ci95'][1]:.4f}",
                        "" if c["value"] is None else f"{c['win_share_when_not_played']:.4f}",
                        "" if c["value"] is None else f"{c['value']:.4f}"])
    page = out / "report.html"
    page.write_text(render_html(data, meta), encoding="utf-8")
    return page
