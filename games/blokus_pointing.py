"""Where a person points in Blokus (both seasons, 2021 and 2027): the piece (a choice), its
orientation (a choice), then the square of the piece's bounding box's corner (``x``/``y`` of the
wire) with the covered cells as preview.

Conformance notes:

* Blokus' ``legal_moves`` lists placements only ("the server never asks a colour without one"),
  but the official rules let a colour skip on any move but its first; :func:`extra_moves` adds
  that skip so a person can pass as a bot can.
* Two orientations that cover the same cells are one legal move (the generator keeps one per
  distinct cell set), so the orientation choice lists only those.
"""

from __future__ import annotations

from swc_local.games import blokus_view, svg
from swc_local.games.blokus_common import ROTATIONS, SHAPE_NAMES, SkipMove, shape_cells
from swc_local.games.pointing import cell, choice


def steps(game, move) -> list[dict]:
    if isinstance(move, SkipMove):
        return [choice("skip this colour's turn")]
    orientation = ROTATIONS[move.rotation].lower() + (", flipped" if move.flipped else "")
    cells = shape_cells(move.kind, move.rotation, move.flipped)
    anchor = cell(move.x, move.y)
    anchor["preview"] = [f"{x + move.x},{y + move.y}" for x, y in cells]
    piece = choice(SHAPE_NAMES[move.kind]) | {"shape": [list(c) for c in shape_cells(move.kind, 0, False)]}
    return [piece, choice(orientation) | {"shape": [list(c) for c in cells]}, anchor]


def boxes(game) -> dict[str, list[float]]:
    position = game.position
    status = blokus_view._status(position, position.last_move)  # the header's height depends on it
    stock_height = 4 * (2 * blokus_view.SLOT + 8) + 8
    grid, _, _ = svg.frame(blokus_view.SIZE, blokus_view.SIZE, blokus_view.CELL, blokus_view.MARGIN,
                           max(2, len(status)), stock_height)
    size = blokus_view.SIZE
    return {f"{x},{y}": [*grid.corner(x, y), grid.cell, grid.cell] for x in range(size) for y in range(size)}


def extra_moves(game) -> list:
    """The skip of the colour to move, unless it is its first move or the game is over."""
    color = game.position.current_color
    if not game.position.is_over() and not game.position.is_first_move(color):
        return [SkipMove(color)]
    return []
