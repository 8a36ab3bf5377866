"""A guided first game: a game's `tutorial.json`, its checks, and where a table stands in its script.

Why data and not code: every game teaches its turn the same way (a fixed deal, the player's moves one by one
with a text and a rules quote beside each, the opponent's replies scripted), so the server and the browser
run one generic script and each game only writes its file. The core knows no game: the caller names the
game, whose package holds the file.

The file: `{players, seed, you, bot, intro: {en, zh-TW}, done: {en, zh-TW}, steps: [...]}`, each step
`{seat, move}` in log order; the steps of `you` also carry `text` and `rules` ({en, zh-TW}) and `highlight`
(a CSS selector of the part of the board the step is about). Every other seat's step is its scripted reply.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from .errors import BoardlabError
from .game import Game

LANGS = ("en", "zh-TW")


class TutorialError(BoardlabError):
    """A tutorial file that does not hold together: a move illegal at its step, a missing text."""


@dataclass(frozen=True)
class Step:
    seat: int
    move: str
    text: dict[str, str] | None = None
    rules: dict[str, str] | None = None
    highlight: str | None = None


@dataclass(frozen=True)
class Tutorial:
    game: str
    players: int
    seed: int
    you: int
    bot: str
    intro: dict[str, str]
    done: dict[str, str]
    steps: tuple[Step, ...]

    @property
    def player_steps(self) -> list[int]:
        """The log positions of the player's own steps."""
        return [i for i, s in enumerate(self.steps) if s.seat == self.you]

    def scripted(self, n: int) -> Step | None:
        """The step at log position `n`, or None once the script is over (free play)."""
        return self.steps[n] if 0 <= n < len(self.steps) else None

    def progress(self, n: int, lang: str) -> dict[str, Any]:
        """What the player is shown at log position `n`: the step to play (its number among the player's
        steps, the expected move, the text and rules in `lang`, what to highlight), or that the script is
        over and the game goes on."""
        mine = self.player_steps

        def word(d: dict[str, str] | None) -> str:
            return (d or {}).get(lang) or (d or {}).get("en", "")

        out: dict[str, Any] = {"steps": len(mine), "done": n >= len(self.steps), "intro": word(self.intro),
                               "done_text": word(self.done), "you": self.you}
        step = self.scripted(n)
        out["step"] = sum(1 for i in mine if i < n)  # player steps already played
        if step is not None and step.seat == self.you:
            out.update(move=step.move, text=word(step.text), rules=word(step.rules), highlight=step.highlight)
        else:
            out.update(move=None, text=None, rules=None, highlight=None)
        return out


def _package(game: Game) -> str:
    return importlib.import_module(type(game).__module__).__package__ or ""


@cache
def _load(game_name: str, package: str) -> Tutorial | None:
    if not package:
        return None
    try:
        raw = json.loads(resources.files(package).joinpath("tutorial.json").read_text("utf-8"))
    except (FileNotFoundError, ModuleNotFoundError):
        return None
    return parse(game_name, raw)


def load(game: Game) -> Tutorial | None:
    """The game's tutorial (its package's tutorial.json), or None when the game has none."""
    return _load(game.name, _package(game))


def parse(game_name: str, raw: Any) -> Tutorial:
    """A tutorial from its JSON; a missing field or text in a language is a TutorialError naming it."""
    try:
        steps = tuple(
            Step(int(s["seat"]), str(s["move"]), s.get("text"), s.get("rules"), s.get("highlight"))
            for s in raw["steps"]
        )
        t = Tutorial(game_name, int(raw["players"]), int(raw["seed"]), int(raw["you"]), str(raw.get("bot", "easy")),
                     dict(raw["intro"]), dict(raw["done"]), steps)
    except (KeyError, TypeError, ValueError) as e:
        raise TutorialError(f"{game_name}: tutorial.json is malformed ({e!r})") from None
    for where, words in [("intro", t.intro), ("done", t.done)] + [
        (f"step {i} {part}", getattr(s, part)) for i, s in enumerate(steps) if s.seat == t.you
        for part in ("text", "rules")
    ]:
        missing = [lang for lang in LANGS if not isinstance(words, dict) or not str(words.get(lang, "")).strip()]
        if missing:
            raise TutorialError(f"{game_name}: tutorial {where} has no text in {', '.join(missing)}")
    return t


def check(game: Game, t: Tutorial) -> None:
    """Play the whole script on the engine: at every step the named seat is to decide and the move is legal
    and written as the engine writes it (so the server can compare notations); raises TutorialError."""
    if not game.min_players <= t.players <= game.max_players or not 0 <= t.you < t.players:
        raise TutorialError(f"{game.name}: tutorial players/you out of range")
    if not t.player_steps:
        raise TutorialError(f"{game.name}: the tutorial has no step for the player")
    state = game.new_game(t.players, t.seed)
    for i, s in enumerate(t.steps):
        if state.is_over or state.current_player != s.seat:
            raise TutorialError(f"{game.name}: step {i} is for seat {s.seat}, but seat {state.current_player} decides")
        try:
            action = game.parse_action(state, s.move)
            state.apply(action, s.seat)
        except BoardlabError as e:
            raise TutorialError(f"{game.name}: step {i} ({s.move!r}) is not legal: {e}") from None
        if str(action) != s.move:
            raise TutorialError(f"{game.name}: step {i} is written {s.move!r}, the engine writes {str(action)!r}")
    if state.is_over or state.current_player != t.you:
        raise TutorialError(f"{game.name}: after the script the player is not the one to move")
