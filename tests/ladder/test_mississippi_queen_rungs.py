"""What only Mississippi Queen 2024's strategy has (games/mississippi_queen/strategy.py): it
searches the river a player can see; the rungs' tests it shares with the other games are in
test_rungs.py."""

from __future__ import annotations

import random

import pytest

from swc_local.client import ladder
from swc_local.client.bot import choose_move
from swc_local.games import registry
from swc_local.games.mississippi_queen.rules import Position, Ship, generate_board
from tests.ladder.rung_games import positions_along_a_game

NAME = "mississippi_queen"


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


def fast_ship_at_the_revealed_edge() -> Position:
    """The server's game after ONE ran to the front of segment 0 at full speed with its coal
    spent (seed 5's river, segments 0 and 1 revealed): every move it has leaves the revealed
    river (turn DOWN_RIGHT and advance 5 or 6 fields, into segment 2)."""
    server = Position(generate_board(random.Random(5)), [Ship(0, 2, 0, speed=6, coal=0), Ship(1, -2, 1)],
                      turn=4)
    assert server.board.visible == 2 and server.can_move()
    return server


@pytest.mark.parametrize("rung", ladder.RUNGS)
def test_every_rung_moves_when_only_the_unrevealed_river_has_a_move(rung):
    """The server asks ONE for a move (it is not stuck on the whole river, spec §3, §10 D1), the
    player's memento shows no move on the revealed segments: the bot sends a move the server
    accepts instead of leaving."""
    plugin = registry.entry(NAME).plugin
    server = fast_ship_at_the_revealed_edge()
    state = plugin.game_class(server).state_element()
    game = plugin.game_from_state(state)  # what the bot rebuilds from the memento
    assert game.legal_moves() == []
    move = choose_move(plugin, game, random.Random(3), rung)
    assert move is not None
    after = server.copy()
    after.push(move)  # raises RuleViolation if the server refuses it
    assert after.ships[0].position != (2, 0)
