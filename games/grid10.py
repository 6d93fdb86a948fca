"""The 10 x 10 board both Piranhas seasons play on: its eight directions and the swarm flood fill.

A common module, because no game imports another game (ARCHITECTURE.md): Piranhas 2026 keeps
2019's ``Direction`` enum (same names, order and deltas) and its 8-connected flood fill of a
100-bit bitboard. The fill is symmetric in x and y, so it serves 2019's ``x * 10 + y`` numbering
and 2026's ``y * 10 + x`` alike.
"""

from __future__ import annotations

import enum

SIZE = 10
FULL = (1 << 100) - 1
_NOT_Y9 = sum(1 << (x * SIZE + 9) for x in range(SIZE)) ^ FULL
_NOT_Y0 = sum(1 << (x * SIZE) for x in range(SIZE)) ^ FULL

VERTICAL, DIAGONAL, HORIZONTAL, ANTI_DIAGONAL = range(4)


class Direction(enum.Enum):
    """The eight directions, in the official enum order, with their (dx, dy) deltas."""

    UP = (0, 1, VERTICAL)
    UP_RIGHT = (1, 1, DIAGONAL)
    RIGHT = (1, 0, HORIZONTAL)
    DOWN_RIGHT = (1, -1, ANTI_DIAGONAL)
    DOWN = (0, -1, VERTICAL)
    DOWN_LEFT = (-1, -1, DIAGONAL)
    LEFT = (-1, 0, HORIZONTAL)
    UP_LEFT = (-1, 1, ANTI_DIAGONAL)

    def __init__(self, dx: int, dy: int, axis: int) -> None:
        self.dx = dx
        self.dy = dy
        self.axis = axis  # which line the distance is counted on


DIRECTIONS = tuple(Direction)


def flood(seed: int, own: int) -> int:
    """The 8-connected component of ``own`` containing ``seed``."""
    cur = seed
    while True:
        grown = cur | ((cur & _NOT_Y9) << 1) | ((cur & _NOT_Y0) >> 1)
        grown = (grown | (grown << SIZE) | (grown >> SIZE)) & own
        if grown == cur:
            return cur
        cur = grown
