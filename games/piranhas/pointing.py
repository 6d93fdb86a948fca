"""Where a person points in Piranhas 2019: the fish, then where the rules' ``check`` lands it."""

from __future__ import annotations

from swc_local.games.piranhas import view
from swc_local.games.pointing import cell, square_boxes


def steps(game, move) -> list[dict]:
    x, y = divmod(game.position.check(move), 10)  # the cell index is x * 10 + y
    return [cell(move.x, move.y), cell(x, y)]


def boxes(game) -> dict[str, list[float]]:
    return square_boxes(view, 10)
