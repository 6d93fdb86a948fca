"""The move as a person reads it (pages, ``swc replay``, tables): ``(3,9) UP_RIGHT``, the fish's
field and the direction it swims, as in Piranhas 2019 (spec piranhas_2026.md: the same move,
``<move x y><direction>``).  The official ``Move.toString`` (``Schwimme von [3|9] in Richtung
UP_RIGHT``) stays the wire's text, quoted in error messages only."""

from __future__ import annotations

from .rules import Move


def move_notation(move: Move, before: object | None = None) -> str:
    """``(x,y) DIRECTION``; ``before`` is not needed: the move names it all."""
    return f"({move.x},{move.y}) {move.direction.name}"
