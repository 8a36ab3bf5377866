"""The two abstractions every game implements: a `Game` (rules-level facts, parsing, encoding)
and a `State` (one position, mutated by `apply`).

The contract follows OpenSpiel's state API in spirit: `current_player`, `legal_actions()`,
`apply()`, `clone()`, `is_over`, plus what a board-game site needs on top: per-seat views,
JSON saves that are replayable logs, score breakdowns and determinization for search.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from .errors import ConfigError, GameOverError, IllegalActionError, NotYourTurnError, SaveError
from .narration import story
from .refusal import not_legal
from .rng import Rng, seed_from_json, seed_to_json
from .terms import game_term

if TYPE_CHECKING:
    from .action_split import ActionSplit, SplitMoves

Action = Hashable
"""An action is a small immutable value (a NamedTuple in practice) whose `str()` is its notation."""

SAVE_FORMAT = 1


@dataclass(frozen=True)
class Score:
    """A seat's score: the total, its breakdown by scoring category and the tie-break key."""

    total: int
    breakdown: Mapping[str, int] = field(default_factory=dict)
    tiebreak: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"total": self.total, "breakdown": dict(self.breakdown), "tiebreak": list(self.tiebreak)}


def explanation(name: str, what: str, cost: str = "", reconstructed: bool = False) -> dict[str, Any]:
    """One component's explanation as the browser receives it; a missing name or meaning is a bug of the game's
    text module, caught here rather than shown as an empty tooltip."""
    if not name or not what:
        raise ValueError(f"a component needs a name and a meaning, not {name!r}: {what!r}")
    return {"name": name, "what": what, "cost": cost, "reconstructed": bool(reconstructed)}


def hidden_move(lang: str) -> str:
    """The words for a move a reader may not know (a card readied face down): what a log line says when the move
    is hidden, and what a server shows when a game could not word it (the safe side: it names nothing)."""
    return "做了一個祕密行動" if lang == "zh-TW" else "makes a hidden move"


@dataclass(frozen=True)
class MenuItem:
    """A legal action offered to a person under a short code, with a label in words."""

    code: str
    action: Action
    label: str


@dataclass(frozen=True)
class Option:
    """One game option: its default, the allowed values (None = any of the default's type) and why."""

    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None


class Game(ABC):
    """Rules-level facts about one game. One instance per game lives in the registry."""

    name: ClassVar[str]
    titles: ClassVar[dict[str, str]]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[dict[str, Option]] = {}
    hidden_information: ClassVar[bool] = True
    playout_depth: ClassVar[int | None] = 12
    """The truncation of search playouts this game was measured strongest with at the `hard` budget (None:
    to the end): what `MctsBot` uses when not told (12 for Cacao, docs/strength-log.md; games whose playout
    steps are costly and whose evaluation is good search deeper trees with shorter playouts)."""
    text: Any = None
    """The game's words (its text.py module), or None: see `__init__`."""
    evaluation: Any = None
    """The bots' evaluation (its evaluate.py module), or None: see `__init__`."""
    split: Any = None
    """Its action split read off a state (its split.py module), or None: see `__init__`."""
    levels: ClassVar[dict[str, tuple[str, dict[str, Any]]]] = {}
    """The game's own presets for people's bot levels (level -> (kind, options)), where the generic one in
    `boardlab.bots.LEVELS` plays this game like no person would (Cooper Island's `easy`: docs/rules)."""
    mast: ClassVar[float | None] = None
    """The MAST exploration share this game's search plays its playouts with when not told (None: the game's
    playout policy). Set only where MAST measured at least as strong at every table size (docs/strength-log.md)."""

    def __init__(self, text: Any = None, evaluation: Any = None, split: Any = None) -> None:
        """A game is its rules (the subclass) with its words and its bots' evaluation, given by the module that
        assembles it (the game package's game.py), so that neither the rules nor the core import them.

        `text` is the game's text.py module: where it has them, its `seat_name(seat, lang)`,
        `describe(action, lang)`, `describe_move(before, action, lang)`, `describe_for(before, action, seat,
        lang)`, `render(state, seat, lang)`, `menu(state, lang)` and `why_illegal(state, action, lang)` answer the
        hooks of the same purpose below. `evaluation` is its evaluate.py module: its `evaluate(state, seat)` and,
        where it has one, `evaluate_all(state)` answer `evaluate` and `evaluate_all`. `split`, for a game with an
        action split, is its split.py module: its `moves(state, split)` answers `split_moves`."""
        self.text = text
        self.evaluation = evaluation
        self.split = split

    # -- construction -------------------------------------------------------------------------
    def new_game(self, players: int, seed: int = 0, **options: Any) -> State:
        """A fresh state. `options` are checked against `self.options`."""
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise ConfigError(
                f"{self.name} is for {self.min_players}-{self.max_players} players, not {players!r}"
            )
        return self._new_state(players, int(seed), self.check_options(options))

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        out = {k: o.default for k, o in self.options.items()}
        for key, value in options.items():
            if key not in self.options:
                known = ", ".join(sorted(self.options)) or "none"
                raise ConfigError(f"{self.name} has no option {key!r} (options: {known})")
            opt = self.options[key]
            if opt.choices is not None and value not in opt.choices:
                raise ConfigError(f"option {key!r} must be one of {list(opt.choices)}, not {value!r}")
            if opt.choices is None and opt.default is not None and type(value) is not type(opt.default):
                raise ConfigError(f"option {key!r} must be a {type(opt.default).__name__}, not {value!r}")
            out[key] = value
        return out

    @abstractmethod
    def _new_state(self, players: int, seed: int, options: dict[str, Any]) -> State: ...

    # -- notation and encoding -------------------------------------------------------------------
    @abstractmethod
    def parse_action(self, state: State, text: str) -> Action:
        """Read an action from its notation; raises ActionParseError. Legality is `apply`'s job."""

    @abstractmethod
    def num_distinct_actions(self, players: int) -> int:
        """Size of the fixed integer action space (for RL encodings)."""

    @abstractmethod
    def action_to_id(self, action: Action, players: int) -> int: ...

    @abstractmethod
    def id_to_action(self, action_id: int, players: int) -> Action: ...

    def action_split(self, players: int) -> ActionSplit | None:
        """How learning interfaces name a move in a few small choices (core/action_split.py), for a game whose
        flat id space is too big to learn over; None (the default): one choice, the move's flat id."""
        return None

    def split_moves(self, state: State, split: ActionSplit) -> SplitMoves | None:
        """`state`'s legal moves by their parts in `split`, read from the state without listing them (a learner's
        mask at every step), or None (the default, and the game's answer where it has no faster way): the learning
        interfaces then split every move of `legal_actions`. Default: the split.py module's `moves`, if any."""
        moves = getattr(self.split, "moves", None)
        return moves(state, split) if moves is not None else None

    # -- saves and replays --------------------------------------------------------------------
    def replay(self, players: int, seed: int, actions: Iterable[Action | str], **options: Any) -> State:
        """Rebuild a state from its seed and action log (actions or their notation)."""
        state = self.new_game(players, seed, **options)
        for i, a in enumerate(actions):
            try:
                state.apply(self.parse_action(state, a) if isinstance(a, str) else a)
            except IllegalActionError as e:
                raise SaveError(f"action #{i} ({a}) cannot be replayed: {e}") from e
        return state

    def from_json(self, data: Mapping[str, Any]) -> State:
        """Load a save written by `State.to_json`: replay its log, then check the snapshot, if any."""
        if not isinstance(data, Mapping):
            raise SaveError("a save must be a JSON object")
        for key in ("game", "players", "seed", "actions"):
            if key not in data:
                raise SaveError(f"the save has no {key!r} field (truncated?)")
        if data["game"] != self.name:
            raise SaveError(f"this save is for {data['game']!r}, not {self.name!r}")
        if not isinstance(data["actions"], list):
            raise SaveError("'actions' must be a list of action notations")
        if not isinstance(data["players"], int) or isinstance(data["players"], bool):
            raise SaveError(f"'players' must be an integer, not {data['players']!r}")
        try:  # an int, or a decimal string when wider than 64 bits (see State.to_json)
            seed = seed_from_json(data["seed"])
        except ValueError:
            raise SaveError(f"'seed' must be an integer or a string of decimal digits, not {data['seed']!r}") from None
        if not isinstance(data.get("options") or {}, Mapping):
            raise SaveError(f"'options' must be an object, not {data['options']!r}")
        try:
            state = self.replay(int(data["players"]), seed, data["actions"],
                                **dict(data.get("options") or {}))
        except ConfigError as e:
            raise SaveError(f"bad configuration in save: {e}") from e
        snap = data.get("state")
        if snap is not None and snap != state.snapshot():
            raise SaveError("the saved snapshot does not match the replayed log (edited or corrupted save)")
        return state

    def title(self, lang: str = "en") -> str:
        return self.titles.get(lang, self.titles["en"])

    # -- hooks for bots, people and tools (sensible defaults; games refine them) ------------------
    def evaluate(self, state: State, seat: int) -> float:
        """Heuristic worth of `state` for `seat` (higher is better), used by greedy and search bots.

        Must only use what `seat` may see (bots call it on determinized states). Default: `evaluation.evaluate`,
        else the score margin over the best opponent.
        """
        evaluate = getattr(self.evaluation, "evaluate", None)
        if evaluate:
            return evaluate(state, seat)  # type: ignore[no-any-return]
        totals = [s.total for s in state.scores()]
        others = [t for i, t in enumerate(totals) if i != seat]
        return float(totals[seat] - (max(others) if others else 0))

    def search_actions(self, state: State) -> list[Action]:
        """The actions a search bot should consider: all legal ones unless the game offers a
        smaller set that loses nothing essential (e.g. an "auto" choice for bookkeeping decisions)."""
        return state.legal_actions()

    def evaluate_all(self, state: State) -> list[float]:
        """`evaluate` for every seat, in seat order (search bots score a leaf for all seats at once).
        Games give one (`evaluation.evaluate_all`) when the seats share work (scores, standings); values must
        equal `evaluate`'s."""
        evaluate_all = getattr(self.evaluation, "evaluate_all", None)
        if evaluate_all:
            return evaluate_all(state)  # type: ignore[no-any-return]
        return [self.evaluate(state, seat) for seat in range(state.num_players)]

    def random_search_action(self, state: State, rng: Rng) -> Action:
        """A uniform pick from `search_actions(state)`, for random playouts: the action at index
        `rng.randbelow(len(actions))`, drawing nothing when there is a single action. Games may
        override it to find that same action without building the whole list (same index, same stream)."""
        actions = self.search_actions(state)
        return actions[rng.randbelow(len(actions))] if len(actions) > 1 else actions[0]

    def playout_action(self, state: State, rng: Rng) -> Action:
        """The playout policy of search bots. Default: `random_search_action`. A game may play its playouts
        better than at random where a cheap rule is clearly right (e.g. take the best claim), so that a
        truncated playout ends in a position worth evaluating."""
        return self.random_search_action(state, rng)

    def seat_name(self, seat: int, lang: str = "en") -> str:
        """How people call a seat (games with player colours name the colour): `text.seat_name`, else "Seat n"."""
        seat_name = getattr(self.text, "seat_name", None)
        if seat_name:
            return seat_name(seat, lang)  # type: ignore[no-any-return]
        return f"座位 {seat + 1}" if lang == "zh-TW" else f"Seat {seat + 1}"

    def describe_action(self, action: Action, lang: str = "en") -> str:
        """The action in words for a game log (default: `text.describe`, else its notation)."""
        describe = getattr(self.text, "describe", None)
        return describe(action, lang) if describe else str(action)

    def describe_move(self, before: State, action: Action, lang: str = "en") -> str:
        """The action in words as played in `before`, for the log read by those who may see it: a game
        can name what it acted on and what it set off by itself (tiles laid automatically, blind draws
        turned face up), so every change to the board appears in the log. Default: `text.describe_move`, else
        `describe_action`. Either way followed by what the move changed for every player and, on the last move,
        why the game ended (core/narration.py), so every gain, loss and change of score is in the log."""
        describe_move = getattr(self.text, "describe_move", None)
        words = describe_move(before, action, lang) if describe_move else self.describe_action(action, lang)
        return str(words) + story(before, action, lang)

    def action_visible(self, before: State, action: Action, seat: int | None) -> bool:
        """May `seat` (None: a spectator) read the notation of `action`, played in `before`? The
        actor always may. Default: yes in games without hidden information, else a sampled test
        (core/visibility.py); games with hidden information should answer exactly (and cheaply)."""
        if seat is not None and seat == before.current_player:
            return True
        if not self.hidden_information:
            return True
        from .visibility import tells_apart

        if seat is None:
            return all(tells_apart(before, action, s) for s in range(before.num_players)
                       if s != before.current_player)
        return tells_apart(before, action, seat)

    def undo_barrier(self, before: State, action: Action, after: State) -> bool:
        """True when undoing `action` could let someone exploit what it revealed: any action that turns
        a card face up, looks at cards, draws, shuffles, rolls or otherwise reveals something (Board Game
        Arena's rule), including the actor's own hidden cards shown to others.

        Default: always a barrier. A generic test can only sample positions and so can miss a reveal
        (`core.visibility.reveals_or_draws` is that sampled test, kept as a tool); a game that knows
        which of its actions reveal nothing overrides this with an exact answer (Cacao, Pocket Mars)."""
        return True

    def decision_kind(self, state: State) -> str | None:
        """A public name for the pending decision's kind when the number of options it offers may
        depend on what only the deciding seat knows (a hand), else None (anyone can count them).

        Why: a bot answers a one-option question at once and thinks over two, so its reply time would
        tell the table about the hidden hand; servers reply after a constant time per kind for these
        decisions (server/bots.py). Default: "decision" for every decision of a game with hidden
        information (erring on the side of pacing), None without; games answer exactly."""
        return "decision" if self.hidden_information else None

    def describe_for(self, before: State, action: Action, seat: int | None, lang: str = "en") -> str:
        """The action in words as `seat` (None: a spectator) may know it, given the state it was
        played in. Games with hidden information mask what the seat did not see (a card drawn, a
        card readied face down). Default: the full words if `action_visible`, else a neutral phrase.
        Contract: wherever `action_visible` is True this equals `describe_move` (servers rely on it). A game's
        `text.describe_for`, where it has one, answers instead."""
        describe_for = getattr(self.text, "describe_for", None)
        if describe_for:
            return str(describe_for(before, action, seat, lang)) + story(before, action, lang)
        if self.action_visible(before, action, seat):
            return self.describe_move(before, action, lang)
        return hidden_move(lang) + story(before, action, lang)

    def why_illegal(self, state: State, action: Action, lang: str = "en") -> str:
        """A sentence in `lang` saying why `action` is not legal in `state` (`State.why_illegal` asks here): the
        game's `text.why_illegal` where it has one. Why a language: the refusal is what a player reads when a
        move is turned down, in the terminal and the browser alike."""
        why_illegal = getattr(self.text, "why_illegal", None)
        return str(why_illegal(state, action, lang)) if why_illegal else not_legal(action, lang)

    def menu(self, state: State, lang: str = "en") -> list[MenuItem]:
        """Short codes for the legal actions, for people typing moves (default: `text.menu`, else 1, 2, 3 ...)."""
        menu = getattr(self.text, "menu", None)
        if menu:
            return list(menu(state, lang))
        return [MenuItem(str(i + 1), a, self.describe_action(a, lang)) for i, a in enumerate(state.legal_actions())]

    def explain(self, lang: str = "en") -> dict[str, dict[str, Any]]:
        """Every component a player can meet, by the id the browser marks it with: {id: {"name", "what", "cost",
        "reconstructed"}} in `lang` (`text.explain`, else none). Why: a player must never meet an id ("royal order
        #3", "BI4") without what it is, what it does, what it costs and whether it is the printed component; one
        hook serves every game's renderer and the one tooltip of the web kit."""
        explain = getattr(self.text, "explain", None)
        if not explain:
            return {}
        return {str(k): explanation(**v) for k, v in explain(lang).items()}

    # -- learning interfaces (boardlab.rl: PettingZoo, Gymnasium, OpenSpiel) ----------------------
    def observation_size(self, players: int) -> int:
        """Length of the float vector `encode_observation` returns (fixed per player count)."""
        from .encoding import DEFAULT_SIZE

        return DEFAULT_SIZE

    def encode_observation(self, state: State, seat: int) -> list[float]:
        """What `seat` may see as `observation_size` floats, for learning. Must depend on
        `state.view(seat)` only. Default: feature hashing of the view (core/encoding.py), so every game
        has one with no code; a game may supply a hand-made encoding instead."""
        from .encoding import hash_view

        return hash_view(state.view(seat), self.observation_size(state.num_players))

    def max_game_length(self, players: int) -> int:
        """An upper bound on the decisions of one game (OpenSpiel asks for one)."""
        return 100_000

    # -- balance reports (boardlab.sim.report) -----------------------------------------------------
    def component_uses(self, before: State, action: Action) -> list[str]:
        """Ids of the components (tiles, cards: ids from the game's data file) that `action`, played in
        `before` by its seat to move, puts into play; balance reports count them per seat and relate them
        to the result. Default: none (the report then has no component section)."""
        return []

    def score_label(self, category: str, lang: str = "en") -> str:
        """A scoring category (a key of `Score.breakdown`) in words, for the final score table: the term
        `score_<category>` of the game's words (terms.json beside its text module), else the key itself."""
        package = getattr(self.text, "__package__", None)
        key = f"score_{category}"
        try:
            label = game_term(package, key, lang) if package else key
        except FileNotFoundError:  # a game without a terms.json
            label = key
        return category if label == key else label

    def tiebreak_text(self, tiebreak: tuple[int, ...], lang: str = "en") -> str:
        """What decides between equal totals (`Score.tiebreak`), in words: `text.tiebreak_text`, else the
        numbers (a game stores some negated, so only the game can word them)."""
        words = getattr(self.text, "tiebreak_text", None)
        return str(words(tiebreak, lang)) if words else " · ".join(map(str, tiebreak))

    def end_reason(self, state: State) -> str:
        """How a finished game ended, in a few words for a balance report. Default: by the result
        (outright win, decided on the tie-break, shared win); games may name their end triggers."""
        winners = state.winners()
        if len(winners) != 1:
            return "shared win" if winners else "nobody wins"
        totals = sorted((s.total for s in state.scores()), reverse=True)
        return "decided on the tie-break" if len(totals) > 1 and totals[0] == totals[1] else "outright win"

    def render_text(self, state: State, seat: int | None, lang: str = "en") -> str:
        """A text picture of what `seat` sees, for terminals (games draw a real board).

        The text is rich console markup: games may colour it; literal '[' must be escaped. Default: `text.render`,
        else the view as JSON."""
        render = getattr(self.text, "render", None)
        if render:
            return str(render(state, seat, lang))
        import json

        return json.dumps(state.view(seat), ensure_ascii=False, indent=1)


class State(ABC):
    """One position of a game. Mutable: `apply` changes it in place; `clone` copies it."""

    game: ClassVar[Game]

    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        self.num_players = players
        self.seed = seed
        self.options = options
        self.history: list[Action] = []
        self._legal: list[Action] | None = None

    # -- what subclasses provide ------------------------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat that decides now (not always the turn's owner), or None when the game is over."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def _legal_actions(self) -> list[Action]: ...

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Carry out a legal action (already validated)."""

    @abstractmethod
    def clone(self) -> State: ...

    @abstractmethod
    def scores(self) -> list[Score]:
        """Score of every seat as if the game ended now (final once `is_over`)."""

    def _view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see of the game (None: a spectator), without the result: `view` adds the scores and
        winners once the game is over. Games implement this (or override `view` whole, as small test games do)."""
        raise NotImplementedError(f"{type(self).__name__} implements neither _view nor view")

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """JSON-able dict of the full state, hidden parts included."""

    @abstractmethod
    def determinize(self, seat: int, rng: Rng) -> State:
        """A full state consistent with everything `seat` has seen, hidden parts resampled.

        Must depend only on the seat's information set (and `rng`), never on the true hidden values.
        """

    def why_illegal(self, action: Action, lang: str = "en") -> str:
        """A sentence in `lang` saying why `action` is not legal here: the game's words (`Game.why_illegal`), so
        that the state, at the bottom of a game package, needs no import of the text above it."""
        return self.game.why_illegal(self, action, lang)

    # -- shared behaviour -------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """JSON-able dict of exactly what `seat` may see (None: a spectator): the game's `_view`, then, once
        the game is over, everyone's `scores` and the `winners` (a key `_view` already holds keeps its place)."""
        return self._with_result(self._view(seat))

    def _with_result(self, out: dict[str, Any]) -> dict[str, Any]:
        """`out` with everyone's `scores` and the `winners` once the game is over (as `view` gives them)."""
        if self.is_over:
            out["scores"] = [s.to_json() for s in self.scores()]
            out["winners"] = self.winners()
        return out

    def observation_view(self, seat: int) -> dict[str, Any]:
        """What an observation tensor is read from (boardlab.rl): `view(seat)`, or less. A game may override it to
        leave out what its view spells out only for people, built from the rest or from the legal moves (the
        decider's options as text, Block and Key's five side views): an encoder never reads those, and a learner
        takes every step, so building them would be most of its observation's cost. Never more than the view:
        every key kept has the view's value (tests/rl/test_rl_observation_view.py), so nothing hidden can leak."""
        return self.view(seat)

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to move, in a stable order (empty when over)."""
        if self._legal is None:
            self._legal = [] if self.is_over else self._legal_actions()
        return self._legal

    def random_action(self, below: Callable[[int], int]) -> Action:
        """A uniform pick from `legal_actions()`: the action at index `below(len(legal))`, `below` called exactly
        once (a single action too), which is what `rng.choice(legal)` and the random-play loops draw (`below` is
        `Rng.randbelow` or `random.Random.randrange`). Random players call this rather than indexing the list so
        that a game whose lists are long may find that same action without building the list (same index, same
        draws: recorded random games stay identical)."""
        legal = self.legal_actions()
        return legal[below(len(legal))]

    def is_legal(self, action: Action) -> bool:
        """`action in legal_actions()`, the test `apply` makes. A game may answer it without building the list
        (for an action `random_action` found without it); the answer must be the same."""
        return action in self.legal_actions()

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply a legal action. Raises a typed error and changes nothing if it is not legal.

        `seat`, when given, must be the seat to move (servers pass it; engines may omit it).
        """
        if self.is_over:
            raise GameOverError(f"the game is over; {action} cannot be played")
        if seat is not None and seat != self.current_player:
            raise NotYourTurnError(f"seat {seat} cannot act now: seat {self.current_player} is to decide")
        if not self.is_legal(action):
            raise IllegalActionError(self.why_illegal(action))
        self._apply(action)
        self.history.append(action)
        self._legal = None

    def apply_unchecked(self, action: Action) -> None:
        """`apply` without the legality check, for search bots whose action was just taken from this
        very state's `legal_actions`/`search_actions`/`random_search_action`/`random_action` (the check would
        build or scan the legal list again). Anything else must use `apply`."""
        self._apply(action)
        self.history.append(action)
        self._legal = None

    def apply_text(self, text: str, seat: int | None = None) -> Action:
        action = self.game.parse_action(self, text)
        self.apply(action, seat)
        return action

    def winners(self) -> list[int]:
        """Seats that win (several on a shared win), by total then the rulebook tie-break."""
        scores = self.scores()
        keys = [(s.total, *s.tiebreak) for s in scores]
        best = max(keys)
        return [i for i, k in enumerate(keys) if k == best]

    def returns(self) -> list[float]:
        """Terminal utility per seat for learning: 1 split among winners, 0 for the rest."""
        if not self.is_over:
            return [0.0] * self.num_players
        w = self.winners()
        return [1.0 / len(w) if i in w else 0.0 for i in range(self.num_players)]

    def to_json(self) -> dict[str, Any]:
        """A save: configuration, seed, the action log (the source of truth) and a full snapshot.

        The seed is an int, or a decimal string when it is wider than 64 bits (a server table's):
        orjson and most JSON readers outside Python cannot hold such an integer."""
        return {
            "format": SAVE_FORMAT,
            "game": self.game.name,
            "players": self.num_players,
            "seed": seed_to_json(self.seed),
            "options": dict(self.options),
            "actions": [str(a) for a in self.history],
            "state": self.snapshot(),
        }

    def _copy_base(self, other: State) -> None:
        """Copy the shared fields into a fresh clone (used by subclasses' `clone`)."""
        other.num_players = self.num_players
        other.seed = self.seed
        other.options = self.options
        other.history = list(self.history)
        other._legal = None if self._legal is None else list(self._legal)
