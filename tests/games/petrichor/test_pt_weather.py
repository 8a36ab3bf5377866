"""The weather phase (selection, ties, voting wins, markers), the four weathers, sprouting and growth,
the harvest with the seed's scoring tables and ties, clean-up, the end and the final scoring."""

from __future__ import annotations

from pt_helpers import F, R, S, W, blank, cell, check_invariants, cloud, drops, legal, play, refresh, set_tile

from boardlab.games.petrichor.components import packaged
from boardlab.games.petrichor.rules import stage_points


def weather_now(s, start: int = 0):  # type: ignore[no-untyped-def]
    s.start = start
    s.todo = [("weather",)]
    refresh(s)
    return s


def test_seed_example_two_most_voted_resolve_start_player_breaks_the_tie() -> None:
    """Seed: Frost 5, Sun 7, Wind 4, Rain 5. Sun resolves; the start player picks Frost or Rain. With Rain:
    yellow (4) beats green (3) on Sun and advances; red and blue tie on Rain and nobody advances. Markers
    on Sun and Rain go home, those on Frost and Wind stay."""
    red, yellow = 0, 2  # red, blue, yellow, green sit in that order
    s = blank(4)
    s.votes[F] = [2, 1, 1, 1]
    s.votes[S] = [0, 0, 4, 3]
    s.votes[W] = [1, 1, 1, 1]
    s.votes[R] = [2, 2, 1, 0]
    weather_now(s, start=red)
    assert s.current_player == red and sorted(legal(s)) == ["choose F", "choose R"]
    play(s, "choose R")
    assert ["weather", [S, R]] in s.events
    assert s.vw[yellow] == 1 and sum(s.vw) == 1  # yellow only
    assert s.votes[S] == [0] * 4 and s.votes[R] == [0] * 4
    assert s.votes[F] == [2, 1, 1, 1] and s.votes[W] == [1, 1, 1, 1]  # stay, fewer markers next round
    assert s.markers_left(red) == 12 - 3
    check_invariants(s)


def test_clear_top_two_need_no_choice_and_three_way_tie_asks_twice() -> None:
    s = blank(2)
    s.votes = [[3, 0], [0, 2], [1, 0], [0, 0]]
    weather_now(s)
    assert ["weather", [F, S]] in s.events
    s = blank(2)
    s.votes = [[1, 1], [2, 0], [0, 2], [0, 0]]
    weather_now(s, start=1)
    assert s.current_player == 1 and sorted(legal(s)) == ["choose F", "choose S", "choose W"]
    play(s, "choose W", "choose F")
    assert ["weather", [F, W]] in s.events  # resolved in the fixed order, not the order chosen


def test_last_round_every_voted_weather_resolves() -> None:
    s = blank(2)
    s.round = s.rounds
    s.votes = [[1, 0], [0, 2], [3, 0], [0, 1]]
    weather_now(s)
    assert ["weather", [F, S, W, R]] in s.events
    assert s.is_over


def test_flowers_voting_wins_option() -> None:
    s = blank(3, voting_wins="flowers")
    s.votes = [[3, 1, 0], [1, 1, 0], [0, 0, 0], [0, 0, 0]]
    weather_now(s)
    assert s.vw == [2 + 1, 1 + 1, 0]  # Frost: top +2 and second +1; Sun: tied tops +1 each


def test_frost_weather_darkens_every_white_cloud() -> None:
    s = blank(2)
    cloud(s, "A1", {0: 1})
    cloud(s, "B2", {1: 3})
    s.votes[F] = [1, 0]
    weather_now(s)
    assert s.dark[cell(s, "A1")] and s.dark[cell(s, "B2")]


def test_sun_weather_doubles_one_own_cloud_each_from_the_start_player_and_grows_coffee() -> None:
    s = blank(2)
    set_tile(s, "C3", "coffee")
    drops(s, "C3", {1: 8})
    s.growth[cell(s, "C3")] = 1
    cloud(s, "A1", {0: 2, 1: 1})
    cloud(s, "A3", {0: 1})
    s.votes[S] = [1, 0]
    weather_now(s, start=1)
    # P2 starts: one cloud holds P2's drops: A1 gets one more P2 drop (automatic)
    assert s.cloud[cell(s, "A1")] == [2, 2]
    assert s.current_player == 0 and sorted(legal(s)) == ["shine A1", "shine A3"]
    play(s, "shine A1")
    assert s.cloud[cell(s, "A1")] == [4, 2] and s.dark[cell(s, "A1")]
    assert s.growth[cell(s, "C3")] == 2  # sprouted coffee is grown after Sun
    check_invariants(s)


def test_wind_weather_counter_clockwise_from_the_start_players_right() -> None:
    s = blank(3)
    drops(s, "B2", {0: 1, 1: 1, 2: 1})
    s.votes[W] = [1, 0, 0]
    weather_now(s, start=1)
    assert s.current_player == 0  # right of P2 is P1
    play(s, "blow B2 P2 N")
    assert s.current_player == 2  # then counter-clockwise: P3, and the start player last
    play(s, "blow B2 P3 S")
    assert s.current_player == 1
    play(s, "blow B1 P2 W")
    assert s.field[cell(s, "A1")] == [0, 1, 0] and s.field[cell(s, "B3")] == [0, 0, 1]


def test_rain_weather_empties_dark_clouds_only_and_grows_rice() -> None:
    s = blank(2)
    set_tile(s, "A1", "rice")
    set_tile(s, "A2", "corn")
    thr = s.threshold(cell(s, "A1"))
    cloud(s, "A1", {0: 3, 1: 1}, dark=True)
    drops(s, "A1", {0: thr - 4})
    cloud(s, "B2", {1: 2})
    s.votes[R] = [1, 0]
    weather_now(s)
    assert s.cloud[cell(s, "A1")] is None and s.field[cell(s, "A1")] == [thr - 1, 1]
    assert s.growth[cell(s, "A1")] == 2  # sprouted by the rain, then grown: rice grows after Rain
    assert s.cloud[cell(s, "B2")] == [0, 2]  # white clouds stay
    check_invariants(s)


def test_sprouting_threshold_and_coffee_sprouted_by_sun_action() -> None:
    s = blank(2)
    set_tile(s, "B2", "grass")
    thr = s.threshold(cell(s, "B2"))
    drops(s, "B2", {0: thr - 1})
    s._sprout(cell(s, "B2"))
    assert s.growth[cell(s, "B2")] == 0
    drops(s, "B2", {1: 1})
    s._sprout(cell(s, "B2"))
    assert s.growth[cell(s, "B2")] == 1


def test_rank_scoring_tables_and_ties_from_the_seed() -> None:
    crops = packaged().crops
    potato = crops["potato"].sprouted
    assert stage_points(potato, [4, 3, 2, 1])[0] == [3, 7, 3, 2]  # the seed's example, 2nd > 1st
    assert stage_points(potato, [3, 3, 2, 1])[0] == [7, 7, 3, 2]  # two tied first: both take 2nd
    assert stage_points(potato, [3, 3, 3, 1])[0] == [3, 3, 3, 2]  # three tied first: all take 3rd
    assert stage_points(potato, [0, 5, 0, 0])[0] == [0, 3, 0, 0]  # no drop, no points
    assert stage_points(crops["cotton"].sprouted, [4, 3, 2, 1])[0] == [5, 1, 0, 0]
    assert stage_points(crops["grass"].sprouted, [4, 3, 2, 1])[0] == [4, 3, 2, 1]
    assert stage_points(crops["coffee"].sprouted, [4, 3, 2, 1])[0] == [5, 3, 2, 1]
    assert stage_points(crops["coffee"].grown, [4, 3, 2, 1])[0] == [10, 5, 2, 1]  # type: ignore[arg-type]


def test_wheat_rice_and_corn_scoring() -> None:
    crops = packaged().crops
    wheat = crops["wheat"].sprouted
    assert stage_points(wheat, [4, 3, 0, 1]) == ([2, 3, 0, 3], 0)  # top: 2 VP + a wheat token, others 3
    assert stage_points(wheat, [3, 3, 1, 0]) == ([3, 3, 3, 0], None)  # tied top: 2nd place, no token
    assert stage_points(crops["rice"].sprouted, [4, 3, 2, 1])[0] == [0, 0, 0, 0]
    assert stage_points(crops["rice"].grown, [4, 3, 2, 0])[0] == [4, 3, 2, 0]  # type: ignore[arg-type]
    corn = crops["corn"].sprouted
    assert stage_points(corn, [5, 0, 0, 0])[0] == [12, 0, 0, 0]
    assert stage_points(corn, [5, 1, 0, 0])[0] == [8, 8, 0, 0]
    assert stage_points(corn, [5, 1, 1, 0])[0] == [5, 5, 5, 0]
    assert stage_points(corn, [1, 1, 1, 1])[0] == [3, 3, 3, 3]


def test_harvest_when_all_dice_show_wheat_then_drops_go_home_and_all_dice_reroll() -> None:
    s = blank(2)
    set_tile(s, "A1", "potato")
    set_tile(s, "B1", "grass")
    drops(s, "A1", {0: 5, 1: 4})
    drops(s, "B1", {0: 1})
    s.growth[cell(s, "A1")] = 1  # B1 has not sprouted: it scores nothing and keeps its drop
    s.dice = [0, 0, 0]
    s.votes[F] = [1, 0]
    rolls = s.chance
    weather_now(s)
    assert s.vp == [3, 7]
    assert s.field[cell(s, "A1")] == [0, 0] and s.growth[cell(s, "A1")] == 0
    assert s.field[cell(s, "B1")] == [1, 0]
    assert s.supply == [19, 20] and s.round == 2 and s.chance > rolls
    check_invariants(s)


def test_without_harvest_only_dice_not_on_wheat_are_rerolled() -> None:
    for seed in range(10):
        s = blank(2, seed=seed)
        s.dice = [0, 3, 0]
        s.votes[F] = [1, 0]
        weather_now(s)
        assert s.round == 2 and s.dice[0] == 0 and s.dice[2] == 0


def test_final_scoring_wheat_majority_voting_wins_and_tie_breaks() -> None:
    s = blank(3)
    s.vp = [10, 10, 4]
    s.vw = [3, 3, 0]
    s.wheat = [1, 0, 1]
    sc = s.scores()
    vw3 = s.C.vw_value(3)
    assert [x.total for x in sc] == [10 + vw3 + 6, 10 + vw3, 4 + 6]  # tied wheat majority: 12 split
    assert sc[0].breakdown == {"track": 10, "voting_wins": vw3, "wheat": 6}
    s.wheat = [2, 0, 1]
    assert s.scores()[0].breakdown["wheat"] == 12
    s.wheat = [0, 0, 0]
    s.vw = [3, 4, 0]
    s.vp = [10 + s.C.vw_value(4) - vw3, 10, 0]
    assert s.scores()[0].total == s.scores()[1].total
    s.round = s.rounds
    s.todo = []
    s.decider = None
    assert s.winners() == [1]  # tie-break: more voting wins


def test_final_round_harvests_everything_sprouted_and_ends() -> None:
    s = blank(2)
    s.round = s.rounds
    set_tile(s, "C1", "cotton")
    drops(s, "C1", {0: 2, 1: 3})
    s.growth[cell(s, "C1")] = 1
    s.votes[W] = [0, 1]
    s.start = 0
    s.todo = [("weather",)]
    refresh(s)
    # the only voted weather (Wind) resolves: P1 then P2 move a drop, then the harvest
    while not s.is_over:
        s.apply(s.legal_actions()[0])
    assert s.vp[1] == 5 and s.is_over  # the first answers blow P1's drops away: P2 alone on cotton


def test_the_weather_log_says_when_no_weather_resolves_and_lists_in_the_languages_punctuation() -> None:
    """No vote marker on any card: nothing resolves, and the log says why instead of "resolving: —"; two
    weathers are listed with the language's separator ("Frost, Sun"; "霜寒、日照")."""
    from boardlab.games.petrichor.text import describe_event

    s = weather_now(blank(2))
    assert ["weather", []] in s.events
    assert describe_event(s, ["weather", []], "en") == "no weather resolves: no vote marker is on any weather card"
    assert "—" not in describe_event(s, ["weather", []], "zh-TW")
    assert ", " in describe_event(s, ["weather", [F, S]], "en")
    assert "、" in describe_event(s, ["weather", [F, S]], "zh-TW")
