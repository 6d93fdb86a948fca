"""Where a person points in Mississippi Queen 2024: the move's actions one by one (accelerate,
advance, turn, push), all choices; a move that is a prefix of a longer one is sent by a "send"
button on the page.  The river has no cells to click (:func:`boxes` is None).  Each action's step
names where the ship stands after it (``"ship"``: its field and heading), so the page draws the
ship while the move is built."""

from __future__ import annotations

from swc_local.games.mississippi_queen.rules import ACCELERATE, ADVANCE, DIRECTIONS, TURN
from swc_local.games.pointing import choice


def steps(game, move) -> list[dict]:
    found = []
    for (kind, value), ship in zip(move, _ship_after_each(game, move)):
        if kind == ACCELERATE:
            step = choice(f"accelerate {value:+d}")
        elif kind == ADVANCE:
            step = choice(f"advance {value}")
        elif kind == TURN:
            step = choice(f"turn {DIRECTIONS[value]}")
        else:
            step = choice(f"push {DIRECTIONS[value]}")
        if ship is not None:  # where the ship stands after this action: the page previews it
            step["ship"] = {"cell": f"{ship[0]},{ship[1]}", "heading": DIRECTIONS[ship[2]]}
        found.append(step)
    return found


def _ship_after_each(game, move) -> list[tuple[int, int, int] | None]:
    """(q, r, heading) of the moving ship after each action of ``move``, by the rules' own step
    (on copies of the two ships; the board is only read); None from an action on that the rules
    refuse alone (a legal move's actions are only checked as a whole)."""
    position = getattr(game, "position", None)
    if position is None:
        return [None] * len(move)
    ship, other = position.ships[position.current].copy(), position.ships[1 - position.current].copy()
    out: list[tuple[int, int, int] | None] = []
    for action in move:
        try:
            problem = position._perform(ship, other, action) if not out or out[-1] is not None else "stopped"
        except Exception:
            problem = "stopped"
        out.append(None if problem else (ship.q, ship.r, ship.direction))
    return out


def boxes(game) -> None:
    return None
