"""Where a person points in Hive 2020: a piece from the hand (a choice) or the piece's field,
then the target field; a skip is one choice."""

from __future__ import annotations

import math

from swc_local.games import svg
from swc_local.games.hive import view
from swc_local.games.hive.rules import CELLS, KIND_NAMES, DragMove, SetMove
from swc_local.games.pointing import cell, choice


def steps(game, move) -> list[dict]:
    if isinstance(move, SetMove):
        return [choice(f"set {KIND_NAMES[move.kind]}"), cell(*move.destination)]
    if isinstance(move, DragMove):
        return [cell(*move.start), cell(*move.destination)]
    return [choice("skip")]


def boxes(game) -> dict[str, list[float]]:
    top, w = svg.header_height(2), view.HEX * math.sqrt(3)
    out = {}
    for x, y in CELLS:
        cx, cy = view._center(x, y, top)
        out[f"{x},{y},{-x - y}"] = [cx - w / 2, cy - view.HEX, w, 2 * view.HEX]
    return out
