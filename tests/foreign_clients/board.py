"""A deliberately independent, minimal Piranhas board for the foreign clients.

Written from the rules text, not from this project's engine, so that a disagreement between the
two shows up as a rule violation in the compatibility tests.
"""

from __future__ import annotations

import random

DIRECTIONS = {
    "UP": (0, 1),
    "UP_RIGHT": (1, 1),
    "RIGHT": (1, 0),
    "DOWN_RIGHT": (1, -1),
    "DOWN": (0, -1),
    "DOWN_LEFT": (-1, -1),
    "LEFT": (-1, 0),
    "UP_LEFT": (-1, 1),
}


def fish_on_line(board: dict, x: int, y: int, dx: int, dy: int) -> int:
    """Fish of both colours on the whole line through (x, y) in direction (dx, dy)."""
    count = 0
    for sign in (1, -1):
        cx, cy = (x, y) if sign == 1 else (x - dx, y - dy)
        while 0 <= cx <= 9 and 0 <= cy <= 9:
            if board[cx, cy] in ("RED", "BLUE"):
                count += 1
            cx, cy = cx + sign * dx, cy + sign * dy
    return count


def legal_moves(board: dict, me: str) -> list[tuple[int, int, str]]:
    other = "BLUE" if me == "RED" else "RED"
    moves = []
    for (x, y), state in board.items():
        if state != me:
            continue
        for name, (dx, dy) in DIRECTIONS.items():
            distance = fish_on_line(board, x, y, dx, dy)
            tx, ty = x + dx * distance, y + dy * distance
            if not (0 <= tx <= 9 and 0 <= ty <= 9):
                continue
            if any(board[x + dx * k, y + dy * k] == other for k in range(distance)):
                continue
            if board[tx, ty] in (me, "OBSTRUCTED"):
                continue
            moves.append((x, y, name))
    return moves


def choose(board: dict, me: str, rng: random.Random) -> tuple[int, int, str] | None:
    moves = legal_moves(board, me)
    return rng.choice(moves) if moves else None
