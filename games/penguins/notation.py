"""The move as a person reads it (pages, ``swc replay``, tables): ``set on (4,1)`` while placing,
``(4,1) -> (7,4)`` for a slide, in the wire's doubled coordinates (spec penguins_2023.md §2: the
x of a field counts half-columns, which the official GUI and clients show too).

Conformance note: the official ``Move.toString`` (``Setze Pinguin auf [4|1]``, ``Schlittern
[4|1] zu [7|4]``) stays the wire's text, quoted in error messages only."""

from __future__ import annotations

from .rules import Move


def _point(point) -> str:
    return "?" if point is None else f"({point[0]},{point[1]})"


def move_notation(move: Move, before: object | None = None) -> str:
    """``set on (x,y)`` or ``(x,y) -> (x,y)``; ``before`` is not needed."""
    if move.from_ is None:
        return f"set on {_point(move.to)}"
    return f"{_point(move.from_)} -> {_point(move.to)}"
