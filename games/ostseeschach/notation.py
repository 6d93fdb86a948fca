"""The move as a person reads it (pages, ``swc replay``, tables): the piece that moves and its
two squares, ``Moewe (0,1) -> (1,2)`` (piece names as the official game names its types, spec
ostseeschach_2022.md), or the squares alone when the position before the move is not at hand.

Conformance note: the official ``Move.toString`` (``Zug von [0|1] zu [1|2]``) stays the wire's
text, quoted in error messages only."""

from __future__ import annotations

from .rules import Move, Position


def _square(c) -> str:
    return "?" if c is None else f"({c[0]},{c[1]})"


def move_notation(move: Move, before: Position | None = None) -> str:
    """``[piece ]from -> to``; the piece is the one on ``from`` in ``before``."""
    piece = before.pieces.get(move.from_) if before is not None and move.from_ is not None else None
    name = f"{piece.type.name} " if piece is not None else ""
    return f"{name}{_square(move.from_)} -> {_square(move.to)}"
