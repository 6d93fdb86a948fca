"""Mississippi Queen 2024 as an SVG picture: the revealed river as hexagons (water, islands,
passenger docks with their waiting passengers, goal, sandbanks, the current), the two ships with
their heading, speed, coal, passengers and points, whose turn it is, the result, the last move.

``render_svg(game, last_move, previous)`` takes what ``PLUGIN.game_from_state`` returns (a
:class:`~swc_local.games.mississippi_queen.plugin.MississippiQueenGame`, or a bare
:class:`Position`) and the move (a tuple of actions) that led to it.  Pure and deterministic
(see :mod:`swc_local.games.svg`).

Conformance notes (choices where no official picture exists to copy):

* Pointy-top hexagons at axial (q, r): x grows with q + r/2, y with r, as the official
  coordinates run (RIGHT is +q, DOWN_RIGHT is +r).  ``data-cell`` is ``"q,r"``.
* The last move is written out in the status line (its actions); with ``previous`` the field
  each ship left is marked ``last-from`` and the field it reached ``last-to``; without it the
  mover of the last move (the other team than the one to move, at an odd turn) is marked
  ``last-to`` only.
* ``last_move=None`` falls back to the position's own ``lastMove``.
"""

from __future__ import annotations

import math

from swc_local.games import svg
from swc_local.games.mississippi_queen.notation import move_notation
from swc_local.games.mississippi_queen.rules import (
    DIRECTIONS, GOAL, ISLAND, PASSENGER, SANDBANK, TEAM_NAMES, VECTORS, WATER, Position,
)

SIZE = 16  # hexagon radius
MARGIN = 24
FILL = {WATER: "#9fd3f0", ISLAND: "#6b8e4e", PASSENGER: "#c8a46b", GOAL: "#f2d45c", SANDBANK: "#e8d8a0"}
SHIP = ("#d63a2f", "#2f6fd6")
ROOT3 = math.sqrt(3)


def _center(q: int, r: int) -> tuple[float, float]:
    return SIZE * ROOT3 * (q + r / 2), SIZE * 1.5 * r


def _hexagon(x: float, y: float, size: float) -> str:
    corners = [(x + size * math.cos(math.radians(60 * i - 30)), y + size * math.sin(math.radians(60 * i - 30)))
               for i in range(6)]
    return " ".join(f"{svg.num(cx)},{svg.num(cy)}" for cx, cy in corners)


def _status(position: Position, move) -> list[tuple[str, str]]:
    lines = [(f"turn {position.turn}, round {position.turn // 2 + 1}", "#222")]
    if move:
        lines.append((f"last move: {move_notation(move)}", "#222"))
    decision = position.decision()
    if decision is not None:
        # one verdict with the result table: a stuck ship is an end by the rules (REGULAR there),
        # though 24.2.5 writes regular="false" (spec §10 D3); the header names why instead
        verdict = "tie" if decision.winner is None else f"{TEAM_NAMES[decision.winner]} wins"
        lines.append((f"game over: {verdict}", "#222"))
        lines.append((_reason(decision), "#222"))
    else:
        lines.append((f"{TEAM_NAMES[position.current]} to move", SHIP[position.current]))
    return lines


def _reason(decision) -> str:
    """The win reason with the team named, as the server names a player without a display name."""
    if decision.named is None:
        return decision.reason
    team = TEAM_NAMES[decision.named]
    return decision.reason.replace("%s", team).replace("%S", team.upper())


def _moved(position: Position, previous) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """(from, to) of each ship that changed its field since ``previous``."""
    before = getattr(previous, "position", previous)
    if before is None or not hasattr(before, "ships"):
        if position.turn % 2 == 1 and position.last_move is not None:
            mover = position.ships[1 - position.current]
            return [(mover.position, mover.position)]
        return []
    return [(old.position, new.position) for old, new in zip(before.ships, position.ships) if old.position != new.position]


def render_svg(game, last_move=None, previous=None) -> str:
    position, names = svg.unwrap(game, "position")
    move = last_move if last_move is not None else position.last_move
    board = position.board
    shown = {coord: kind for coord, (index, _, kind) in board.fields.items() if index < board.visible}
    centers = {coord: _center(*coord) for coord in shown}
    min_x = min(x for x, _ in centers.values()) - SIZE
    min_y = min(y for _, y in centers.values()) - SIZE
    board_width = max(x for x, _ in centers.values()) + SIZE - min_x
    board_height = max(y for _, y in centers.values()) + SIZE - min_y
    status = _status(position, move)
    top = svg.header_height(max(2, len(status))) + 8
    width = max(board_width + 2 * MARGIN, 480)
    height = top + board_height + 2 * MARGIN

    def place(coord):
        x, y = centers.get(coord, _center(*coord))
        return x - min_x + MARGIN, y - min_y + top + MARGIN

    shown_names = (names[0] or "ONE", names[1] or "TWO")
    seats = []
    for ship in position.ships:
        stuck = ", stuck" if ship.stuck else ""
        seats.append((SHIP[ship.team], f"{shown_names[ship.team]} ({TEAM_NAMES[ship.team]}): speed {ship.speed}, "
                      f"coal {ship.coal}, passengers {ship.passengers}, {ship.points} points{stuck}"))
    out = [svg.header(width, seats, status)]
    fields = []
    for coord in sorted(shown, key=lambda c: (c[1], c[0])):
        kind = shown[coord]
        x, y = place(coord)
        cls = f"field {('water', 'island', 'passenger', 'goal', 'sandbank')[kind]}"
        if coord in board.current:
            cls += " current"
        fields.append(svg.tag("polygon", None, points=_hexagon(x, y, SIZE - 0.8), fill=FILL[kind], stroke="#ffffff",
                              stroke_width=0.8, class_=cls, data_cell=f"{coord[0]},{coord[1]}"))
        if coord in board.current:
            fields.append(svg.circle(x, y, 2.5, "#3b79a8", class_="current-mark"))
        if kind == PASSENGER:
            waiting = board.passengers.get(coord, 0)
            dq, dr = VECTORS[board.dock(coord)]
            tx, ty = place((coord[0] + dq, coord[1] + dr))
            fields.append(svg.tag("line", None, x1=svg.num(x), y1=svg.num(y), x2=svg.num((x + tx) / 2),
                                  y2=svg.num((y + ty) / 2), stroke="#5a3d1e", stroke_width=3, class_="dock"))
            fields.append(svg.text(x, y + 4, waiting, 11, "middle", class_="waiting", font_weight="bold"))
    out.append(svg.tag("g", "".join(fields), class_="river"))
    marks = []
    for start, end in _moved(position, previous):
        if start != end:
            x, y = place(start)
            marks.append(svg.tag("polygon", None, points=_hexagon(x, y, SIZE - 3), fill="none", stroke="#111",
                                 stroke_width=2, stroke_dasharray="3,2", class_="last-from",
                                 data_cell=f"{start[0]},{start[1]}"))
        x, y = place(end)
        marks.append(svg.tag("polygon", None, points=_hexagon(x, y, SIZE - 3), fill="none", stroke="#111",
                             stroke_width=2.5, class_="last-to", data_cell=f"{end[0]},{end[1]}"))
    out.append(svg.tag("g", "".join(marks), class_="last-move"))
    for ship in position.ships:
        x, y = place(ship.position)
        dq, dr = VECTORS[ship.direction]
        hx, hy = _center(dq, dr)
        length = math.hypot(hx, hy)
        nose = (x + hx / length * SIZE * 0.8, y + hy / length * SIZE * 0.8)
        offset = -3 if ship.team == 0 and ship.position == position.ships[1].position else 0
        body = (svg.circle(x + offset, y + offset, SIZE * 0.45, SHIP[ship.team], stroke="#111", stroke_width=1)
                + svg.tag("line", None, x1=svg.num(x), y1=svg.num(y), x2=svg.num(nose[0]), y2=svg.num(nose[1]),
                          stroke="#111", stroke_width=3))
        out.append(svg.tag("g", body, class_=f"piece ship {TEAM_NAMES[ship.team]}",
                           data_cell=f"{ship.q},{ship.r}", data_direction=DIRECTIONS[ship.direction]))
    title = f"Mississippi Queen, turn {position.turn}: {shown_names[0]} vs {shown_names[1]}"
    return svg.document(width, height, "".join(out), title)
