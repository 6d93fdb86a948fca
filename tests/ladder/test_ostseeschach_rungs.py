"""The ladder's rungs in Ostseeschach 2022 where they differ from the other games' (test_rungs.py):
every rung plays legally to the end against every other in both seats and the same game again
from the same seeds, the strategy's copy-make agrees with the referee, and its evaluation."""

from __future__ import annotations

import random

import pytest

from swc_local.games import registry
from swc_local.games.ostseeschach import strategy
from swc_local.games.strategy import WIN
from tests.ladder.rung_games import PAIRS, play, reduce_budgets

NAME = "ostseeschach"
ENTRY = registry.entry(NAME)


@pytest.fixture
def small_budgets(monkeypatch):
    """Reduced budgets: the rungs' code paths at a fraction of their cost."""
    reduce_budgets(monkeypatch, NAME, 60, 150)


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_every_rung_plays_legally_to_the_end_and_again_from_the_same_seeds(small_budgets, first, second):
    for a, b in ((first, second), (second, first)):
        outcome, moves = play(NAME, a, b, seed=3)
        assert len(moves) >= 2
        assert play(NAME, a, b, seed=3) == (outcome, moves)


def test_the_strategy_makes_the_referees_moves():
    rng = random.Random(9)
    for seed in range(4):
        game = ENTRY.plugin.new_game(random.Random(seed))
        searched = strategy.position(game)
        while game.outcome() is None:
            legal = strategy.moves(searched)
            assert sorted(legal, key=str) == sorted(game.position.legal_moves(), key=str)
            move = rng.choice(legal)
            searched = strategy.play(searched, move)
            game.apply(game.current_seat, move)
            referee = game.position
            assert searched.ordered_pieces() == referee.ordered_pieces()
            assert (searched.turn, searched.ambers, searched.amber_entries, searched.last_move) == \
                (referee.turn, referee.ambers, referee.amber_entries, referee.last_move)
            assert strategy.over(searched) == referee.is_over()
        final = strategy.value(searched, 0)
        winner = game.outcome().winner
        assert final == 0.0 if winner is None else (final >= WIN) == (winner == 0)


def test_the_evaluation_counts_an_amber_more_than_any_piece():
    game = ENTRY.plugin.new_game(random.Random(1))
    position = strategy.position(game)
    ahead = strategy._copy(position)
    ahead.ambers[0] = 1
    assert strategy.value(ahead, 0) - strategy.value(position, 0) >= strategy.AMBER
    assert strategy.value(ahead, 1) < strategy.value(position, 1)
