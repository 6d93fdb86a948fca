"""What only Hive 2020's strategy has (games/hive/strategy.py): a move generator of its own; the
rungs' tests it shares with the other games are in test_rungs.py."""

from __future__ import annotations

import random

from swc_local.client.bot import choose_move
from swc_local.games import registry
from tests.ladder.rung_games import positions_along_a_game

NAME = "hive"


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
