"""The move as a person reads it (pages, ``swc replay``, tables): ``(3,9) UP_RIGHT``, the fish's
field and the direction it swims, as the official 2019 GUI's move list wrote it.

Conformance note: the rules' ``Move.__str__`` already is this text (it never was a wire text in
2019, the classic server quotes no move), so this is that one function for every reader."""

from __future__ import annotations

from .rules import Move


def move_notation(move: Move, before: object | None = None) -> str:
    """``(x,y) DIRECTION``; ``before`` (the position) is not needed: the move names it all."""
    return f"({move.x},{move.y}) {move.direction.name}"
