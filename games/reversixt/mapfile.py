"""ReversiXT map files: parse with the reference server's load-time checks, render back to text.

A map is whitespace-separated tokens (line structure is not checked, CRLF is whitespace too):
players, overwrite stones, bombs and bomb strength, height and width, h*w one-character squares,
then transitions ``x1 y1 r1 <-> x2 y2 r2``. Every check the reference makes is made here, in file
order, first failure wins, with the reference's own text (``MapError.reason``) so the drop-in
prints what ``server_nogl`` prints; ``str(error)`` adds the line and column of the token.

Conformance notes (``shared/spec/reversixt.md`` A):
- header numbers are read like C ``strtol`` (``2players`` is 2, a token without digits is 0) and
  the counts are kept as unsigned bytes (-1 overwrite stones play as 255);
- a file ending inside the header says ``board truncated before <field>!``: the reference's
  text is known for the height only (``bad_header_2p``), the other field names are ours;
- a height or width below 1 is refused with ``invalid dimensions`` (the reference's answer to
  that is not captured); above 1000: ``dimensions too large (max 1000x1000)`` as the reference.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

# square codes in the board array
EMPTY = 0  # players are 1..8
HOLE = 9
CHOICE = 10
INVERSION = 11
BONUS = 12
EXPANSION = 13

SQUARE_CODES = {"0": EMPTY, "-": HOLE, "c": CHOICE, "i": INVERSION, "b": BONUS, "x": EXPANSION}
SQUARE_CHARS = {code: char for char, code in SQUARE_CODES.items()} | {p: str(p) for p in range(1, 9)}

# direction number -> (dx, dy): 0 N, 1 NE, 2 E, 3 SE, 4 S, 5 SW, 6 W, 7 NW
DIRECTIONS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))

MAX_SIZE = 1000

_TOKEN = re.compile(rb"\S+")
_STRTOL = re.compile(r"[+-]?\d+")


class MapError(ValueError):
    """A map the reference refuses to load. ``reason`` is the reference's text."""

    def __init__(self, reason: str, line: int | None = None, column: int | None = None):
        self.reason = reason
        self.line = line
        self.column = column
        where = f"line {line}, column {column}: " if line is not None else ""
        super().__init__(where + reason)


@dataclass(frozen=True)
class Transition:
    x1: int
    y1: int
    r1: int
    x2: int
    y2: int
    r2: int

    def text(self) -> str:
        return f"{self.x1} {self.y1} {self.r1} <-> {self.x2} {self.y2} {self.r2}"


@dataclass
class GameMap:
    players: int
    overwrites: int
    bombs: int
    strength: int
    height: int
    width: int
    squares: bytearray  # row-major, codes above
    transitions: list[Transition] = field(default_factory=list)
    raw: bytes = b""  # the file as read (the MAP frame carries it verbatim)

    def render(self, squares: bytes | None = None) -> str:
        """The map as the reference writes it into its log: header, rows, transitions."""
        lines = [str(self.players), str(self.overwrites), f"{self.bombs} {self.strength}", f"{self.height} {self.width}"]
        lines += render_rows(self.width, self.height, self.squares if squares is None else squares)
        lines += [t.text() for t in self.transitions]
        return "\n".join(lines) + "\n"


def render_rows(width: int, height: int, squares: bytes) -> list[str]:
    return [" ".join(SQUARE_CHARS[squares[y * width + x]] for x in range(width)) for y in range(height)]


def _strtol(token: str) -> int:
    match = _STRTOL.match(token)
    return int(match.group()) if match else 0


class _Tokens:
    """Tokens with their line and column (1-based), for errors that say where."""

    def __init__(self, data: bytes):
        self._items = []
        line_starts = [0] + [m.end() for m in re.finditer(rb"\n", data)]
        line = 0
        for match in _TOKEN.finditer(data):
            while line + 1 < len(line_starts) and line_starts[line + 1] <= match.start():
                line += 1
            self._items.append((match.group().decode("latin-1"), line + 1, match.start() - line_starts[line] + 1))
        self.pos = 0

    def next(self) -> tuple[str, int, int] | None:
        if self.pos >= len(self._items):
            return None
        item = self._items[self.pos]
        self.pos += 1
        return item

    def end_position(self) -> tuple[int | None, int | None]:
        if self._items:
            _, line, column = self._items[-1]
            return line, column
        return None, None


def parse_map(data: bytes) -> GameMap:
    """Parse a map file's bytes; :class:`MapError` with the reference's reason on any problem."""
    tokens = _Tokens(data)

    def header(name: str) -> tuple[int, int, int]:
        item = tokens.next()
        if item is None:
            raise MapError(f"board truncated before {name}!", *tokens.end_position())
        token, line, column = item
        return _strtol(token), line, column

    players, line, column = header("number of players")
    if not 2 <= players <= 8:
        raise MapError("invalid number of players", line, column)
    overwrites = header("overwrites")[0] & 0xFF
    bombs = header("bombs")[0] & 0xFF
    strength = header("bomb strength")[0] & 0xFF
    height, line, column = header("height")
    width = header("width")[0]
    if height > MAX_SIZE or width > MAX_SIZE:
        raise MapError(f"dimensions too large (max {MAX_SIZE}x{MAX_SIZE})", line, column)
    if height < 1 or width < 1:
        raise MapError("invalid dimensions", line, column)

    squares = bytearray(width * height)
    valid = {str(p): p for p in range(1, players + 1)} | SQUARE_CODES
    for y in range(height):
        for x in range(width):
            item = tokens.next()
            if item is None:
                raise MapError(f"board truncated at (x,y) = ({x},{y})", *tokens.end_position())
            token, line, column = item
            if len(token) != 1:
                raise MapError(f"invalid token '{token}' at ({x},{y})", line, column)
            if token not in valid:
                raise MapError(f"invalid square '{token}' at ({x},{y})", line, column)
            squares[y * width + x] = valid[token]

    game_map = GameMap(players, overwrites, bombs, strength, height, width, squares, [], bytes(data))
    used: set[tuple[int, int, int]] = set()
    number = 0
    while (first := tokens.next()) is not None:
        items = [first]
        while len(items) < 7 and (item := tokens.next()) is not None:
            items.append(item)
        words = [item[0] for item in items]
        line, column = items[0][1], items[0][2]
        shown = " ".join(words + ["(null)"] * (7 - len(words)))
        if len(items) < 7:
            raise MapError(f"transition {number} is truncated ({shown})", line, column)
        if words[3] != "<->":
            raise MapError(f'invalid delimiter "{words[3]}" in transition {number} ({shown})', items[3][1], items[3][2])
        ends = []
        for which, offset in (("first", 0), ("second", 4)):
            x, y, r = (_strtol(w) for w in words[offset : offset + 3])
            if not (0 <= x < width and 0 <= y < height and 0 <= r <= 7):
                raise MapError(
                    f"invalid {which} coordinate ({x},{y},{r}) in transition {number} ({shown})",
                    items[offset][1],
                    items[offset][2],
                )
            ends.append((x, y, r))
        for x, y, r in ends:
            if not _end_usable(game_map, x, y, r) or (x, y, r) in used:
                raise MapError(
                    f"transition {number} is invalid (leading to/coming from invalid field) ({shown})", line, column
                )
        used.update(ends)
        (x1, y1, r1), (x2, y2, r2) = ends
        game_map.transitions.append(Transition(x1, y1, r1, x2, y2, r2))
        number += 1
    return game_map


def _end_usable(game_map: GameMap, x: int, y: int, r: int) -> bool:
    """A transition end must be a square (not a hole) whose plain neighbour in r is unusable."""
    w = game_map.width
    if game_map.squares[y * w + x] == HOLE:
        return False
    dx, dy = DIRECTIONS[r]
    nx, ny = x + dx, y + dy
    if 0 <= nx < w and 0 <= ny < game_map.height and game_map.squares[ny * w + nx] != HOLE:
        return False
    return True


def bundled_maps() -> dict[str, Path]:
    """The maps that ship with the package, by name (the file name without ``.map``)."""
    folder = Path(str(resources.files(__package__) / "maps"))
    return {path.stem: path for path in sorted(folder.glob("*.map"))}


def map_file(name_or_path: str) -> str:
    """A map file's path: an existing file as given, else the bundled map of that name
    (``quad_4p`` or ``quad_4p.map``), so a name works after a non-editable install too; anything
    else is returned unchanged for the caller's "cannot open" error."""
    if os.path.exists(name_or_path):
        return name_or_path
    bundled = bundled_maps().get(name_or_path.removesuffix(".map"))
    return str(bundled) if bundled is not None else name_or_path


def load_map(path: str) -> GameMap:
    """A map file, or a bundled map by name (:func:`map_file`)."""
    with open(map_file(path), "rb") as handle:
        return parse_map(handle.read())
