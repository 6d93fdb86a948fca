"""``benchmarks.ladder --until``: after the round robin, runs of two neighbouring rungs until every
gap between neighbours is known to the half-width asked, each run sized from the interval so far,
each in a database of its own beside the calibration's; the same command finds them again."""

from __future__ import annotations

import sqlite3

import pytest

from benchmarks import ladder as calibration
from benchmarks import ladder_narrow
from swc_local.tools import ladder_table
from swc_local.tools.rating import Game


def series(first: str, second: str, wins: int, losses: int) -> list[Game]:
    """``wins`` games ``first`` won and ``losses`` it lost, seats swapped in turn."""
    games = [Game(first, second, 1.0)] * wins + [Game(first, second, 0.0)] * losses
    return [g if i % 2 else Game(g.second, g.first, 1 - g.score) for i, g in enumerate(games)]


def test_a_run_is_sized_from_the_interval_so_far():
    assert ladder_narrow.games_needed(100, 100.0, 50.0) == 360  # 4 times the games: 300 more, and a fifth on top
    assert ladder_narrow.games_needed(100, 51.0, 50.0) == ladder_narrow.MIN_GAMES
    assert ladder_narrow.games_needed(10, 1e9, 50.0) == ladder_narrow.MAX_GAMES
    assert ladder_narrow.games_needed(10, float("inf"), 50.0) == 40
    assert ladder_narrow.games_needed(33, 61.0, 50.0) % 2 == 0


def test_the_loop_plays_the_widest_gaps_until_all_are_narrow_and_names_each_run(tmp_path):
    base = series("greedy", "random", 15, 5) + series("search", "greedy", 14, 6)
    calls = []

    def run(lower, upper, count, seed, path):
        calls.append((lower, upper, count, seed, path.name))
        wins = round(count * 0.75)
        return series(upper, lower, wins, count - wins)

    paths = ladder_narrow.narrow(base, tmp_path / "pen-all-40.db", 2, 50.0, run)
    assert [call[:2] for call in calls[:2]] == [("random", "greedy"), ("greedy", "search")]
    assert [call[3] for call in calls] == list(range(2, 2 + len(calls)))
    assert calls[0][4] == "pen-all-40-pair-02-random-greedy.db"
    assert [path.name for path in paths] == [call[4] for call in calls]
    games = base + [g for lower, upper, count, *_ in calls for g in series(upper, lower, round(count * .75),
                                                                           count - round(count * .75))]
    assert all(width <= 50 for *_, width in ladder_narrow.neighbour_gaps(games))
    first, again = [call[:4] for call in calls], []
    ladder_narrow.narrow(base, tmp_path / "pen-all-40.db", 2, 50.0, lambda *a: again.append(a[:4]) or run(*a))
    assert again == first  # the same games, the same decisions


def test_the_loop_stops_at_the_first_run_it_cannot_read(tmp_path):
    base = series("greedy", "random", 15, 5)
    assert ladder_narrow.narrow(base, tmp_path / "x.db", 2, 50.0, lambda *a: None) == []
    assert ladder_narrow.narrow(base, tmp_path / "x.db", 2, 500.0, lambda *a: 1 / 0) == []  # already narrow


@pytest.mark.slow
def test_until_plays_pair_runs_beside_the_database_and_finds_them_again(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(ladder_narrow, "MIN_GAMES", 4)
    monkeypatch.setattr(ladder_narrow, "MAX_GAMES", 4)
    monkeypatch.setattr(ladder_narrow, "ROUNDS", 2)
    page, ratings, db = tmp_path / "penguins.md", tmp_path / "elo.json", tmp_path / "pen.db"
    page.write_text("# Penguins\n")
    args = ["--game", "penguins", "--rungs", "random,greedy-50", "--games-per-pairing", "2", "--seed", "3",
            "--db", str(db), "--ratings", str(ratings), "--page", str(page), "--until", "5"]
    calibration.main(args)
    runs = sorted(path.name for path in tmp_path.glob("pen-pair-*.db"))
    assert runs == ["pen-pair-04-random-greedy-50.db", "pen-pair-05-random-greedy-50.db"]
    found = ladder_table.load("swc_2023_penguins", ratings)
    assert found.games == found.scheduled == 2 + 4 + 4
    assert found.command.endswith("--seed 3 --rungs random,greedy-50 --until 5")
    assert "a round robin of the rungs, then runs of two neighbouring rungs at a time (--until)" in page.read_text()
    calibration.main(args)  # again: the runs resume with nothing to play
    calibration.main([*args, "--fit-only"])  # and are read as stored
    assert ladder_table.load("swc_2023_penguins", ratings) == found
    for name in runs:
        with sqlite3.connect(tmp_path / name) as connection:
            assert connection.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 4
    (tmp_path / runs[1]).unlink()
    calibration.main([*args, "--fit-only"])  # the loop ends at the first run not there
    assert ladder_table.load("swc_2023_penguins", ratings).games == 2 + 4
    capsys.readouterr()
