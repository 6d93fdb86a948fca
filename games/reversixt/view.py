"""ReversiXT as an SVG picture: the map with every stone, hole, special square and transition,
each player's stones, overwrite stones and bombs, the last move.

``render_svg(state, last_move, previous)`` takes the rules' :class:`State` (or the
:class:`~swc_local.games.reversixt.referee.Referee` holding it, which adds the map name, the
phase and the last move) and the referee's ``(player, x, y, special)`` move.  Pure and
deterministic (see :mod:`swc_local.games.svg`); only :mod:`.rules` and :mod:`.mapfile` are read.

Conformance notes (choices where no official picture exists to copy):

* Orientation as the map file and the reference's text board: x to the right, y = 0 on top.
  Holes are left dark; ``c`` (choice), ``i`` (inversion), ``b`` (bonus) and ``x`` (expansion)
  squares are lettered; a transition is a dashed line between the two squares' sides it joins.
* Players 1..8 have fixed colours (the legend shows each player's colour, stones, overwrite
  stones and bombs; a disqualified player's stones stay on the board, struck in the legend).
* The last move's square is framed (``last-to``); a bomb (the square is a hole now) is framed
  with the blast's holes (``last-blast``) when the state before is given.
* Maps up to 1000 x 1000 are accepted by the rules.  Up to :data:`DETAILED_SQUARES` squares
  the board is drawn square by square (a stone is ``class="piece p<player>"`` with its
  ``data-cell``), at a cell size that keeps it about 600 units wide; a larger board is one
  embedded pixel image in the same colours (``class="board-image"``, a pixel a square), so a
  huge map (an uploaded log, say) costs bytes, not elements: a 1000 x 1000 map is drawn in well
  under a second.  Transitions are then drawn only up to :data:`MAX_TRANSITIONS`.
"""

from __future__ import annotations

from swc_local.games import svg
from swc_local.games.reversixt.mapfile import BONUS, CHOICE, DIRECTIONS, EXPANSION, HOLE, INVERSION
from swc_local.games.reversixt.notation import move_notation
from swc_local.games.reversixt.rules import State

MARGIN = 26
BOARD = 600
EMPTY_FILL = "#f2efe6"
HOLE_FILL = "#3a3a3a"
SPECIALS = {CHOICE: ("c", "#b8a2e3"), INVERSION: ("i", "#9fd9d0"), BONUS: ("b", "#f5d77a"), EXPANSION: ("x", "#9a9a9a")}
SPECIAL_NAMES = {CHOICE: "choice", INVERSION: "inversion", BONUS: "bonus", EXPANSION: "expansion"}
LINE = 17
DETAILED_SQUARES = 10_000
MAX_TRANSITIONS = 400
PALETTE = [EMPTY_FILL, *svg.PLAYER_COLORS_8, HOLE_FILL, *(fill for _, fill in SPECIALS.values())]
"""Pixel colours of the square codes 0 (empty), 1..8 (players), 9 (hole), 10..13 (c i b x)."""


def _unpack(state) -> tuple[State, str, object, int | None, list[int] | None]:
    """(rules state, map name, last move, phase, groups) from a State or a Referee."""
    inner = getattr(state, "state", None)
    if isinstance(inner, State):
        moves = getattr(state, "moves", None) or [None]
        return inner, str(getattr(state, "map_name", "") or ""), moves[-1], getattr(state, "phase", None), \
            list(getattr(state, "groups", []) or [])
    return state, "", None, None, None


def _move_text(move, square_now: int, before: State | None) -> str:
    """The move's notation; a square that became a hole was bombed (phase 2)."""
    x, y = move[1], move[2]
    bombed = square_now == HOLE and (before is None or before.squares[y * before.game_map.width + x] != HOLE)
    return move_notation(move, before, bomb=bombed)


def _transition(grid: svg.Grid, t, number: int) -> str:
    """One transition (``class="transition"``): between near squares a dashed curve from side r1
    of (x1, y1) to side r2 of (x2, y2), bowed outwards; between far ones (across the board) a
    short dashed stub out of each side, both labelled with the transition's number, so the lines
    do not cross the whole board."""
    half = grid.cell / 2
    (ax, ay), (bx, by) = grid.center(t.x1, t.y1), grid.center(t.x2, t.y2)
    (dx1, dy1), (dx2, dy2) = DIRECTIONS[t.r1 % 8], DIRECTIONS[t.r2 % 8]
    ax, ay, bx, by = ax + dx1 * half, ay + dy1 * half, bx + dx2 * half, by + dy2 * half
    stroke = {"fill": "none", "stroke": "#7a4fbf", "stroke_width": max(1, grid.cell / 14),
              "stroke_dasharray": f"{svg.num(max(2, grid.cell / 6))} {svg.num(max(2, grid.cell / 8))}"}
    bow = grid.cell * 1.5
    if max(abs(t.x1 - t.x2), abs(t.y1 - t.y2)) <= 3:
        body = svg.tag("path", None, d=(
            f"M{svg.num(ax)},{svg.num(ay)} C{svg.num(ax + dx1 * bow)},{svg.num(ay + dy1 * bow)} "
            f"{svg.num(bx + dx2 * bow)},{svg.num(by + dy2 * bow)} {svg.num(bx)},{svg.num(by)}"), **stroke)
    else:
        reach = grid.cell * 0.45
        body = ""
        for x, y, dx, dy in ((ax, ay, dx1, dy1), (bx, by, dx2, dy2)):
            body += svg.tag("line", None, x1=x, y1=y, x2=x + dx * reach, y2=y + dy * reach, **stroke)
            body += svg.text(x + dx * reach * 1.45, y + dy * reach * 1.45, number, max(6, grid.cell * 0.3), "middle",
                             fill="#5a2f9f")
    return svg.tag("g", body, opacity="0.7", class_="transition", data_from=f"{t.x1},{t.y1},{t.r1}",
                   data_to=f"{t.x2},{t.y2},{t.r2}")


def _squares(grid: svg.Grid, state: State) -> str:
    """The floor in runs per row (empty squares and stones alike), holes in runs, specials one by
    one, the cell borders as one path."""
    gm, squares = state.game_map, state.squares
    cell = grid.cell
    out = []
    for y in range(gm.height):
        row = y * gm.width
        x = 0
        while x < gm.width:
            code = squares[row + x]
            end = x + 1
            cx, cy = grid.corner(x, y)
            if code in SPECIALS:
                letter, fill = SPECIALS[code]
                out.append(svg.rect(cx, cy, cell, cell, fill, class_=f"special {SPECIAL_NAMES[code]}", data_cell=f"{x},{y}"))
                if cell >= 10:
                    out.append(svg.text(cx + cell / 2, cy + cell / 2 + 1, letter, cell * 0.55, "middle", fill="#222"))
            else:
                floor = code != HOLE
                while end < gm.width and (squares[row + end] != HOLE if floor else squares[row + end] == HOLE) \
                        and squares[row + end] not in SPECIALS:
                    end += 1
                out.append(svg.rect(cx, cy, cell * (end - x), cell, EMPTY_FILL if floor else HOLE_FILL))
            x = end
    out.append(grid.lines("#ccc", 0.3))
    return "".join(out)


def _stones(grid: svg.Grid, state: State) -> str:
    gm, squares = state.game_map, state.squares
    out = []
    for index, code in enumerate(squares):
        if 1 <= code <= 8:
            x, y = index % gm.width, index // gm.width
            cx, cy = grid.center(x, y)
            body = svg.circle(cx, cy, grid.cell * 0.4, svg.PLAYER_COLORS_8[code - 1], stroke="#fff",
                              stroke_width=max(0.5, grid.cell / 20))
            if grid.cell >= 14:
                body += svg.text(cx, cy + 1, code, grid.cell * 0.45, "middle", fill="#fff", font_weight="bold")
            out.append(svg.tag("g", body, class_=f"piece p{code}", data_cell=f"{x},{y}"))
    return "".join(out)


def board_grid(gm) -> tuple[svg.Grid, float, float]:
    """Where the map's squares are drawn (the grid, the coordinates' gap, the margin): the
    picture's own geometry, also read by the seat page to lay clickable frames over the squares."""
    cell = max(0.5, min(40.0, BOARD / max(gm.width, gm.height)))
    gap = cell * 0.8 + 8  # coordinates outside the transitions' stubs and numbers
    margin = MARGIN + gap
    return svg.Grid(gm.width, gm.height, cell, margin, svg.header_height(2) + margin), gap, margin


def render_svg(state, last_move=None, previous=None) -> str:
    state, map_name, own_move, phase, groups = _unpack(state)
    before = _unpack(previous)[0] if previous is not None else None
    move = last_move if last_move is not None else own_move
    gm = state.game_map
    grid, gap, margin = board_grid(gm)
    grid_top = svg.header_height(2) + margin
    cell = grid.cell
    width = grid.width + 2 * margin
    every = 1 if cell >= 14 else 5 if cell >= 4 else 25 if cell >= 1 else 100
    detailed = gm.width * gm.height <= DETAILED_SQUARES
    if detailed:
        out = [_squares(grid, state)]
    else:
        pixels = bytes(state.squares).translate(bytes(min(code, len(PALETTE) - 1) for code in range(256)))
        out = [svg.pixel_image(grid, pixels, PALETTE, class_="board-image")]
    out.append(grid.labels(min(11, max(7, cell * 0.4)), every, gap))
    if detailed or len(gm.transitions) <= MAX_TRANSITIONS:
        out += [_transition(grid, t, i) for i, t in enumerate(gm.transitions, 1)]
    if detailed:
        out.append(_stones(grid, state))
    status = [(f"{state.players} players, {sum(state.squares.count(p) for p in range(1, 9))} stones"
               + ("" if phase is None else f", phase {phase}"), "#222")]
    if move is not None:
        player, x, y, _ = move
        if 0 <= x < gm.width and 0 <= y < gm.height:
            cx, cy = grid.corner(x, y)
            out.append(svg.rect(cx, cy, cell, cell, "none", stroke=svg.HIGHLIGHT_TO, stroke_width=max(1.5, cell / 8),
                                class_="last-to", data_cell=f"{x},{y}"))
            if before is not None and state.squares[y * gm.width + x] == HOLE:
                blast = [i for i, (a, b) in enumerate(zip(before.squares, state.squares)) if a != HOLE and b == HOLE]
                for i in (blast if detailed else ()):  # a huge board shows the holes in its image
                    bx, by = grid.corner(i % gm.width, i // gm.width)
                    out.append(svg.rect(bx + 1, by + 1, cell - 2, cell - 2, "none", stroke="#ff5a1f",
                                        stroke_width=max(1, cell / 12), class_="last-blast",
                                        data_cell=f"{i % gm.width},{i // gm.width}"))
            status.append((_move_text(move, state.squares[y * gm.width + x], before),
                           svg.PLAYER_COLORS_8[(player - 1) % 8]))
    legend_top = grid_top + grid.height + margin
    rows = []
    for p in range(1, state.players + 1):
        group = f" (group {groups[p - 1]})" if groups and p <= len(groups) else ""
        out_text = ", disqualified" if p in state.disqualified else ""
        rows.append((svg.circle(6, 6, 6, svg.PLAYER_COLORS_8[p - 1]),
                     f"player {p}{group}: {state.stones(p)} stones, {state.overwrites[p] & 0xFF} overwrite stones, "
                     f"{state.bombs[p] & 0xFF} bombs{out_text}"))
    out.append(svg.legend(MARGIN, legend_top, rows, 12, LINE))
    keys = [(svg.rect(0, 0, 12, 12, fill), f"{SPECIAL_NAMES[code]} ({letter})") for code, (letter, fill) in SPECIALS.items()]
    keys += [(svg.rect(0, 0, 12, 12, HOLE_FILL), "hole"),
             (svg.tag("line", None, x1=0, y1=6, x2=12, y2=6, stroke="#7a4fbf", stroke_dasharray="3 2"), "transition")]
    keys_top = legend_top + LINE * len(rows) + 6
    for column in range(3):
        out.append(svg.legend(MARGIN + column * 120, keys_top, keys[2 * column:2 * column + 2], 12, LINE))
    height = keys_top + 2 * LINE + 8
    title = f"ReversiXT on {map_name}" if map_name else "ReversiXT"
    header = svg.header(width, [(None, title)], status)
    return svg.document(width, height, header + "".join(out), title)
