"""The `boardlab` command: play in the terminal, simulate, benchmark, serve."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from boardlab.core import BoardlabError, Game, State, get_game, observe
from boardlab.core import games as game_names

app = typer.Typer(help="boardlab: play, simulate and benchmark modern board games.", no_args_is_help=True,
                  add_completion=False)
console = Console(highlight=False)

HUMAN = ("me", "human", "you")
UI = {
    "en": {"your_move": "Your move ({who})", "thinking": "{who} ({bot}) is thinking...", "plays": "{who}: {what}",
           "help": "Type a code from the list, or an action in notation (e.g. {example}). Commands: "
                   "'moves' lists every legal action, 'help', 'quit'.",
           "bad": "Not understood: {text}", "illegal": "Illegal: {why}", "over": "Game over",
           "winners": "Winner(s): {who}", "seat": "Seat", "total": "Total", "saved": "Game saved to {path}",
           "eof": "Input ended; the game stops here.", "many": "{n} legal actions: type a code (see the board "
           "letters) or notation; 'moves' lists them all."},
    "zh-TW": {"your_move": "輪到你了 ({who})", "thinking": "{who} ({bot}) 思考中...", "plays": "{who}: {what}",
              "help": "輸入清單中的代碼,或行動記法 (例如 {example})。指令: 'moves' 列出所有合法行動、'help'、'quit'。",
              "bad": "無法理解: {text}", "illegal": "不合法: {why}", "over": "遊戲結束",
              "winners": "獲勝者: {who}", "seat": "座位", "total": "總計", "saved": "遊戲已存到 {path}",
              "eof": "輸入結束,遊戲在此停止。", "many": "共有 {n} 個合法行動:輸入代碼 (見棋盤上的字母) 或記法;"
              "'moves' 列出全部。"},
}


def _ui(lang: str, key: str, **kw: Any) -> str:
    return UI.get(lang, UI["en"])[key].format(**kw)


def _seat_name(game: Game, seat: int, lang: str) -> str:
    return game.seat_name(seat, lang)


def _score_table(state: State, lang: str) -> Table:
    game = state.game
    scores = state.scores()
    cats = list(scores[0].breakdown)
    table = Table(title=_ui(lang, "over"))
    table.add_column(_ui(lang, "seat"))
    for c in cats:
        table.add_column(c, justify="right")
    table.add_column(_ui(lang, "total"), justify="right", style="bold")
    table.add_column("tie-break", justify="right")
    winners = state.winners()
    for i, s in enumerate(scores):
        mark = " ★" if i in winners else ""
        table.add_row(_seat_name(game, i, lang) + mark, *[str(s.breakdown[c]) for c in cats], str(s.total),
                      " ".join(map(str, s.tiebreak)))
    return table


def _ask_human(state: State, seat: int, lang: str) -> Any:
    game = state.game
    console.print(game.render_text(state, seat, lang))
    items = game.menu(state, lang)
    codes = {m.code.lower(): m.action for m in items}
    if len(items) <= 24:
        for m in items:
            console.print(f"  [cyan]{escape(m.code):>4}[/]  {escape(str(m.action)):<22} {escape(m.label)}")
    else:
        console.print(_ui(lang, "many", n=len(items)))
    example = str(items[0].action) if items else ""
    while True:
        try:
            text = console.input(f"[bold]{escape(_ui(lang, 'your_move', who=_seat_name(game, seat, lang)))}> [/]")
        except EOFError:
            raise
        text = text.strip()
        if not text:
            continue
        low = text.lower()
        if low in ("quit", "exit", "q"):
            raise typer.Exit(0)
        if low in ("help", "?", "h"):
            console.print(_ui(lang, "help", example=example))
            continue
        if low in ("moves", "m"):
            for m in items:
                console.print(f"  [cyan]{escape(m.code):>4}[/]  {escape(str(m.action)):<22} {escape(m.label)}")
            continue
        if low in codes:
            return codes[low]
        try:
            action = game.parse_action(state, text)
        except BoardlabError:
            console.print(f"[red]{escape(_ui(lang, 'bad', text=text))}[/]")
            continue
        if action in state.legal_actions():
            return action
        console.print(f"[red]{escape(_ui(lang, 'illegal', why=state.why_illegal(action)))}[/]")


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="game name, e.g. cacao")] = "cacao",
    seats: Annotated[str, typer.Option(help="comma-separated: me (a person) or a bot kind/level per seat")] = (
        "me,mcts,greedy"),
    seed: Annotated[int | None, typer.Option(help="deal seed (random if omitted)")] = None,
    lang: Annotated[str, typer.Option(help="en or zh-TW")] = "en",
    think: Annotated[float, typer.Option(help="seconds per move for mcts bots")] = 0.95,
    save: Annotated[Path | None, typer.Option(help="write the finished (or stopped) game as JSON")] = None,
) -> None:
    """Play a game in the terminal: people and bots, hot-seat if several seats are 'me'."""
    import secrets

    from boardlab.bots import make_bot

    if lang not in UI:
        raise typer.BadParameter(f"language must be one of {', '.join(UI)}")
    kinds = [s.strip() for s in seats.split(",") if s.strip()]
    g = _game_or_exit(game)
    if seed is None:
        seed = secrets.randbelow(2**31)
    try:
        state = g.new_game(len(kinds), seed)
        bots = {i: make_bot(k, seed * 7 + i, **({"seconds": think} if k in ("mcts", "hard") else {}))
                for i, k in enumerate(kinds) if k not in HUMAN}
    except (BoardlabError, ValueError, TypeError) as e:
        console.print(f"[red]{escape(str(e))}[/]")
        raise typer.Exit(2) from None
    humans = [i for i, k in enumerate(kinds) if k in HUMAN]
    console.print(f"[bold]{g.title(lang)}[/] — seed {seed} — " + ", ".join(
        f"{_seat_name(g, i, lang)}: {k}" for i, k in enumerate(kinds)))
    try:
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            if seat in bots:
                with console.status(_ui(lang, "thinking", who=_seat_name(g, seat, lang), bot=kinds[seat])):
                    action = bots[seat].choose(observe(state, seat))
            else:
                action = _ask_human(state, seat, lang)
            before = state.clone()
            state.apply(action)
            # narrate as the people at this table may know it: one person sees their own seat;
            # with several people (hot-seat) or none, only what a spectator may see
            viewer = humans[0] if len(humans) == 1 else None
            console.print(escape(_ui(lang, "plays", who=_seat_name(g, seat, lang),
                                     what=g.describe_for(before, action, viewer, lang))))
    except EOFError:
        console.print(_ui(lang, "eof"))
        _save(state, save, lang)
        raise typer.Exit(1) from None
    console.print(g.render_text(state, None, lang))
    console.print(_score_table(state, lang))
    console.print(_ui(lang, "winners", who=", ".join(_seat_name(g, w, lang) for w in state.winners())))
    _save(state, save, lang)


def _save(state: State, path: Path | None, lang: str) -> None:
    if path is not None:
        path.write_text(json.dumps(state.to_json(), ensure_ascii=False), encoding="utf-8")
        console.print(_ui(lang, "saved", path=path))


def _game_or_exit(name: str) -> Game:
    try:
        return get_game(name)
    except BoardlabError as e:
        console.print(f"[red]{escape(str(e))}[/]")
        raise typer.Exit(2) from None


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="game name")] = "cacao",
    seats: Annotated[str, typer.Option(help="comma-separated bot kinds, one per seat")] = "mcts,greedy",
    games: Annotated[int, typer.Option(min=1, help="number of games")] = 200,
    seed: Annotated[int, typer.Option(help="master seed")] = 1,
    jobs: Annotated[int, typer.Option(min=1, help="parallel processes")] = 1,
    iterations: Annotated[int | None, typer.Option(help="MCTS iterations per move (reproducible)")] = None,
    seconds: Annotated[float | None, typer.Option(help="MCTS seconds per move")] = None,
    out: Annotated[Path | None, typer.Option(help="write every game and the summary as JSON")] = None,
    plot: Annotated[Path | None, typer.Option(help="write a PNG of scores and seat win rates")] = None,
) -> None:
    """Play many seeded bot games; print win rates with 95% intervals, score means, seat advantage."""
    from boardlab.sim import simulate as run_sim
    from boardlab.sim import summarize

    entrants = [s.strip() for s in seats.split(",") if s.strip()]
    _game_or_exit(game)
    budgets: dict[str, Any] = {}
    if iterations is not None:
        budgets["iterations"] = iterations
    if seconds is not None:
        budgets["seconds"] = seconds
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    try:
        with Progress(*columns, console=Console(stderr=True)) as progress:
            task = progress.add_task(f"{game}: {' vs '.join(entrants)}", total=games)
            records = run_sim(game, entrants, games, seed, jobs, budgets=budgets,
                              progress=lambda done: progress.update(task, completed=done))
    except (BoardlabError, ValueError, TypeError) as e:
        console.print(f"[red]{escape(str(e))}[/]")
        raise typer.Exit(2) from None
    summary = summarize(entrants, records)
    table = Table(title=f"{games} games of {game}, seed {seed}")
    for col in ("entrant", "bot", "win rate", "95% CI", "mean score", "s/game"):
        table.add_column(col, justify="right")
    for e in summary["entrants"]:
        lo, hi = e["win_rate_ci95"]
        table.add_row(str(e["entrant"] + 1), e["bot"], f"{e['win_rate']:.1%}", f"{lo:.1%}–{hi:.1%}",
                      f"{e['score_mean']:.1f}", f"{e['seconds_per_game']:.2f}")
    console.print(table)
    seats_txt = "  ".join(f"seat {s['seat'] + 1}: {s['win_rate']:.1%}" for s in summary["seats"])
    console.print(f"By seat: {seats_txt}   first-player advantage: {summary['first_player_advantage']:+.1%}"
                  f"   ties: {summary['ties']}")
    if out is not None:
        payload = {"game": game, "seats": entrants, "games": games, "seed": seed, "budgets": budgets,
                   "summary": summary, "records": [r.to_json() for r in records]}
        out.write_text(json.dumps(payload, indent=1), encoding="utf-8")
        console.print(f"wrote {out}")
    if plot is not None:
        from boardlab.sim.plots import plot as make_plot

        console.print(f"wrote {make_plot(entrants, records, plot)}")


@app.command()
def bench(
    game: Annotated[str | None, typer.Argument(help="game name (all games if omitted)")] = None,
    quick: Annotated[bool, typer.Option("--quick", help="a short run (for tests)")] = False,
    out: Annotated[Path, typer.Option(help="JSON results file")] = Path("bench-results.json"),
) -> None:
    """Random-playout games/s and decisions/s, MCTS iterations/s and ms per move."""
    from boardlab.sim.bench import run

    names = [game] if game else game_names()
    for n in names:
        _game_or_exit(n)
    results = [run(n, quick=quick) for n in names]
    table = Table(title="boardlab bench (one core)")
    for col in ("game", "players", "games/s", "decisions/s", "MCTS it/s", "MCTS ms/move"):
        table.add_column(col, justify="right")
    for r in results:
        mcts = next(iter(r["mcts"].values()))
        for players, v in r["random"].items():
            table.add_row(r["game"], players, f"{v['games_per_s']:.1f}", f"{v['decisions_per_s']:,.0f}",
                          f"{mcts['iterations_per_s']:,.0f}", f"{mcts['ms_per_move']:.0f}")
    console.print(table)
    out.write_text(json.dumps(results, indent=1), encoding="utf-8")
    console.print(f"wrote {out}")


@app.command("games")
def list_games(lang: Annotated[str, typer.Option(help="en or zh-TW")] = "en") -> None:
    """List the games this installation plays."""
    for name in game_names():
        g = get_game(name)
        console.print(f"{name:<14} {g.title(lang)}  ({g.min_players}-{g.max_players} players)")


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port")] = 8000,
    db: Annotated[str | None, typer.Option(help="database URL (default: BOARDLAB_DATABASE_URL or SQLite)")] = None,
) -> None:
    """Start the web server: lobby, tables, bots; SQLite by default, PostgreSQL with --db."""
    from boardlab.server import serve as run_server

    run_server(host, port, db)


def main() -> None:  # pragma: no cover - console entry
    app(sys.argv[1:])


if __name__ == "__main__":  # pragma: no cover
    main()
