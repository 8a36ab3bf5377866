"""Pocket Mars's refusals in the player's language, one case per family of reason (a card not where the action
looks for it, another player's prep module, launching, passing, a question not asked, no action of this game):
Chinese words and punctuation in zh-TW, the English reasons as they were."""

from __future__ import annotations

from pm_helpers import GAME, new, play_setup, refresh

from boardlab.games.pocket_mars.actions import seat_text
from boardlab.games.pocket_mars.components import CARD_IDS
from boardlab.games.pocket_mars.rules import PocketMarsState
from refusals import worded


def refusal(state: PocketMarsState, text: str) -> tuple[str, str]:
    return worded(state, GAME.parse_action(state, text))


def test_each_turn_reason_is_refused_in_the_players_language() -> None:
    state = new(2, seed=3)
    play_setup(state)
    p = state.start
    o = 1 - p
    elsewhere = next(CARD_IDS[c] for c in state.prep[o])
    cases = {
        f"hand {elsewhere}": f"hand {elsewhere}: {elsewhere} is not in your hand",
        f"prep {elsewhere}": f"prep {elsewhere}: {elsewhere} is not in your prep module",
        f"energy {elsewhere}": f"energy {elsewhere}: {elsewhere} is not in your hand or prep module",
        f"opp {seat_text(p)} a": "that is your own prep module: use 'prep <card>'",
        "opp P4 a": "there is no P4 in this game",
        "pass": "passing is only allowed when no other action is possible",
        "take a": f"P{p + 1} must first choose a turn action (hand, prep, opp, launch or energy)",
    }
    chinese = set()
    for text, english in cases.items():
        en, zh = refusal(state, text)
        assert english in en, en
        chinese.add(zh)
    assert len(chinese) == len(cases)
    assert refusal(state, f"hand {elsewhere}")[1] == f"hand {elsewhere}：{elsewhere} 不在你的手牌中"
    state.discard.append(state.prep[o].pop())  # one card left in the other prep module: no card b
    state.earth[p], state.ship[p] = 0, 7
    refresh(state)
    en, zh = refusal(state, f"opp {seat_text(o)} b")
    assert en.endswith(f"P{o + 1}'s prep module has no card b") and "準備艙沒有卡片 b" in zh
    en, zh = refusal(state, "launch")
    assert (en, zh) == ("launch: none of your colonists is left on Earth", "launch：你已經沒有殖民者留在地球上")


def test_a_question_not_asked_and_no_action_at_all() -> None:
    state = new(2, seed=3)  # the setup asks which cards to ready
    en, zh = refusal(state, "launch")
    assert f"must answer '{GAME.text.decision_text(state, 'en')}'" in en
    assert f"「{GAME.text.decision_text(state, 'zh-TW')}」" in zh
    en, zh = worded(state, "launch now")
    assert en == "'launch now' is not a Pocket Mars action" and zh == "'launch now' 不是口袋火星的動作"
