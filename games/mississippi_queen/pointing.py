"""Where a person points in Mississippi Queen 2024: the move's actions one by one (accelerate,
advance, turn, push), all choices; a move that is a prefix of a longer one is sent by a "send"
button on the page.  The river has no cells to click (:func:`boxes` is None)."""

from __future__ import annotations

from swc_local.games.mississippi_queen.rules import ACCELERATE, ADVANCE, DIRECTIONS, TURN
from swc_local.games.pointing import choice


def steps(game, move) -> list[dict]:
    found = []
    for kind, value in move:
        if kind == ACCELERATE:
            found.append(choice(f"accelerate {value:+d}"))
        elif kind == ADVANCE:
            found.append(choice(f"advance {value}"))
        elif kind == TURN:
            found.append(choice(f"turn {DIRECTIONS[value]}"))
        else:
            found.append(choice(f"push {DIRECTIONS[value]}"))
    return found


def boxes(game) -> None:
    return None
