"""Blokus (2021 and 2027) as an SVG picture: the 20 x 20 board in the four colours, the pieces each colour
still holds, the points, the last placement.

``render_svg(game, last_move)`` takes what a Blokus plugin's ``game_from_state`` returns (its
game, or a bare position of :mod:`swc_local.games.blokus_common`) and the
:class:`SetMove`/:class:`SkipMove` that led to it.  Pure and deterministic (see
:mod:`swc_local.games.svg`).

Conformance notes (choices where no official picture exists to copy):

* Orientation as the text board and the wire: x to the right, y = 0 on top.
* The colours are the game's own (BLUE, YELLOW, RED, GREEN); team ONE plays BLUE and RED, team
  TWO YELLOW and GREEN, as the header says.  A colour that can no longer place is struck through.
* The last placement's squares are outlined (``class="last-to"``); a skip is named in the status.
* ``last_move=None`` falls back to the position's own ``lastMove``.
"""

from __future__ import annotations

from swc_local.games import svg
from swc_local.games.blokus_common import (
    COLORS, SHAPES, SIZE, TEAM_NAMES, SetMove, SkipMove, _kinds, cells_of,
)
from swc_local.games.blokus_common import BlokusPosition as Position

CELL = 24
MARGIN = 28
FILL = {"BLUE": "#2f6fd6", "YELLOW": "#f2c12e", "RED": "#d63a2f", "GREEN": "#2e9e4a"}
MINI = 4
SLOT = 5 * MINI + 5
PER_ROW = 6
STOCK_LABEL = 16
STOCK_WIDTH = PER_ROW * SLOT + 12
"""The pieces each colour holds stand right of the board (not below it), so the picture is about
as wide as high and the board fills the page's height: 20 x 20 cells of at least the official
GUI's size in a window of 1200 x 900 (the page's board is as high as the window lets it be)."""


def _status(position: Position, move) -> list[tuple[str, str]]:
    lines = [(f"turn {position.turn}, round {position.round}", "#222")]
    if isinstance(move, SkipMove):
        lines.append((f"{COLORS[move.color]} skipped", FILL[COLORS[move.color]]))
    decision = position.decision()
    if decision is not None:
        if decision.winner is None:
            lines.append(("game over: tie", "#222"))
        else:
            lines.append((f"game over: {TEAM_NAMES[decision.winner]} wins", "#222"))
    else:
        color = COLORS[position.current_color]
        lines.append((f"{color} ({TEAM_NAMES[position.current_team]}) to move", FILL[color]))
    return lines


def _stock_rows() -> int:
    return -(-len(SHAPES) // PER_ROW)


def _stock(position: Position, left: float, top: float) -> str:
    """Per colour, its name and the shapes it has not placed yet, small, beside the board."""
    out = []
    block = STOCK_LABEL + _stock_rows() * SLOT + 8
    for color in range(4):
        name = COLORS[color]
        y0 = top + color * block
        struck = "" if position.valid[color] else " (out)"
        out.append(svg.text(left, y0 + 11, f"{name}{struck}", 11, fill=FILL[name], font_weight="bold"))
        for i, kind in enumerate(_kinds(position.undeployed[color])):
            sx = left + (i % PER_ROW) * SLOT
            sy = y0 + STOCK_LABEL + (i // PER_ROW) * SLOT
            out.append(svg.cells_path(SHAPES[kind][1], sx, sy, MINI, FILL[name], class_=f"stock {name}",
                                      data_shape=SHAPES[kind][0]))
    return svg.tag("g", "".join(out), class_="stock-panel")


def render_svg(game, last_move: SetMove | SkipMove | None = None, previous=None, title: str = "Blokus") -> str:
    """The picture; ``previous`` (the state before the move) is not needed here, see :mod:`..views`.
    ``title`` names the season in the picture's title."""
    position, names = svg.unwrap(game, "position")
    move = last_move if last_move is not None else position.last_move
    status = _status(position, move)
    grid, board_width, height = svg.frame(SIZE, SIZE, CELL, MARGIN, max(2, len(status)), 0)
    stock_height = 4 * (STOCK_LABEL + _stock_rows() * SLOT + 8)
    height = max(height, grid.top + stock_height)
    width = board_width + STOCK_WIDTH
    shown = (names[0] or "ONE", names[1] or "TWO")
    seats = [
        (FILL["BLUE"], f"{shown[0]} (ONE: BLUE + RED), {position.team_points(0)} points"),
        (FILL["YELLOW"], f"{shown[1]} (TWO: YELLOW + GREEN), {position.team_points(1)} points"),
    ]
    out = [svg.header(width, seats, status), svg.rect(grid.left, grid.top, grid.width, grid.height, "#f4f4f4"), grid.lines("#d0d0d0"), grid.labels(10, every=1)]
    for color in range(4):
        name = COLORS[color]
        for x, y in cells_of(position.occupied[color]):
            out.append(grid.square(x, y, FILL[name], inset=0.5, class_=f"piece {name}", data_cell=f"{x},{y}"))
    if isinstance(move, SetMove):
        for x, y in sorted(move.cells()):
            if 0 <= x < SIZE and 0 <= y < SIZE:
                cx, cy = grid.corner(x, y)
                out.append(svg.rect(cx + 2, cy + 2, CELL - 4, CELL - 4, "none", stroke="#111", stroke_width=2.5,
                                    class_="last-to", data_cell=f"{x},{y}"))
    out.append(_stock(position, board_width, grid.top))
    return svg.document(width, height, "".join(out), f"{title}, turn {position.turn}: {shown[0]} vs {shown[1]}")

