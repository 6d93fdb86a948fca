"""The move as a person reads it (pages, ``swc replay``, tables): its actions in the order sent,
``accelerate +1, advance 2, turn DOWN_RIGHT, push RIGHT`` (spec mississippi_queen_2024.md §4:
a move is a list of Accelerate, Advance, Turn and Push actions, applied in order).

Conformance note: the official ``Move.toString`` (``Zug[Beschleunige um 1, Gehe 2 Felder vor]``)
stays the wire's text, quoted in error messages; the golden vectors' ``A1 M2`` is a test notation.
"""

from __future__ import annotations

from .rules import ACCELERATE, ADVANCE, DIRECTIONS, TURN, Move

_VERBS = {ACCELERATE: "accelerate", ADVANCE: "advance", TURN: "turn"}


def action_notation(action: tuple) -> str:
    """One action: ``accelerate +1``/``-1``, ``advance 2`` (``advance -1`` backwards), ``turn
    DOWN_RIGHT``, ``push RIGHT``."""
    kind, value = action
    if kind == ACCELERATE:
        return f"accelerate {value:+d}"
    if kind == ADVANCE:
        return f"advance {value}"
    return f"{_VERBS.get(kind, 'push')} {DIRECTIONS[value]}"


def move_notation(move: Move, before: object | None = None) -> str:
    """Every action, in order, joined by commas; a move without actions reads ``no action``."""
    return ", ".join(action_notation(action) for action in move) or "no action"
