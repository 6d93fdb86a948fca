"""Where a person points in Ostseeschach 2022: the piece's square, then its target square."""

from __future__ import annotations

from swc_local.games.ostseeschach import view
from swc_local.games.pointing import cell, square_boxes


def steps(game, move) -> list[dict]:
    return [cell(*move.from_), cell(*move.to)]


def boxes(game) -> dict[str, list[float]]:
    return square_boxes(view, 8)
