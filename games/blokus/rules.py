"""Blokus 2027 rules (``swc_2027_blokus``), pure and seedable, as the official 27.0.4 server plays.

Contract: ``shared/spec/blokus_2027.md``.  Four colours in the fixed order BLUE, YELLOW, RED, GREEN
share two teams (ONE: BLUE and RED, TWO: YELLOW and GREEN); ``turn`` counts colour slots and the
colour to move is ``COLORS[turn % 4]``.

The engine (shapes, bitboards, generator, validation order) is :mod:`swc_local.games.blokus_common`,
shared with Blokus 2021; this module sets the 2027 constants.

Why bitboards: the expensive question is "every placement of every remaining piece for the colour
to move" (the reference bots, colour removal after every move).  Every (shape, distinct
orientation, position) that fits on the board is precomputed once per process as a Python int mask
over a 20x21 grid (one padding column, so shifting by one column never wraps into the next row).
A placement is legal iff ``mask & forbidden == 0`` and it covers one of the colour's free corner
cells (or, on its first move, a border cell).  The generator walks only the anchor cells and, per
anchor and remaining shape, a precomputed list of the placements covering that cell, python-chess
style: one AND per candidate.

Validation of a client's move is separate and follows the server's order and texts exactly (§3):
colour, shape (first move: the start piece; later: an undeployed shape), then cell by cell in the
iteration order of Java's ``HashSet`` of the piece's coordinates (bucket ``spread(31x+y) & 15``,
insertion order within a bucket) the checks out of bounds, obstructed, touching its own colour,
then border (first move) or shared corner (later).

Conformance notes (where the spec leaves a choice):

* The start piece is drawn from the 12 pentominoes with the injected ``random.Random`` (the
  official server draws unseeded).
* :meth:`Position.legal_moves` yields one move per distinct cell set, with the first
  (rotation, flip) in the order rotation NONE, RIGHT, MIRROR, LEFT (outer) x flipped false, true
  (inner); the server's generator emits the same representatives (seen in the golden vectors:
  PENTO_T comes as RIGHT+flipped, never LEFT).
* The cell order (facts read in the official 27.0.4 source, ``PieceShape.kt`` and
  ``CoordinateHelper.kt``; spec §3 gives only the last step): a shape's variants are built from
  the enum's constructor argument (a Kotlin ``setOf``, so the listed order), a rotation maps into
  a ``HashSet`` and aligns into another, a flip maps into a list in iteration order and aligns
  into a ``HashSet``, ``NONE``/unflipped keep the set as it is, and the piece's coordinates are a
  ``HashSet`` of the translated cells.  With that order all 4,305 golden vectors agree; with the
  final ``HashSet`` alone nine of them do not.
* A move arriving for a game that is over, or for a position without valid colours, is answered by
  the same checks; the server never requests one there.
"""

from __future__ import annotations

from swc_local.games.blokus_common import (  # noqa: F401  (the 2027 names the plugin, view and tests use)
    ALL_SHAPES,
    BORDER,
    COLOR_INDEX,
    COLOR_NAMES_DE,
    COLORS,
    DIFFERING_SCORES,
    DUPLICATE_SHAPE,
    MONO,
    NO_SHARED_CORNER,
    OBSTRUCTED,
    ON_BOARD,
    ORIENTATION_MASKS,
    ORIENTATIONS,
    OUT_OF_BOUNDS,
    PENTOMINOES,
    ROTATION_INDEX,
    ROTATION_TEXT,
    ROTATIONS,
    SHAPE_INDEX,
    SHAPE_NAMES,
    SHAPE_SIZES,
    SHAPES,
    SHARED_MISTAKE_TEXTS,
    SIZE,
    SKIP_FIRST_TURN,
    TEAM_NAMES,
    TOTAL_SQUARES,
    TOUCHES_SAME_COLOR,
    W,
    WRONG_COLOR,
    WRONG_SHAPE,
    BlokusPosition,
    Decision,
    Move,
    Orientation,
    RuleViolation,
    SetMove,
    SkipMove,
    _bit,
    _java_bucket,
    _kinds,
    _mask,
    cells_of,
    diagonal_neighbours,
    edge_neighbours,
    hashset_order,
    shape_cells,
    team_of,
    transform,
)

ROUND_LIMIT = 25  # the game is over when round >= 25 (27.0.1+)

NOT_ON_BORDER = "NOT_ON_BORDER"
MISTAKE_TEXTS = {
    WRONG_COLOR: "Nur eigene Spielfiguren können gezogen werden",
    NOT_ON_BORDER: "Der erste Zug muss an den Rand gesetzt werden",
    **SHARED_MISTAKE_TEXTS,
}
TIE = "Beide Spieler sind gleichauf"


class Position(BlokusPosition):
    """A Blokus 2027 game state: first pieces on the border, 12 start pieces, over at round 25."""

    __slots__ = ()
    START_POOL = PENTOMINOES
    FIRST_CELLS = BORDER
    FIRST_MISTAKE = NOT_ON_BORDER
    MISTAKE_TEXTS = MISTAKE_TEXTS
    MOVE_INFIX = " bei "
    TIE = TIE

    def is_over(self) -> bool:
        return not any(self.valid) or self.round >= ROUND_LIMIT
