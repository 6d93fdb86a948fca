"""The contest's formats (tools/tournament/league.py): the circle method's match days, encounters
with seats swapped, 2/1/0 points and the victory points, the seeded lot, the Final Eight's
decision rule, the stages one after another, resume, and the report; with made-up results and
the stand-in runner (tests/tournament_fakes.py), so every test here takes a fraction of a second."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swc_local.tools.results import REGULAR, GameResult, SeatResult
from swc_local.tools.tournament import league
from swc_local.tools.tournament.core import Settings, Tournament, check_schedule
from swc_local.tools.tournament.executors import play_locally
from swc_local.tools.tournament.report import json_report
from swc_local.tools.tournament.schedule import ScheduleError
from tests.tournament_fakes import fake_play_games


def game(key: str, seating: tuple[str, str], ranks: tuple[int, int], points=(0, 0), error=None) -> GameResult:
    """A made-up two-player result: ``ranks`` and the game's own points per seat."""
    seats = tuple(SeatResult(name=name, seat=str(i + 1), rank=rank, score=(str(3 - rank), str(p)), cause=REGULAR)
                  for i, (name, rank, p) in enumerate(zip(seating, ranks, points)))
    return GameResult(game="swc_2026_piranhas", index=0, seed=1, seats=seats, duration=0.1, error=error,
                      score_names=("Siegpunkte", "Schwarm"))


@given(teams=st.integers(min_value=2, max_value=13), seed=st.integers(min_value=0, max_value=2**31))
@settings(max_examples=40, deadline=None)
def test_the_circle_method_meets_every_pair_once_and_an_odd_team_sits_out_once(teams, seed):
    names = [f"t{i}" for i in range(teams)]
    days, byes = league.match_days(names, seed, "A")
    assert len(days) == teams - 1 + teams % 2
    met = Counter(frozenset(pair) for day in days for pair in day)
    assert set(met) == {frozenset(pair) for pair in itertools.combinations(names, 2)} and set(met.values()) == {1}
    for day, bye in zip(days, byes):  # every team once a day, or sitting out
        playing = [team for pair in day for team in pair]
        assert sorted(playing + ([bye] if bye else [])) == sorted(names)
    if teams % 2:
        assert sorted(byes) == sorted(names)  # each team sits out exactly once per cycle
    else:
        assert byes == [None] * len(days)
    homes = Counter(home for day in days for home, _ in day)
    assert max(homes.values(), default=0) - min(homes.get(t, 0) for t in names) <= teams // 2 + 1
    assert league.match_days(names, seed, "A") == (days, byes)  # deterministic from the seed


def test_an_encounter_swaps_the_seats_on_each_board_and_the_plan_is_deterministic():
    names = ["a", "b", "c", "d", "e"]
    plan = league.plan(names, "league", 6, 7, {})
    encounters = [e for stage in plan.stages for e in stage.encounters]
    assert len(encounters) == 10 and len(plan.slots) == 60
    by_key = {slot.key: slot for slot in plan.slots}
    for encounter in encounters:
        slots = [by_key[key] for key in encounter.games]
        assert [s.seating[0] for s in slots] == [encounter.home, encounter.away] * 3  # first move alternates
        for first, second in zip(slots[::2], slots[1::2]):
            assert first.seed == second.seed and first.block == second.block
    assert [s.index for s in plan.slots] == list(range(60))
    again = league.plan(names, "league", 6, 7, {})
    assert again.slots == plan.slots
    assert league.plan(names, "league", 6, 8, {}).slots != plan.slots


def encounter_results(home: str, away: str, outcomes: list[tuple[int, int]], key="A/d1/x~y", points=None):
    """Results of an encounter's games by (home rank, away rank), seats swapped every game."""
    results = {}
    for number, (h, a) in enumerate(outcomes):
        seating, ranks = ((home, away), (h, a)) if number % 2 == 0 else ((away, home), (a, h))
        pts = points[number] if points else (0, 0)
        pts = pts if number % 2 == 0 else pts[::-1]
        results[f"{key}/{number}"] = game(f"{key}/{number}", seating, ranks, pts)
    return results


def test_an_encounter_is_won_by_more_games_won_drawn_on_equal_wins_and_counts_2_1_0():
    encounter = league.Encounter("A/d1/x~y", "A", 1, "x", "y", tuple(f"A/d1/x~y/{i}" for i in range(6)))
    won = league.outcome_of(encounter, encounter_results("x", "y", [(1, 2)] * 2 + [(1, 1)] * 3 + [(2, 1)]), 1, False)
    assert won.wins == {"x": 2, "y": 1} and won.draws == 3 and won.winner == "x" and won.decided_by == "wins"
    assert (won.points("x"), won.points("y")) == (2, 0)
    assert won.victory == {"x": 2 * 2 + 3, "y": 2 + 3}
    drawn = league.outcome_of(encounter, encounter_results("x", "y", [(1, 2), (2, 1)] * 3), 1, False)
    assert drawn.winner is None and (drawn.points("x"), drawn.points("y")) == (1, 1)
    half = league.outcome_of(encounter, dict(list(encounter_results("x", "y", [(1, 2)] * 6).items())[:4]), 1, False)
    assert not half.complete and half.winner is None and half.played == 4


def test_the_final_eight_decides_equal_wins_by_the_points_at_the_end_then_by_a_seeded_lot():
    encounter = league.Encounter("KO/d1/x~y", "KO", 1, "x", "y", tuple(f"KO/d1/x~y/{i}" for i in range(6)))
    games = [(1, 2), (2, 1)] * 3
    by_points = league.outcome_of(encounter, encounter_results("x", "y", games, "KO/d1/x~y",
                                                               points=[(10, 3), (4, 12), (5, 5)] * 2), 1, True)
    assert by_points.wins == {"x": 3, "y": 3}
    assert by_points.game_points == {"x": 38.0, "y": 40.0} and by_points.winner == "y"
    assert by_points.decided_by == "game points"
    even = encounter_results("x", "y", games, "KO/d1/x~y", points=[(5, 5)] * 6)
    lots = {league.outcome_of(encounter, even, seed, True).winner for seed in range(20)}
    assert lots == {"x", "y"}  # a lot, not the home team
    assert all(league.outcome_of(encounter, even, 3, True).decided_by == "lot" for _ in range(3))
    assert len({league.outcome_of(encounter, even, 3, True).winner for _ in range(5)}) == 1  # seeded


def test_standings_rank_by_points_then_victory_points_then_the_seeded_lot():
    stage = league.Stage("A", "Group A", "league", ["x", "y", "z", "w"], [], [None])
    encounters = [league.Encounter(f"A/d1/{h}~{a}", "A", 1, h, a, tuple(f"A/d1/{h}~{a}/{i}" for i in range(2)))
                  for h, a in (("x", "y"), ("z", "w"))]
    stage.days = [encounters]
    results = {**encounter_results("x", "y", [(1, 2), (1, 1)], "A/d1/x~y"),  # x wins 1:0, victory 3:1
               **encounter_results("z", "w", [(1, 2), (1, 1)], "A/d1/z~w")}  # z the same: equal to x
    for encounter in encounters:
        stage.outcomes[encounter.key] = league.outcome_of(encounter, results, 1, False)
    lines = league.table(stage, 1)
    assert {line.team for line in lines[:2]} == {"x", "z"} and all(line.points == 2 for line in lines[:2])
    assert lines[0].lot and lines[1].lot  # equal in points and victory points: drawn
    assert [(line.points, line.victory) for line in lines] == [(2, 3), (2, 3), (0, 1), (0, 1)]
    assert [line.team for line in league.table(stage, 1)] == [line.team for line in lines]  # the same lot again
    firsts = {league.table(stage, seed)[0].team for seed in range(20)}
    assert firsts == {"x", "z"}


def test_a_stronger_victory_count_ranks_first_among_equal_points():
    stage = league.Stage("A", "Group A", "league", ["x", "y", "z", "w"], [], [None])
    encounters = [league.Encounter(f"A/d1/{h}~{a}", "A", 1, h, a, tuple(f"A/d1/{h}~{a}/{i}" for i in range(2)))
                  for h, a in (("x", "y"), ("z", "w"))]
    stage.days = [encounters]
    results = {**encounter_results("x", "y", [(1, 2), (1, 1)], "A/d1/x~y"),
               **encounter_results("z", "w", [(1, 2), (1, 2)], "A/d1/z~w")}
    for encounter in encounters:
        stage.outcomes[encounter.key] = league.outcome_of(encounter, results, 1, False)
    lines = league.table(stage, 1)
    assert [line.team for line in lines[:2]] == ["z", "x"] and not lines[0].lot


@pytest.mark.parametrize("names, fmt, games, message", [
    (list("abcdefgh"), "league", 5, "must be a positive even number"),
    (list("abcdefg"), "final-eight", 6, "needs 8 teams"),
    (list("abcdefg"), "contest", 6, "at least 8 teams"),
    (list("ab"), "swiss", 6, "accepted are roundrobin, gauntlet, league"),
])
def test_leagues_that_cannot_be_played_say_why(names, fmt, games, message):
    with pytest.raises(ScheduleError, match=message):
        league.check(names, fmt, games, 2, league.GROUP_SIZE, league.ADVANCE)


def test_the_contest_formats_need_two_seats():
    settings = Settings(game="roborally", bots=[("a", "x"), ("b", "x"), ("c", "x")], format="league", seats=3,
                        games_per_pairing=6, seed=1)
    with pytest.raises(ScheduleError, match="two-player games"):
        check_schedule(settings)


def contest(tmp_path, fmt="contest", names=None, **extra) -> Tournament:
    names = names or [f"team{i}" for i in range(1, 10)]  # strengths 1..9
    settings = Settings(game="swc_2026_piranhas", bots=[(name, "x") for name in names], format=fmt,
                        games_per_pairing=2, seed=5, group_size=5, advance=4, **extra)
    return Tournament.open(settings, tmp_path / f"{fmt}.db", resume=False)


async def test_the_contest_runs_groups_then_champions_league_then_final_eight(tmp_path):
    tournament = contest(tmp_path)
    await play_locally(tournament, 2, play_games=fake_play_games(noise=4))
    report = json_report(tournament)
    stages = report["league"]["stages"]
    assert [s["key"] for s in stages] == ["A", "B", "CL", "KO"] and report["league"]["complete"]
    assert sorted(len(s["teams"]) for s in stages[:2]) == [4, 5]  # groups of about 5, one apart
    group_best = {row["team"] for s in stages[:2] for row in s["standings"] if row["rank"] <= 4}
    assert set(stages[2]["teams"]) == group_best and len(group_best) == 8
    finalists = [row["team"] for row in stages[2]["standings"]][:8]
    assert stages[3]["teams"] == finalists
    quarter = stages[3]["days"][0]["encounters"]
    assert [(e["home"], e["away"]) for e in quarter] == [(finalists[0], finalists[7]), (finalists[3], finalists[4]),
                                                         (finalists[1], finalists[6]), (finalists[2], finalists[5])]
    places = stages[3]["places"]
    assert [p["place"] for p in places] == [1, 2, 3, 4, 5, 5, 5, 5]
    assert places[0]["team"] == "team9"  # the strongest team wins through noise this small
    assert [e["title"] for e in stages[3]["days"][2]["encounters"]] == ["third place", "final"]
    assert report["games"] == report["scheduled"] == len(tournament.slots)
    for stage in stages[:3]:  # standings as the contest shows them
        for row in stage["standings"]:
            assert row["points"] == 2 * row["won"] + row["drawn"]
    tournament.db.close()


async def test_a_league_stopped_half_way_resumes_and_ends_with_the_same_standings(tmp_path):
    whole = contest(tmp_path, "champions")
    await play_locally(whole, 2, play_games=fake_play_games(noise=4))
    expected = json_report(whole)["league"]
    whole.db.close()

    names = [f"team{i}" for i in range(1, 10)]
    settings = Settings(game="swc_2026_piranhas", bots=[(name, "x") for name in names], format="champions",
                        games_per_pairing=2, seed=5, group_size=5, advance=4)
    half = Tournament.open(settings, tmp_path / "half.db", resume=False)
    play = fake_play_games(noise=4)

    async def some(specs, **options):  # the run is killed after 17 games of the first stage
        await play(specs[:17], **options)

    await play_locally(half, 2, play_games=some)
    assert len(half.stored) == 17 and not json_report(half)["league"]["complete"]
    half.db.close()
    resumed = Tournament.open(settings, tmp_path / "half.db", resume=True)
    assert len(resumed.pending()) == len(resumed.slots) - 17
    await play_locally(resumed, 2, play_games=fake_play_games(noise=4))
    assert json_report(resumed)["league"] == expected
    resumed.db.close()


async def test_a_final_eight_of_four_plays_semi_finals_third_place_and_final(tmp_path):
    names = ["s4", "s3", "s2", "s1"]  # the order is the seeding
    tournament = contest(tmp_path, "final-eight", names=names)
    await play_locally(tournament, 1, play_games=fake_play_games())
    stage = json_report(tournament)["league"]["stages"][0]
    assert stage["title"] == "Final Four" and len(tournament.stored) == 4 * 2
    assert [(e["home"], e["away"]) for e in stage["days"][0]["encounters"]] == [("s4", "s1"), ("s3", "s2")]
    assert [p["team"] for p in stage["places"]] == ["s4", "s3", "s2", "s1"]
    tournament.db.close()


async def test_an_odd_group_shows_who_sits_out_each_match_day(tmp_path):
    names = ["a1", "b2", "c3", "d4", "e5"]
    tournament = contest(tmp_path, "league", names=names)
    await play_locally(tournament, 1, play_games=fake_play_games())
    stage = json_report(tournament)["league"]["stages"][0]
    assert sorted(day["sits_out"] for day in stage["days"]) == sorted(names)
    assert all(row["sat_out"] == 1 for row in stage["standings"])
    assert [row["team"] for row in stage["standings"]] == ["e5", "d4", "c3", "b2", "a1"]
    assert [row["points"] for row in stage["standings"]] == [8, 6, 4, 2, 0]
    tournament.db.close()


async def test_a_ci_log_gets_one_line_per_finished_encounter(tmp_path):
    import io

    from rich.console import Console

    from swc_local.tools.tournament.live import LiveView

    tournament = contest(tmp_path, "final-eight", names=["s4", "s3", "s2", "s1"])
    plain = io.StringIO()
    with LiveView(tournament, console=Console(file=io.StringIO(), force_terminal=False), plain=plain):
        await play_locally(tournament, 1, play_games=fake_play_games())
    lines = [line for line in plain.getvalue().splitlines() if line.startswith("encounter ")]
    assert lines[0] == "encounter KO/d1/s4~s1: s4 2:0 s1, 2:0 points"
    assert len(lines) == 4  # two semi-finals, third place, final
    tournament.db.close()


async def test_the_live_view_on_a_terminal_shows_the_stage_in_play_as_the_contest_does(tmp_path):
    import io

    from rich.console import Console

    from swc_local.tools.tournament.live import LiveView

    tournament = contest(tmp_path, "league", names=["a1", "b2", "c3"])
    screen = Console(file=io.StringIO(), force_terminal=True, width=120)
    view = LiveView(tournament, console=screen)
    await play_locally(tournament, 1, play_games=fake_play_games())
    screen.print(view)
    drawn = screen.file.getvalue()
    assert "Championship: standings after 3 of 3 match days" in drawn and "victory points" in drawn
    tournament.db.close()
