"""The ladder's rungs in Mississippi Queen 2024 (games/mississippi_queen/strategy.py): every rung plays legally to the
end against every other rung, the same game again from the same seeds, and the strategy's
``play`` makes the move exactly as the referee does.  The search rungs run on reduced budgets
here (the same search, fewer positions); their strength is measured outside the suite."""

from __future__ import annotations

import pytest

from swc_local.client import ladder
from swc_local.games import registry
from tests.ladder.rung_games import PAIRS, play, positions_along_a_game, reduce_budgets

NAME = "mississippi_queen"


@pytest.fixture(autouse=True)
def _cheap_search(monkeypatch):
    reduce_budgets(monkeypatch, NAME, 4, 8)


def test_mississippi_queen_offers_every_rung():
    assert ladder.rungs(registry.entry(NAME)) == ladder.RUNGS


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_each_rung_plays_legally_to_the_end_against_each_other_rung(first, second):
    outcome, moves = play(NAME, first, second, seed=3)
    assert outcome is not None and moves


def test_the_same_seeds_play_the_same_game_again():
    assert play(NAME, "search-long", "greedy", seed=8) == play(NAME, "search-long", "greedy", seed=8)


def test_the_strategys_play_agrees_with_the_referee():
    strategy = registry.entry(NAME).strategy
    checked = 0
    for game in positions_along_a_game(NAME, seed=5, every=1):
        before = strategy.position(game)
        for move in list(strategy.moves(before))[:4]:
            after = strategy.play(before, move).position  # the search's node holds the position
            ref = game.snapshot()
            ref.apply(ref.current_seat, move)
            assert [s.key() for s in after.ships] == [s.key() for s in ref.position.ships], move
            assert (after.turn, after.current) == (ref.position.turn, ref.position.current), move
            checked += 1
    assert checked > 10


def test_the_search_sees_only_the_revealed_segments():
    """A player's memento shows the revealed segments only; the search plays on the same river
    even when it is handed the server's game, which holds all eight."""
    strategy = registry.entry(NAME).strategy
    game = next(positions_along_a_game(NAME, seed=2))
    board = game.position.board
    assert board.visible < len(board.segments) == 8
    known = strategy.position(game).position.board
    assert len(known.segments) == board.visible == known.visible
    assert set(known.fields) < set(board.fields) and known.current <= board.current
    assert len(game.position.board.segments) == 8  # the server's game is left alone
