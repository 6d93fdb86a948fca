"""The 10 x 10 board both Piranhas seasons play on: its eight directions, the swarm flood fill,
and what the two seasons' ladder strategies share (the evaluation's measures, the move generator).

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


# --- what the ladder's evaluation of both seasons measures (games/*/strategy.py) -------------

_HIGH = [sum(1 << (i * SIZE + j) for j in range(SIZE)) for i in range(SIZE)]  # fields c // 10 == i
_LOW = [sum(1 << (j * SIZE + i) for j in range(SIZE)) for i in range(SIZE)]  # fields c % 10 == i
_RINGS = [
    tuple(
        sum(1 << d for d in range(SIZE * SIZE) if max(abs(d // SIZE - c // SIZE), abs(d % SIZE - c % SIZE)) == k)
        for k in range(1, SIZE)
    )
    for c in range(SIZE * SIZE)
]
"""``_RINGS[field][k - 1]``: the fields at king distance k from ``field``."""
LEAST_SPREAD = [0] + [n - 1 if n <= 9 else 8 + 2 * (n - 9) if n <= 25 else 40 + 3 * (n - 25) for n in range(1, 101)]
"""The least :func:`spread` n fish can have: packed in rings of 1, 8, 16 ... fields."""


KING = [
    tuple(max(abs(d // SIZE - c // SIZE), abs(d % SIZE - c % SIZE)) for d in range(SIZE * SIZE))
    for c in range(SIZE * SIZE)
]
"""``KING[a][b]``: the king-move distance between two fields."""


def centre(own: int) -> int:
    """The field nearest to the centre of mass of ``own``'s fish (``own`` not empty).  Symmetric
    in the two coordinates, so it serves both numberings."""
    n = own.bit_count()
    high = round(sum(i * (own & mask).bit_count() for i, mask in enumerate(_HIGH)) / n)
    low = round(sum(i * (own & mask).bit_count() for i, mask in enumerate(_LOW)) / n)
    return high * SIZE + low


def spread(own: int) -> int:
    """The sum of the king-move distances of ``own``'s fish to their :func:`centre`: how far a
    swarm is from one heap (0 for one fish); one popcount per row, column and ring."""
    if not own:
        return 0
    return sum(k * (own & ring).bit_count() for k, ring in enumerate(_RINGS[centre(own)], 1))


def swarms(own: int) -> list[int]:
    """The 8-connected groups of ``own`` as bitboards, lowest field first."""
    groups = []
    while own:
        group = flood(own & -own, own)
        groups.append(group)
        own &= ~group
    return groups


# --- the ladder's move generator of both seasons (games/*/strategy.py) ------------------------

def generate(steps: list, own: int, opp: int, obstacles: int, first_only: bool = False) -> list[tuple]:
    """(move, start field, target bit) of every legal move of the fish ``own`` against ``opp``:
    the move generator of both seasons' ladder strategies, the same rule in both (a fish moves
    as far as its line holds fish, over its own but not over the other side's, and never onto
    its own or an obstacle: 2019's kraken, 2026's squids).  ``steps`` is the season's table
    (``STEPS[field]``: per axis (line mask, forward, backward), forward and backward per
    distance (path mask, target bit, move) or None off the board), built in the season's own
    numbering and with its own ``Move``.  ``first_only``: stop at the first move (is there one?)."""
    fish, blocked = own | opp, own | obstacles
    out: list[tuple] = []
    append = out.append
    rest = own
    while rest:
        low = rest & -rest
        rest ^= low
        c = low.bit_length() - 1
        for line, forward, backward in steps[c]:
            dist = (fish & line).bit_count()
            step = forward[dist]
            if step is not None and not step[0] & opp and not step[1] & blocked:
                append((step[2], c, step[1]))
                if first_only:
                    return out
            step = backward[dist]
            if step is not None and not step[0] & opp and not step[1] & blocked:
                append((step[2], c, step[1]))
                if first_only:
                    return out
    return out
