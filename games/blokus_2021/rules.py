"""Blokus 2021 rules (``swc_2021_blokus``), pure and seedable, as the official 21.4.0 server plays.

Contract: ``shared/spec/blokus_2021.md`` (§1-§6).  The engine (shapes, orientations in the
server's cell order, bitboards, generator, validation order, colour removal, points) is
:mod:`swc_local.games.blokus_common`, shared with Blokus 2027; this module sets what 2021 does
differently (spec §12): the first piece covers a board corner (``NOT_IN_CORNER``), the start piece
is one of 11 pentominoes (never PENTO_X), the game ends when ``round > 25`` (turn 100), the
WRONG_COLOR text is the plugin's own, an exception message joins the move with `` bei Zug ``, and
the placement search starts from the colour's cells reachable from its board corners.

Conformance notes:

* The start piece is drawn with the injected ``random.Random`` (the room's seed) uniformly among
  the 11 pentominoes other than PENTO_X, in shape order; the official server draws it with
  Kotlin's unseeded default ``Random`` (spec §2, §13.8).
* Placement search (§4, ``GameRuleLogic.getPossibleMoves``): the colour's cells are flood-filled
  (8-neighbourhood) from the board corners it covers, and anchors are the free diagonal
  neighbours of those cells.  In every reachable position that is all of its cells; in a
  constructed one a group without a corner gives no anchors (E16).  A choice where the spec is
  silent: the server tries every position whose *bounding box* contains such a field, we try
  those that *cover* one; the two differ only for a constructed position where a piece could
  share a corner with an unreachable group alone.
* :meth:`Position.legal_moves` yields one move per distinct cell set, the first (rotation, flip)
  in the order NONE, RIGHT, MIRROR, LEFT x unflipped, flipped, as the golden vectors list them.
* A move arriving after the game is over is answered by the same checks; the server never asks.
"""

from __future__ import annotations

from swc_local.games.blokus_common import (  # noqa: F401  (the names the plugin, view and tests use)
    ALL_SHAPES,
    COLOR_INDEX,
    COLORS,
    CORNERS,
    DIFFERING_SCORES,
    PENTOMINOES,
    ROTATION_INDEX,
    ROTATIONS,
    SHAPE_INDEX,
    SHAPE_NAMES,
    SHAPE_SIZES,
    SHAPES,
    SHARED_MISTAKE_TEXTS,
    SIZE,
    TEAM_NAMES,
    W,
    WRONG_COLOR,
    BlokusPosition,
    Move,
    RuleViolation,
    SetMove,
    SkipMove,
    _bit,
    _kinds,
    _mask,
    cells_of,
    diagonal_neighbours,
    edge_neighbours,
)

LAST_ROUND = 25  # over when round > 25, i.e. turn >= 100 (§6)
NOT_IN_CORNER = "NOT_IN_CORNER"
MISTAKE_TEXTS = {
    WRONG_COLOR: "Die Farbe des Zuges ist nicht an der Reihe",
    NOT_IN_CORNER: "Der erste Zug muss auf eine freie Ecke gesetzt werden",
    **SHARED_MISTAKE_TEXTS,
}
TIE = "Beide Teams haben die gleiche Punktzahl erzielt."
START_POOL = tuple(k for k in PENTOMINOES if SHAPE_NAMES[k] != "PENTO_X")


class Position(BlokusPosition):
    """A Blokus 2021 game state: first pieces in a corner, 11 start pieces, over after round 25."""

    __slots__ = ()
    START_POOL = START_POOL
    FIRST_CELLS = CORNERS
    FIRST_MISTAKE = NOT_IN_CORNER
    MISTAKE_TEXTS = MISTAKE_TEXTS
    MOVE_INFIX = " bei Zug "
    TIE = TIE

    def is_over(self) -> bool:
        return not any(self.valid) or self.round > LAST_ROUND

    def search_cells(self, color: int) -> int:
        """The colour's cells connected (8-neighbourhood) to a board corner it covers.

        Kept per cell mask (:data:`_REACHED`): the server and the bots ask for the same colour's
        masks again and again (colour removal after every move, every generation), and the
        fill takes one step per cell of the longest path."""
        own = self.occupied[color]
        reach = _REACHED.get(own)
        if reach is None:
            if len(_REACHED) >= _REACHED_MAX:
                _REACHED.clear()
            reach = _REACHED[own] = _reachable(own)
        return reach


_REACHED: dict[int, int] = {}
_REACHED_MAX = 4096


def _reachable(own: int) -> int:
    reach = own & CORNERS
    while True:
        grown = (reach | edge_neighbours(reach) | diagonal_neighbours(reach)) & own
        if grown == reach:
            return reach
        reach = grown
