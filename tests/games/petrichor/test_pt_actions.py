"""The action phase: setup, playing cards (one, any two as one, the second action), the four card actions
with the seed's fallbacks, votes and harvest dice, passing, the one more turn and the hand limit."""

from __future__ import annotations

import pytest
from pt_helpers import F, R, S, W, blank, cell, check_invariants, cloud, drops, hand, legal, new, play, refresh, turn

from boardlab.core.errors import ConfigError, IllegalActionError


@pytest.mark.parametrize(("players", "rows", "cols", "cards"), [(1, 2, 3, 7), (2, 3, 3, 7), (3, 3, 3, 7), (4, 3, 4, 6)])
def test_setup_per_player_count(players: int, rows: int, cols: int, cards: int) -> None:
    s = new(players, seed=3)
    assert (s.rows, s.cols) == (rows, cols)
    assert len(set(s.tile)) == rows * cols  # drawn from the 16 without repeats
    assert [sum(h) for h in s.hands] == [cards] * players
    assert [s.supply[q] + s.in_clouds(q) for q in range(s.nb)] == [20] * s.nb
    assert s.vp == [0] * s.nb and s.vw == [0] * s.nb
    assert len(s.dice) == 3 and s.rounds == 4
    check_invariants(s)


def test_first_clouds_are_placed_in_reverse_turn_order() -> None:
    s = new(3, seed=1)
    order = []
    while s.todo and s.todo[-1][0] == "cloud":
        order.append(s.current_player)
        s.apply(s.legal_actions()[0])
    assert order == [2, 1, 0]
    assert sum(c is not None for c in s.cloud) == 3
    assert s.supply == [19, 19, 19]
    assert s.current_player == 0 and s.todo[-1] == ("turn", 0)  # the start player begins


def test_long_game_option_and_bad_options() -> None:
    assert new(2, length="long").rounds == 6
    assert new(2).rounds == 4
    with pytest.raises(ConfigError):
        new(2, length="medium")
    with pytest.raises(ConfigError):
        new(5)


def test_play_one_card_does_its_action_then_votes() -> None:
    s = turn(blank(), 0, {F: 1, S: 1})
    assert "play F" in legal(s) and "play S" in legal(s) and "pass" in legal(s)
    play(s, "play F", "frost B2")
    assert s.cloud[cell(s, "B2")] == [1, 0] and not s.dark[cell(s, "B2")]
    assert sorted(legal(s)) == ["die 1", "die 2", "die 3", "vote F", "vote S"]  # own weather or the next
    play(s, "vote S")
    assert s.votes[S] == [1, 0] and s.markers_left(0) == 11
    assert s.hands[0] == [0, 1, 0, 0] and s.discard[F] >= 1
    check_invariants(s)


def test_any_two_cards_count_as_any_one() -> None:
    s = turn(blank(), 0, {S: 2, F: 1})
    cloud(s, "A1", {0: 1})
    play(s, "play2 R", "pay S", "pay F")  # Sun + Frost paid, the Rain action is done
    assert s.hands[0] == [0, 1, 0, 0]
    # one cloud with one drop: the only answer is given automatically
    assert s.todo[-1][0] == "vote"
    assert s.cloud[cell(s, "A1")] is None and s.field[cell(s, "A1")] == [1, 0]


def test_second_action_two_identical_or_any_four_only_while_nobody_passed() -> None:
    s = turn(blank(), 0, {F: 3, S: 1, W: 1})
    play(s, "play S")  # no cloud holding own drops: vote only
    play(s, "vote S")
    opts = legal(s)
    assert "again F" in opts and "end" in opts and "again4 R" in opts and "again S" not in opts
    play(s, "again F", "frost A1", "vote F")
    assert s.hands[0] == [1, 0, 1, 0]
    assert s.current_player == 1  # one second action only
    # after a pass the others' last turn has no second action
    s = turn(blank(), 1, {F: 4})
    play(s, "pass")
    hand(s, 0, {F: 4})
    s._legal = None
    s.todo[-1] = ("last", 0)
    s._run()
    play(s, "play F", "frost A1", "vote F")
    assert "again F" not in legal(s)


def test_frost_on_cloudless_tiles_only_and_vote_only_when_all_are_covered() -> None:
    s = turn(blank(), 0, {F: 1})
    for name in ("A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2"):
        cloud(s, name, {1: 1})
    play(s, "play F")  # one cloudless tile: the only answer is given automatically
    assert s.cloud[cell(s, "C3")] == [1, 0] and s.todo[-1][0] == "vote"
    s = turn(blank(), 0, {F: 1})
    for name in ("A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3"):
        cloud(s, name, {1: 1})
    play(s, "play F")
    assert s.todo[-1][0] == "vote"  # the action cannot be done: vote only


def test_frost_with_an_empty_supply_reclaims_a_drop_from_a_field() -> None:
    s = turn(blank(), 0, {F: 1})
    drops(s, "C3", {0: 20})
    assert s.supply[0] == 0
    play(s, "play F", "frost A1")
    assert s.cloud[cell(s, "A1")] == [1, 0]
    assert s.field[cell(s, "C3")][0] == 19  # the only field with own drops: taken back automatically
    check_invariants(s)


def test_sun_puts_exactly_two_drops_into_a_cloud_holding_yours() -> None:
    s = turn(blank(), 0, {S: 2})
    cloud(s, "B2", {0: 1, 1: 1})
    cloud(s, "C1", {1: 2})
    play(s, "play S")
    assert s.todo[-1][0] == "vote"
    assert s.cloud[cell(s, "B2")] == [3, 1]  # only one cloud holds P1's drops: done at once
    assert s.dark[cell(s, "B2")]  # 4 drops: dark
    check_invariants(s)


def test_sun_fallbacks_short_supply_and_no_cloud() -> None:
    s = turn(blank(), 0, {S: 2})
    cloud(s, "B2", {0: 1})
    drops(s, "A1", {0: 10})
    drops(s, "A2", {0: 8})
    assert s.supply[0] == 1
    play(s, "play S", "sun B2")
    # one from the supply, one taken back from a field; both go in once the player has chosen
    assert sorted(legal(s)) == ["reclaim A1", "reclaim A2"]
    play(s, "reclaim A2")
    assert s.cloud[cell(s, "B2")] == [3, 0] and s.field[cell(s, "A2")][0] == 7
    check_invariants(s)
    # supply and fields hold fewer than 2 drops: vote only
    s = turn(blank(), 0, {S: 1})
    cloud(s, "A1", {0: 7}, dark=True)
    cloud(s, "A2", {0: 7}, dark=True)
    cloud(s, "A3", {0: 5}, dark=True)
    assert s.supply[0] == 1 and s.on_fields(0) == 0
    play(s, "play S")
    assert s.todo[-1][0] == "vote"
    # no cloud holding own drops: vote only
    s = turn(blank(), 0, {S: 1})
    cloud(s, "B2", {1: 2})
    play(s, "play S")
    assert s.todo[-1][0] == "vote"


def test_wind_moves_a_cloud_holding_yours_one_tile_and_clouds_merge() -> None:
    s = turn(blank(), 0, {W: 1})
    cloud(s, "A1", {0: 2}, dark=False)
    cloud(s, "B1", {1: 3}, dark=False)
    play(s, "play W")
    assert sorted(legal(s)) == ["wind A1 E", "wind A1 S"]  # never off the field
    play(s, "wind A1 E")
    assert s.cloud[cell(s, "A1")] is None
    assert s.cloud[cell(s, "B1")] == [2, 3] and s.dark[cell(s, "B1")]  # 5 drops: dark
    check_invariants(s)


def test_white_and_dark_merge_into_dark_and_burst_at_eight() -> None:
    s = turn(blank(), 0, {W: 1})
    cloud(s, "A1", {0: 1}, dark=False)
    cloud(s, "A2", {1: 2}, dark=True)
    play(s, "play W", "wind A1 S")
    assert s.cloud[cell(s, "A2")] == [1, 2] and s.dark[cell(s, "A2")]  # white + dark = dark, whatever the count
    s = turn(blank(), 0, {W: 1})
    cloud(s, "A1", {0: 4}, dark=True)
    cloud(s, "A2", {1: 4}, dark=True)
    play(s, "play W", "wind A1 S")
    i = cell(s, "A2")
    assert s.cloud[i] is None and not s.dark[i]  # 8 drops: the cloud bursts, every drop falls ...
    assert s.field[i] == [4, 4]  # ... and each drop keeps its owner
    assert ["burst", i, 8] in s.events
    check_invariants(s)


def test_rain_lets_one_drop_of_any_colour_fall_from_up_to_two_own_clouds() -> None:
    s = turn(blank(), 0, {R: 1})
    cloud(s, "A1", {0: 1, 1: 2})
    cloud(s, "B2", {0: 1})
    cloud(s, "C3", {1: 3})
    play(s, "play R")
    assert sorted(legal(s)) == ["rain A1 P1", "rain A1 P2", "rain B2 P1"]  # not C3: no drop of P1 there
    play(s, "rain A1 P2")
    assert s.field[cell(s, "A1")] == [0, 1] and s.cloud[cell(s, "A1")] == [1, 1]
    assert sorted(legal(s)) == ["done", "rain B2 P1"]  # a second, different cloud, or stop
    play(s, "rain B2 P1")
    assert s.cloud[cell(s, "B2")] is None  # emptied: removed
    assert s.todo[-1][0] == "vote"
    check_invariants(s)


def test_rain_without_own_cloud_is_vote_only() -> None:
    s = turn(blank(), 0, {R: 1})
    cloud(s, "C3", {1: 3})
    play(s, "play R")
    assert s.todo[-1][0] == "vote"


def test_harvest_die_advance_one_vp_and_two_onto_wheat_never_past_it() -> None:
    s = turn(blank(), 0, {F: 3})
    s.dice = [1, 0, 3]
    play(s, "play F", "frost A1")
    assert sorted(legal(s)) == ["die 1", "die 3", "vote F", "vote S"]  # die 2 is on wheat
    play(s, "die 1")
    assert s.dice == [0, 0, 3] and s.vp[0] == 2  # 1 -> wheat: 2 VP
    play(s, "end")
    s = turn(s, 0, {F: 1})
    play(s, "play F", "frost A2", "die 3")
    assert s.dice == [0, 0, 2] and s.vp[0] == 3  # 3 -> 2: 1 VP


def test_no_markers_left_means_only_dice() -> None:
    s = turn(blank(), 0, {F: 1})
    s.votes[R][0] = 12
    play(s, "play F", "frost A1")
    assert sorted(legal(s)) == ["die 1", "die 2", "die 3"]


def test_pass_discards_the_hand_takes_the_marker_and_the_others_get_one_more_turn() -> None:
    s = turn(blank(3), 1, {F: 2, S: 1})
    hand(s, 2, {W: 3, R: 3})
    hand(s, 0, {F: 5, S: 1})
    assert s.start == 0
    play(s, "pass")
    assert s.hands[1] == [0, 0, 0, 0] and s.start == 1 and s.passer == 1
    assert s.current_player == 2 and s.todo[-1] == ("last", 2)
    assert "play2 F" not in legal(s) and "again W" not in legal(s)  # seed: one card (or pass)
    play(s, "play W")
    # no clouds: vote only
    play(s, "vote W")
    assert s.current_player == 0 and s.todo[-1] == ("last", 0)
    play(s, "pass")
    # hand limit: keep at most 4 (P3 holds 5, P1 holds 6)
    assert s.current_player == 2 and legal(s) == ["discard W", "discard R"]
    play(s, "discard R")
    assert sum(s.hands[2]) == 4
    assert s.current_player == 0 and legal(s) == ["discard F", "discard S"]
    play(s, "discard F")
    assert s.hands[0] == [4, 1, 0, 0] and s.current_player == 0
    play(s, "discard S")
    assert s.round == 2  # weather phase, no harvest, clean-up: 4 kept + 7 new cards
    assert [sum(h) for h in s.hands] == [11, 7, 11]


def test_the_start_player_passing_hands_the_marker_to_the_right() -> None:
    s = turn(blank(3), 0, {F: 1})
    play(s, "pass")
    assert s.start == 2  # the player on the right of P1 (counter-clockwise)


def test_final_turn_full_option_allows_two_cards_as_one() -> None:
    s = turn(blank(2, final_turn="full"), 1, {F: 1})
    hand(s, 0, {S: 2})
    play(s, "pass")
    assert "play2 R" in legal(s) and "play S" in legal(s)


def test_illegal_moves_are_refused_and_change_nothing() -> None:
    s = turn(blank(), 0, {F: 1})
    before = s.snapshot()
    for text in ("play S", "again F", "vote R", "frost A1"):
        with pytest.raises(IllegalActionError) as e:
            s.apply_text(text)
        assert "not legal" in str(e.value)
        assert s.snapshot() == before


def test_seed_examples_sun_plus_sun_as_rain_and_the_vote_cycle_wraps() -> None:
    """Seed: "日照 + 日照或日照 + 霜寒, 並執行落雨"; vote option b: Frost -> Sun -> Wind -> Rain -> Frost."""
    s = turn(blank(), 0, {S: 3})
    cloud(s, "A1", {0: 2})
    play(s, "play2 R")
    assert legal(s) == ["pay S"]  # only Suns in hand, yet asked: a hand of two weathers was possible (#33)
    play(s, "pay S", "pay S")
    assert s.hands[0] == [0, 1, 0, 0]
    assert s.cloud[cell(s, "A1")] == [1, 0] and s.field[cell(s, "A1")] == [1, 0]
    assert sorted(legal(s))[-2:] == ["vote F", "vote R"]  # a Rain votes Rain or (wrapping) Frost


# -- #33: a question's presence depends only on what the other seats can know ---------------------------------

def test_second_action_is_asked_with_end_alone_when_the_hand_holds_no_pair() -> None:
    """Three cards and no pair: no second action is possible, yet the question is asked with "end" alone, as it
    is for a hand with a pair (before #33 it was skipped, telling the table the hand had no pair)."""
    s = turn(blank(), 0, {F: 1, S: 1, W: 1})
    play(s, "play S", "vote S")
    assert s.current_player == 0 and s.todo[-1][0] == "second" and legal(s) == ["end"]
    assert s.view(1)["decision"] == {"player": 0, "step": "second"}
    play(s, "end")
    assert s.current_player == 1 and s.todo[-1] == ("turn", 1)


def test_second_action_is_not_asked_when_no_hand_could_take_one() -> None:
    """Fewer than two cards (public), or after a pass: nobody could take a second action, so nobody is asked."""
    s = turn(blank(), 0, {F: 1, S: 1})
    play(s, "play S", "vote S")
    assert s.current_player == 1 and s.todo[-1] == ("turn", 1)


def test_pay_is_asked_even_when_the_hand_holds_one_weather() -> None:
    """Any two as one with three Frosts: each payment is asked, with one answer, as it would be for a mixed
    hand; when every unseen card is of one weather no hand could differ, and the payment is automatic."""
    s = turn(blank(), 0, {F: 3})
    play(s, "play2 W")
    assert s.todo[-1][0] == "pay" and legal(s) == ["pay F"]
    s = blank()
    hand(s, 1, {F: 1})
    hand(s, 0, {F: 3})
    for w in (S, W, R):  # every Sun, Wind and Rain face up in the discard pile: only Frosts are unseen
        s.discard[w] += s.deck.count(w)
        s.deck = [x for x in s.deck if x != w]
    play(turn(s, 0), "play2 W")
    assert s.hands[0] == [1, 0, 0, 0] and s.todo[-1][0] != "pay"


def test_hand_limit_is_asked_even_when_the_hand_holds_one_weather() -> None:
    """Six Frosts after the others' pass: both discards are asked (one answer each), as for a mixed hand."""
    s = turn(blank(), 1, {S: 1})
    hand(s, 0, {F: 6})
    play(s, "pass", "pass")
    assert s.current_player == 0 and s.todo[-1][0] == "limit" and legal(s) == ["discard F"]
    play(s, "discard F")
    assert s.hands[0] == [5, 0, 0, 0] and legal(s) == ["discard F"]
    play(s, "discard F")
    assert s.round == 2  # the second discard ended the action phase


def test_solo_hand_questions_with_one_answer_stay_automatic() -> None:
    """Solo: nobody else sees the questions, so one-answer payments are still made at once."""
    s = turn(blank(1), 0, {F: 3})
    play(s, "play2 W")
    assert s.hands[0] == [1, 0, 0, 0]


# -- #33: where the seed says 可以, the player chooses ----------------------------------------------------------

def test_frost_reclaim_is_a_choice_and_skip_leaves_the_card_a_vote() -> None:
    """Seed: "如果玩家個人供應區已經沒有水氣,玩家可以回收 1 點落在田地上的水氣": an empty supply offers the
    cloudless tiles (taking a drop back) or `skip`, which changes nothing but the vote to come."""
    s = turn(blank(), 0, {F: 1})
    drops(s, "C3", {0: 20})
    play(s, "play F")
    assert "skip" in legal(s) and "frost A1" in legal(s)
    play(s, "skip")
    assert s.todo[-1][0] == "vote" and s.field[cell(s, "C3")][0] == 20
    assert all(cl is None for cl in s.cloud)
    check_invariants(s)


def test_frost_reclaims_only_own_drops() -> None:
    """The seed does not say whose drop: ours are the player's own (D21), as the Sun weather's P.S. says
    ("回收自己散落在田地上的水氣") and since the new cloud carries the player's drop."""
    s = turn(blank(), 0, {F: 1})
    drops(s, "C3", {0: 10})
    drops(s, "C2", {0: 10})
    drops(s, "B1", {1: 3})
    play(s, "play F", "frost A1")
    assert sorted(legal(s)) == ["reclaim C2", "reclaim C3"]


def test_sun_reclaim_is_a_choice() -> None:
    """Seed: "玩家可以回收 2 點落在田地上的水氣": a short supply offers the clouds (taking drops back) or `skip`."""
    s = turn(blank(), 0, {S: 1})
    cloud(s, "B2", {0: 1})
    drops(s, "A1", {0: 19})
    assert s.supply[0] == 0
    play(s, "play S")
    assert sorted(legal(s)) == ["skip", "sun B2"]
    play(s, "skip")
    assert s.todo[-1][0] == "vote" and s.cloud[cell(s, "B2")] == [1, 0] and s.field[cell(s, "A1")] == [19, 0]


def test_sun_weather_top_up_is_a_choice_and_may_stop_early() -> None:
    """Seed P.S.: "如果玩家個人供應區的水氣數量不足,玩家可以回收自己散落在田地上的水氣": drop by drop, `skip`
    to stop; the cloud gets what the supply then holds."""
    s = blank(2)
    cloud(s, "A1", {0: 3})
    drops(s, "B2", {0: 17})
    cloud(s, "C3", {1: 1})
    s.votes[S] = [1, 0]
    s.start = 0
    s.todo = [("weather",)]
    refresh(s)
    assert s.current_player == 0 and s.supply[0] == 0 and sorted(legal(s)) == ["reclaim B2", "skip"]
    play(s, "reclaim B2")
    assert sorted(legal(s)) == ["reclaim B2", "skip"]
    play(s, "skip")
    assert s.cloud[cell(s, "A1")] == [4, 0] and s.field[cell(s, "B2")] == [16, 0]
    assert ["shine", 0, cell(s, "A1"), 1] in s.events
    check_invariants(s)


def test_reclaim_always_option_keeps_the_english_notes_reading() -> None:
    """Option reclaim=always (the notes: "No drops in supply -> take back 1 of your drops"): no `skip`; the
    drops are taken back whenever the supply is short, as before #33."""
    s = turn(blank(reclaim="always"), 0, {F: 1})
    drops(s, "C3", {0: 20})
    play(s, "play F")
    assert "skip" not in legal(s)
    play(s, "frost A1")
    assert s.cloud[cell(s, "A1")] == [1, 0] and s.field[cell(s, "C3")][0] == 19
    s = blank(2, reclaim="always")
    cloud(s, "A1", {0: 3})
    drops(s, "B2", {0: 17})
    s.votes[S] = [1, 0]
    s.todo = [("weather",)]
    refresh(s)
    assert s.cloud[cell(s, "A1")] == [6, 0] and s.field[cell(s, "B2")] == [14, 0]  # all three, automatically


def test_south_wind_always_takes_its_drops_back() -> None:
    """The automaton never declines: with an empty supply its Frost takes one of its drops back (docs: D19)."""
    s = blank(1)
    drops(s, "B1", {1: 20})
    s.todo = [("frost", 1)]
    refresh(s)
    assert sum(cl is not None for cl in s.cloud) == 1 and s.field[cell(s, "B1")][1] == 19


def test_every_option_is_labelled_in_both_languages() -> None:
    """The lobby shows each option and each of its choices in English and Traditional Chinese (about.json)."""
    import json
    from importlib.resources import files

    meta = json.loads(files("boardlab.games.petrichor").joinpath("about.json").read_text("utf-8"))["options_meta"]
    for key, opt in new().game.options.items():
        assert meta[key]["en"] and meta[key]["zh-TW"], key
        for c in opt.choices or ():
            assert meta[key]["choices"]["en"][c] and meta[key]["choices"]["zh-TW"][c], (key, c)
