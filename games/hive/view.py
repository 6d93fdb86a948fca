"""Hive 2020 as an SVG picture: the hexagonal board of radius 5, the three blocked fields, each
stack's top piece (with the stack's height), both undeployed lists, the last move, whose turn, the
result.

``render_svg(game, last_move, previous)`` takes what ``PLUGIN.game_from_state`` returns (a
:class:`~swc_local.games.hive.plugin.HiveGame`, or a bare :class:`Position`) and the move that led
to it (a rules move or the wire's ``WireMove``).  Pure and deterministic (see
:mod:`swc_local.games.svg`).

Conformance notes (choices where no official picture exists to copy):

* Pointy-top hexagons, z growing downwards and x to the right, as the official GUI of the season
  drew the cube coordinates; each field is labelled by nothing, its ``data-cell`` is ``x,y,z``.
* A stack shows its top piece (the owner's colour, the type's letter: Q bee, A ant, B beetle,
  G grasshopper, S spider) and, above one piece, its height.
* ``last_move=None`` falls back to the position's own ``lastMove`` (a replay state carries it); a
  skip marks nothing.
"""

from __future__ import annotations

import math

from swc_local.games import svg
from swc_local.games.hive.rules import (
    ANT, BEE, BEETLE, BLUE, CELLS, GRASSHOPPER, RED, SPIDER, DragMove, Position, SetMove,
)

HEX = 24  # centre to corner
MARGIN = 20
COLORS = {RED: svg.SEAT_COLORS_2[0], BLUE: svg.SEAT_COLORS_2[1]}
LETTERS = {BEE: "Q", ANT: "A", BEETLE: "B", GRASSHOPPER: "G", SPIDER: "S"}
BLOCKED = "#5b4636"
SIDE = 200  # the undeployed lists' column


def _center(x: int, y: int, top: float) -> tuple[float, float]:
    z = -x - y
    return MARGIN + HEX * math.sqrt(3) * (x + z / 2 + 5.5), top + MARGIN + HEX * 1.5 * (z + 5) + HEX


def _hexagon(cx: float, cy: float, r: float, fill: str, **values: object) -> str:
    points = " ".join(f"{svg.num(cx + r * math.cos(math.radians(60 * k - 30)))},"
                      f"{svg.num(cy + r * math.sin(math.radians(60 * k - 30)))}" for k in range(6))
    return svg.tag("polygon", None, points=points, fill=fill, stroke="#9aa", stroke_width=0.8, **values)


def _move_cells(move) -> tuple[tuple[int, int, int] | None, tuple[int, int, int] | None]:
    inner = getattr(move, "move", move)
    if isinstance(inner, SetMove):
        return None, inner.destination
    if isinstance(inner, DragMove):
        return inner.start, inner.destination
    return None, None


def render_svg(state, last_move=None, previous=None) -> str:
    position, names = svg.unwrap(state, "position")
    assert isinstance(position, Position)
    move = last_move if last_move is not None else position.last_move
    top = svg.header_height(2)
    board_w = 2 * MARGIN + HEX * math.sqrt(3) * 11
    width, height = board_w + SIDE, top + 2 * MARGIN + HEX * 1.5 * 10 + 2 * HEX
    decision = position.decision()
    if decision is not None:
        winner = decision[0]
        status = "game over: " + ("draw" if winner is None else f"{'RED' if winner == RED else 'BLUE'} wins")
        status_color = "#222" if winner is None else COLORS[winner]
    else:
        status = f"{'RED' if position.current == RED else 'BLUE'} to move"
        status_color = COLORS[position.current]
    out = [svg.header(width, [(COLORS[RED], f"{names[0] or 'red'} (red)"), (COLORS[BLUE], f"{names[1] or 'blue'} (blue)")],
                      [(f"turn {position.turn}", "#222"), (status, status_color)])]
    start, destination = _move_cells(move)
    for index, (x, y) in enumerate(CELLS):
        cx, cy = _center(x, y, top)
        cube = (x, y, -x - y)
        cell = f"{x},{y},{-x - y}"
        if index in position.blocked:
            out.append(_hexagon(cx, cy, HEX - 1, BLOCKED, class_="blocked", data_cell=cell))
            continue
        kind = "last-from" if cube == start else "last-to" if cube == destination else None
        fill = svg.HIGHLIGHT_FROM if kind == "last-from" else svg.HIGHLIGHT_TO if kind == "last-to" else "#f4f1e8"
        extra = {"class_": kind, "data_cell": cell} if kind else {}
        out.append(_hexagon(cx, cy, HEX - 1, fill, **extra))
        stack = position.stacks[index]
        if stack:
            piece = stack[-1]
            color = "red" if piece >> 3 == RED else "blue"
            out.append(svg.circle(cx, cy, HEX * 0.62, COLORS[piece >> 3], stroke="#fff", stroke_width=1.5,
                                  class_=f"piece {color}", data_cell=cell))
            out.append(svg.text(cx, cy + 5, LETTERS[piece & 7], 14, "middle", fill="#fff", font_weight="bold"))
            if len(stack) > 1:
                out.append(svg.text(cx + HEX * 0.55, cy - HEX * 0.45, len(stack), 10, "middle", class_="height"))
    for color, label in ((RED, "red"), (BLUE, "blue")):
        y0 = top + MARGIN + (0 if color == RED else 150)
        out.append(svg.text(board_w, y0, f"{label} to set:", 12))
        for k, kind in enumerate(position.undeployed[color]):
            cx, cy = board_w + 12 + (k % 6) * 28, y0 + 22 + (k // 6) * 28
            out.append(svg.circle(cx, cy, 11, COLORS[color], class_=f"undeployed {label}"))
            out.append(svg.text(cx, cy + 4, LETTERS[kind], 11, "middle", fill="#fff"))
    title = f"Hive, turn {position.turn}: {names[0] or 'red'} vs {names[1] or 'blue'}"
    return svg.document(width, height, "".join(out), title)
