"""Piranhas 2026 as an SVG picture: the 10 x 10 board, both teams' fish by size, the squids, the
last move.

``render_svg(game, last_move)`` takes what ``PLUGIN.game_from_state`` returns (a
:class:`~swc_local.games.piranhas_2026.plugin.Piranhas2026Game`, or a bare :class:`GameState`)
and the :class:`Move` that led to it.  Pure and deterministic (see :mod:`swc_local.games.svg`).

Conformance notes (choices where no official picture exists to copy):

* Orientation as the text board and the spec's examples: x to the right, y = 9 on top.  Team ONE
  is red, TWO blue, as in the official GUI; a fish's size is its radius and its letter S/M/L.
* The destination of the last move: a move names the start field and a direction only; the fish
  went as far as there were fish on that line before the move, one more than now when it ate one.
  When the picture after the move cannot tell (both candidate fields hold the mover's fish), pass
  the state before the move as ``previous``; without it both fields are outlined
  (``class="last-to-maybe"``).
* ``last_move=None`` falls back to the state's own ``lastMove``.
"""

from __future__ import annotations

from swc_local.games import svg
from swc_local.games.piranhas_arrows import exact_destination, landing_fields
from swc_local.games.piranhas_2026.rules import (
    _DIRECTION_INDEX, EMPTY, LINES, ONE, RAYS, SIZE, SQUID, TEAM_NAMES, TEAM_OF, TWO, WEIGHT, GameState, Move,
    MoveRejected, OffBoardStart,
)

CELL = 40
MARGIN = 30
LEGEND_H = 26
TEAM_COLORS = svg.SEAT_COLORS_2
SQUID_COLOR = "#5b2a86"
SIZE_LETTERS = ("", "S", "M", "L")


def destinations(state: GameState, move: Move, previous=None) -> list[int]:
    """The fields (``y * 10 + x``) the moved fish may have landed on, nearest first (the
    move starts on the board)."""
    if previous is not None:
        return exact_destination(svg.unwrap(previous, "state")[0], move, (MoveRejected, OffBoardStart))
    start = move.y * SIZE + move.x
    cells = state.cells
    mover = ONE if state.turn % 2 == 1 else TWO
    index = _DIRECTION_INDEX[move.direction]
    ray = RAYS[start][index]
    on_line = sum(1 for c in LINES[start][index % 4] if TEAM_OF[cells[c]] is not None)
    return landing_fields(ray, on_line, lambda c: TEAM_OF[cells[c]] == mover,
                          lambda c: TEAM_OF[cells[c]] not in (None, mover))


def _status(state: GameState, names: tuple[str, str]) -> tuple[str, str]:
    if state.is_over():
        verdict = state.verdict()
        if verdict is None or verdict.winner is None:
            return "game over: tie", "#222"
        return f"game over: {TEAM_NAMES[verdict.winner]} wins", TEAM_COLORS[verdict.winner]
    return f"{TEAM_NAMES[state.team_to_move]} to move", TEAM_COLORS[state.team_to_move]


def _fish(cx: float, cy: float, value: int, cell: str | None = None, scale: float = 1.0) -> str:
    team, weight = TEAM_OF[value], WEIGHT[value]
    radius = CELL * (0.14 + 0.08 * weight) * scale
    body = svg.circle(cx, cy, radius, TEAM_COLORS[team], stroke="#fff", stroke_width=1.5)
    if scale == 1.0:
        body += svg.text(cx, cy + 1, SIZE_LETTERS[weight], 8 + 2 * weight, "middle", fill="#fff", font_weight="bold")
    if cell is None:
        return body
    size = SIZE_LETTERS[weight]
    return svg.tag("g", body, class_=f"piece fish {TEAM_NAMES[team]} {size}", data_cell=cell, data_weight=weight)


def _squid(cx: float, cy: float, cell: str | None = None) -> str:
    r = CELL * 0.3 if cell else 6
    legs = "".join(
        svg.tag("line", None, x1=cx + dx * r * 0.5, y1=cy + r * 0.3, x2=cx + dx * r, y2=cy + r * 1.1,
                stroke=SQUID_COLOR, stroke_width=max(1, r / 6))
        for dx in (-1, -0.35, 0.35, 1)
    )
    head = svg.tag("ellipse", None, cx=cx, cy=cy - r * 0.15, rx=r * 0.8, ry=r * 0.7, fill=SQUID_COLOR)
    extra = {} if cell is None else {"class_": "squid", "data_cell": cell}
    return svg.tag("g", legs + head, **extra)


def render_svg(game, last_move: Move | None = None, previous=None) -> str:
    state, names = svg.unwrap(game, "state")
    move = last_move if last_move is not None else state.last_move
    grid, width, height = svg.frame(SIZE, SIZE, CELL, MARGIN, 2, LEGEND_H, y_up=True)
    shown = (names[0] or "ONE", names[1] or "TWO")
    status = _status(state, names)
    union = "" if state.first_union is None else f", first union {TEAM_NAMES[state.first_union]}"
    out = [
        svg.header(width, [(TEAM_COLORS[ONE], f"{shown[0]} (ONE)"), (TEAM_COLORS[TWO], f"{shown[1]} (TWO)")],
                   [(f"turn {state.turn}{union}", "#222"), status]),
        grid.checkers("#eef5fb", "#d7e6f3"),
        grid.labels(11),
    ]
    arrow = ""
    if move is not None and 0 <= move.x < SIZE and 0 <= move.y < SIZE:
        landed = [(f % SIZE, f // SIZE) for f in destinations(state, move, previous)]
        marks, arrow = svg.jump_marks(grid, (move.x, move.y), landed)
        out.append(marks)
    for y in range(SIZE):
        for x in range(SIZE):
            value = state.cells[y * SIZE + x]
            if value == EMPTY:
                continue
            cx, cy = grid.center(x, y)
            out.append(_squid(cx, cy, f"{x},{y}") if value == SQUID else _fish(cx, cy, value, f"{x},{y}"))
    out.append(arrow)
    ly = height - LEGEND_H + 4
    out.append(svg.legend(MARGIN, ly, [(_squid(6, 7), "squid (blocks)")]))
    out.append(svg.legend(MARGIN + 130, ly, [(svg.circle(6, 6, 6, "#888"), "fish S/M/L = weight 1/2/3")]))
    out.append(svg.legend(MARGIN + 320, ly, [(svg.rect(0, 0, 12, 12, svg.HIGHLIGHT_TO), "last move")]))
    title = f"Piranhas 2026, turn {state.turn}: {shown[0]} vs {shown[1]}"
    return svg.document(width, height, "".join(out), title)
