"""The seed rulebook's worked examples, step by step (Matt, Philip and the blue 6)."""

from __future__ import annotations

from pm_helpers import arrange, check_invariants, four_card_rule_holds, ids, new, play_setup

from boardlab.games.pocket_mars.actions import seat_text
from boardlab.games.pocket_mars.components import CARD_INDEX

GREEN, YELLOW = 0, 1


def two_players() -> tuple[object, int, int]:
    state = new(2, seed=3)
    play_setup(state)
    first = state.start
    return state, first, 1 - first


def test_matt_plays_yellow_1_from_his_prep_module() -> None:
    """Matt's yellow 1 goes on a yellow 7: no colonist move; the bottom action (no colonist of his in
    the building: launch 2) and the Energy Bank (+1 energy) still happen; then he draws 1 and readies a
    green card."""
    state, matt, philip = two_players()
    state.lo[YELLOW][philip] = 1  # Philip's colonist in the yellow building (from his ship)
    state.ship[philip] -= 1
    arrange(state, hands={matt: ["G6", "P6"]}, prep={matt: ["Y2", "B3"]}, stacks={YELLOW: ["Y7"]},
            deck_top=["B1"])
    assert state.cards.cards[CARD_INDEX["Y2"]].provenance == "official"
    state.apply_text("prep Y2")
    assert state.stacks[YELLOW][-1] == CARD_INDEX["Y2"]
    # 1 < 7: no "value win" question; next is Matt's bottom action
    decision = state.view(matt)["decision"]
    assert decision["step"] == "half" and decision["part"] == "bottom" and decision["card"] == "Y2"
    assert state.current_player == matt and state.legal_actions() == [state.game.parse_action(state, "do"),
                                                                       state.game.parse_action(state, "skip")]
    state.apply_text("do")
    assert (state.earth[matt], state.ship[matt], state.lo[YELLOW][matt]) == (4, 3, 0)
    assert state.view(matt)["decision"]["part"] == "ability"
    state.apply_text("do")
    assert state.energy[matt] == 2
    # 4-card rule: he drew B1 and chooses which hand card goes to the prep module
    assert sorted(state.hands[matt]) == sorted(ids("G6", "P6", "B1"))
    assert state.view(matt)["decision"]["step"] == "ready"
    state.apply_text("ready G6")
    assert state.prep[matt] == ids("B3", "G6")
    assert state.current_player == philip and state.todo[-1] == ("turn", philip)
    assert state.view(philip)["board"]["buildings"][YELLOW]["value"] == 1
    assert four_card_rule_holds(state)
    check_invariants(state)


def test_philip_plays_matts_green_5() -> None:
    """Philip plays Matt's green 5: 5 > 3 but nothing happens for anyone; Matt (who holds a green card)
    uses the bottom action with his own colonists; Philip uses the Greenhouse to promote his yellow
    colonist to ★★; Matt then draws and refills his prep module."""
    state, first, second = two_players()
    philip, matt = first, second
    state.lo[YELLOW][philip] = 1
    state.ship[philip] -= 1
    arrange(state, hands={matt: ["G6", "Y4"]}, prep={matt: ["G5", "B3"]}, deck_top=["B1"])
    assert state.cards.cards[CARD_INDEX["G5"]].provenance == "official"
    state.apply_text(f"opp {seat_text(matt)} a")
    assert state.stacks[GREEN] == ids("G5")
    assert state.lo[GREEN] == [0, 0], "no colonist moves when the card came from another player's module"
    assert state.current_player == matt, "the card's owner decides on the bottom action"
    d = state.view(matt)["decision"]
    assert (d["part"], d["card"], d["options"]) == ("bottom", "G5", ["do", "skip"])
    assert "options" not in state.view(philip)["decision"]
    state.apply_text("do")
    assert (state.earth[matt], state.ship[matt]) == (5, 2)
    assert state.current_player == philip
    state.apply_text(f"shift Y {seat_text(philip)} up")
    assert (state.lo[YELLOW][philip], state.hi[YELLOW][philip]) == (0, 1)
    assert state.current_player == matt and state.view(matt)["decision"]["step"] == "ready"
    assert sorted(state.hands[matt]) == sorted(ids("G6", "Y4", "B1"))
    state.apply_text("ready B1")
    assert state.prep[matt] == ids("B3", "B1")
    assert state.todo[-1] == ("turn", matt)
    assert four_card_rule_holds(state)
    check_invariants(state)


def test_philip_plays_blue_6_from_hand_and_discards_down_to_four() -> None:
    state, philip, _ = two_players()
    arrange(state, hands={philip: ["B6", "P6"]}, prep={philip: ["Y4", "G6"]}, deck_top=["B1", "K7"])
    state.apply_text("hand B6")  # top action: draw 2 (free, resolves at once)
    assert sorted(state.hands[philip]) == sorted(ids("P6", "B1", "K7"))
    assert state.discard[-1] == CARD_INDEX["B6"] and state.view(1 - philip)["discard"][-1] == "B6"
    assert state.current_player == philip and state.view(philip)["decision"]["step"] == "trim"
    state.apply_text("discard P6")
    assert len(state.hands[philip]) == 2 and len(state.prep[philip]) == 2
    assert state.view(1 - philip)["discard"][-1] is None, "a 4-card-rule discard is face down"
    check_invariants(state)
