"""benchmarks/roborally_pairs.py: a seat-swapped series of two Robo Rally rungs in one process,
the same from the same seeds, and its command line's errors one line each."""

from __future__ import annotations

import pytest

from benchmarks import roborally_pairs


def test_a_series_swaps_the_seats_and_scores_the_upper_rung(capsys):
    series = roborally_pairs.run("greedy", "random", 4, first_seed=7)
    assert (series.games, series.points, series.draws) == (4, 4.0, 0)  # greedy wins every game
    assert series.elo() == float("inf")
    assert roborally_pairs.main(["--pair", "greedy-35,greedy-15", "--games", "6", "--first-seed", "3"]) == 0
    again = roborally_pairs.run("greedy-35", "greedy-15", 6, first_seed=3)
    assert capsys.readouterr().out.strip() == again.summary()
    assert again.summary().startswith(f"greedy-35 vs greedy-15: {again.points:g} of 6 (")


@pytest.mark.parametrize("argv, message", [
    (["--pair", "greedy-40,random"], "--pair 'greedy-40': not a rung (accepted: random, greedy-15, "),
    (["--pair", "greedy"], "--pair greedy: give two rungs, UPPER,LOWER"),
    (["--pair", "greedy,random", "--map", "Moon"], "--map 'Moon': not a course (accepted: Dizzy Highway, "),
    (["--pair", "greedy,random", "--games", "0"], "--games 0 --max-rounds 40: each must be 1 or more"),
])
def test_a_wrong_argument_is_one_line_naming_what_is_accepted(capsys, argv, message):
    with pytest.raises(SystemExit) as exit:
        roborally_pairs.main(argv)
    err = capsys.readouterr().err
    assert exit.value.code == 2 and err.count("\n") == 1
    assert err.startswith(f"python -m benchmarks.roborally_pairs: error: {message}")
