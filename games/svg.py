"""Small helpers the games' ``view.py`` modules share to write SVG by hand.

Why hand-written strings and not a library: a board is a few hundred rectangles, circles and
labels; string building keeps every view pure (no I/O, no trio, no protocol), fast, and
byte-for-byte deterministic, which the viewer relies on (same state, same picture, cacheable).

Conventions every view follows (the viewer's page and the tests rely on them):

* one standalone ``<svg xmlns=... viewBox=...>`` element, no fixed width/height, so it scales to
  its container; no ``id`` attributes, so several boards can share one page;
* every drawn piece carries ``class="piece ..."`` and ``data-cell``; the last move's cells carry
  ``class="last-from"`` / ``class="last-to"`` (with ``data-cell``), an arrow ``class="last-move"``;
* every text that did not come from the view itself (player and map names) goes through
  :func:`esc`; numbers through :func:`num`, so floats never print differently.

Why nothing heavy is imported at module level (the PNG encoders ``base64``, ``struct`` and ``zlib``
inside the functions that use them, :func:`esc` without ``html``): a game's entry loads its view
with its plugin (games/entry.py ``load_parts``), so a process that only plays pays no more than
this module's own definitions for the pictures.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass

HIGHLIGHT_FROM = "#ffe08a"
HIGHLIGHT_TO = "#ffc23d"
ARROW_COLOR = "#222"

SEAT_COLORS_2 = ("#d62728", "#1f77b4")
"""The two seats: red and blue (classic RED/BLUE; the official tools draw ONE red, TWO blue)."""

PLAYER_COLORS_8 = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")
"""Players 1..8 (ReversiXT) and robots (Robo Rally), in player order."""


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_UNSAFE = re.compile("[&<>\"'\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_ATTRIBUTE_NAMES: dict[str, str] = {}


def esc(text: object) -> str:
    """``text`` safe inside element content and inside double-quoted attributes.

    Characters XML 1.0 does not allow at all (control characters) become U+FFFD, so a hostile
    name cannot make the document ill-formed either."""
    text = str(text)
    if _UNSAFE.search(text) is None:  # most labels: nothing to do (one C-level scan)
        return text
    text = _NOT_XML.sub("\ufffd", text)
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#x27;"))  # html.escape(quote=True)'s five


def num(value: float) -> str:
    """A coordinate as text: integers without a point, others with at most two decimals."""
    if type(value) is int:
        return str(value)
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def attrs(values: dict[str, object]) -> str:
    """`` name="value"`` pairs: ``class_`` -> ``class``, ``font_size`` -> ``font-size``; None is
    left out, numbers go through :func:`num`, everything else through :func:`esc`."""
    parts = []
    names = _ATTRIBUTE_NAMES
    for key, value in values.items():
        if value is None:
            continue
        name = names.get(key)
        if name is None:
            name = names[key] = key.rstrip("_").replace("_", "-")
        kind = type(value)
        text = num(value) if kind is int or kind is float else esc(value)
        parts.append(f' {name}="{text}"')
    return "".join(parts)


def tag(name: str, content: str | None = None, **values: object) -> str:
    """One element; ``content`` is raw (already escaped) markup, None for an empty element."""
    if content is None:
        return f"<{name}{attrs(values)}/>"
    return f"<{name}{attrs(values)}>{content}</{name}>"


def text(x: float, y: float, content: object, size: float = 12, anchor: str = "start", **values: object) -> str:
    """A label; ``content`` is escaped here."""
    return tag("text", esc(content), x=x, y=y, font_size=size, text_anchor=anchor,
               font_family="sans-serif", dominant_baseline="middle", **values)


def rect(x: float, y: float, w: float, h: float, fill: str, **values: object) -> str:
    return tag("rect", None, x=x, y=y, width=w, height=h, fill=fill, **values)


def circle(cx: float, cy: float, r: float, fill: str, **values: object) -> str:
    return tag("circle", None, cx=cx, cy=cy, r=r, fill=fill, **values)


def arrow(x1: float, y1: float, x2: float, y2: float, width: float = 3, color: str = ARROW_COLOR,
          head: float = 10, class_: str = "last-move", **values: object) -> str:
    """A line with a filled triangular head at (x2, y2), as one ``<g>`` (no marker ids)."""
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    bx, by = x2 - ux * head, y2 - uy * head
    px, py = -uy * head / 2, ux * head / 2
    points = f"{num(x2)},{num(y2)} {num(bx + px)},{num(by + py)} {num(bx - px)},{num(by - py)}"
    return tag("g", tag("line", None, x1=x1, y1=y1, x2=bx, y2=by, stroke=color, stroke_width=width,
                        stroke_linecap="round")
               + tag("polygon", None, points=points, fill=color), class_=class_, opacity="0.85", **values)


def legend(x: float, y: float, entries: list[tuple[str, str]], size: float = 11, step: float = 16) -> str:
    """Rows of (swatch markup drawn at the row's origin, label); swatches get a 12x12 box."""
    rows = []
    for i, (swatch, label) in enumerate(entries):
        rows.append(tag("g", swatch, transform=f"translate({num(x)},{num(y + i * step)})"))
        rows.append(text(x + 18, y + i * step + 6, label, size))
    return tag("g", "".join(rows), class_="legend")


def document(width: float, height: float, body: str, title: str, background: str = "#ffffff") -> str:
    """The standalone ``<svg>``: a viewBox of ``width`` x ``height``, a ``<title>``, the body."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {num(width)} {num(height)}" '
        f'preserveAspectRatio="xMidYMid meet" role="img">'
        f"<title>{esc(title)}</title>"
        + rect(0, 0, width, height, background)
        + body
        + "</svg>"
    )


@dataclass(frozen=True)
class Grid:
    """A board of ``cols`` x ``rows`` square cells at (``left``, ``top``), ``cell`` units each.

    ``y_up``: row y = 0 is drawn at the bottom (the games whose text boards put the highest y on
    top: Piranhas, Ostseeschach); otherwise y = 0 is the top row (Blokus, ReversiXT, Robo Rally).
    """

    cols: int
    rows: int
    cell: float
    left: float
    top: float
    y_up: bool = False

    @property
    def width(self) -> float:
        return self.cols * self.cell

    @property
    def height(self) -> float:
        return self.rows * self.cell

    def corner(self, x: int, y: int) -> tuple[float, float]:
        row = self.rows - 1 - y if self.y_up else y
        return self.left + x * self.cell, self.top + row * self.cell

    def center(self, x: int, y: int) -> tuple[float, float]:
        cx, cy = self.corner(x, y)
        return cx + self.cell / 2, cy + self.cell / 2

    def square(self, x: int, y: int, fill: str, inset: float = 0, **values: object) -> str:
        cx, cy = self.corner(x, y)
        return rect(cx + inset, cy + inset, self.cell - 2 * inset, self.cell - 2 * inset, fill, **values)

    # The board's background, grid and coordinates are the same for every state of a game: they are
    # written once per grid and colours (a Piranhas state's drawing took half its time on them).

    @functools.lru_cache(maxsize=32)  # noqa: B019 (grids are small, immutable and few)
    def lines(self, color: str, width: float = 0.5) -> str:
        """The cell borders as one path (instead of an element per cell)."""
        right, bottom = self.left + self.width, self.top + self.height
        d = "".join(f"M{num(self.left + i * self.cell)},{num(self.top)}V{num(bottom)}" for i in range(self.cols + 1))
        d += "".join(f"M{num(self.left)},{num(self.top + j * self.cell)}H{num(right)}" for j in range(self.rows + 1))
        return tag("path", None, d=d, fill="none", stroke=color, stroke_width=width, class_="grid")

    @functools.lru_cache(maxsize=32)  # noqa: B019
    def checkers(self, light: str, dark: str) -> str:
        return "".join(self.square(x, y, dark if (x + y) % 2 else light)
                       for y in range(self.rows) for x in range(self.cols))

    @functools.lru_cache(maxsize=32)  # noqa: B019
    def labels(self, size: float | None = None, every: int = 1, gap: float | None = None) -> str:
        """Column numbers above and below, row numbers left and right of the board, ``gap``
        units away from it."""
        size = size or max(8.0, self.cell * 0.4)
        out = []
        gap = size * 0.9 if gap is None else gap
        for x in range(0, self.cols, every):
            cx, _ = self.center(x, 0)
            out.append(text(cx, self.top - gap, x, size, "middle", fill="#555"))
            out.append(text(cx, self.top + self.height + gap, x, size, "middle", fill="#555"))
        for y in range(0, self.rows, every):
            _, cy = self.center(0, y)
            out.append(text(self.left - gap, cy, y, size, "middle", fill="#555"))
            out.append(text(self.left + self.width + gap, cy, y, size, "middle", fill="#555"))
        return tag("g", "".join(out), class_="coordinates")

    def mark(self, x: int, y: int, kind: str, fill: str) -> str:
        """The highlight of a last-move cell (``kind``: last-from or last-to), under the pieces."""
        return self.square(x, y, fill, class_=kind, data_cell=f"{x},{y}")

    def move_arrow(self, start: tuple[int, int], end: tuple[int, int]) -> str:
        (x1, y1), (x2, y2) = self.center(*start), self.center(*end)
        return arrow(x1, y1, x2, y2, width=max(2.0, self.cell / 12), head=max(8.0, self.cell / 3),
                     data_from=f"{start[0]},{start[1]}", data_to=f"{end[0]},{end[1]}")


def header(width: float, seats: list[tuple[str | None, str]], status: list[tuple[str, str]], size: float = 13,
           step: float = 18) -> str:
    """The lines above a board: a colour dot and label per seat on the left (labels are escaped
    here, they carry player names; a seat without colour is a title line), status lines (turn, who moves, result) on the right."""
    out = []
    drawn = []  # each status line as drawn: (text, size), at most the picture's width
    for i, (line, color) in enumerate(status):
        shown, shown_size = _fitted(str(line), width - 16, size)
        drawn.append((shown, shown_size))
        out.append(text(width - 8, 14 + i * step, shown, shown_size, "end", fill=color, class_="status"))
    for i, (color, label) in enumerate(seats):
        y = 14 + i * step
        beside = drawn[i] if i < len(drawn) else ("", size)
        # the room left of this row's status line; a longer label is drawn smaller before it is cut
        free = width - 22 - 8 - (len(beside[0]) * beside[1] * 0.6 + 12 if beside[0] else 0)
        shown, shown_size = _fitted(str(label), free, size)
        if color is None:  # a title line
            out.append(text(8, y, shown, shown_size, class_="title", font_weight="bold"))
            continue
        out.append(circle(12, y, 6, color, stroke="#333", stroke_width=0.5))
        out.append(text(22, y, shown, shown_size, class_="seat"))
    return tag("g", "".join(out), class_="header")


SMALLEST = 0.6
"""A header label too long for its room is drawn down to this share of the font size, whole,
before anything is cut (a seat's cards and last move must be readable, not "la\u2026")."""


def fitted_text(x: float, y: float, content: object, size: float, room: float, **values: object) -> str:
    """A line of at most ``room`` units: drawn smaller, down to :data:`SMALLEST`, before it is
    cut (a status line under or over a board must not run off the picture's edge)."""
    shown, shown_size = _fitted(str(content), room, size)
    return text(x, y, shown, shown_size, **values)


def _fitted(label: str, room: float, size: float) -> tuple[str, float]:
    """(``label``, font size) that fit ``room`` units: smaller first, cut only at the smallest."""
    wide = len(label) * size * 0.6
    if wide <= room:
        return label, size
    smaller = math.floor(max(size * SMALLEST, size * room / wide) * 100) / 100  # rounded down: it fits
    return fit(label, max(8, int(room / (smaller * 0.6)))), smaller


def fit(label: object, room: int) -> str:
    """``label`` cut to ``room`` characters with an ellipsis: a long player name must not run
    into the status lines on the right (the page lists every name whole)."""
    label = str(label)
    return label if len(label) <= room else label[: room - 1] + "\u2026"


def header_height(rows: int, step: float = 18) -> float:
    return 8 + rows * step


def unwrap(game: object, inner: str) -> tuple[object, tuple[str, str]]:
    """A plugin's game object -> (its rules state ``game.<inner>``, the two display names).

    A bare rules state is accepted too (then the names are blank)."""
    state = getattr(game, inner, game)
    names = tuple(getattr(game, "names", None) or ("", ""))
    return state, (str(names[0] or ""), str(names[1] or ""))


def frame(cols: int, rows: int, cell: float, margin: float, header_rows: int, below: float,
          y_up: bool = False) -> tuple[Grid, float, float]:
    """The layout of a picture: header lines, the board with room for coordinates, ``below``
    units for legends; returns the board's grid and the picture's width and height."""
    top = header_height(header_rows)
    grid = Grid(cols, rows, cell, margin, top + margin, y_up)
    return grid, grid.width + 2 * margin, top + grid.height + 2 * margin + below


def jump_marks(grid: Grid, start: tuple[int, int], landed: list[tuple[int, int]]) -> tuple[str, str]:
    """(highlights under the pieces, arrow over them) of a move from ``start`` to one of
    ``landed``: one field is the destination (``last-to``), several are the candidates the
    picture cannot decide between (``last-to-maybe``), the arrow then points at the farthest."""
    marks = [grid.mark(*start, "last-from", HIGHLIGHT_FROM)]
    kind = "last-to" if len(landed) == 1 else "last-to-maybe"
    marks += [grid.mark(x, y, kind, HIGHLIGHT_TO) for x, y in landed]
    return "".join(marks), (grid.move_arrow(start, landed[-1]) if landed else "")


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    import struct
    import zlib
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(cols: int, rows: int, pixels: bytes, palette: list[str]) -> bytes:
    """A palette PNG of ``cols`` x ``rows`` pixels; ``pixels`` holds one palette index per pixel,
    row by row; ``palette`` is ``#rrggbb`` colours (at most 256).  Deterministic bytes."""
    import struct
    import zlib

    plte = b"".join(bytes.fromhex(color[1:7]) for color in palette)
    raw = b"".join(b"\x00" + pixels[y * cols:(y + 1) * cols] for y in range(rows))
    header = struct.pack(">IIBBBBB", cols, rows, 8, 3, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header) + _png_chunk(b"PLTE", plte)
            + _png_chunk(b"IDAT", zlib.compress(raw, 6)) + _png_chunk(b"IEND", b""))


def pixel_image(grid: Grid, pixels: bytes, palette: list[str], **values: object) -> str:
    """The whole grid as one embedded image, a pixel per cell (for boards too large to draw cell
    by cell: the picture then costs bytes per cell instead of elements per cell)."""
    import base64

    data = base64.b64encode(png(grid.cols, grid.rows, pixels, palette)).decode("ascii")
    return tag("image", None, x=grid.left, y=grid.top, width=grid.width, height=grid.height,
               preserveAspectRatio="none", style="image-rendering:pixelated", href=f"data:image/png;base64,{data}",
               **values)


def cells_path(cells, left: float, top: float, size: float, fill: str, gap: float = 0.5, **values: object) -> str:
    """Square cells ``(x, y)`` of ``size`` at (``left``, ``top``) as one path (a small piece)."""
    inner = size - gap
    d = "".join(f"M{num(left + x * size)},{num(top + y * size)}h{num(inner)}v{num(inner)}h-{num(inner)}z" for x, y in cells)
    return tag("path", None, d=d, fill=fill, **values)
