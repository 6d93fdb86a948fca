"""The Blokus engine both Blokus seasons share (2021 and 2027): shapes, their orientations in the
official servers' cell order, bitboards, the placement generator and a position whose season-only
rules are class attributes and hooks.

Why one module: the official 2021 and 2027 plugins have the same 21 shapes, the same
``PieceShape`` transforms and ``HashSet`` cell order, the same validation order and the same
colour removal; they differ in a handful of constants (start-piece pool, where a first piece
goes, the round limit, two texts) and in where the placement search starts.  No game imports
another game (``tests/packaging/test_layers.py``), so both import this.

Why bitboards: the expensive question is "every placement of every remaining piece for the colour
to move" (the reference bots, colour removal after every move).  Every (shape, distinct
orientation, position) that fits on the board is precomputed once per process as a Python int mask
over a 20x21 grid (one padding column, so shifting by one column never wraps into the next row).
A placement is legal iff ``mask & forbidden == 0`` and it covers one of the colour's free corner
cells (or, on its first move, a cell of the season's first-move mask).  The generator is
bit-parallel over all positions of one orientation at once.

Validation of a client's move follows the servers' order exactly: colour, shape (first move: the
start piece; later: an undeployed shape), then cell by cell in the iteration order of Java's
``HashSet`` of the piece's coordinates (bucket ``spread(31x+y) & 15``, insertion order within a
bucket) the checks out of bounds, obstructed, touching its own colour, then the first-move rule or
the shared corner.

Conformance notes: see the season modules (``games/blokus/rules.py``,
``games/blokus_2021/rules.py``), which set the constants.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar, NamedTuple


SIZE = 20
W = SIZE + 1  # bitboard row stride: one padding column
COLORS = ("BLUE", "YELLOW", "RED", "GREEN")
COLOR_INDEX = {name: i for i, name in enumerate(COLORS)}
COLOR_NAMES_DE = ("Blau", "Gelb", "Rot", "Grün")
TEAM_NAMES = ("ONE", "TWO")
ROTATIONS = ("NONE", "RIGHT", "MIRROR", "LEFT")
ROTATION_INDEX = {name: i for i, name in enumerate(ROTATIONS)}
ROTATION_TEXT = ("", ", gedreht um 90°", ", gedreht um 180°", ", gedreht um 270°")


SHAPES: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = (
    ("MONO", ((0, 0),)),
    ("DOMINO", ((0, 0), (1, 0))),
    ("TRIO_L", ((0, 0), (0, 1), (1, 1))),
    ("TRIO_I", ((0, 0), (0, 1), (0, 2))),
    ("TETRO_O", ((0, 0), (1, 0), (0, 1), (1, 1))),
    ("TETRO_T", ((0, 0), (1, 0), (2, 0), (1, 1))),
    ("TETRO_I", ((0, 0), (0, 1), (0, 2), (0, 3))),
    ("TETRO_L", ((0, 0), (0, 1), (0, 2), (1, 2))),
    ("TETRO_Z", ((0, 0), (1, 0), (1, 1), (2, 1))),
    ("PENTO_L", ((0, 0), (0, 1), (0, 2), (0, 3), (1, 3))),
    ("PENTO_T", ((0, 0), (1, 0), (2, 0), (1, 1), (1, 2))),
    ("PENTO_V", ((0, 0), (0, 1), (0, 2), (1, 2), (2, 2))),
    ("PENTO_S", ((1, 0), (2, 0), (3, 0), (0, 1), (1, 1))),
    ("PENTO_Z", ((0, 0), (1, 0), (1, 1), (1, 2), (2, 2))),
    ("PENTO_I", ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4))),
    ("PENTO_P", ((0, 0), (1, 0), (0, 1), (1, 1), (0, 2))),
    ("PENTO_W", ((0, 0), (0, 1), (1, 1), (1, 2), (2, 2))),
    ("PENTO_U", ((0, 0), (0, 1), (1, 1), (2, 1), (2, 0))),
    ("PENTO_R", ((0, 1), (1, 1), (1, 2), (2, 1), (2, 0))),
    ("PENTO_X", ((1, 0), (0, 1), (1, 1), (2, 1), (1, 2))),
    ("PENTO_Y", ((0, 1), (1, 0), (1, 1), (1, 2), (1, 3))),
)
SHAPE_NAMES = tuple(name for name, _ in SHAPES)
SHAPE_INDEX = {name: i for i, name in enumerate(SHAPE_NAMES)}
SHAPE_SIZES = tuple(len(cells) for _, cells in SHAPES)
PENTOMINOES = tuple(i for i, size in enumerate(SHAPE_SIZES) if size == 5)
ALL_SHAPES = (1 << len(SHAPES)) - 1
TOTAL_SQUARES = sum(SHAPE_SIZES)  # 89
MONO = SHAPE_INDEX["MONO"]

# Mistakes shared by both seasons (names of MoveMistake/BlokusMoveMistake); the season sets the
# texts and its first-move mistake.
WRONG_COLOR = "WRONG_COLOR"
NO_SHARED_CORNER = "NO_SHARED_CORNER"
WRONG_SHAPE = "WRONG_SHAPE"
SKIP_FIRST_TURN = "SKIP_FIRST_TURN"
DUPLICATE_SHAPE = "DUPLICATE_SHAPE"
OUT_OF_BOUNDS = "OUT_OF_BOUNDS"
OBSTRUCTED = "OBSTRUCTED"
TOUCHES_SAME_COLOR = "TOUCHES_SAME_COLOR"
SHARED_MISTAKE_TEXTS = {
    NO_SHARED_CORNER: "Alle Teile müssen ein vorheriges Teil gleicher Farbe über mindestens eine Ecke berühren",
    WRONG_SHAPE: "Der erste Zug muss den festgelegten Spielstein setzen",
    SKIP_FIRST_TURN: "Der erste Zug muss einen Stein setzen",
    DUPLICATE_SHAPE: "Der gewählte Stein wurde bereits gesetzt",
    OUT_OF_BOUNDS: "Der Spielstein passt nicht vollständig auf das Spielfeld",
    OBSTRUCTED: "Der Spielstein würde eine andere Farbe überlagern",
    TOUCHES_SAME_COLOR: "Der Spielstein berührt ein Feld gleicher Farbe",
}
_WITHOUT_MOVE = frozenset({WRONG_SHAPE, DUPLICATE_SHAPE})  # raised without the move (both seasons)

DIFFERING_SCORES = "%s hat am meisten Punkte erzielt."

def team_of(color: int) -> int:
    return color & 1


# --- geometry --------------------------------------------------------------------------------

def _align(cells) -> list[tuple[int, int]]:
    mx = min(x for x, _ in cells)
    my = min(y for _, y in cells)
    return [(x - mx, y - my) for x, y in cells]


def _java_bucket(x: int, y: int) -> int:
    """Bucket of ``Coordinates(x, y)`` in a 16-bucket java.util.HashSet (hash ``31x + y``, spread)."""
    h = (31 * x + y) & 0xFFFFFFFF
    return (h ^ (h >> 16)) & 15


def hashset_order(cells) -> list[tuple[int, int]]:
    """Iteration order of a java.util.HashSet filled with ``cells`` in this order (< 13 cells)."""
    return sorted(cells, key=lambda c: _java_bucket(c[0], c[1]))  # stable: insertion order per bucket


def transform(cells, rotation: int, flipped: bool) -> list[tuple[int, int]]:
    """Rotate, align, flip, align; the cells in the iteration order of the server's shape set.

    The order matters only for which error a multiply-failing placement reports (§3).  What the
    server does (27.0.4 ``PieceShape``/``CoordinateHelper``): the variants are computed from the
    *constructor argument* (a ``setOf``, so base order); a rotation maps into a HashSet and aligns
    into another; a flip maps in iteration order into a list and aligns into a HashSet; NONE and
    "not flipped" return the set unchanged.
    """
    out = list(cells)
    if rotation:
        if rotation == 1:
            out = [(-y, x) for x, y in out]
        elif rotation == 2:
            out = [(-x, -y) for x, y in out]
        else:
            out = [(y, -x) for x, y in out]
        out = hashset_order(_align(hashset_order(out)))
    if flipped:
        out = hashset_order(_align([(-x, y) for x, y in out]))
    return out


_SHAPE_ORDER: dict[tuple[int, int, bool], tuple[tuple[int, int], ...]] = {}


def shape_cells(kind: int, rotation: int, flipped: bool) -> tuple[tuple[int, int], ...]:
    """The transformed shape of ``kind`` (box at (0,0)), in the server's order; cached."""
    key = (kind, rotation, flipped)
    found = _SHAPE_ORDER.get(key)
    if found is None:
        found = _SHAPE_ORDER[key] = tuple(transform(SHAPES[kind][1], rotation, flipped))
    return found


def _bit(x: int, y: int) -> int:
    return 1 << (y * W + x)


def _mask(cells) -> int:
    m = 0
    for x, y in cells:
        m |= 1 << (y * W + x)
    return m


ON_BOARD = _mask((x, y) for x in range(SIZE) for y in range(SIZE))
BORDER = _mask((x, y) for x in range(SIZE) for y in range(SIZE) if x in (0, SIZE - 1) or y in (0, SIZE - 1))
CORNERS = _mask(((0, 0), (SIZE - 1, 0), (SIZE - 1, SIZE - 1), (0, SIZE - 1)))


def edge_neighbours(m: int) -> int:
    return ((m << 1) | (m >> 1) | (m << W) | (m >> W)) & ON_BOARD


def diagonal_neighbours(m: int) -> int:
    return ((m << (W + 1)) | (m << (W - 1)) | (m >> (W - 1)) | (m >> (W + 1))) & ON_BOARD


def cells_of(mask: int) -> list[tuple[int, int]]:
    """The (x, y) cells of a mask, sorted by y then x."""
    out = []
    while mask:
        low = mask & -mask
        index = low.bit_length() - 1
        out.append((index % W, index // W))
        mask ^= low
    return out


# --- moves -----------------------------------------------------------------------------------

class SetMove(NamedTuple):
    """``sc.plugin2027.SetMove``: place ``kind`` in ``rotation``/``flipped`` with its box at (x, y).

    A NamedTuple rather than a frozen dataclass: the generator builds ~200 per call, and a tuple
    is several times cheaper to construct.
    """

    color: int
    kind: int
    rotation: int = 0
    flipped: bool = False
    x: int = 0
    y: int = 0

    def cells(self) -> list[tuple[int, int]]:
        """The piece's cells in the order the server checks them (its ``coordinates`` HashSet)."""
        x, y = self.x, self.y
        return hashset_order([(cx + x, cy + y) for cx, cy in shape_cells(self.kind, self.rotation, self.flipped)])

    def __str__(self) -> str:
        flip = ", gespiegelt" if self.flipped else ""
        return (f"Setze {SHAPE_NAMES[self.kind]}(Farbe {COLOR_NAMES_DE[self.color]}"
                f"{ROTATION_TEXT[self.rotation]}{flip})[{self.x},{self.y}]")


class SkipMove(NamedTuple):
    """``sc.plugin2027.SkipMove``: the colour passes (never on its first move)."""

    color: int

    def __str__(self) -> str:
        return f"Farbe {COLOR_NAMES_DE[self.color]} setzt aus"


Move = SetMove | SkipMove


def move_notation(move: Move, before: object | None = None) -> str:
    """The move as a person reads it (pages, ``swc replay``, tables), both seasons: the colour,
    the piece, its orientation as the wire names it (rotation, flip) and the square of its
    bounding box's corner, the wire's ``position``: ``YELLOW PENTO_V (RIGHT, flipped) at (8,0)``,
    ``BLUE MONO at (0,0)``; a skip ``GREEN skips``.  Conformance note: the official GUIs show the
    piece on the board and name no move; the German ``toString`` above stays for the error
    texts, where the server quotes it."""
    if isinstance(move, SkipMove):
        return f"{COLORS[move.color]} skips"
    turned = [ROTATIONS[move.rotation]] if move.rotation else []
    orientation = ", ".join(turned + (["flipped"] if move.flipped else []))
    shape = SHAPE_NAMES[move.kind] + (f" ({orientation})" if orientation else "")
    return f"{COLORS[move.color]} {shape} at ({move.x},{move.y})"




class RuleViolation(Exception):
    """A failed check: ``mistake`` (name), ``message`` (InvalidMoveException message), ``move``.

    ``text`` is the mistake's message in the season's words and ``infix`` what joins it to the
    move in the exception message (2027 `` bei ``, 2021 `` bei Zug ``)."""

    def __init__(self, mistake: str, move: Move, text: str, infix: str = " bei "):
        self.mistake = mistake
        self.text = text
        self.move = None if mistake in _WITHOUT_MOVE else move
        self.message = self.text if self.move is None else f"{self.text}{infix}'{self.move}'"
        super().__init__(self.message)

    @property
    def detail(self) -> str:
        """The exception's toString, as the error message to the offender quotes it."""
        return f"InvalidMoveException(mistake={self.text}, move={'null' if self.move is None else self.move})"


# --- precomputed placements ------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Orientation:
    kind: int
    rotation: int
    flipped: bool
    cells: tuple[tuple[int, int], ...]
    width: int
    height: int


def _orientations() -> tuple[tuple[Orientation, ...], ...]:
    result = []
    for kind, (_, base) in enumerate(SHAPES):
        seen: set[frozenset] = set()
        found = []
        for rotation in range(4):
            for flipped in (False, True):
                cells = transform(base, rotation, flipped)
                key = frozenset(cells)
                if key in seen:
                    continue
                seen.add(key)
                found.append(Orientation(kind, rotation, flipped, tuple(cells),
                                         max(x for x, _ in cells) + 1, max(y for _, y in cells) + 1))
        result.append(tuple(found))
    return tuple(result)


ORIENTATIONS = _orientations()



@dataclass(frozen=True, slots=True)
class _OrientationMasks:
    """Shift amounts of one orientation's cells and the positions where it fits on the board."""

    kind: int
    rotation: int
    flipped: bool
    shifts: tuple[int, ...]  # y*W + x of each cell
    fits: int  # bit p set: the box's top-left corner may be at p


def _orientation_masks() -> tuple[tuple[_OrientationMasks, ...], ...]:
    per_kind = []
    for orients in ORIENTATIONS:
        found = []
        for o in orients:
            fits = _mask((x, y) for y in range(SIZE - o.height + 1) for x in range(SIZE - o.width + 1))
            found.append(_OrientationMasks(o.kind, o.rotation, o.flipped, tuple(y * W + x for x, y in o.cells), fits))
        per_kind.append(tuple(found))
    return tuple(per_kind)


ORIENTATION_MASKS = _orientation_masks()
_SHIFTS = sorted({d for orients in ORIENTATION_MASKS for o in orients for d in o.shifts})
"""Every cell offset an orientation uses (at most 25: a 5x5 box): the generator shifts the free
and anchor masks once per offset instead of once per orientation and cell."""
_PLACEMENT_TABLE = tuple(
    tuple((o.kind, o.rotation, o.flipped, o.shifts, o.fits) for o in orients) for orients in ORIENTATION_MASKS
)
_new_tuple = tuple.__new__


_ORIENTATION_OF = {(o.kind, o.rotation, o.flipped): o for orients in ORIENTATION_MASKS for o in orients}


def _kinds(shapes: int) -> list[int]:
    return [k for k in range(len(SHAPES)) if shapes >> k & 1]


# --- position --------------------------------------------------------------------------------

@dataclass(slots=True)
class Decision:
    winner: int | None  # team, None for a tie
    reason: str  # with %s for the winner's name, or TIE


class BlokusPosition:
    """A Blokus game state.  Mutable; :meth:`copy` is cheap (ints and short lists).

    A season subclasses it and sets the class attributes below (and overrides
    :meth:`is_over` / :meth:`search_cells` where its server differs)."""

    START_POOL: ClassVar[tuple[int, ...]] = PENTOMINOES
    """The shapes the start piece is drawn from."""
    FIRST_CELLS: ClassVar[int] = 0
    """Cells of which a colour's first piece must cover one (a mask)."""
    FIRST_MISTAKE: ClassVar[str] = ""
    """The mistake when it covers none."""
    MISTAKE_TEXTS: ClassVar[dict[str, str]] = {}
    MOVE_INFIX: ClassVar[str] = " bei "
    TIE: ClassVar[str] = ""

    __slots__ = ("occupied", "undeployed", "turn", "valid", "start_piece", "last_move_mono", "last_move")

    def __init__(self, start_piece: int, turn: int = 0, occupied=None, undeployed=None, valid=None,
                 last_move_mono: dict[int, bool] | None = None, last_move: Move | None = None):
        self.start_piece = start_piece
        self.turn = turn
        self.occupied = list(occupied) if occupied is not None else [0, 0, 0, 0]
        self.undeployed = list(undeployed) if undeployed is not None else [ALL_SHAPES] * 4
        self.valid = list(valid) if valid is not None else [True] * 4
        self.last_move_mono = dict(last_move_mono or {})
        self.last_move = last_move

    @classmethod
    def start(cls, rng: random.Random):
        return cls(rng.choice(cls.START_POOL))

    def copy(self):
        return type(self)(self.start_piece, self.turn, self.occupied, self.undeployed, self.valid,
                        self.last_move_mono, self.last_move)

    # -- queries --

    @property
    def round(self) -> int:
        return 1 + self.turn // 4

    @property
    def current_color(self) -> int:
        return self.turn % 4

    @property
    def current_team(self) -> int:
        return team_of(self.current_color)

    def valid_colors(self) -> list[int]:
        return [c for c in range(4) if self.valid[c]]

    def is_first_move(self, color: int) -> bool:
        return self.undeployed[color] == ALL_SHAPES

    def all_occupied(self) -> int:
        o = self.occupied
        return o[0] | o[1] | o[2] | o[3]

    def color_at(self, x: int, y: int) -> int | None:
        bit = _bit(x, y)
        for c in range(4):
            if self.occupied[c] & bit:
                return c
        return None

    def points(self, color: int) -> int:
        left = self.undeployed[color]
        if not left:
            return TOTAL_SQUARES + 15 + (5 if self.last_move_mono.get(color) else 0)
        return TOTAL_SQUARES - sum(SHAPE_SIZES[k] for k in _kinds(left))

    def team_points(self, team: int) -> int:
        return self.points(team) + self.points(team + 2)

    def is_over(self) -> bool:
        """No valid colour left, or the season's round limit (a subclass sets it)."""
        return not any(self.valid)

    def decision(self) -> Decision | None:
        if not self.is_over():
            return None
        one, two = self.team_points(0), self.team_points(1)
        if one == two:
            return Decision(None, self.TIE)
        return Decision(0 if one > two else 1, DIFFERING_SCORES)

    # -- move generation --

    def _anchors(self, color: int) -> tuple[int, int, list[int]]:
        """(free cells, anchor cells, shapes to try) for ``color``."""
        own = self.occupied[color]
        free = ON_BOARD & ~(self.all_occupied() | edge_neighbours(own))
        if self.is_first_move(color):
            return free, self.FIRST_CELLS & free, [self.start_piece]
        return free, diagonal_neighbours(self.search_cells(color)) & free, _kinds(self.undeployed[color])

    def search_cells(self, color: int) -> int:
        """Hook: the colour's cells whose free corners the placement search starts from (2027:
        all of them)."""
        return self.occupied[color]

    def placements(self, color: int | None = None):
        """Yield (orientation, top-left bit) of every legal placement of ``color``.

        Bit-parallel over all positions of one orientation at once: a position is free when every
        cell's shifted free mask has its bit, and it touches an anchor when some cell's shifted
        anchor mask has it.  Order: shape, orientation (server order), y, x.
        """
        color = self.current_color if color is None else color
        for kind, rotation, flipped, position in self._placements(color, False):
            yield _ORIENTATION_OF[kind, rotation, flipped], position

    def _placements(self, color: int, first_only: bool, only: tuple[int, ...] | None = None
                    ) -> list[tuple[int, int, int, int]]:
        """(kind, rotation, flipped, top-left bit) of every legal placement, in generator order;
        ``only``: of these shapes alone (the ladder's search asks for the largest pieces first)."""
        free, anchors, kinds = self._anchors(color)
        if only is not None:
            kinds = [k for k in kinds if k in only]
        found: list[tuple[int, int, int, int]] = []
        if not anchors:
            return found
        shifted_free = [0] * (_SHIFTS[-1] + 1)
        shifted_anchors = shifted_free[:]
        for d in _SHIFTS:
            shifted_free[d] = free >> d
            shifted_anchors[d] = anchors >> d
        for k in kinds:
            for kind, rotation, flipped, shifts, fit in _PLACEMENT_TABLE[k]:
                for d in shifts:
                    fit &= shifted_free[d]
                if not fit:
                    continue
                touch = 0
                for d in shifts:
                    touch |= shifted_anchors[d]
                hits = fit & touch
                while hits:
                    low = hits & -hits
                    found.append((kind, rotation, flipped, low.bit_length() - 1))
                    if first_only:
                        return found
                    hits ^= low
        return found

    def has_placement(self, color: int) -> bool:
        return bool(self._placements(color, True))

    def legal_moves(self) -> list[Move]:
        """Every legal placement of the colour to move, one per distinct cell set.

        A skip is legal too (except on a colour's first move) but is not listed: the server never
        asks a colour without placements (it is removed), so bots only skip by choice.
        """
        if self.is_over():
            return []
        color = self.current_color
        new, move = _new_tuple, SetMove
        return [new(move, (color, kind, rotation, flipped, p % W, p // W))
                for kind, rotation, flipped, p in self._placements(color, False)]

    def count_placements(self, color: int | None = None) -> int:
        return len(self._placements(self.current_color if color is None else color, False))

    # -- validation and effect --

    def violation(self, mistake: str, move: Move) -> RuleViolation:
        return RuleViolation(mistake, move, self.MISTAKE_TEXTS[mistake], self.MOVE_INFIX)

    def check(self, move: Move) -> None:
        """Raise RuleViolation exactly as the server's validation would; return if legal."""
        color = self.current_color
        if move.color != color:
            raise self.violation(WRONG_COLOR, move)
        first = self.is_first_move(color)
        if isinstance(move, SkipMove):
            if first:
                raise self.violation(SKIP_FIRST_TURN, move)
            return
        if first:
            if move.kind != self.start_piece:
                raise self.violation(WRONG_SHAPE, move)
        elif not self.undeployed[color] >> move.kind & 1:
            raise self.violation(DUPLICATE_SHAPE, move)
        everything = self.all_occupied()
        own = self.occupied[color]
        cells = move.cells()
        for x, y in cells:
            if not (0 <= x < SIZE and 0 <= y < SIZE):
                raise self.violation(OUT_OF_BOUNDS, move)
            bit = _bit(x, y)
            if everything & bit:
                raise self.violation(OBSTRUCTED, move)
            if edge_neighbours(bit) & own:
                raise self.violation(TOUCHES_SAME_COLOR, move)
        mask = _mask(cells)
        if first:
            if not mask & self.FIRST_CELLS:
                raise self.violation(self.FIRST_MISTAKE, move)
        elif not mask & diagonal_neighbours(own):
            raise self.violation(NO_SHARED_CORNER, move)

    def push(self, move: Move) -> None:
        """Validate and perform ``move``; raise RuleViolation (state unchanged) if illegal."""
        self.check(move)
        self._perform(move)

    def _perform(self, move: Move) -> None:
        if isinstance(move, SetMove):
            color = move.color
            self.occupied[color] |= _mask(move.cells())
            self.undeployed[color] &= ~(1 << move.kind)
            if not self.undeployed[color]:
                self.last_move_mono[color] = move.kind == MONO
        self._advance()
        self.last_move = move
        while any(self.valid) and not self.has_placement(self.current_color):
            self.valid[self.current_color] = False
            self._advance()

    def _advance(self) -> None:
        if not any(self.valid):
            return
        self.turn += 1
        while not self.valid[self.turn % 4]:
            self.turn += 1

    # -- people --

    def text(self) -> str:
        """A 20x20 board, one letter per colour (B Y R G), '.' for empty."""
        letters = "BYRG"
        rows = []
        for y in range(SIZE):
            row = []
            for x in range(SIZE):
                c = self.color_at(x, y)
                row.append("." if c is None else letters[c])
            rows.append(" ".join(row))
        return "\n".join(rows)
