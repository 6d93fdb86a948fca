"""benchmarks/reversixt_seats.py: a seat-rotated series of ReversiXT rungs with three or more
players (the series docs/families/reversixt.md reports), and its command line's errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import reversixt_seats

TRIO = str(Path(__file__).resolve().parents[1] / "data" / "reversixt" / "maps" / "trio_3p.map")


def test_every_seed_plays_each_rotation_and_the_points_are_the_games_shared_out():
    lines = []
    series = reversixt_seats.run(TRIO, ["greedy", "random", "random"], range(3, 5), echo=lines.append)
    assert series.games == 6 and len(lines) == 6
    assert series.points.get("greedy", 0) + series.points.get("random", 0) == pytest.approx(6)
    assert series.even("greedy") == pytest.approx(1 / 3) and series.even("random") == pytest.approx(2 / 3)
    first_seats = [line.split(": ", 1)[1].split("=")[0] for line in lines[:3]]
    assert first_seats == ["greedy", "random", "random"]  # the lineup rotates through the seats
    again = reversixt_seats.run(TRIO, ["greedy", "random", "random"], range(3, 5), echo=lambda line: None)
    assert [line.split(" (")[0] for line in again.lines] == [line.split(" (")[0] for line in lines]


@pytest.mark.parametrize("argv, named", [
    (["--map", TRIO, "--lineup", "greedy,grredy,random"], "'grredy': not a rung"),
    (["--map", TRIO, "--lineup", "greedy,random"], "2 rungs for a 3-player map"),
    (["--map", "no_such_map", "--lineup", "greedy,random"], "--map no_such_map"),
    (["--map", TRIO, "--lineup", "greedy,random,random", "--seeds", "0"], "--seeds 0"),
])
def test_a_wrong_command_line_is_one_line_and_exit_2(capsys, argv, named):
    with pytest.raises(SystemExit) as stop:
        reversixt_seats.main(argv)
    error = capsys.readouterr().err
    assert stop.value.code == 2 and named in error and error.count("\n") == 1
