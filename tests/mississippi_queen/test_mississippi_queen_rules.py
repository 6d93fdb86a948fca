"""Mississippi Queen 2024 rules beyond the golden vectors: the seeded river keeps the official
generation rules (spec §2.2), every move of the iterator is accepted, and a state survives its
XML."""

from __future__ import annotations

import random

import pytest

from swc_local.games.mississippi_queen.entry import ENTRY as MISSISSIPPI_QUEEN_ENTRY
from swc_local.games.mississippi_queen.rules import (
    GOAL, ISLAND, PASSENGER, SEGMENTS, VECTORS, WATER, Position, RuleViolation, generate_board, local_to_global,
)

PLUGIN = MISSISSIPPI_QUEEN_ENTRY.plugin


@pytest.mark.parametrize("seed", range(30))
def test_the_seeded_river_follows_the_official_generation(seed):
    board = generate_board(random.Random(seed))
    assert len(board.segments) == SEGMENTS and board.visible == 2
    directions = [segment.direction for segment in board.segments]
    assert directions[:2] == [0, 0]
    for index in range(2, SEGMENTS):
        assert (directions[index] - directions[index - 1]) % 6 in (0, 1, 5)  # never more than 60°
        assert directions[index] != (directions[max(index - 3, 0)] + 3) % 6  # never turning back
    assert all(field == (WATER,) for column in board.segments[0].columns for field in column)
    with_passenger = []
    for index, segment in enumerate(board.segments[1:], start=1):
        kinds = [field[0] for column in segment.columns for field in column]
        assert kinds.count(ISLAND) in (2, 3)
        assert all(field[0] in (WATER, GOAL) for field in segment.columns[3])  # nothing special in front
        assert [field[0] for field in segment.columns[3]].count(GOAL) == (3 if index == SEGMENTS - 1 else 0)
        if PASSENGER in kinds:
            with_passenger.append(index)
            x, y = next((x, y) for x, column in enumerate(segment.columns) for y, f in enumerate(column)
                        if f[0] == PASSENGER)
            coord = local_to_global(x, y, segment.direction, segment.center)
            dq, dr = VECTORS[board.dock(coord)]
            dock = (coord[0] + dq, coord[1] + dr)
            assert board.kind(dock) in (WATER, None) or board.segment_index(dock) != index  # faces open water
    assert len(with_passenger) == 5 and all(1 <= index <= SEGMENTS - 2 for index in with_passenger)


def test_the_seed_decides_the_river():
    def river(seed):
        return PLUGIN.new_game(random.Random(seed)).state_element().render()

    assert river(5) == river(5) and river(5) != river(6)


@pytest.mark.parametrize("seed", range(12))
def test_every_iterator_move_is_accepted_and_states_survive_their_xml(seed):
    rng = random.Random(seed)
    game = PLUGIN.new_game(random.Random(seed))
    while game.outcome() is None:
        state = game.state_element()
        assert PLUGIN.game_from_state(state).state_element().render() == state.render()
        moves = game.legal_moves()
        assert moves, "the side to move can move, or the game would be over"
        for move in rng.sample(moves, min(25, len(moves))):
            trial: Position = game.position.copy()
            try:
                trial.push(move)
            except RuleViolation as error:  # pragma: no cover - the failure message names the move
                pytest.fail(f"{move} refused: {error.message}")
        game.apply(game.current_seat, rng.choice(moves))
    assert game.outcome().reason
