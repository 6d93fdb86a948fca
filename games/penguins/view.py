"""Penguins 2023 as an SVG picture: the 8 x 8 hex board, the fish on each floe, the penguins,
the last move, whose turn it is, the result.

``render_svg(game, last_move)`` takes what ``PLUGIN.game_from_state`` returns (a
:class:`~swc_local.games.penguins.plugin.PenguinsGame`, or a bare :class:`Position`) and the
:class:`Move` that led to it.  Pure and deterministic (see :mod:`swc_local.games.svg`).

Conformance notes (choices where no official picture exists to copy):

* Pointy-top hexes, row y = 0 on top and odd rows shifted half a field to the right, as the
  official docs draw the board; ``data-cell`` holds the doubled coordinates ``x,y`` of the wire.
* A floe shows its fish as a number on an ice-blue hex; a hole is drawn as open water; a
  penguin is a disc in its team's colour (ONE red, TWO blue) on its field.
* Whose turn applies the skip rule (a stuck team is passed over), as the server asks; a set move
  marks only ``last-to``, a slide ``last-from`` and ``last-to`` and an arrow.
* ``last_move=None`` falls back to the position's own ``lastMove``; points of a move that are no
  field (a refused move) are not marked.
"""

from __future__ import annotations

import math

from swc_local.games import svg
from swc_local.games.penguins.rules import (
    ONE, PENGUIN, SIZE, TEAM_NAMES, TWO, Move, Point, Position, is_field, point_of,
)

CELL = 52  # a hex's width
HEX_H = CELL * 2 / math.sqrt(3)
MARGIN = 24
LEGEND_H = 40
TEAM_COLORS = svg.SEAT_COLORS_2
ICE, WATER = "#e6f4fb", "#3d7ea6"


def _center(x: int, y: int, top: float) -> tuple[float, float]:
    return MARGIN + (x + 1) * CELL / 2, top + HEX_H / 2 + y * HEX_H * 0.75


def _hexagon(cx: float, cy: float, fill: str, **values: object) -> str:
    r = HEX_H / 2 - 1
    points = " ".join(f"{svg.num(cx + r * math.cos(math.radians(a)))},{svg.num(cy + r * math.sin(math.radians(a)))}"
                      for a in range(-90, 270, 60))
    return svg.tag("polygon", None, points=points, fill=fill, stroke="#8fb8cc", stroke_width=1, **values)


def _status(position: Position) -> tuple[str, str]:
    if not position.is_over():
        return f"{TEAM_NAMES[position.current]} to move", TEAM_COLORS[position.current]
    winner = position.winner()
    if winner is None:
        return "game over: draw", "#222"
    return f"game over: {TEAM_NAMES[winner]} wins", TEAM_COLORS[winner]


def render_svg(game, last_move: Move | None = None, previous=None) -> str:
    """The picture; ``previous`` (the state before the move) is not needed here, see :mod:`..views`."""
    position, names = svg.unwrap(game, "position")
    move = last_move if last_move is not None else position.last_move
    top = svg.header_height(2) + MARGIN
    width = 2 * MARGIN + (2 * SIZE + 1) * CELL / 2
    height = top + HEX_H * (0.75 * (SIZE - 1) + 1) + MARGIN + LEGEND_H
    shown = (names[0] or "ONE", names[1] or "TWO")
    out = [svg.header(width, [(TEAM_COLORS[ONE], f"{shown[0]} (ONE), fish {position.fishes[ONE]}"),
                              (TEAM_COLORS[TWO], f"{shown[1]} (TWO), fish {position.fishes[TWO]}")],
                      [(f"turn {position.turn}", "#222"), _status(position)])]
    marked: dict[str, Point] = {}
    if move is not None:
        for kind, point in (("last-from", move.from_), ("last-to", move.to)):
            if point is not None and is_field(*point):
                marked[kind] = point
    fills = (("last-from", svg.HIGHLIGHT_FROM), ("last-to", svg.HIGHLIGHT_TO))
    highlight = {point: (kind, fill) for kind, fill in fills if (point := marked.get(kind)) is not None}
    for index, value in enumerate(position.board):
        x, y = point_of(index)
        cx, cy = _center(x, y, top)
        kind, fill = highlight.get((x, y), (None, ICE if value != 0 else WATER))
        out.append(_hexagon(cx, cy, fill, class_=kind or ("floe" if value else "water"), data_cell=f"{x},{y}",
                            data_fish=max(value, 0)))
        if value > 0:
            out.append(svg.text(cx, cy + 1, value, CELL * 0.34, "middle", fill="#1b4f72", class_="fish"))
        elif value < 0:
            team = PENGUIN.index(value)
            body = svg.circle(cx, cy, CELL * 0.3, TEAM_COLORS[team], stroke="#fff", stroke_width=2)
            out.append(svg.tag("g", body, class_=f"piece {TEAM_NAMES[team]}", data_cell=f"{x},{y}"))
    if len(marked) == 2:
        (x1, y1), (x2, y2) = (_center(*marked[k], top) for k in ("last-from", "last-to"))
        out.append(svg.arrow(x1, y1, x2, y2, width=3, head=12, data_from="{},{}".format(*marked["last-from"]),
                             data_to="{},{}".format(*marked["last-to"])))
    ly = height - LEGEND_H + 4
    out.append(svg.legend(MARGIN, ly, [
        (svg.rect(0, 0, 12, 12, ICE, stroke="#8fb8cc"), "floe (number: fish)"),
        (svg.rect(0, 0, 12, 12, WATER), "water"),
    ]))
    out.append(svg.legend(MARGIN + 200, ly, [(svg.rect(0, 0, 12, 12, svg.HIGHLIGHT_TO), "last move")]))
    title = f"Penguins, turn {position.turn}: {shown[0]} vs {shown[1]}"
    return svg.document(width, height, "".join(out), title)
