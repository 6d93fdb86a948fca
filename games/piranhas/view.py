"""Piranhas 2019 as an SVG picture: the 10 x 10 board, both swarms, the two kraken, the last move.

``render_svg(game, last_move)`` takes what ``PLUGIN.game_from_state`` returns (a
:class:`~swc_local.games.piranhas.plugin.PiranhasGame`, or a bare :class:`Position`) and the
:class:`Move` that led to it.  Pure and deterministic (see :mod:`swc_local.games.svg`).

Conformance notes (choices where no official picture exists to copy):

* Orientation as the text board and the official GUI: x to the right, y = 9 on top.
* A 2019 move names only the start field and a direction; the destination is where the fish
  landed, ``n`` or ``n + 1`` fields away (``n`` = fish now on that line; one more before the move
  when it ate a fish).  When the picture after the move cannot tell which (both fields hold the
  mover's fish), pass the state before the move as ``previous`` and the destination is computed
  exactly; without it both candidate fields are outlined (``class="last-to-maybe"``).
* ``last_move=None`` falls back to the position's own ``lastMove`` (a replay state carries it).
"""

from __future__ import annotations

from swc_local.games import svg
from swc_local.games.piranhas_arrows import exact_destination, landing_fields
from swc_local.games.piranhas.rules import (
    BLUE, DIRECTION_INDEX, LINE, OBSTRUCTED, RAYS, RED, SIZE, Move, Position, RuleViolation, ScanCrash,
)

CELL = 40
MARGIN = 30
LEGEND_H = 26
FISH = {RED: svg.SEAT_COLORS_2[0], BLUE: svg.SEAT_COLORS_2[1]}
KRAKEN = "#3b3b3b"


def destinations(position: Position, move: Move, previous=None) -> list[int]:
    """The cells (``x * 10 + y``) the move's fish may have landed on, nearest first (the
    move starts on the board)."""
    if previous is not None:
        return exact_destination(svg.unwrap(previous, "position")[0], move, (RuleViolation, ScanCrash))
    start = move.x * SIZE + move.y
    cells = position.cells
    mover = RED if position.turn % 2 == 1 else BLUE
    opponent = BLUE if mover == RED else RED
    ray = RAYS[start][DIRECTION_INDEX[move.direction]]
    on_line = ((position.bb[RED] | position.bb[BLUE]) & LINE[start][move.direction.axis]).bit_count()
    return landing_fields(ray, on_line, lambda c: cells[c] == mover, lambda c: cells[c] == opponent)


def render_svg(state, last_move: Move | None = None, previous=None) -> str:
    position, names = svg.unwrap(state, "position")
    move = last_move if last_move is not None else position.last_move
    grid, width, height = svg.frame(SIZE, SIZE, CELL, MARGIN, 2, LEGEND_H, y_up=True)
    decision = position.decision()
    if decision is not None:
        status = "game over: " + ("draw" if decision.winner is None else f"{'RED' if decision.winner == RED else 'BLUE'} wins")
        status_color = "#222" if decision.winner is None else FISH[decision.winner]
    else:
        status = f"{'RED' if position.current == RED else 'BLUE'} to move"
        status_color = FISH[position.current]
    out = [
        svg.header(width, [(FISH[RED], f"{names[0] or 'red'} (red)"), (FISH[BLUE], f"{names[1] or 'blue'} (blue)")],
                   [(f"turn {position.turn}", "#222"), (status, status_color)]),
        grid.checkers("#eef5fb", "#d7e6f3"),
        grid.labels(11),
    ]
    arrow = ""
    if move is not None and 0 <= move.x < SIZE and 0 <= move.y < SIZE:
        landed = [divmod(c, SIZE) for c in destinations(position, move, previous)]
        marks, arrow = svg.jump_marks(grid, (move.x, move.y), landed)
        out.append(marks)
    for x in range(SIZE):
        for y in range(SIZE):
            value = position.cells[x * SIZE + y]
            cx, cy = grid.center(x, y)
            if value in FISH:
                color = "red" if value == RED else "blue"
                out.append(svg.circle(cx, cy, CELL * 0.34, FISH[value], stroke="#fff", stroke_width=2,
                                      class_=f"piece fish {color}", data_cell=f"{x},{y}"))
            elif value == OBSTRUCTED:
                out.append(_kraken(cx, cy, x, y))
    out.append(arrow)
    ly = height - LEGEND_H + 4
    out.append(svg.legend(MARGIN, ly, [(_kraken(6, 6), "kraken (blocks, cannot be eaten)")]))
    out.append(svg.legend(MARGIN + 230, ly, [(svg.rect(0, 0, 12, 12, svg.HIGHLIGHT_TO), "last move")]))
    title = f"Piranhas, turn {position.turn}: {names[0] or 'red'} vs {names[1] or 'blue'}"
    return svg.document(width, height, "".join(out), title)


def _kraken(cx: float, cy: float, x: int | None = None, y: int | None = None) -> str:
    """An octagon; with a cell it is a board piece, without one the legend's small swatch."""
    r = 6 if x is None else CELL * 0.36
    points = " ".join(
        f"{svg.num(cx + r * dx)},{svg.num(cy + r * dy)}"
        for dx, dy in ((-0.4, -1), (0.4, -1), (1, -0.4), (1, 0.4), (0.4, 1), (-0.4, 1), (-1, 0.4), (-1, -0.4))
    )
    extra = {} if x is None else {"class_": "kraken", "data_cell": f"{x},{y}"}
    return svg.tag("polygon", None, points=points, fill=KRAKEN, **extra)
