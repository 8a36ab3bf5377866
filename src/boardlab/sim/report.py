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
from .stats import benjamini_hochberg, diff_ci, diff_p, holm, mean_ci, wilson


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
    components, actions = _Uses(), _Uses()
    for k, r in enumerate(records):
        state = g.new_game(n, r.seed, **opts)
        for text in r.actions:
            action = g.parse_action(state, text)
            seat = state.current_player
            for c in g.component_uses(state, action):
                components.add(c, k, seat)
            actions.add(_kind(action, text), k, seat)
            state.apply(action)
        ends[g.end_reason(state)] += 1
        if progress:
            progress(k + 1)
    category_rows = []
    for k, v in categories.items():
        m, lo, hi = mean_ci(v)
        category_rows.append({"category": k, "mean": m, "ci95": [lo, hi]})
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
        "category_ci95": category_rows,
        "components": [{"component": row.pop("key"), **row} for row in components.rows(records, n, "times_played")],
        "actions": [{"action": row.pop("key"), **row} for row in actions.rows(records, n, "times_used")],
        "component_names": _names(g, components.uses),
    }


def _names(g: Any, ids: Mapping[str, Any]) -> dict[str, str]:
    """Each component id's name from the game's own explanations (`Game.explain`), where one matches: a
    designer reads "Worker tile 2-1-0-1", not only "2101"."""
    explained = g.explain("en")
    by_tail: dict[str, list[str]] = defaultdict(list)
    for k in explained:
        by_tail[k.split(":", 1)[-1]].append(k)
    out = {}
    for c in ids:
        key = c if c in explained else (by_tail[c][0] if len(by_tail.get(c, [])) == 1 else None)
        if key is not None:
            out[c] = str(explained[key]["name"])
    return out


def _kind(action: Any, text: str) -> str:
    """An action's kind: the tag its tuple starts with (every built-in game's actions are tagged tuples), else
    the first word of its notation."""
    if isinstance(action, tuple) and action and isinstance(action[0], str):
        return action[0]
    return text.split(" ", 1)[0]


class _Uses:
    """What was used (a component, or an action's kind: the first word of its notation), how often, and by
    which seats: the value of a thing is the win share of the seats that used it at least once in a game
    minus that of the seats that did not, with Newcombe's interval and a p-value, adjusted for the number of
    things compared (Holm and Benjamini-Hochberg). Why adjusted: a report compares dozens of components, and
    about one in twenty of those that change nothing still reads "p < 0.05" on its own."""

    def __init__(self) -> None:
        self.uses: dict[str, Counter[int]] = defaultdict(Counter)  # thing -> game index -> times (any seat)
        self.played: dict[str, list[tuple[int, int]]] = defaultdict(list)  # thing -> [(game index, seat)]
        self._seen: set[tuple[str, int, int]] = set()

    def add(self, thing: str, game: int, seat: int) -> None:
        self.uses[thing][game] += 1
        if (thing, game, seat) not in self._seen:
            self._seen.add((thing, game, seat))
            self.played[thing].append((game, seat))

    def rows(self, records: Sequence[GameRecord], n: int, times: str) -> list[dict[str, Any]]:
        games = len(records)
        seat_games = games * n
        total_share = float(sum(1 for r in records if r.winners))  # each game's win, split among its winners
        rows = []
        for c in sorted(self.uses, key=lambda c: (-sum(self.uses[c].values()), c)):
            pairs = self.played[c]
            share = sum(1.0 / len(records[k].winners) for k, s in pairs if s in records[k].winners)
            m = len(pairs)
            lo, hi = wilson(share, m)
            other = seat_games - m
            other_share = total_share - share
            when = share / m if m else 0.0
            without = other_share / other if other else None  # every seat used it: nothing to compare with
            rows.append({"key": c, times: sum(self.uses[c].values()),
                         "games_with_it": len(self.uses[c]), "seat_games_played": m,
                         "played_per_game": sum(self.uses[c].values()) / games if games else 0.0,
                         "win_share_when_played": when, "win_ci95": [lo, hi],
                         "win_share_when_not_played": without,
                         "value": None if without is None else when - without,
                         "value_ci95": None if without is None else list(diff_ci(share, m, other_share, other)),
                         "p": None if without is None else diff_p(share, m, other_share, other)})
        tested = [r for r in rows if r["p"] is not None]
        for r, ph, q in zip(tested, holm([r["p"] for r in tested]), benjamini_hochberg([r["p"] for r in tested]),
                            strict=True):
            r["p_holm"], r["q_bh"] = ph, q
        for r in rows:
            r.setdefault("p_holm", None)
            r.setdefault("q_bh", None)
        return rows


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
svg{max-width:100%;height:auto}.warn{background:#fff6dd;border-left:4px solid #e0a800;padding:.4em .7em}"""


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _opt_pct(x: float | None) -> str:
    return "—" if x is None else _pct(x)


def _points(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:+.1f} pts"


def _p(x: float | None) -> str:
    return "—" if x is None else (f"{x:.3f}" if x >= 0.001 else "<0.001")


def _value_cells(row: dict[str, Any]) -> str:
    ci = row["value_ci95"]
    ci_text = "—" if ci is None else f"{100 * ci[0]:+.1f} to {100 * ci[1]:+.1f}"
    mark = " ★" if row["p_holm"] is not None and row["p_holm"] < 0.05 else ""
    return (f"<td>{_points(row['value'])}</td><td>{ci_text}</td><td>{_p(row['p'])}</td>"
            f"<td>{_p(row['p_holm'])}{mark}</td><td>{_p(row['q_bh'])}</td>")


def _many(rows: list[dict[str, Any]]) -> str:
    """The warning a table of many comparisons needs: how many would look significant by chance alone."""
    tested = [r for r in rows if r["p"] is not None]
    if not tested:
        return ""
    raw = sum(1 for r in tested if r["p"] < 0.05)
    holm_n = sum(1 for r in tested if r["p_holm"] < 0.05)
    bh_n = sum(1 for r in tested if r["q_bh"] < 0.05)
    return (f"<p class=warn><b>{len(tested)} comparisons.</b> {raw} have p &lt; 0.05 taken one by one; by chance "
            f"alone about {0.05 * len(tested):.1f} would. After Holm's adjustment {holm_n} remain (★: the "
            f"family-wise error stays under 5%); at a 5% false discovery rate (Benjamini-Hochberg) {bh_n}. "
            "Read the unadjusted p as a screen, not a finding.</p>")


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
    cats = "".join(f"<tr><td>{e(str(c['category']))}</td><td>{c['mean']:.2f}</td>"
                   f"<td>{c['ci95'][0]:.2f} – {c['ci95'][1]:.2f}</td></tr>" for c in data["category_ci95"])
    names = data.get("component_names", {})
    comp_rows = "".join(
        f"<tr><td>{e(c['component'])}</td><td>{e(names.get(c['component'], ''))}</td><td>{c['times_played']}</td>"
        f"<td>{c['played_per_game']:.2f}</td><td>{_pct(c['win_share_when_played'])}</td>"
        f"<td>{_pct(c['win_ci95'][0])} – {_pct(c['win_ci95'][1])}</td>"
        f"<td>{_opt_pct(c['win_share_when_not_played'])}</td>{_value_cells(c)}</tr>"
        for c in data["components"])
    action_rows = "".join(
        f"<tr><td>{e(a['action'])}</td><td>{a['times_used']}</td><td>{a['played_per_game']:.2f}</td>"
        f"<td>{_pct(a['win_share_when_played'])}</td><td>{_opt_pct(a['win_share_when_not_played'])}</td>"
        f"{_value_cells(a)}</tr>" for a in data["actions"])
    value_head = "<th>value</th><th>95% CI</th><th>p</th><th>Holm p</th><th>BH q</th>"
    comp_section = (
        "<h2>Components</h2><p class=note>Per component (id from the game's data file, and its name): times played, "
        "win share of the seats that played it at least once in a game, and its <b>value</b>: that share "
        "minus the win share of the seats that did not (percentage points; Newcombe's 95% interval). Correlation, "
        "not cause: strong players and long games play more components.</p>" + _many(data["components"]) +
        plots.get("components", "") +
        "<table><tr><th>component</th><th>name</th><th>played</th><th>per game</th><th>win share when played</th>"
        f"<th>95% CI</th><th>when not played</th>{value_head}</tr>{comp_rows}</table>"
    ) if data["components"] else (
        "<h2>Components</h2><p class=note>This game does not report component uses "
        "(<code>Game.component_uses</code>).</p>")
    action_section = (
        "<h2>Actions</h2><p class=note>Per kind of action (its tag: <code>place</code>, <code>fill</code> ...): "
        "times used, per game, "
        "and the same value as for components.</p>" + _many(data["actions"]) +
        f"<table><tr><th>action</th><th>used</th><th>per game</th><th>win share when used</th>"
        f"<th>when not used</th>{value_head}</tr>{action_rows}</table>")
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
<table><tr><th>score category</th><th>mean per seat</th><th>95% CI</th></tr>{cats}</table>
<h2>Length and endings</h2>
<p>Mean {data['length']['mean']:.1f} decisions per game (min {data['length']['min']}, max
{data['length']['max']}); mean winning margin {data['margin']['mean']:.1f}.</p>{plots['length']}
<table><tr><th>how the game ended</th><th>games</th><th>share</th></tr>{ends}</table>
{comp_section}
{action_section}
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
        w.writerow(["component", "name", "times_played", "games_with_it", "played_per_game", "win_share_when_played",
                    "ci95_low", "ci95_high", "win_share_when_not_played", "value", "value_ci95_low",
                    "value_ci95_high", "p", "p_holm", "q_bh"])
        for c in data["components"]:
            tested = c["value"] is not None
            name = data["component_names"].get(c["component"], "")
            w.writerow([c["component"], name, c["times_played"], c["games_with_it"], f"{c['played_per_game']:.4f}",
                        f"{c['win_share_when_played']:.4f}", f"{c['win_ci95'][0]:.4f}", f"{c['win_ci95'][1]:.4f}",
                        "" if c["value"] is None else f"{c['win_share_when_not_played']:.4f}",
                        "" if c["value"] is None else f"{c['value']:.4f}",
                        *([f"{c['value_ci95'][0]:.4f}", f"{c['value_ci95'][1]:.4f}", f"{c['p']:.6f}",
                           f"{c['p_holm']:.6f}", f"{c['q_bh']:.6f}"] if tested else [""] * 5)])
    page = out / "report.html"
    page.write_text(render_html(data, meta), encoding="utf-8")
    return page
