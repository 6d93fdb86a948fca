"""Ostseeschach 2022 as an SVG picture: the 8 x 8 board, every piece and tower, the ambers, the
last move.

``render_svg(game, last_move)`` takes what ``PLUGIN.game_from_state`` returns (an
:class:`~swc_local.games.ostseeschach.plugin.OstseeschachGame`, or a bare :class:`Position`) and
the :class:`Move` that led to it.  Pure and deterministic (see :mod:`swc_local.games.svg`).

Conformance notes (choices where no official picture exists to copy):

* Orientation as the text board: x (the forward axis) to the right, y = 7 on top; ONE (red)
  starts on the left column, TWO (blue) on the right.
* A piece shows the letter of its type (H Herzmuschel, M Moewe, S Seestern, R Robbe) and, for a
  tower, its height in a badge; a tower of three would be an amber and is never on the board.
* ``last_move=None`` falls back to the position's own ``lastMove``; a move whose ``from`` or
  ``to`` is missing (a refused move) marks what it names.
"""

from __future__ import annotations

from swc_local.games import svg
from swc_local.games.ostseeschach.rules import ONE, SIZE, TEAM_NAMES, TWO, Move, PieceType, Position

CELL = 52
MARGIN = 30
LEGEND_H = 44
TEAM_COLORS = svg.SEAT_COLORS_2
TYPE_NAMES = {PieceType.Herzmuschel: "Herzmuschel", PieceType.Moewe: "Möwe", PieceType.Seestern: "Seestern",
              PieceType.Robbe: "Robbe"}


def _status(position: Position) -> tuple[str, str]:
    decision = position.decision()
    if decision is None:
        return f"{TEAM_NAMES[position.current]} to move", TEAM_COLORS[position.current]
    if decision.winner is None:
        return f"game over: draw ({decision.reason})", "#222"
    return f"game over: {TEAM_NAMES[decision.winner]} wins ({decision.reason})", TEAM_COLORS[decision.winner]


def _piece(cx: float, cy: float, letter: str, team: int, count: int, cell: str) -> str:
    body = svg.circle(cx, cy, CELL * 0.36, TEAM_COLORS[team], stroke="#fff", stroke_width=2)
    body += svg.text(cx, cy + 1, letter, CELL * 0.36, "middle", fill="#fff", font_weight="bold")
    if count > 1:
        bx, by = cx + CELL * 0.28, cy - CELL * 0.28
        body += svg.circle(bx, by, CELL * 0.15, "#fff", stroke=TEAM_COLORS[team], stroke_width=1.5)
        body += svg.text(bx, by + 1, count, CELL * 0.2, "middle", fill="#222", font_weight="bold", class_="tower")
    return svg.tag("g", body, class_=f"piece {TEAM_NAMES[team]}", data_cell=cell, data_count=count)


def render_svg(game, last_move: Move | None = None, previous=None) -> str:
    """The picture; ``previous`` (the state before the move) is not needed here, see :mod:`..views`."""
    position, names = svg.unwrap(game, "position")
    move = last_move if last_move is not None else position.last_move
    grid, width, height = svg.frame(SIZE, SIZE, CELL, MARGIN, 2, LEGEND_H, y_up=True)
    shown = (names[0] or "ONE", names[1] or "TWO")
    out = [
        svg.header(width, [(TEAM_COLORS[ONE], f"{shown[0]} (ONE), ambers {position.ambers[ONE]}"),
                           (TEAM_COLORS[TWO], f"{shown[1]} (TWO), ambers {position.ambers[TWO]}")],
                   [(f"turn {position.turn}, round {position.round}", "#222"), _status(position)]),
        grid.checkers("#f3ead7", "#d9c7a3"),
        grid.labels(12),
    ]
    cells = {}
    if move is not None:
        for kind, fill, c in (("last-from", svg.HIGHLIGHT_FROM, move.from_), ("last-to", svg.HIGHLIGHT_TO, move.to)):
            if c is not None and 0 <= c[0] < SIZE and 0 <= c[1] < SIZE:
                out.append(grid.mark(c[0], c[1], kind, fill))
                cells[kind] = c
    for (x, y), piece in sorted(position.pieces.items()):
        cx, cy = grid.center(x, y)
        out.append(_piece(cx, cy, piece.type.letter, piece.team, piece.count, f"{x},{y}"))
    if len(cells) == 2:
        out.append(grid.move_arrow(cells["last-from"], cells["last-to"]))
    ly = height - LEGEND_H + 2
    kinds = [(svg.text(6, 6, t.letter, 11, "middle", font_weight="bold"), TYPE_NAMES[t]) for t in PieceType]
    out.append(svg.legend(MARGIN, ly, kinds[:2]))
    out.append(svg.legend(MARGIN + 120, ly, kinds[2:]))
    out.append(svg.legend(MARGIN + 230, ly, [
        (svg.circle(6, 6, 6, "#fff", stroke="#222") + svg.text(6, 7, 2, 8, "middle"), "tower height"),
        (svg.rect(0, 0, 12, 12, svg.HIGHLIGHT_TO), "last move"),
    ]))
    title = f"Ostseeschach, turn {position.turn}: {shown[0]} vs {shown[1]}"
    return svg.document(width, height, "".join(out), title)
