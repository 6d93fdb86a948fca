"""The Hase und Igel track as an SVG picture, shared by both seasons' views (2018 and 2025).

A common module rather than one season importing the other's view: no game imports another game
(ARCHITECTURE.md), and both seasons draw the same snake-shaped track, hares and panel.
"""

from __future__ import annotations

from swc_local.games import svg

PER_ROW = 13
CELL = 50
MARGIN = 16
SEAT_COLORS = svg.SEAT_COLORS_2

FIELD_STYLE = {  # kind -> (label, fill)
    "START": ("start", "#e0e0e0"),
    "CARROT": ("carrot", "#ffb86b"),
    "CARROTS": ("carrot", "#ffb86b"),
    "HARE": ("hare", "#c8a27a"),
    "SALAD": ("salad", "#9bd47a"),
    "HEDGEHOG": ("hedgehog", "#a8a8b8"),
    "MARKET": ("market", "#f3d35c"),
    "POSITION_1": ("1st", "#9ec9f0"),
    "POSITION_2": ("2nd", "#c6def5"),
    "GOAL": ("goal", "#ffe680"),
}


def field_center(grid: svg.Grid, index: int) -> tuple[float, float]:
    return grid.center(*snake(index))


def snake(index: int) -> tuple[int, int]:
    """The (column, row) of field ``index`` on the snake-shaped track."""
    row, column = divmod(index, PER_ROW)
    return (column if row % 2 == 0 else PER_ROW - 1 - column), row


def track_grid(fields: int, top: float) -> svg.Grid:
    return svg.Grid(PER_ROW, (fields + PER_ROW - 1) // PER_ROW, CELL, MARGIN, top)


def draw_track(grid: svg.Grid, kinds: tuple[str, ...]) -> str:
    out = []
    for index, kind in enumerate(kinds):
        x, y = grid.corner(*snake(index))
        label, fill = FIELD_STYLE.get(kind, (kind.lower(), "#ffffff"))
        out.append(svg.tag("rect", None, x=x + 1.5, y=y + 1.5, width=CELL - 3, height=CELL - 3, rx=6, fill=fill,
                           stroke="#777", stroke_width=0.5, class_="field", data_kind=kind))
        out.append(svg.text(x + 5, y + 9, index, 9, fill="#444"))
        out.append(svg.text(x + CELL / 2, y + CELL - 10, label, 9, "middle", fill="#222"))
    return svg.tag("g", "".join(out), class_="track")


def draw_hares(grid: svg.Grid, positions: tuple[int, int], labels: tuple[str, str], letters: str) -> str:
    """Both hares (``class="piece <label>"``, ``data-cell`` = field); on a shared field (start,
    goal) they stand side by side."""
    out = []
    for seat, index in enumerate(positions):
        cx, cy = field_center(grid, index)
        if positions[0] == positions[1]:
            cx += (-1 if seat == 0 else 1) * CELL * 0.2
        body = svg.circle(cx, cy - 4, CELL * 0.2, SEAT_COLORS[seat], stroke="#fff", stroke_width=2)
        body += svg.text(cx, cy - 3, letters[seat], 11, "middle", fill="#fff", font_weight="bold")
        out.append(svg.tag("g", body, class_=f"piece hare {labels[seat]}", data_cell=index))
    return "".join(out)


def draw_last_move(grid: svg.Grid, before: int | None, after: int) -> str:
    """Frames round the fields of a hare that went from ``before`` to ``after``, and an arrow
    (``before`` None: unknown, only the field it stands on now is framed)."""
    out = []
    for kind, color, index in (("last-from", svg.HIGHLIGHT_FROM, before), ("last-to", svg.HIGHLIGHT_TO, after)):
        if index is not None:
            x, y = grid.corner(*snake(index))
            out.append(svg.rect(x + 2.5, y + 2.5, CELL - 5, CELL - 5, "none", stroke=color, stroke_width=5,
                                class_=kind, data_cell=index))
    if before is not None and before != after:
        (x1, y1), (x2, y2) = field_center(grid, before), field_center(grid, after)
        out.append(svg.arrow(x1, y1 + 8, x2, y2 + 8, width=2.5, head=9, data_from=before, data_to=after))
    return "".join(out)


def panel(top: float, width: float, lines: list[tuple[str, str]]) -> str:
    """Text lines under the track (players' stock, the last move), in their colours."""
    return svg.tag("g", "".join(svg.text(MARGIN, top + 9 + i * 17, line, 12, fill=color)
                                for i, (line, color) in enumerate(lines)), class_="panel")


def track_picture(game: str, kinds: tuple[str, ...], names: tuple[str, str], seats: tuple[str, str], letters: str,
                  status: tuple[str, str], turn: int, positions: tuple[int, int], lines: list[tuple[str, str]],
                  last: tuple[int | None, int, str, int] | None) -> str:
    """The whole picture of either season: header (``names`` shown with their ``seats``), the
    track, the hares, the stock ``lines`` and, with ``last`` = (field left or None, field
    reached, move text, mover's seat), the last move."""
    grid = track_grid(len(kinds), svg.header_height(2) + 6)
    width = grid.width + 2 * MARGIN
    marks = ""
    if last is not None:
        before, after, moved, seat = last
        marks = draw_last_move(grid, before, after)
        lines = [*lines, (f"last move, {seats[seat]}: {moved}", SEAT_COLORS[seat])]
    panel_top = grid.top + grid.height + 10
    out = [
        svg.header(width, [(SEAT_COLORS[seat], f"{names[seat]} ({seats[seat]})") for seat in (0, 1)],
                   [(f"turn {turn}", "#222"), status]),
        draw_track(grid, kinds),
        marks,
        draw_hares(grid, positions, seats, letters),
        panel(panel_top, width, lines),
    ]
    title = f"{game}, turn {turn}: {names[0]} vs {names[1]}"
    return svg.document(width, panel_top + 17 * len(lines) + 10, "".join(out), title)


def track_boxes(fields: int) -> dict[str, list[float]]:
    """The box of every field as :func:`track_picture` lays the track out (a person's pointing)."""
    grid = track_grid(fields, svg.header_height(2) + 6)
    return {str(i): [*grid.corner(*snake(i)), grid.cell, grid.cell] for i in range(fields)}
