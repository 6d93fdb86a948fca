"""The ladder's rungs in Penguins, the first game with a strategy module, at their real budgets:
the search beats random, the same game again from the same seed, and greedy plays to the end
(the rungs' tests it shares with the other games are in test_rungs.py)."""

from __future__ import annotations

from tests.ladder.rung_games import play

NAME = "penguins"


def test_search_short_beats_random_and_plays_the_same_game_from_the_same_seed():
    outcome, moves = play(NAME, "search-short", "random", seed=5)
    assert outcome.winner == 0
    assert play(NAME, "search-short", "random", seed=5) == (outcome, moves)


def test_greedy_plays_to_the_end_against_random():
    outcome, moves = play(NAME, "random", "greedy", seed=2)
    assert outcome.winner == 1 and len(moves) > 30
