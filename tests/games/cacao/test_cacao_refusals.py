"""Cacao's refusals in the player's language, one case per family of reason (the placement rules, rebuilding,
discarding, filling, activating, a question not asked): Chinese words and punctuation in zh-TW, tiles and
jungle tiles named as the log names them, the English reasons as they were."""

from __future__ import annotations

import random

from cacao_helpers import make_state, play_until, worker

import boardlab
from boardlab.games.cacao.actions import Fill, Use, parse
from boardlab.games.cacao.rules import CacaoState
from refusals import worded


def refusal(state: CacaoState, text: str) -> tuple[str, str]:
    return worded(state, parse(text))


def test_placement_refusals() -> None:
    s = make_state(workers={(1, 0): worker(1, "1111", 0)}, hands=[["1111", "2101"], ["3100"]])
    assert refusal(s, "2101r0@1,0") == ("2101r0@1,0: 1,0 is already occupied", "2101r0@1,0：1,0 已經有板塊了")
    en, zh = refusal(s, "3100r0@0,-1")
    assert "tile 3-1-0-0 is not in your hand (1-1-1-1, 2-1-0-1)" in en  # by the rulebook's name, not "3100"
    assert "工人板塊 3-1-0-0 不在你的手牌中（1-1-1-1、2-1-0-1）" in zh
    assert "jungle space" in refusal(s, "1111r0@2,0")[0]
    assert "next to" in refusal(s, "1111r0@2,-1")[0]
    assert "use one of r0" in refusal(s, "1111r1@0,-1")[0]


def test_rebuild_and_discard_refusals() -> None:
    assert "sun" in refusal(make_state(), "rebuild 2101r0@1,0")[0]
    assert "pile and display are empty" in refusal(make_state(display=["temple"]), "rebuild 2101r0@1,0")[0]
    sunny = [{"sun": 1}, {}]
    assert "yours" in refusal(make_state(villages=sunny), "rebuild 2101r0@1,0")[0]
    rebuilt = make_state(villages=sunny, workers={(1, 0): worker(0, "1111", 0, layers=2)})
    assert "already rebuilt" in refusal(rebuilt, "rebuild 2101r0@1,0")[0]
    assert "only allowed" in refusal(make_state(), "discard 2101")[0]


def test_a_question_not_asked_names_who_must_answer_what() -> None:
    s = make_state()
    for text in ("auto", "fill temple@2,0", "use 1,0 N 1"):
        en, zh = refusal(s, text)
        assert "the red player must answer 'place a worker tile'" in en
        assert "紅色玩家 要先回答「放置一塊工人板塊」" in zh


def test_filling_and_activating_refusals() -> None:
    rng = random.Random(5)
    filling = play_until(boardlab.new_game("cacao", 2, 3), rng, lambda s: s.phase == "fill")  # type: ignore[arg-type]
    assert filling.phase == "fill"
    x, y = filling.to_fill[0]
    absent = next(j for j in ("temple", "water", "sun", "gold1", "market3") if j not in filling.display)
    en, zh = worded(filling, Fill("fill", absent, x, y))
    assert "the display" in en and "叢林展示區" in zh
    assert "must be filled now" in worded(filling, Fill("fill", filling.display[0], x + 10, y))[0]
    assert "place a worker tile" not in worded(filling, parse("auto"))[0]
    activating = play_until(filling, rng, lambda s: s.phase == "activate")
    assert activating.phase == "activate"
    edge = activating.pending[activating.queue[0]][0]
    en, zh = worded(activating, Use("use", edge.x, edge.y, edge.edge, edge.workers + 1))
    assert f"that edge has {edge.workers} worker(s)" in en and "可可果" in zh
    en, zh = worded(activating, Use("use", edge.x + 20, edge.y, 0, 1))
    assert "no activated, unresolved edge" in en and "north" in en and "朝北" in zh
