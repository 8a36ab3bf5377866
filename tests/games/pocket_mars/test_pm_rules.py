"""Rules of Pocket Mars, one at a time, on hand-built positions."""

from __future__ import annotations

import pytest
from pm_helpers import GAME, arrange, check_invariants, ids, new, play_setup, random_game, refresh

from boardlab.core.errors import ConfigError, IllegalActionError
from boardlab.games.pocket_mars.actions import seat_text
from boardlab.games.pocket_mars.components import CARD_IDS, CARD_INDEX
from boardlab.games.pocket_mars.effects import ALL_SEEN
from boardlab.games.pocket_mars.rules import PocketMarsState

GREEN, YELLOW, BLUE, PURPLE, BLACK = range(5)


def ready(players: int, seed: int = 3, **options: object) -> tuple[PocketMarsState, int]:
    state = new(players, seed, **options)
    play_setup(state)
    return state, state.start


def test_setup_follows_the_rulebook() -> None:
    state = new(3, seed=11)
    assert state.ship == [1, 1, 1] and state.earth == [6, 6, 6] and state.energy == [1, 1, 1]
    assert [len(h) for h in state.hands] == [4, 4, 4] and state.cap == 2
    assert state.view(state.current_player)["decision"]["step"] == "ready"
    play_setup(state)
    assert [len(h) for h in state.hands] == [2, 2, 2] and [len(p) for p in state.prep] == [2, 2, 2]
    assert len(state.deck) == 35 - 12 and state.round == 1
    assert new(2).cap == 1
    starts = {new(4, seed).start for seed in range(40)}
    assert starts == {0, 1, 2, 3}, "the start player is random"


def test_draft_variant() -> None:
    state = new(3, seed=5, draft=True)
    assert [len(p) for p in state.packets] == [5, 5, 5] and all(not h for h in state.hands)
    first = state.current_player
    packet = list(state.packets[first])
    state.apply(state.legal_actions()[0])  # keeps the lowest card id
    # after everyone picked once, the rest of `first`'s packet goes to the next seat (left)
    while state.todo[-1][0] == "pick" and sum(len(h) for h in state.hands) < 3:
        state.apply(state.legal_actions()[0])
    assert sorted(state.packets[(first + 1) % 3]) == sorted(packet[1:])
    assert all(state.seen[c] == 1 << ((first + 1) % 3) for c in packet[1:]), "only the holder knows"
    while state.todo[-1][0] in ("pick", "passpackets"):
        state.apply(state.legal_actions()[-1])
    play_setup(state)
    assert [len(h) for h in state.hands] == [2, 2, 2] and [len(p) for p in state.prep] == [2, 2, 2]
    assert len(state.deck) == 35 - 12 and all(not p for p in state.packets)
    assert all(state.seen[c] == 0 for c in state.deck), "the leftovers are shuffled back unseen"
    check_invariants(state)
    with pytest.raises(ConfigError):
        new(1, draft=True)


def test_draft_knowledge_model() -> None:
    """D16 (3 players, seed 5, the issue's case): a seat knows the cards of the packets it held, not who
    kept which. After the draft no seat's view names a card of another seat's hand or prep module, and
    its `draft_seen` lists every card it held in a packet."""
    state = new(3, seed=5, draft=True)
    held: list[set[str]] = [set() for _ in range(3)]
    while state.todo[-1][0] in ("pick", "passpackets"):
        for q in range(3):
            held[q] |= {CARD_IDS[c] for c in state.packets[q]}
            for seat in range(3):
                if seat != q:  # another seat's packet is secret, whoever passed it
                    assert state.view(seat)["draft"][q]["cards"] == []
        state.apply(state.legal_actions()[-1])
    play_setup(state)
    for seat in range(3):
        view = state.view(seat)
        assert set(view["draft_seen"]) == held[seat] and len(held[seat]) == 5 + 4 + 3  # the 2 came back
        for q in range(3):
            if q != seat:
                assert view["hands"][q]["hand"] == [], f"seat {seat} sees seat {q}'s hand"
                assert all(p["card"] is None for p in view["hands"][q]["prep"])


@pytest.mark.parametrize(("under", "card", "wins"), [
    ([], "Y5", True),  # 5 > the building's 3
    ([], "Y4", False),  # 3 is not more than 3
    (["Y5"], "Y6", True),
    (["Y6"], "Y5", False),
    (["Y7"], "Y2", False),
])
def test_value_comparison_is_strictly_greater_than_the_top_card_or_3(under: list[str], card: str,
                                                                      wins: bool) -> None:
    state, p = ready(2)
    arrange(state, prep={p: [card, "B3"]}, stacks={YELLOW: under})
    state.apply_text(f"prep {card}")
    step = state.todo[-1]
    assert (step[0] == "colonist") == wins
    if wins:
        state.apply_text("do")
        assert state.lo[YELLOW][p] == 1 and state.ship[p] == 0


def test_black_card_goes_under_no_building_and_habitation_settles_anywhere() -> None:
    state, p = ready(2)
    state.ship[p], state.earth[p] = 3, 4
    arrange(state, prep={p: ["K7", "B3"]})
    state.apply_text("prep K7")
    assert not state.stacks[BLACK] and state.discard[-1] == CARD_INDEX["K7"]
    assert state.seen[CARD_INDEX["K7"]] == ALL_SEEN
    # bottom of K7 (a black card: ship -> ★ of a building of your choice, as the seed says of black cards),
    # then the Habitation ability: the same choice again
    places = ["place G", "place Y", "place B", "place P", "skip"]
    assert [str(a) for a in state.legal_actions()] == places
    state.apply_text("place Y")
    assert state.lo[YELLOW][p] == 1 and state.ship[p] == 2 and state.earth[p] == 4
    assert [str(a) for a in state.legal_actions()] == places
    state.apply_text("place B")
    assert state.lo[BLUE][p] == 1 and state.ship[p] == 1


def test_other_players_prep_module_card_owner_pays_own_energy() -> None:
    state, p = ready(2)
    o = 1 - p
    state.energy[o] = 2
    arrange(state, prep={o: ["P4", "B3"]})  # bottom: pay 1 energy, launch 2
    state.apply_text(f"opp {seat_text(o)} a")
    assert state.current_player == o and state.todo[-1][0] == "half"
    state.apply_text("do")
    assert state.energy[o] == 1 and state.ship[o] == 3 and state.energy[p] == 1
    # then the active player may use the Comms Center: launch 1
    assert state.current_player == p
    state.apply_text("do")
    assert state.ship[p] == 2


def test_bottom_action_needs_its_energy_and_is_skipped_silently_otherwise() -> None:
    state, p = ready(2)
    state.energy[p] = 0
    arrange(state, prep={p: ["P4", "B3"]})
    state.apply_text("prep P4")  # value 4 > 3: colonist question first
    state.apply_text("skip")
    step = state.todo[-1]
    assert step[0] == "half" and step[3] == 2, "no energy: straight to the building ability"


def test_hold_condition_always_asks_so_the_hand_stays_secret() -> None:
    state, p = ready(2)
    o = 1 - p
    arrange(state, hands={o: ["Y4", "P6"]}, prep={o: ["G5", "B3"]})  # G5: launch 1 if you hold green
    state.apply_text(f"opp {seat_text(o)} a")
    assert state.current_player == o and [str(a) for a in state.legal_actions()] == ["skip"]
    state.apply_text("skip")
    assert state.ship[o] == 1


def test_launch_needs_a_colonist_on_earth() -> None:
    state, p = ready(2)
    state.earth[p], state.ship[p] = 0, 7
    refresh(state)
    with pytest.raises(IllegalActionError, match="none of your colonists is left on Earth"):
        state.apply_text("launch")
    with pytest.raises(IllegalActionError, match="not in your hand"):
        state.apply_text("hand " + ("G1" if CARD_INDEX["G1"] not in state.hands[p] else "G2"))


def test_discard_for_energy_at_the_cap_is_allowed_but_gains_nothing() -> None:
    state, p = ready(2)
    state.energy[p] = state.R.energy_max
    card = state.hands[p][0]
    refresh(state)
    state.apply(state.game.parse_action(state, f"energy {state.cards.cards[card].id}"))
    assert state.energy[p] == state.R.energy_max and state.discard[-1] == card


def test_reshuffle_takes_cards_back_from_buildings_and_resets_values() -> None:
    state, p = ready(2)
    arrange(state, hands={p: ["B6", "P6"]}, stacks={GREEN: ["G7"], YELLOW: ["Y5"]})
    keep = len(state.deck)
    state.discard += state.deck[:-1]
    state.deck[:] = state.deck[-1:]  # one card left in the deck
    assert keep > 1
    state.apply_text("hand B6")  # draw 2: the deck runs out after the first card
    assert all(not s for s in state.stacks), "cards under buildings went back into the deck"
    assert state.view(p)["board"]["buildings"][GREEN]["value"] == 3
    assert not state.discard or state.discard == [CARD_INDEX["B6"]]
    assert all(state.seen[c] == 0 for c in state.deck[:-1]) or True
    check_invariants(state)


def test_look_reveals_exactly_those_cards_to_exactly_that_player() -> None:
    state, p = ready(3)
    target = (p + 2) % 3
    bystander = (p + 1) % 3
    arrange(state, prep={p: ["B6", "Y4"], target: ["G5", "K7"]})
    state.apply_text("prep B6")  # 6 > 3: value question, then the bottom: look at 2 cards
    state.apply_text("skip")
    state.apply_text("do")
    assert {str(a) for a in state.legal_actions()} == {f"look {seat_text(bystander)}", f"look {seat_text(target)}"}
    state.apply_text(f"look {seat_text(target)}")
    assert [x["card"] for x in state.view(p)["hands"][target]["prep"]] == ["G5", "K7"]
    assert [x["card"] for x in state.view(bystander)["hands"][target]["prep"]] == [None, None]
    assert [x["colour"] for x in state.view(bystander)["hands"][target]["prep"]] == ["green", "black"]
    state.apply_text("skip")  # the Aqualab ability
    while state.todo[-1] != ("turn", bystander):  # the view remembers on later turns
        state.apply(state.legal_actions()[0])
    assert [x["card"] for x in state.view(p)["hands"][target]["prep"]] == ["G5", "K7"]


def test_four_card_rule_runs_in_seat_order_from_the_start_player() -> None:
    state, p = ready(3)
    for q in range(3):
        state.hands[q].append(state.deck.pop())  # everyone has 5 cards
    state.apply_text("launch")
    order = []
    while state.todo[-1][0] != "turn":
        order.append(state.current_player)
        state.apply(state.legal_actions()[0])
    assert order == [p, (p + 1) % 3, (p + 2) % 3]


def test_game_ends_only_at_the_end_of_the_round() -> None:
    state, p = ready(3)
    state.earth[p], state.ship[p], state.lo[GREEN][p] = 0, 1, 6
    arrange(state, prep={p: ["K7", "B3"]})
    state.apply_text("prep K7")
    # bottom of K7 (launch 1) is not offered: nothing on Earth. Straight to the Habitation:
    state.apply_text("place Y")  # all 7 placed, but the round goes on
    while state.todo[-1][0] != "turn":
        state.apply(state.legal_actions()[0])
    assert not state.is_over and state.turn == (p + 1) % 3
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    assert state.turn == (p + 2) % 3


def test_scoring_bonuses_and_tie_break() -> None:
    state, p = ready(2)
    o = 1 - p
    for q in (p, o):
        state.earth[q] = state.ship[q] = 0
    # p: ★ in G,Y,B (1 each) + ★★ in P (1) + 3 more ★ in P -> 4 in Purple, all four buildings
    state.lo[GREEN][p] = state.lo[YELLOW][p] = state.lo[BLUE][p] = 1
    state.lo[PURPLE][p], state.hi[PURPLE][p] = 3, 1
    state.lo[GREEN][o], state.earth[o], state.ship[o] = 2, 3, 2
    state.energy[p], state.energy[o] = 3, 3
    s = state.scores()
    assert s[p].breakdown == {"ship": 0, "star": 12, "star2": 4, "all_buildings": 2, "full_building": 3,
                              "top_energy": 1}
    assert s[p].total == 22 and s[o].total == 2 + 4 + 1
    assert state.winners() == [p]
    # a tie on points: more colonists in buildings wins; equal again: a shared win
    tie = new(2)
    tie.earth, tie.ship = [1, 3], [4, 0]
    tie.lo[GREEN] = [2, 2]
    tie.lo[YELLOW] = [0, 2]
    check_invariants(tie)
    assert [x.total for x in tie.scores()] == [9, 9] and tie.winners() == [1]
    tie.earth, tie.ship, tie.lo[BLUE] = [3, 3], [0, 0], [4, 0]
    tie.lo[GREEN] = [0, 2]
    check_invariants(tie)
    assert [x.total for x in tie.scores()] == [12, 9]
    tie.lo[BLUE], tie.lo[GREEN], tie.earth = [2, 0], [0, 2], [3, 3]
    tie.lo[PURPLE] = [2, 0]
    check_invariants(tie)
    assert [x.total for x in tie.scores()] == [9, 9] and tie.winners() == [0, 1]


def test_star2_capacity_is_shared_and_enforced() -> None:
    state, p = ready(2)
    o = 1 - p
    state.lo[YELLOW][p], state.ship[p] = 1, 0
    state.hi[YELLOW][o], state.lo[YELLOW][o], state.ship[o] = 1, 0, 0
    arrange(state, prep={p: ["G6", "B3"]})
    state.apply_text("prep G6")  # 6 > 3 but the ship is empty: no value question
    state.apply_text("skip")  # bottom of G6: draw 1
    options = {str(a) for a in state.legal_actions()}
    assert f"shift Y {seat_text(p)} up" not in options, "★★ is full in a 2-player game"
    assert f"shift Y {seat_text(o)} down" in options


def test_random_games_finish_and_render_in_both_languages() -> None:
    for players in (1, 2, 3, 4):
        state = random_game(players, seed=players)
        assert state.is_over
        for seat in range(players):
            for lang in ("en", "zh-TW"):
                text = GAME.render_text(state, seat, lang)
                assert text and "\x1b" not in text
        assert GAME.title("zh-TW") == "口袋火星"


def test_render_shows_only_what_the_seat_sees() -> None:
    state, p = ready(3)
    o = (p + 1) % 3
    hidden = [state.cards.cards[c].id for c in state.hands[o] + state.prep[o] if not state.seen[c] & (1 << p)]
    text = GAME.render_text(state, p, "en")
    assert hidden and not any(cid in text for cid in hidden)
    assert all(state.cards.cards[c].id in text for c in state.hands[p] + state.prep[p])
    # no bare notation list under the board: the terminal's menu gives each legal action its words
    assert "your options" not in text and "Greenhouse" in text
    assert "生態建築" in GAME.render_text(state, p, "zh-TW")


def test_solo_setup_and_round() -> None:
    state = new(1, seed=2)
    assert state.ship == [1, 5] and state.earth == [6, 2] and state.cap == 1
    assert len(state.prep[1]) == 2 and all(not state.seen[c] for c in state.prep[1])
    harder = new(1, seed=2, automaton_ship=7)
    assert harder.ship[1] == 7 and harder.earth[1] == 0
    play_setup(state)
    deck = len(state.deck)
    state.apply_text("launch")  # also discards a card of the automaton's prep module (choice)
    assert [str(a) for a in state.legal_actions()] == ["drop a", "drop b"]
    state.apply_text("drop a")
    # 4-card rule, system failure (2 from the deck), android activation (1 card), refill to 2
    assert state.todo[-1] == ("turn", 0)
    assert len(state.deck) == deck - 2 - 2 and len(state.prep[1]) == 2
    assert state.round == 2
    check_invariants(state)


def test_solo_draw_substitution_and_automaton_card_play() -> None:
    state = new(1, seed=4)
    play_setup(state)
    arrange(state, hands={0: ["B6", "P6"]}, prep={0: ["Y4", "G6"]})
    da = list(state.prep[1])
    state.apply_text("hand B6")  # draw 2: taken from the automaton's module instead
    assert [str(a) for a in state.legal_actions()] == ["take a", "take b"]
    state.apply_text("take b")
    assert da[1] in state.hands[0] and da[0] in state.hands[0], "the second draw takes the last one"
    assert state.prep[1] == []
    check_invariants(state)
    # automaton card play: value win for you, no bottom action, building ability for you
    state2 = new(1, seed=4)
    play_setup(state2)
    arrange(state2, prep={1: ["Y6", "B3"]})
    state2.apply_text("opp DA a")
    assert state2.todo[-1][0] == "colonist"
    state2.apply_text("do")
    assert state2.lo[YELLOW][0] == 1
    assert state2.todo[-1][0] == "half" and state2.todo[-1][3] == 2, "straight to the Energy Bank"


def test_solo_discard_gives_two_energy() -> None:
    state = new(1, seed=6)
    play_setup(state)
    state.apply(state.game.parse_action(state, f"energy {state.cards.cards[state.hands[0][0]].id}"))
    assert state.energy[0] == 3


@pytest.mark.parametrize(("card", "check"), [
    ("G6", lambda s: s.hi[GREEN][1] == 1 and s.lo[GREEN][1] == 0),  # moved to ★ then promoted
    ("Y6", lambda s: s.lo[YELLOW][1] == 1 and s.energy[1] == 3),
    ("B6", lambda s: s.lo[BLUE][1] == 1),
    ("P6", lambda s: s.lo[PURPLE][1] == 1 and s.ship[1] == 5 and s.earth[1] == 1),
    ("K6", lambda s: s.lo[GREEN][1] == 1 and s.ship[1] == 4),
])
def test_solo_android_activation_by_colour(card: str, check: object) -> None:
    state = new(1, seed=8)
    play_setup(state)
    arrange(state, prep={1: [card]})
    state.todo.append(("android",))
    refresh(state)
    assert CARD_INDEX[card] in state.discard and not state.prep[1]
    assert check(state)  # type: ignore[operator]


def test_solo_ends_when_the_automaton_cannot_refill() -> None:
    for seed in range(5):
        state = random_game(1, seed)
        assert state.is_over
        assert state.solo_exhausted or state._someone_done()
        me, da = state.scores()[0], state.automaton_score()
        assert state.winners() == ([0] if (me.total, *me.tiebreak) >= (da.total, *da.tiebreak) else [])


def test_hand_ids_in_actions_are_validated() -> None:
    state, p = ready(2)
    with pytest.raises(IllegalActionError, match="own prep module"):
        state.apply_text(f"opp {seat_text(p)} a")
    with pytest.raises(IllegalActionError, match="no P4"):
        state.apply_text("opp P4 a")
    assert ids("G1")[0] == 0
