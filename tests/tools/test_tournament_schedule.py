"""The tournament's schedule, database, standings and stopping rules, with a stand-in runner."""

from __future__ import annotations

import sqlite3
from collections import Counter

import pytest

from swc_local.tools.tournament.core import Settings, Tournament
from swc_local.tools.tournament.db import DatabaseError, ResultsDb
from swc_local.tools.tournament.executors import play_locally, spec_for
from swc_local.tools.tournament.report import csv_report, json_report
from swc_local.tools.tournament.schedule import ScheduleError, parse_bot, schedule
from tests.tournament_fakes import fake_play_games, fake_result


def test_two_player_games_come_in_pairs_with_seats_swapped_on_one_board():
    slots = schedule(["a", "b", "c"], "roundrobin", 4, 2, seed=7)
    assert len(slots) == 3 * 4 and len({s.key for s in slots}) == 12
    blocks: dict[str, list] = {}
    for slot in slots:
        blocks.setdefault(slot.block, []).append(slot)
    for pair in blocks.values():
        assert len(pair) == 2 and pair[0].seed == pair[1].seed
        assert pair[0].seating == pair[1].seating[::-1]
    assert schedule(["a", "b", "c"], "roundrobin", 4, 2, seed=7) == slots  # deterministic
    assert [s.seed for s in schedule(["a", "b", "c"], "roundrobin", 4, 2, seed=8)] != [s.seed for s in slots]


def test_multi_player_seats_rotate_so_every_bot_sits_everywhere_equally_often():
    slots = schedule(["a", "b", "c", "d", "e"], "roundrobin", 8, 4, seed=1)
    assert len({s.pairing for s in slots}) == 5  # 5 choose 4
    for group in {s.pairing for s in slots}:
        seats = Counter((bot, s.seating.index(bot)) for s in slots if s.pairing == group for bot in group)
        assert set(seats.values()) == {2}, seats


def test_gauntlet_pairs_the_first_bot_with_each_other():
    slots = schedule(["new", "old1", "old2", "old3"], "gauntlet", 2, 2, seed=1)
    assert sorted({s.pairing for s in slots}) == [("new", "old1"), ("new", "old2"), ("new", "old3")]


@pytest.mark.parametrize("args, message", [
    ((["a", "b"], "roundrobin", 3, 2), "multiple of the 2 seats"),
    ((["a", "b"], "swiss", 2, 2), "roundrobin, gauntlet"),
    ((["a", "a"], "roundrobin", 2, 2), "must differ"),
    ((["a", "b"], "roundrobin", 4, 4), "only 2 bots"),
])
def test_impossible_schedules_say_why(args, message):
    with pytest.raises(ScheduleError, match=message):
        schedule(*args, seed=1)


def test_bot_arguments():
    assert parse_bot("mine=python bot.py --port {port}").command == "python bot.py --port {port}"
    with pytest.raises(ScheduleError, match="NAME=COMMAND"):
        parse_bot("python bot.py")
    with pytest.raises(ScheduleError, match="may use letters"):
        parse_bot("my bot=x")


def settings(**overrides) -> Settings:
    fields = dict(game="swc_2019_piranhas", bots=[("strong3", "x"), ("mid2", "x"), ("weak1", "x")],
                  games_per_pairing=4, seed=5)
    return Settings(**(fields | overrides))


async def test_round_robin_fills_the_database_and_the_standings(tmp_path):
    tournament = Tournament.open(settings(), tmp_path / "t.db", resume=False)
    await play_locally(tournament, 2, play_games=fake_play_games())
    assert not tournament.pending() and len(tournament.stored) == 12
    standings = tournament.standings()
    ranked = [line.name for line in standings.ranked()]
    assert ranked == ["strong3", "mid2", "weak1"]
    assert standings.bots["strong3"].wins == 8 and standings.bots["weak1"].losses == 8
    assert standings.crosstable["strong3"]["weak1"] == [8, 4]  # 2 points in each of 4 games
    assert standings.heads[("strong3", "weak1")].pentanomial == [0, 0, 0, 0, 2]
    assert standings.bots["strong3"].elo.elo > 0 > standings.bots["weak1"].elo.elo
    rows = sqlite3.connect(tmp_path / "t.db").execute("SELECT COUNT(*), COUNT(DISTINCT key) FROM games").fetchone()
    assert rows == (12, 12)
    seats = sqlite3.connect(tmp_path / "t.db").execute("SELECT bot, rank, cause FROM seats WHERE bot = 'weak1'").fetchall()
    assert len(seats) == 8 and {rank for _, rank, _ in seats} == {2}
    report = json_report(tournament)
    assert report["standings"][0]["bot"] == "strong3" and report["games"] == 12
    assert csv_report(tournament).splitlines()[1].startswith("1,strong3,8,8,0,0,16,1.0")
    tournament.db.close()


async def test_a_result_arriving_twice_counts_once(tmp_path):
    tournament = Tournament.open(settings(), tmp_path / "t.db", resume=False)
    result = fake_result(spec_for(tournament, tournament.slots[0]))
    tournament.accept(result)
    tournament.accept(result)
    assert len(tournament.stored) == 1 and len(tournament.db.stored()) == 1
    tournament.db.close()


async def test_resume_plays_only_the_missing_games(tmp_path):
    path = tmp_path / "t.db"
    first = Tournament.open(settings(), path, resume=False)
    played: list[int] = []
    for slot in first.slots[:5]:  # as if the run was killed after five games
        first.accept(fake_result(spec_for(first, slot)))
    first.db.close()
    with pytest.raises(DatabaseError, match="--resume"):
        Tournament.open(settings(), path, resume=False)
    with pytest.raises(DatabaseError, match="games_per_pairing"):
        Tournament.open(settings(games_per_pairing=6), path, resume=True)
    again = Tournament.open(settings(seed=None), path, resume=True)  # the stored seed is used
    assert again.settings.seed == 5 and len(again.pending()) == 7
    await play_locally(again, 3, play_games=fake_play_games(played=played))
    assert sorted(played) == list(range(5, 12))
    keys = [key for (key,) in again.db.connection.execute("SELECT key FROM games")]
    assert sorted(keys) == sorted(slot.key for slot in again.slots)
    again.db.close()


async def test_sprt_stops_with_h1_for_the_stronger_bot_and_cancels_the_rest(tmp_path):
    two = settings(bots=[("strong3", "x"), ("weak1", "x")], games_per_pairing=1000,
                   sprt={"elo0": 0, "elo1": 50, "alpha": 0.05, "beta": 0.05, "model": "logistic"})
    tournament = Tournament.open(two, tmp_path / "t.db", resume=False)
    await play_locally(tournament, 1, play_games=fake_play_games())
    assert tournament.verdict.startswith("SPRT: H1 accepted after 23 pairs")
    assert len(tournament.stored) == 46 and tournament.pending() == []
    tournament.db.close()
    again = Tournament.open(two, tmp_path / "t.db", resume=True)
    assert again.verdict is not None and again.pending() == []  # a decided test stays decided
    again.db.close()


async def test_sprt_between_equal_bots_never_accepts_h1(tmp_path):
    two = settings(bots=[("copy1", "x"), ("again1", "x")], games_per_pairing=200,
                   sprt={"elo0": 0, "elo1": 50, "model": "normalized"})
    tournament = Tournament.open(two, tmp_path / "t.db", resume=False)
    await play_locally(tournament, 1, play_games=fake_play_games(noise=1.0))
    assert tournament.verdict is None or "H0" in tournament.verdict
    assert tournament.llr < tournament.sprt.bounds[1]
    tournament.db.close()


async def test_significance_rule_stops_after_min_tests(tmp_path):
    two = settings(bots=[("weak1", "x"), ("strong3", "x")], games_per_pairing=100,
                   significance={"level": 0.01, "min_tests": 20})
    tournament = Tournament.open(two, tmp_path / "t.db", resume=False)
    await play_locally(tournament, 1, play_games=fake_play_games())
    assert tournament.verdict.startswith("strong3 is significantly better after 20 games")
    tournament.db.close()


def test_report_of_a_database_without_tournament_is_an_error(tmp_path):
    (tmp_path / "x.db").write_text("not sqlite at all, just text " * 100)
    with pytest.raises(DatabaseError, match="not a tournament database"):
        ResultsDb(tmp_path / "x.db")
    with pytest.raises(DatabaseError, match="no such"):
        ResultsDb(tmp_path / "missing.db", create=False)


async def test_the_live_view_shows_progress_standings_and_the_llr(tmp_path):
    from rich.console import Console

    from swc_local.tools.tournament.live import LiveView

    two = settings(bots=[("strong3", "x"), ("weak1", "x")], games_per_pairing=10, sprt={"elo0": 0, "elo1": 400})
    tournament = Tournament.open(two, tmp_path / "t.db", resume=False)
    await play_locally(tournament, 1, play_games=fake_play_games())
    console = Console(record=True, force_terminal=True, width=140)
    view = LiveView(tournament, console)
    console.print(view)
    text = console.export_text()
    assert "games" in text and f"{len(tournament.stored)}/10" in text  # the progress bar's count
    assert "Standings" in text and "strong3" in text and "LLR" in text
    tournament.db.close()
