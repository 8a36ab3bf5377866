"""The `boardlab` command: play in the terminal, simulate, benchmark, serve."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
import typer.core
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from boardlab.core import BoardlabError, Game, State, get_game, observe
from boardlab.core import games as game_names
from boardlab.core.rng import is_wide, narrow_seed
from boardlab.core.terms import punctuation

app = typer.Typer(help="boardlab: play, simulate and benchmark modern board games.", no_args_is_help=True,
                  add_completion=False)
console = Console(highlight=False)

HUMAN = ("me", "human", "you")
UI = {
    "en": {"your_move": "Your move ({who})", "thinking": "{who} ({bot}) is thinking...", "plays": "{who}: {what}",
           "help": "Type a code from the list, or an action in notation (e.g. {example}). Commands: "
                   "'moves' lists every legal action, 'help', 'quit'.",
           "bad": "Not understood: '{text}'. ", "illegal": "Illegal: {why}", "over": "Game over",
           "winners": "Winner(s): {who}", "seat": "Seat", "total": "Total", "saved": "Game saved to {path}",
           "deal": "seed {seed}", "tie_break": "Tie-break",
           "eof": "Input ended; the game stops here.", "many": "{n} legal actions: 'moves' lists them all with "
           "their codes; or type a move in notation.",
           "partial": "'{text}' is the start of {n} codes ({some}): type a whole code, e.g. {example}.",
           "bad_hint": "Type a code from the list, 'moves' for the list, 'help' for what the codes mean.",
           "legend": "Legend"},
    # Traditional Chinese punctuation in Chinese text (full-width ，：；（）……)
    "zh-TW": {"your_move": "輪到你了（{who}）", "thinking": "{who}（{bot}）思考中……", "plays": "{who}：{what}",
              "help": "輸入清單中的代碼，或行動記法（例如 {example}）。"
                      "指令：'moves' 列出所有合法行動、'help'、'quit'。",
              "bad": "無法理解：「{text}」。", "illegal": "不合法：{why}", "over": "遊戲結束",
              "winners": "獲勝者：{who}", "seat": "座位", "total": "總計", "saved": "遊戲已存到 {path}",
              "deal": "隨機種子 {seed}", "tie_break": "平手判定",
              "eof": "輸入結束，遊戲在此停止。", "many": "共有 {n} 個合法行動：輸入 'moves' 列出全部與代碼，"
              "或直接輸入行動記法。",
              "partial": "「{text}」是 {n} 個代碼的開頭（{some}）：請輸入完整代碼，例如 {example}。",
              "bad_hint": "請輸入清單中的代碼；'moves' 列出清單，'help' 說明代碼的意思。",
              "legend": "圖例"},
}


def _ui(lang: str, key: str, **kw: Any) -> str:
    return UI.get(lang, UI["en"])[key].format(**kw)


KIND_ZH = {"me": "你", "human": "玩家", "you": "你", "easy": "簡單電腦", "medium": "中等電腦", "hard": "困難電腦",
           "random": "隨機電腦", "greedy": "貪婪電腦", "mcts": "MCTS 電腦"}


def _kind_label(kind: str, lang: str) -> str:
    """A seat's kind in the player's language (bot levels and algorithms have Chinese names)."""
    return KIND_ZH.get(kind, kind) if lang == "zh-TW" else kind


def _seat_name(game: Game, seat: int, lang: str) -> str:
    return game.seat_name(seat, lang)


def _score_table(state: State, lang: str) -> Table:
    game = state.game
    scores = state.scores()
    cats = list(scores[0].breakdown)
    table = Table(title=_ui(lang, "over"))
    table.add_column(_ui(lang, "seat"))
    for c in cats:
        table.add_column(escape(game.score_label(c, lang)), justify="right")
    table.add_column(_ui(lang, "total"), justify="right", style="bold")
    # the tie-break only where it decided (equal totals at the top), in the game's words
    top = max(s.total for s in scores)
    tied = sum(s.total == top for s in scores) > 1
    if tied:
        table.add_column(_ui(lang, "tie_break"))
    winners = state.winners()
    for i, s in enumerate(scores):
        mark = " ★" if i in winners else ""
        row = [_seat_name(game, i, lang) + mark, *[str(s.breakdown[c]) for c in cats], str(s.total)]
        table.add_row(*row, *([escape(game.tiebreak_text(s.tiebreak, lang))] if tied else []))
    return table


def _terminal_help(game: Game, lang: str) -> dict[str, Any]:
    """The game's own legend and explanation of its move codes: the `terminal` section of the about.json
    in its package ({lang: {legend: [lines], codes: text}}); empty when the game has none."""
    import importlib
    import importlib.resources

    package = importlib.import_module(type(game).__module__).__package__ or ""
    try:
        about = json.loads(importlib.resources.files(package).joinpath("about.json").read_text("utf-8"))
    except (OSError, ValueError, ModuleNotFoundError, TypeError):
        return {}
    term = about.get("terminal") or {}
    return term.get(lang) or term.get("en") or {}


def _print_legend(game: Game, lang: str) -> None:
    info = _terminal_help(game, lang)
    if info.get("legend"):
        console.print(f"[bold]{escape(_ui(lang, 'legend'))}[/]")
        for line in info["legend"]:
            console.print("  " + escape(line))
    if info.get("codes"):
        console.print(escape(info["codes"]))


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
            _print_legend(game, lang)
            continue
        if low in ("moves", "m"):
            for m in items:
                console.print(f"  [cyan]{escape(m.code):>4}[/]  {escape(str(m.action)):<22} {escape(m.label)}")
            continue
        if low in codes:
            return codes[low]
        starts = sorted(c for c in codes if c.startswith(low))
        if starts:  # a code typed in part ("c" for c10, c11, ...): say what it starts
            some = ", ".join(starts[:6]) + (", ..." if len(starts) > 6 else "")
            console.print(escape(_ui(lang, "partial", text=text, n=len(starts), some=some, example=starts[0])))
            continue
        try:
            action = game.parse_action(state, text)
        except BoardlabError:
            console.print(f"[red]{escape(_ui(lang, 'bad', text=text))}[/]" + escape(_ui(lang, "bad_hint")))
            continue
        if action in state.legal_actions():
            return action
        console.print(f"[red]{escape(_ui(lang, 'illegal', why=state.why_illegal(action, lang)))}[/]")


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="game name, e.g. cacao")] = "cacao",
    seats: Annotated[str, typer.Option(help="comma-separated: me (a person) or a bot kind/level per seat")] = (
        "me,mcts,greedy"),
    seed: Annotated[int | None, typer.Option(help="deal seed, any width: 2**64 or more deals with the wide "
                                              "generator (random 31-bit seed if omitted)")] = None,
    lang: Annotated[str, typer.Option(help="en or zh-TW")] = "en",
    think: Annotated[float, typer.Option(help="seconds per move for mcts bots")] = 0.95,
    save: Annotated[Path | None, typer.Option(help="write the finished (or stopped) game as JSON")] = None,
    option: Annotated[list[str] | None, typer.Option(help=OPTION_HELP)] = None,
    components: Annotated[Path | None, typer.Option(help=COMPONENTS_HELP)] = None,
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
        state = g.new_game(len(kinds), seed, **_game_options(g, option, components))
        bots = {i: make_bot(k, _bot_seed(seed, i), game=g.name, **({"seconds": think} if k in ("mcts", "hard") else {}))
                for i, k in enumerate(kinds) if k not in HUMAN}
    except (BoardlabError, ValueError, TypeError) as e:
        console.print(f"[red]{escape(str(e))}[/]")
        raise typer.Exit(2) from None
    humans = [i for i, k in enumerate(kinds) if k in HUMAN]
    marks = punctuation(lang)
    console.print(f"[bold]{g.title(lang)}[/] — {_ui(lang, 'deal', seed=seed)} — " + marks.comma.join(
        f"{_seat_name(g, i, lang)}{marks.colon}{_kind_label(k, lang)}" for i, k in enumerate(kinds)))
    if humans:
        _print_legend(g, lang)
    try:
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            if seat in bots:
                label = _kind_label(kinds[seat], lang)
                with console.status(_ui(lang, "thinking", who=_seat_name(g, seat, lang), bot=label)):
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
    console.print(_ui(lang, "winners", who=marks.listing.join(_seat_name(g, w, lang) for w in state.winners())))
    _save(state, save, lang)


def _bot_seed(seed: int, seat: int) -> int:
    """A bot's own seed: `seed * 7 + seat` (within 64 bits) for a narrow deal seed, so a command plays as it
    always did; for a wide one (--seed of 2**64 or more) a keyed hash of it, so bots stay on the fast
    narrow generator without handing out low bits of the deal seed."""
    if is_wide(seed):
        return narrow_seed(seed, f"bot {seat}")
    return (seed * 7 + seat) & ((1 << 64) - 1)


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


def _game_options(g: Game, pairs: list[str] | None, components: Path | None = None) -> dict[str, Any]:
    """`--option key=value` pairs read with the type of each option's default (the game checks the values);
    `--components FILE` is the `components` option, for the games whose components are data."""
    out: dict[str, Any] = {}
    if components is not None:
        if "components" not in g.options:
            console.print(f"[red]{escape(f'--components: {g.name} has no component file to replace')}[/]")
            raise typer.Exit(2)
        pairs = [f"components={components}", *(pairs or [])]
    for pair in pairs or []:
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or key not in g.options:
            known = ", ".join(f"{k}={v.default!r}" for k, v in sorted(g.options.items())) or "none"
            why = f"--option {pair!r}: {g.name} options are key=value with key one of: {known}"
            console.print(f"[red]{escape(why)}[/]")
            raise typer.Exit(2)
        default = g.options[key].default
        value: Any = text.strip()
        try:
            if isinstance(default, bool):
                if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
                    raise ValueError(value)
                value = value.lower() in ("true", "1", "yes")
            elif isinstance(default, int):
                value = int(value)
            elif isinstance(default, float):
                value = float(value)
        except ValueError:
            console.print(f"[red]{escape(f'--option {key}: {text!r} is not a {type(default).__name__}')}[/]")
            raise typer.Exit(2) from None
        out[key] = value
    return out


OPTION_HELP = "a game option as key=value (repeatable), e.g. --option components=my.json; `boardlab games` lists them"
COMPONENTS_HELP = "your own component file (JSON/TOML) instead of the built-in one; checked, errors name the entry"


class _OptionalRayValue(typer.core.TyperCommand):
    """Lets `--ray` stand alone (a local Ray) or take an address: click options need a value, so a bare
    `--ray` (last, or followed by another option) is read as `--ray local`."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        fixed: list[str] = []
        for i, arg in enumerate(args):
            fixed.append(arg)
            if arg == "--ray" and (i + 1 == len(args) or args[i + 1].startswith("-")):
                fixed.append("local")
        return super().parse_args(ctx, fixed)


@app.command(cls=_OptionalRayValue)
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
    ray: Annotated[str | None, typer.Option(
        "--ray", metavar="[ADDRESS]",
        help="run the games as Ray tasks: --ray alone starts a local Ray with --jobs CPUs; --ray auto or "
             "--ray ray://HEAD:10001 joins a cluster (every node needs the same boardlab installed)")] = None,
    results: Annotated[Path | None, typer.Option(
        help="stream each game to this JSON-lines file as it finishes; run again to resume a stopped run")] = None,
    option: Annotated[list[str] | None, typer.Option(help=OPTION_HELP)] = None,
    components: Annotated[Path | None, typer.Option(help=COMPONENTS_HELP)] = None,
) -> None:
    """Play many seeded bot games; print win rates with 95% intervals, score means, seat advantage."""
    from boardlab.sim import simulate as run_sim
    from boardlab.sim import summarize

    entrants = [s.strip() for s in seats.split(",") if s.strip()]
    game_options = _game_options(_game_or_exit(game), option, components)
    budgets: dict[str, Any] = {}
    if iterations is not None:
        budgets["iterations"] = iterations
    if seconds is not None:
        budgets["seconds"] = seconds
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    try:
        with Progress(*columns, console=Console(stderr=True)) as progress:
            task = progress.add_task(f"{game}: {' vs '.join(entrants)}", total=games)
            records = run_sim(game, entrants, games, seed, jobs, game_options=game_options, budgets=budgets,
                              progress=lambda done: progress.update(task, completed=done),
                              ray=ray, results=results)
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
        payload = {"game": game, "seats": entrants, "games": games, "seed": seed, "options": game_options,
                   "budgets": budgets,
                   "summary": summary, "records": [r.to_json() for r in records]}
        out.write_text(json.dumps(payload, indent=1), encoding="utf-8")
        console.print(f"wrote {out}")
    if plot is not None:
        from boardlab.sim.plots import plot as make_plot

        console.print(f"wrote {make_plot(entrants, records, plot)}")


@app.command(cls=_OptionalRayValue)
def report(
    game: Annotated[str, typer.Argument(help="game name")],
    players: Annotated[int | None, typer.Option(help="player count (default: the number of --seats, else 2)")] = None,
    games: Annotated[int, typer.Option(min=1, help="number of games")] = 200,
    seats: Annotated[str | None, typer.Option(help="comma-separated bot kinds, one per seat (default: greedy)")] = None,
    seed: Annotated[int, typer.Option(help="master seed")] = 1,
    jobs: Annotated[int, typer.Option(min=1, help="parallel processes")] = 1,
    iterations: Annotated[int | None, typer.Option(help="MCTS iterations per move (reproducible)")] = None,
    out: Annotated[Path | None, typer.Option(help="output folder (default: report-GAME-Np)")] = None,
    ray: Annotated[str | None, typer.Option(
        "--ray", metavar="[ADDRESS]",
        help="play the games as Ray tasks (as in `boardlab simulate --ray`)")] = None,
    option: Annotated[list[str] | None, typer.Option(help=OPTION_HELP)] = None,
    components: Annotated[Path | None, typer.Option(help=COMPONENTS_HELP)] = None,
) -> None:
    """Balance report for designers: seat fairness, scores, length, endings, per-component statistics,
    as one self-contained HTML page plus raw data (running it again resumes an unfinished run)."""
    from boardlab.sim.report import default_seats
    from boardlab.sim.report import report as make_report

    game_options = _game_options(_game_or_exit(game), option, components)
    kinds = [s.strip() for s in seats.split(",") if s.strip()] if seats else default_seats(game, players)
    folder = out or Path(f"report-{game}-{len(kinds)}p")
    budgets = {"iterations": iterations} if iterations is not None else {}
    command = "boardlab report " + " ".join(sys.argv[2:]) if len(sys.argv) > 2 else ""
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    try:
        with Progress(*columns, console=Console(stderr=True)) as progress:
            tasks: dict[str, Any] = {}

            def show(phase: str, done: int, total: int) -> None:
                if phase not in tasks:
                    label = "playing" if phase == "play" else "analysing"
                    tasks[phase] = progress.add_task(f"{game} {len(kinds)}p: {label}", total=total)
                progress.update(tasks[phase], completed=done)

            page = make_report(game, folder, players=players, games=games, seats=kinds, seed=seed, jobs=jobs,
                               budgets=budgets, game_options=game_options, ray=ray, progress=show,
                               command=command)
    except (BoardlabError, ValueError, TypeError) as e:
        console.print(f"[red]{escape(str(e))}[/]")
        raise typer.Exit(2) from None
    console.print(f"wrote {page} (raw data beside it: games.jsonl, report.json, components.csv)")


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
    for col in ("game", "players", "games/s", "decisions/s", "decisions/CPU s", "× anchor", "MCTS it/s",
                "MCTS ms/move"):
        table.add_column(col, justify="right")
    for r in results:
        for players, v in r["random"].items():
            mcts = r["mcts"].get(players)  # measured at one player count: no figures copied to the others
            ratio = v.get("ratio_to_anchor")
            table.add_row(r["game"], players, f"{v['games_per_s']:.1f}", f"{v['decisions_per_s']:,.0f}",
                          f"{v['decisions_per_cpu_s']:,.0f}", f"{ratio:.3f}" if ratio else "—",
                          f"{mcts['iterations_per_s']:,.0f}" if mcts else "—",
                          f"{mcts['ms_per_move']:.0f}" if mcts else "—")
    console.print(table)
    anchors = [r["anchor"] for r in results if r.get("anchor")]
    if anchors:
        best = max(a["decisions_per_cpu_s"] for a in anchors)
        console.print(f"anchor: {anchors[0]['game']}, random playouts, {best:,.0f} decisions per CPU s "
                      "(measured before each game's rows; × anchor = decisions per CPU s / the anchor's)")
    out.write_text(json.dumps(results, indent=1), encoding="utf-8")
    console.print(f"wrote {out}")


@app.command()
def ladder(
    game: Annotated[str, typer.Argument(help="game name")],
    entrants: Annotated[str, typer.Option(help="comma-separated: random, greedy, easy, medium, hard, mcts:300 "
                                               "(iterations), mcts:0.5s (seconds)")] =
        "random,greedy,mcts:30,mcts:100,mcts:300,mcts:1000",
    games: Annotated[int, typer.Option(help="games per table (group of entrants); a multiple of --players")] = 10,
    players: Annotated[int, typer.Option(help="seats per game")] = 2,
    seed: Annotated[int, typer.Option(help="master seed")] = 0,
    jobs: Annotated[int, typer.Option(help="worker processes")] = 1,
    out: Annotated[Path | None, typer.Option(help="write ratings and every game to this JSON file")] = None,
    site: Annotated[bool, typer.Option(help="calibrate the site's levels (easy, medium, hard) and write them to "
                                            "--file, which the server seeds bot ratings from; GAME may be "
                                            "comma-separated or 'all'")] = False,
    hard_iterations: Annotated[int, typer.Option(help="with --site: hard searches this many iterations a move "
                                                      "(the site's hard: 0.95 s a move)")] = 100,
    file: Annotated[Path | None, typer.Option(help="with --site: the ladder file to update (default: the "
                                                   "server's bot_ladder.json)")] = None,
) -> None:
    """Round robin of bot levels and MCTS budgets; OpenSkill ratings with 95% intervals."""
    from boardlab.bots.ladder import level_aliases, parse_entrant, run_ladder, to_json

    if site:
        _site_ladder(game, players, games, seed, hard_iterations, file)
        return
    _game_or_exit(game)
    try:
        field = [parse_entrant(t) for t in entrants.split(",") if t.strip()]
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                      console=console, transient=True) as progress:
            task = progress.add_task(f"ladder {game}", total=None)
            results = run_ladder(game, field, games, players, seed, jobs,
                                 progress=lambda done, total: progress.update(task, completed=done, total=total))
    except (BoardlabError, ValueError, TypeError) as e:
        console.print(f"[red]{escape(str(e))}[/]")
        raise typer.Exit(2) from None
    payload = to_json(game, field, results, players, seed)
    table = Table(title=f"ladder: {game}, {players} players, {len(results)} games, seed {seed}")
    for col in ("entrant", "rating (mu)", "95% interval", "games", "win share", "s/move", "iterations/move"):
        table.add_column(col, justify="right")
    for r in payload["ratings"]:
        lo, hi = r["ci95"]
        table.add_row(r["entrant"], f"{r['mu']:.1f}", f"{lo:.1f}–{hi:.1f}", str(r["games"]), f"{r['win_share']:.0%}",
                      f"{r['seconds_per_move']:.3f}", f"{r['iterations_per_move']:.0f}")
    console.print(table)
    console.print("Ratings: " + payload["rating_model"] + ". Levels: " +
                  ", ".join(f"{k} = {v}" for k, v in level_aliases().items()))
    if out is not None:
        out.write_text(json.dumps(payload, indent=1), encoding="utf-8")
        console.print(f"wrote {out}")


def _site_ladder(names: str, players: int, games: int, seed: int, hard_iterations: int, file: Path | None) -> None:
    """`boardlab ladder --site`: rate the site's levels game by game, writing the file after each game (a long
    run stopped part way keeps the games it finished)."""
    import datetime
    import shlex
    import subprocess

    from boardlab.server.botseed import LADDER_FILE
    from boardlab.sim import bot_ladder

    path = file or LADDER_FILE
    todo = list(game_names()) if names == "all" else [n.strip() for n in names.split(",") if n.strip()]
    for name in todo:
        _game_or_exit(name)
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
    if data is not None:
        try:
            bot_ladder.validate(data)
        except bot_ladder.LadderFileError as e:
            console.print(f"[red]{escape(f'{path}: {e}')}[/]")
            raise typer.Exit(2) from None
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                cwd=Path(__file__).parent, check=False).stdout.strip() or "unknown"
    except OSError:
        commit = "unknown"
    command = "boardlab ladder " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    for name in todo:
        try:
            with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                          console=console, transient=True) as progress:
                task = progress.add_task(f"ladder {name}", total=None)
                run = bot_ladder.calibrate(name, players, games, seed, hard_iterations,
                                           progress=lambda done, total, task=task: progress.update(
                                               task, completed=done, total=total))
        except (BoardlabError, ValueError, TypeError) as e:
            console.print(f"[red]{escape(str(e))}[/]")
            raise typer.Exit(2) from None
        run.update(command=command, commit=commit,
                   date=datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"))
        data = bot_ladder.merge(data, run)
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        shown = ", ".join(f"{lv} mu {r['mu']:.1f} sigma {r['sigma']:.2f} ({r['games']} games)"
                          for lv, r in run["levels"].items())
        console.print(f"{name}, {players} players: {shown}; wrote {path}")


@app.command("games")
def list_games(lang: Annotated[str, typer.Option(help="en or zh-TW")] = "en") -> None:
    """List the games this installation plays."""
    for name in game_names():
        g = get_game(name)
        console.print(f"{name:<14} {g.title(lang)}  ({g.min_players}-{g.max_players} players)")
        for key, opt in sorted(g.options.items()):
            allowed = f" one of {list(opt.choices)}" if opt.choices else ""
            console.print(escape(f"    --option {key}={opt.default!r}{allowed}: {opt.doc}"), highlight=False)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port")] = 8000,
    db: Annotated[str | None, typer.Option(help="database URL (default: BOARDLAB_DATABASE_URL or SQLite)")] = None,
    redis: Annotated[
        str | None,
        typer.Option(help="Redis URL: one of several processes on one PostgreSQL database (docs/server.md)"),
    ] = None,
) -> None:
    """Start the web server: lobby, tables, bots; SQLite by default, PostgreSQL with --db."""
    from boardlab.server import serve as run_server

    run_server(host, port, db, redis)


@app.command()
def backup(
    dest: Annotated[Path, typer.Argument(help="the backup file to write (must not exist)")],
    db: Annotated[str | None, typer.Option(help="database URL (default: BOARDLAB_DATABASE_URL or SQLite)")] = None,
) -> None:
    """Back up the server's SQLite database, online (the server may keep running); PostgreSQL: pg_dump."""
    from boardlab.server.backup import backup as run_backup
    from boardlab.server.db import default_db_url

    try:
        n = run_backup(db or default_db_url(), dest)
    except (OSError, ValueError, RuntimeError) as e:
        console.print(f"[red]{escape(str(e))}[/]")
        raise typer.Exit(2) from None
    console.print(f"backed up {n} tables to {dest}")


@app.command()
def restore(
    src: Annotated[Path, typer.Argument(help="a file written by `boardlab backup`")],
    db: Annotated[str | None, typer.Option(help="database URL (default: BOARDLAB_DATABASE_URL or SQLite)")] = None,
) -> None:
    """Replace the SQLite database by a checked backup (stop the server first); the old file is kept aside."""
    from boardlab.server.backup import restore as run_restore
    from boardlab.server.db import default_db_url

    try:
        n = run_restore(src, db or default_db_url())
    except (OSError, ValueError, RuntimeError) as e:
        console.print(f"[red]{escape(str(e))}[/]")
        raise typer.Exit(2) from None
    console.print(f"restored {n} tables from {src}")


def main() -> None:  # pragma: no cover - console entry
    app(sys.argv[1:])


if __name__ == "__main__":  # pragma: no cover
    main()
