"""The ladder's rungs in Hive 2020 (games/hive/strategy.py): every rung plays legally to the
end against every other rung, the same game again from the same seeds, and the strategy's
``play`` makes the move exactly as the referee does.  The search rungs run on reduced budgets
here (the same search, fewer positions); their strength is measured outside the suite."""

from __future__ import annotations

import random

import pytest

from swc_local.client import ladder
from swc_local.client.bot import choose_move
from swc_local.games import registry
from tests.ladder.rung_games import PAIRS, play, positions_along_a_game, reduce_budgets

NAME = "hive"


@pytest.fixture(autouse=True)
def _cheap_search(monkeypatch):
    reduce_budgets(monkeypatch, NAME, 12, 24)


def test_hive_offers_every_rung():
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
            mine = (after.stacks, after.undeployed, after.turn, after.current)
            assert mine == (ref.position.stacks, ref.position.undeployed, ref.position.turn, ref.position.current), move
            checked += 1
    assert checked > 20


def test_the_strategys_move_generator_gives_the_referees_moves_in_its_order():
    """The strategy skips the pieces that hold the swarm together (found once) instead of asking
    the referee's connection test per piece: the same list either way, along a random game and
    a greedy one (whose pieces crowd the bees)."""
    strategy = registry.entry(NAME).strategy
    checked = 0
    for game in positions_along_a_game(NAME, seed=9):
        assert strategy.legal_moves(game.position) == game.position.legal_moves()
        checked += 1
    plugin = registry.entry(NAME).plugin
    game = plugin.new_game(random.Random(4))
    rng = random.Random(4)
    while game.outcome() is None:
        assert strategy.legal_moves(game.position) == game.position.legal_moves()
        game.apply(game.current_seat, choose_move(plugin, game, rng, "greedy"))
        checked += 1
    assert checked > 60
