"""Where a person points in Piranhas 2026: the fish, then where the rules' ``check`` lands it."""

from __future__ import annotations

from swc_local.games.piranhas_2026 import view
from swc_local.games.pointing import cell, square_boxes


def steps(game, move) -> list[dict]:
    y, x = divmod(game.state.check(move), 10)  # the cell index is y * 10 + x
    return [cell(move.x, move.y), cell(x, y)]


def boxes(game) -> dict[str, list[float]]:
    return square_boxes(view, 10)
