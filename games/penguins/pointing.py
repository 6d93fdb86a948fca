"""Where a person points in Penguins 2023: placement: the floe; later the penguin, then its target."""

from __future__ import annotations

from swc_local.games import svg
from swc_local.games.penguins import view
from swc_local.games.penguins.rules import point_of
from swc_local.games.pointing import cell


def steps(game, move) -> list[dict]:
    if move.from_ is None:
        return [cell(*move.to)]
    return [cell(*move.from_), cell(*move.to)]


def boxes(game) -> dict[str, list[float]]:
    top = svg.header_height(2) + view.MARGIN
    out = {}
    for index in range(len(game.position.board)):
        x, y = point_of(index)
        cx, cy = view._center(x, y, top)
        out[f"{x},{y}"] = [cx - view.CELL / 2, cy - view.HEX_H / 2, view.CELL, view.HEX_H]
    return out
