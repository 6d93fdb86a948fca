"""What a player can know of the first unrevealed segment (games/mississippi_queen/horizon.py,
spec §2.1-§2.3, §10 D1): the guess holds the server's coordinates and front column, and one
of its boards has the server's current on every water field of the segment."""

from __future__ import annotations

import random

import pytest

from swc_local.games.mississippi_queen import horizon, xmlmap
from swc_local.games.mississippi_queen.rules import (
    PASSABLE, SEGMENTS, WIDTH, Position, Ship, generate_board, local_to_global,
)


def players_view(server: Position) -> Position:
    """The position a player rebuilds from the server's memento (the revealed segments only)."""
    return xmlmap.position_from_state(xmlmap.state_element(server))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("visible", range(2, SEGMENTS))
def test_the_guessed_segment_lies_where_the_servers_does(seed, visible):
    board = generate_board(random.Random(seed))
    board.reveal(visible)
    server = Position(board, [Ship(0, -1, -1), Ship(1, -2, 1)])
    guesses, unknown = horizon.guessed_positions(players_view(server))
    real = board.segments[visible]
    coords = {local_to_global(x, y, real.direction, real.center) for x in range(WIDTH) for y in range(5)}
    assert unknown == {local_to_global(x, y, real.direction, real.center) for x in range(WIDTH - 1) for y in range(5)}
    following = board.segments[visible + 1].direction if visible + 1 < SEGMENTS else real.direction
    assert 1 <= len(guesses) <= 3
    for guess in guesses:
        fields = {c for c, (index, _, _) in guess.board.fields.items() if index == visible}
        assert fields == coords
        for coord in coords - unknown:  # the front column: as the server's
            assert guess.board.kind(coord) == board.kind(coord)
    # one of the guesses is the server's river for the current wherever the server has water
    matching = [g for g in guesses if g.board.following == following]
    assert len(matching) == 1
    water = {c for c in coords if PASSABLE[board.kind(c)]}
    assert matching[0].board.current & water == board.current & water


def test_nothing_is_guessed_once_the_whole_river_is_shown():
    board = generate_board(random.Random(1))
    board.reveal(SEGMENTS)
    server = Position(board, [Ship(0, -1, -1), Ship(1, -2, 1)])
    assert horizon.guessed_positions(players_view(server)) == ([], frozenset())
    assert horizon.likely_moves(players_view(server)) == {}
