"""Robo Rally as an SVG picture: the course map with every board element (walls, belts, push
panels, gears, pits, energy spaces, lasers and their beams, antenna, checkpoints, reboot and
start points), the robots with their facing, and where they went since the previous picture.

``render_svg(state, last_move, previous)`` draws a round as ``swc replay`` prints it: a
:class:`~swc_local.games.roborally.logview.RoundView` of :func:`~swc_local.games.roborally.logview.follow`
(what a client knows from the server's messages), or a live
:class:`~swc_local.games.roborally.game.Game`.  The last move: ``last_move`` as
``{robot: [(x, y), ...]}`` (the squares each robot went through), else, with ``previous`` (the
round before), each robot's square then and now.  Pure and deterministic.

Conformance notes (choices where no official picture exists to copy):

* Orientation as the map JSON and the text board: x to the right, y = 0 on top; a ``null``
  square is off the board and left blank.
* Robots have the player colours 1..8 in client ID order; a robot is a circle with its client ID
  and a pointer in its facing.  Names and energy are shown when the state carries them
  (``names``/``energy`` mappings, a live game's robots); a log's round has checkpoints only.
* A laser beam is drawn from its emitter along its direction until a wall, the antenna, the
  board's edge or the first robot (as the rules trace it); robots' own lasers are not drawn.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from swc_local.games import svg
from swc_local.games.roborally.board import DELTA, Board

CELL = 44
MARGIN = 26
LINE = 17
FLOOR = "#d9dde2"
BELT_FILL = {2: "#8fb8f0", 1: "#9fdca8"}
POINTER = {"top": (0, -1), "right": (1, 0), "bottom": (0, 1), "left": (-1, 0)}


@dataclass(frozen=True)
class Picture:
    """What the drawing needs of a round, whatever it came from."""

    board: Board
    robots: dict[int, tuple[int, int, str]]  # on the board only
    title: str = ""
    events: tuple[str, ...] = ()
    checkpoints: dict[int, int] = field(default_factory=dict)
    energy: dict[int, int] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    players: tuple[int, ...] = ()
    winner: int | None = None


def picture_of(state) -> Picture:
    """A round view (``board``, ``robots`` as (x, y, facing), ``title``, ``events``,
    ``checkpoints``) or a live game (``robots`` as Robot objects) as a :class:`Picture`."""
    robots = state.robots
    if robots and not isinstance(next(iter(robots.values())), tuple):  # a live Game
        live = {pid: r for pid, r in robots.items() if not r.removed}
        return Picture(state.board, {pid: (r.x, r.y, r.facing) for pid, r in live.items() if r.on_board},
                       "game over" if state.over else f"round {state.round}, phase {state.phase}", (),
                       {pid: r.checkpoints for pid, r in robots.items()}, {pid: r.energy for pid, r in robots.items()},
                       {}, tuple(state.order), state.winner)
    events = tuple(getattr(state, "events", ()))
    winner = getattr(state, "winner", None)
    if winner is None:
        winner = next((int(e.split()[1]) for e in events if e.startswith("robot ") and e.endswith(" wins")), None)
    checkpoints = dict(getattr(state, "checkpoints", {}) or {})
    players = tuple(getattr(state, "players", ()) or sorted({*robots, *checkpoints}))
    return Picture(state.board, dict(robots), str(getattr(state, "title", "")), events, checkpoints,
                   dict(getattr(state, "energy", {}) or {}), dict(getattr(state, "names", {}) or {}), players, winner)


# --- drawing --------------------------------------------------------------------------------

def beam(board: Board, x: int, y: int, direction: str, robots: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """The squares a board laser at (x, y) reaches (its own square first), as the rules trace it."""
    squares = [(x, y)]
    dx, dy = DELTA[direction]
    while (x, y) not in robots and not board.wall_blocks(x, y, direction):
        x, y = x + dx, y + dy
        square = board.square(x, y)
        if square is None or square.antenna:
            break
        squares.append((x, y))
    return squares


def _arrow_in(grid: svg.Grid, x: int, y: int, direction: str, color: str, size: float = 0.3) -> str:
    cx, cy = grid.center(x, y)
    dx, dy = POINTER[direction]
    r = grid.cell * size
    return svg.arrow(cx - dx * r, cy - dy * r, cx + dx * r, cy + dy * r, width=2, head=7, color=color, class_="sign")


def _walls(grid: svg.Grid, x: int, y: int, sides) -> str:
    left, top = grid.corner(x, y)
    c = grid.cell
    ends = {"top": (0, 0, c, 0), "bottom": (0, c, c, c), "left": (0, 0, 0, c), "right": (c, 0, c, c)}
    return "".join(svg.tag("line", None, x1=left + ends[s][0], y1=top + ends[s][1], x2=left + ends[s][2],
                           y2=top + ends[s][3], stroke="#f0a000", stroke_width=4, class_="wall")
                   for s in sorted(sides))


def _square(grid: svg.Grid, board: Board, x: int, y: int) -> str:
    """One square's floor and elements (walls come later, over everything)."""
    square = board.square(x, y)
    left, top = grid.corner(x, y)
    c = grid.cell
    cx, cy = grid.center(x, y)
    out = [svg.rect(left, top, c, c, "#111" if square.pit else FLOOR, stroke="#aab", stroke_width=0.5)]
    if square.belt:
        speed, outflow, _ = square.belt
        out.append(svg.rect(left + 3, top + 3, c - 6, c - 6, BELT_FILL.get(speed, "#ccc"), class_="belt"))
        out.append(_arrow_in(grid, x, y, outflow, "#234" if speed == 2 else "#1b5e20"))
        if speed == 2:
            out.append(_arrow_in(grid, x, y, outflow, "#234", 0.12))
    if square.gear:
        out.append(svg.circle(cx, cy, c * 0.32, "#9a9a9a", stroke="#555", stroke_width=2, class_="gear"))
        out.append(svg.text(cx, cy + 1, "↻" if square.gear == "clockwise" else "↺", c * 0.4, "middle", fill="#fff"))
    if square.has_energy_space:
        out.append(svg.rect(cx - c * 0.15, cy - c * 0.25, c * 0.3, c * 0.5, "#2e9e4a", rx=3, class_="energy"))
        out.append(svg.text(cx, cy + 1, "E", c * 0.26, "middle", fill="#fff"))
    if square.push:
        direction, registers = square.push
        out.append(svg.rect(left + 2, top + 2, c - 4, c - 4, "none", stroke="#c58b00", stroke_width=2,
                            stroke_dasharray="4 3", class_="push-panel"))
        out.append(_arrow_in(grid, x, y, direction, "#c58b00", 0.28))
        out.append(svg.text(cx, top + c - 7, ",".join(str(r) for r in sorted(registers)), c * 0.22, "middle",
                            fill="#7a5500"))
    if square.start:
        out.append(svg.circle(cx, cy, c * 0.3, "none", stroke="#555", stroke_width=1.5, class_="start-point"))
        out.append(svg.text(cx, cy + 1, "S", c * 0.26, "middle", fill="#555"))
    if square.restart:
        out.append(svg.rect(left + 4, top + 4, c - 8, c - 8, "none", stroke="#2a7", stroke_width=2, class_="reboot"))
        out.append(_arrow_in(grid, x, y, square.restart, "#2a7", 0.2))
    if square.antenna:
        out.append(svg.tag("polygon", None, points=f"{svg.num(cx)},{svg.num(top + 5)} {svg.num(left + 8)},"
                           f"{svg.num(top + c - 5)} {svg.num(left + c - 8)},{svg.num(top + c - 5)}",
                           fill="#444", class_="antenna"))
        out.append(svg.text(cx, cy + 6, "A", c * 0.24, "middle", fill="#fff"))
    if square.checkpoint:
        out.append(svg.circle(cx, cy, c * 0.34, "#ffd24a", stroke="#a67c00", stroke_width=2, class_="checkpoint",
                              data_number=square.checkpoint))
        out.append(svg.text(cx, cy + 1, square.checkpoint, c * 0.36, "middle", fill="#5a4000", font_weight="bold"))
    if square.laser:
        direction, _ = square.laser
        dx, dy = POINTER[direction]
        out.append(svg.rect(cx - dx * c * 0.42 - 5, cy - dy * c * 0.42 - 5, 10, 10, "#c62828", class_="laser"))
    return "".join(out)


def _beams(grid: svg.Grid, board: Board, robots: set[tuple[int, int]]) -> str:
    out = []
    for (x, y), square in sorted(board.squares.items()):
        if square.laser:
            direction, count = square.laser
            path = beam(board, x, y, direction, robots)
            (x1, y1), (x2, y2) = grid.center(*path[0]), grid.center(*path[-1])
            dx, dy = POINTER[direction]
            x1, y1 = x1 - dx * grid.cell * 0.42, y1 - dy * grid.cell * 0.42
            for i in range(count):
                off = (i - (count - 1) / 2) * 4
                out.append(svg.tag("line", None, x1=x1 + dy * off, y1=y1 + dx * off, x2=x2 + dy * off,
                                   y2=y2 + dx * off, stroke="#e53935", stroke_width=1.5, opacity="0.8",
                                   class_="beam", data_from=f"{x},{y}", data_to=f"{path[-1][0]},{path[-1][1]}"))
    return "".join(out)


def _robot(grid: svg.Grid, pid: int, x: int, y: int, facing: str, color: str) -> str:
    cx, cy = grid.center(x, y)
    r = grid.cell * 0.34
    dx, dy = POINTER.get(facing, (0, -1))
    tip = (cx + dx * (r + 7), cy + dy * (r + 7))
    side = ((cx + dx * r - dy * 6, cy + dy * r + dx * 6), (cx + dx * r + dy * 6, cy + dy * r - dx * 6))
    points = " ".join(f"{svg.num(px)},{svg.num(py)}" for px, py in (tip, *side))
    body = svg.tag("polygon", None, points=points, fill=color, stroke="#fff", stroke_width=1)
    body += svg.circle(cx, cy, r, color, stroke="#fff", stroke_width=2)
    body += svg.text(cx, cy + 1, pid, r, "middle", fill="#fff", font_weight="bold")
    return svg.tag("g", body, class_="piece robot", data_cell=f"{x},{y}", data_robot=pid, data_facing=facing)


_KEYS = (
    [(svg.rect(0, 0, 12, 12, BELT_FILL[2]), "blue belt (2 squares)"), (svg.rect(0, 0, 12, 12, BELT_FILL[1]), "green belt (1 square)"),
     (svg.rect(0, 0, 12, 12, "#111"), "pit")],
    [(svg.circle(6, 6, 6, "#9a9a9a"), "gear (turns)"), (svg.rect(0, 0, 12, 12, "none", stroke="#c58b00", stroke_dasharray="3 2"),
                                                     "push panel (registers)"), (svg.rect(4, 2, 5, 9, "#2e9e4a"), "energy space")],
    [(svg.rect(3, 3, 6, 6, "#c62828") + svg.tag("line", None, x1=9, y1=6, x2=14, y2=6, stroke="#e53935"), "laser and beam"),
     (svg.tag("line", None, x1=0, y1=6, x2=12, y2=6, stroke="#f0a000", stroke_width=4), "wall"),
     (svg.circle(6, 6, 6, "#ffd24a"), "checkpoint")],
    [(svg.rect(0, 0, 12, 12, "none", stroke="#2a7", stroke_width=2), "reboot point"),
     (svg.circle(6, 6, 5, "none", stroke="#555"), "start point"), (svg.tag("polygon", None, points="6,0 0,12 12,12", fill="#444"), "antenna")],
)


def render_svg(state, last_move: dict[int, list[tuple[int, int]]] | None = None, previous=None) -> str:
    snapshot = picture_of(state)
    paths = last_move
    if paths is None and previous is not None:
        before = picture_of(previous).robots
        paths = {pid: [before[pid][:2], here[:2]] for pid, here in snapshot.robots.items() if pid in before}
    paths = paths or {}
    board = snapshot.board
    grid, width, _ = svg.frame(board.width, board.height, CELL, MARGIN, 2, 0)
    width = max(width, 2 * MARGIN + 150 * len(_KEYS))  # room for the key under a small board
    players = list(snapshot.players) or sorted(snapshot.robots)
    color = {pid: svg.PLAYER_COLORS_8[i % 8] for i, pid in enumerate(players)}
    occupied = {(x, y) for x, y, _ in snapshot.robots.values()}
    out = [svg.rect(grid.left, grid.top, grid.width, grid.height, "#fafafa")]
    out += [_square(grid, board, x, y) for (x, y) in sorted(board.squares)]
    out += [_walls(grid, x, y, s.walls) for (x, y), s in sorted(board.squares.items()) if s.walls]
    out.append(_beams(grid, board, occupied))
    out.append(grid.labels(11))
    for pid in sorted(paths):
        path = [(int(p[0]), int(p[1])) for p in paths[pid]]
        if len(set(path)) < 2:  # did not move
            continue
        ink = color.get(pid, "#222")
        points = " ".join(f"{svg.num(px)},{svg.num(py)}" for px, py in (grid.center(*p) for p in path))
        out.append(svg.tag("polyline", None, points=points, fill="none", stroke=ink, stroke_width=4,
                           stroke_linejoin="round", opacity="0.55", class_="last-move", data_robot=pid))
        for kind, (x, y), dash in (("last-from", path[0], "4 3"), ("last-to", path[-1], None)):
            left, top = grid.corner(x, y)
            out.append(svg.rect(left + 2, top + 2, CELL - 4, CELL - 4, "none", stroke=ink, stroke_width=3,
                                stroke_dasharray=dash, class_=kind, data_cell=f"{x},{y}", data_robot=pid))
    for pid, (x, y, facing) in sorted(snapshot.robots.items()):
        out.append(_robot(grid, pid, x, y, facing, color.get(pid, "#222")))
    legend_top = grid.top + grid.height + MARGIN
    rows = []
    total = board.checkpoint_count
    for pid in players:
        name = snapshot.names.get(pid, "")
        where = "off the board" if pid not in snapshot.robots else "at ({},{}) facing {}".format(*snapshot.robots[pid])
        rows.append((svg.circle(6, 6, 6, color[pid]),
                     f"robot {pid}{' ' + name if name else ''}: checkpoints {snapshot.checkpoints.get(pid, 0)}/{total}, "
                     + (f"energy {snapshot.energy[pid]}, " if pid in snapshot.energy else "") + where))
    out.append(svg.legend(MARGIN, legend_top, rows, 12, LINE))
    keys_top = legend_top + LINE * len(rows) + 6
    for column, keys in enumerate(_KEYS):
        out.append(svg.legend(MARGIN + column * 150, keys_top, keys, 11, 15))
    events_top = keys_top + 15 * max(len(k) for k in _KEYS) + 6
    events = list(snapshot.events)[-12:]
    out += [svg.text(MARGIN, events_top + 8 + i * 15, event, 11, fill="#444", class_="event") for i, event in enumerate(events)]
    height = events_top + 15 * len(events) + 12
    status = [(snapshot.title, "#222")]
    if snapshot.winner is not None:
        winner = snapshot.names.get(snapshot.winner) or f"robot {snapshot.winner}"
        status.append((f"winner: {winner}", color.get(snapshot.winner, "#222")))
    title = f"Robo Rally on {board.name}"
    header = svg.header(width, [(None, title), ("#ffd24a", f"{total} checkpoints, {len(players)} robots")], status)
    return svg.document(width, height, header + "".join(out), title)
