"""What only Mississippi Queen 2024's strategy has (games/mississippi_queen/strategy.py): it
searches the river a player can see; the rungs' tests it shares with the other games are in
test_rungs.py."""

from __future__ import annotations

from swc_local.games import registry
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
