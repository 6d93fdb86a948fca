"""The ladder tests both Blokus seasons share (games/blokus_strategy.py): four colours on two
teams, placements capped by the search, so ``moves`` is checked as a best-first subset of the
referee's and the positions by their fields."""

from __future__ import annotations

from swc_local.games import registry
from swc_local.games.blokus_strategy import WIDTH
from tests.ladder.ladder_games import random_walk


def fields(position) -> tuple:
    """What a Blokus position is made of (the rules' position has no equality of its own)."""
    return (position.turn, position.start_piece, position.occupied, position.undeployed, position.valid,
            position.last_move_mono, position.last_move)


def check_walk(game_name: str, seed: int) -> None:
    """``play`` along a random game equals the referee's ``push``; ``moves`` are legal, the
    largest pieces first, ``WIDTH`` of them when there are more; the team to move is the seat."""
    strategy = registry.entry(game_name).strategy
    for game, position in random_walk(game_name, seed):
        assert fields(position) == fields(game.position)
        outcome = game.outcome()
        assert strategy.over(position) == (outcome is not None)
        if outcome is not None:
            break
        assert strategy.seat(position) == game.current_seat == game.position.current_color % 2
        legal = game.position.legal_moves()
        chosen = strategy.moves(position)
        assert set(chosen) <= set(legal) and len(chosen) == min(WIDTH, len(legal))
        sizes = [sum(1 for _ in move.cells()) for move in chosen]
        assert sizes == sorted(sizes, reverse=True) and sizes[0] == max(len(move.cells()) for move in legal)
    for seat in (0, 1):
        value = strategy.value(position, seat)
        assert value == 0 if outcome.winner is None else (value >= 1e6) == (outcome.winner == seat)
