"""Coordinates around a text board, so a move's ``(x, y)`` can be found on it.

Each game's rules draw the bare grid (one character per square, separated by spaces); the
``describe()`` of its plugin frames it here: the row's ``y`` on the left and the column's ``x``
below (``y`` counting up, the bottom row is 0) or above (``y`` counting down, the top row is 0).
Columns beyond 9 get their tens digit on a line of its own, so every label stays one character
wide and over its column.
"""

from __future__ import annotations


def with_coordinates(grid: str, *, y_up: bool) -> str:
    """``grid``'s rows labelled with their ``y`` and its columns with their ``x``.

    ``y_up``: the first row is the highest ``y`` (Piranhas); otherwise the first row is ``y = 0``
    (Blokus)."""
    rows = grid.splitlines()
    height, width = len(rows), len(rows[0].split()) if rows else 0
    margin = len(str(height - 1))
    ys = range(height - 1, -1, -1) if y_up else range(height)
    body = [f"{y:>{margin}} {row}" for y, row in zip(ys, rows)]
    pad = " " * (margin + 1)
    axis = [pad + " ".join(str(x % 10) for x in range(width))]
    if width > 10:
        axis.insert(0, (pad + " ".join(str(x // 10) if x >= 10 else " " for x in range(width))).rstrip())
    return "\n".join(body + axis if y_up else axis + body)
