"""The move as a person reads it (pages, ``swc replay``, tables), in the wire's cube coordinates
(spec hive_2020.md §2): ``set BEE at (0,0,0)``, ``ANT (1,-1,0) -> (2,-2,0)`` (the piece that
moves, when the position before the move is at hand), ``skip``.

Conformance note: the SDK's ``toString`` (``Set RED BEE to (0,0,0)``, ``Drag from ...``) stays
the wire's text where the server quotes it."""

from __future__ import annotations

from .rules import INDEX, KIND_NAMES, DragMove, Position, SetMove


def _coord(c) -> str:
    return f"({c[0]},{c[1]},{c[2]})"


def _kind_at(position: Position | None, c) -> str:
    index = INDEX.get((c[0], c[1])) if position is not None else None
    stack = position.stacks[index] if index is not None else None
    return f"{KIND_NAMES[stack[-1] & 7]} " if stack else ""


def move_notation(move, before: Position | None = None) -> str:
    if isinstance(move, SetMove):
        return f"set {KIND_NAMES[move.kind]} at {_coord(move.destination)}"
    if isinstance(move, DragMove):
        return f"{_kind_at(before, move.start)}{_coord(move.start)} -> {_coord(move.destination)}"
    return "skip"

