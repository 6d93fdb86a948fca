"""The ladder's rungs in Hase und Igel 2018 (games/hase_und_igel/strategy.py): every rung plays legally to the
end against every other rung, the same game again from the same seeds, and the strategy's
``play`` makes the move exactly as the referee does.  The search rungs run on reduced budgets
here (the same search, fewer positions); their strength is measured outside the suite."""

from __future__ import annotations

import pytest

from swc_local.client import ladder
from swc_local.games import registry
from tests.ladder.rung_games import PAIRS, play, positions_along_a_game, reduce_budgets

NAME = "hase_und_igel"


@pytest.fixture(autouse=True)
def _cheap_search(monkeypatch):
    reduce_budgets(monkeypatch, NAME, 40, 80)


def test_hase_und_igel_offers_every_rung():
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
    for game in positions_along_a_game(NAME, seed=5, every=3):
        before = strategy.position(game)
        for move in list(strategy.moves(before))[:4]:
            after = strategy.play(before, move)
            ref = game.snapshot()
            ref.apply(ref.current_seat, move)
            assert (after.red, after.blue, after.turn) == (ref.position.red, ref.position.blue, ref.position.turn), move
            checked += 1
    assert checked > 20
