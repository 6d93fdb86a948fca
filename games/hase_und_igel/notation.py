"""The move as a person reads it (pages, ``swc replay``, tables): its actions in the order sent,
an advance with the field it reaches and its kind, a card by its name:
``advance 3 to 12 (HARE), card EAT_SALAD``, ``card TAKE_OR_DROP_CARROTS -10``, ``carrots +10``,
``eat a salad``, ``fall back``, ``skip`` (spec hase_und_igel_2018.md: the actions of a move).

Conformance note: the field is the hare's index before the move plus the advance; without the
position before the move (a replay's first state) the advance reads ``advance 3``."""

from __future__ import annotations

from .rules import ADVANCE, CARD, EAT_SALAD, EXCHANGE, FALL_BACK, TAKE, Action, Move, State, field_at

_PLAIN = {EAT_SALAD: "eat a salad", FALL_BACK: "fall back", "skip": "skip"}


def _action(action: Action, start: int | None, board) -> str:
    if action.kind == ADVANCE:
        if start is None:
            return f"advance {action.value}"
        target = start + action.value
        return f"advance {action.value} to {target} ({field_at(board, target)})"
    if action.kind == CARD:
        return f"card {action.card} {action.value:+d}" if action.card == TAKE else f"card {action.card}"
    if action.kind == EXCHANGE:
        return f"carrots {action.value:+d}"
    return _PLAIN.get(action.kind, action.kind)


def move_notation(move: Move, before: State | None = None) -> str:
    """The actions joined by commas; ``before`` gives the hare's field for an advance."""
    start = before.player(before.turn % 2).index if before is not None else None
    board = before.board if before is not None else ()
    return ", ".join(_action(action, start, board) for action in move.actions) or "no action"
