"""Words and the terminal: descriptions in both languages, short codes, the picture a seat sees (no other hand), and
`boardlab play block_and_key` driven end to end in a real process."""

from __future__ import annotations

import json
import subprocess
import sys

from bk_helpers import BUILTIN_FILE, GAME, at_first_turn, new

from boardlab.games.block_and_key.actions import DIG, DRAW, BlockAct, Place, parse


def test_notation_round_trips() -> None:
    s = at_first_turn(2, seed=1)
    for a in s.legal_actions():
        assert parse(str(a)) == a
        assert GAME.id_to_action(GAME.action_to_id(a, 2), 2) == a
    for text in ("draw moon", "return RL4", "orient 3", "marker sun", "discard U03", "keep", "pass",
                 "ancients WI3 0 a1 1", "claim U03", "stop"):
        assert str(parse(text)) == text
        if text != "ancients WI3 0 a1 1":
            assert GAME.id_to_action(GAME.action_to_id(parse(text), 2), 2) == parse(text)


def test_every_rules_option_is_labelled_in_both_languages() -> None:
    """The lobby shows each option (face_contact included) with its label and its choices in en and zh-TW."""
    about = json.loads((BUILTIN_FILE.parent / "about.json").read_text("utf-8"))["options_meta"]
    for name, option in GAME.options.items():
        if option.choices is None:
            continue
        for lang in ("en", "zh-TW"):
            assert about[name][lang] and set(about[name]["choices"][lang]) == set(option.choices), (name, lang)


def test_descriptions_in_both_languages() -> None:
    assert GAME.describe_action(DIG[4], "en") == "excavates column 2"
    assert GAME.describe_action(DIG[4], "zh-TW") == "挖掘第 2 行"
    assert "日之鑰" in GAME.describe_action(DRAW[0], "zh-TW")
    p = Place("place", "RL4", 3, 3, 4, 1)
    assert GAME.describe_action(p, "en") == (
        "places the red L-shaped four (RL4, orientation 3) at column d, row 5, level 2")
    assert GAME.describe_action(BlockAct("return", "G1"), "zh-TW") == "將灰色單格方塊（G1）放回袋中"


def test_menu_codes_are_unique_and_cover_the_legal_actions() -> None:
    s = at_first_turn(2, seed=1)
    items = GAME.menu(s, "en")
    assert len({m.code for m in items}) == len(items)
    assert [m.action for m in items] == list(s.legal_actions())
    assert {"r1", "c3", "p1"} <= {m.code for m in items}


def test_the_picture_shows_only_the_seats_own_hand() -> None:
    s = new(3, seed=2)
    for seat in range(3):
        text = GAME.render_text(s, seat, "en")
        mine = {s.comp.keys[k].id for k in s.hands[seat]}
        others = {s.comp.keys[k].id for q in range(3) if q != seat for k in s.hands[q]}
        assert all(k in text for k in mine)
        assert not any(k in text for k in others - mine)
        assert "reconstruction" in text
    assert "方塊與鑰匙" in GAME.render_text(s, 0, "zh-TW")


def test_play_in_the_terminal() -> None:
    """`boardlab play block_and_key --seats me,greedy`: orient, draft, dig and place by codes, then quit."""
    proc = subprocess.run(
        [sys.executable, "-m", "boardlab.cli", "play", "block_and_key", "--seats", "me,greedy", "--seed", "3"],
        input="o1\nr1\nr2\np1\nquit\n", capture_output=True, text=True, timeout=120,
        env={"COLUMNS": "160", "PATH": "/usr/bin:/bin", "TERM": "dumb"})
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    assert "Block and Key" in out
    assert "Top view: each cell shows" in out  # the legend from about.json
    assert "P1: turns the core cube (1)" in out
    assert "P1: excavates row 1" in out and "P1: places" in out
    assert "from the south" in out and "Excavation site" in out


def test_every_legal_action_of_random_games_can_be_worded() -> None:
    """Every action offered in random games (solo included, where keys are discarded) has words in both
    languages, as played and as each seat may read it: a move whose log line cannot be worded must never
    reach a server (the solo discard once raised in `term`, so every discard was refused)."""
    from boardlab.core import Rng
    from boardlab.games.block_and_key.actions import KeyAct

    kinds: set[str] = set()
    for players, seed in ((1, 1), (1, 2), (1, 3), (2, 4), (3, 5)):
        s = GAME.new_game(players, seed)
        rng = Rng(seed)
        while not s.is_over:
            for action in s.legal_actions():
                kinds.add(type(action).__name__)
                for lang in ("en", "zh-TW"):
                    assert GAME.describe_move(s, action, lang)
                    for seat in (None, *range(players)):
                        assert GAME.describe_for(s, action, seat, lang)
            legal = s.legal_actions()
            s.apply(legal[rng.randbelow(len(legal))])
    assert KeyAct.__name__ in kinds, kinds
