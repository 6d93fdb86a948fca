"""What the ladder's search rungs know of Blokus, both seasons (2021 and 2027): the moves in a
good order, copy-make on the rules' position, and the evaluation.  Each season's
``games/<season>/strategy.py`` (the contract: games/strategy.py) sets its budgets and uses these.

Seats: four colours play for two teams (ONE: BLUE and RED, TWO: YELLOW and GREEN, both
seasons), so the seat that chooses is the *team* of the colour to move, and the search maximises
for both of its own colours (and minimises at the other team's).

The position is the rules' own :class:`~swc_local.games.blokus_common.BlokusPosition`; ``play``
copies it and places the piece from the orientation's precomputed cell mask (the referee's
``push`` checks the move and orders its cells as the server's ``HashSet`` does, which only the
error texts need), then removes the colours that cannot place as the referee does.  The tests
compare ``play`` with the referee's ``push`` move by move.

Evaluation (also on the games' docs pages), for each team, then the seat's minus the other's:

* the team's points (squares placed, with the bonus for all pieces placed): the score;
* ``+ CORNER_WEIGHT`` per *free corner* of each of its colours: a free field diagonal to the
  colour and not beside it, where its next piece can go.  Why: Blokus is won by the room to
  place the pieces still in hand, and a colour without corners is out of the game.

At the end: WIN for the team with more points plus the margin, 0 a tie.

Move ordering: the largest pieces first, then the placements that open the most new free corners.
**A cap, by choice:** early in a game a colour has several hundred placements, and an alpha-beta
search in Python would not get past the first ply; the search looks only at the ``WIDTH`` best of
them by that order at every node (the root included).  The placements it leaves out are small
pieces and ones that open few corners, which a strong player rarely prefers in the opening.
"""

from __future__ import annotations

import heapq

from swc_local.games.blokus_common import (
    ALL_SHAPES, MONO, ON_BOARD, ORIENTATION_MASKS, SHAPE_SIZES, W, BlokusPosition, SetMove,
    diagonal_neighbours, edge_neighbours, team_of,
)
from swc_local.games.strategy import WIN

WIDTH = 10
"""The placements the search looks at in a position (the best by the move ordering)."""
CORNER_WEIGHT = 1.0
"""What one free corner is worth in squares (the evaluation)."""

_ORIGIN = W + 1  # the corner masks are built one row and one column in, so x - 1 and y - 1 fit


def _placement_table() -> dict[tuple[int, int, bool], tuple[int, int]]:
    """Per orientation: (its cells at the top left, the fields diagonal to it and not beside it,
    built at ``_ORIGIN``): a placement is a shift of each."""
    table = {}
    for orientations in ORIENTATION_MASKS:
        for o in orientations:
            cells = 0
            for shift in o.shifts:
                cells |= 1 << (shift + _ORIGIN)
            near = ((cells << 1) | (cells >> 1) | (cells << W) | (cells >> W))
            corners = ((cells << (W + 1)) | (cells << (W - 1)) | (cells >> (W - 1)) | (cells >> (W + 1))) & ~near & ~cells
            table[o.kind, o.rotation, o.flipped] = (cells >> _ORIGIN, corners)
    return table


PLACEMENTS = _placement_table()


def seat(position: BlokusPosition) -> int:
    return team_of(position.current_color)


def over(position: BlokusPosition) -> bool:
    return position.is_over()


def _free_corners(position: BlokusPosition, color: int, everything: int) -> int:
    """The colour's free corner fields (the first move: its season's start fields)."""
    own = position.occupied[color]
    free = ON_BOARD & ~(everything | edge_neighbours(own))
    if position.undeployed[color] == ALL_SHAPES:
        return position.FIRST_CELLS & free
    return diagonal_neighbours(own) & free


_BY_SIZE = tuple(tuple(k for k, size in enumerate(SHAPE_SIZES) if size == n) for n in (5, 4, 3, 2, 1))


def moves(position: BlokusPosition) -> list[SetMove]:
    """The ``WIDTH`` best placements of the colour to move by the move ordering (largest piece,
    then most new free corners); all of them when fewer.  The placements are generated a piece
    size at a time, largest first, until there are ``WIDTH``: the smaller pieces are not
    generated at all then."""
    if position.is_over():
        return []
    color = position.current_color
    own = position.occupied[color]
    everything = position.all_occupied()
    room = ON_BOARD & ~(everything | edge_neighbours(own))  # where a corner can be free afterwards
    left = position.undeployed[color]
    chosen: list[tuple] = []
    for shapes in _BY_SIZE:
        if not any(left >> k & 1 for k in shapes):
            continue
        found = position._placements(color, False, shapes)
        keys = []
        for kind, rotation, flipped, p in found:
            cells, corners = PLACEMENTS[kind, rotation, flipped]
            opened = ((corners << p) >> _ORIGIN) & room & ~(cells << p)
            keys.append(opened.bit_count() * 1024 - p)  # most corners, then the lowest field
        chosen += [found[i] for i in heapq.nlargest(WIDTH - len(chosen), range(len(found)), keys.__getitem__)]
        if len(chosen) >= WIDTH:
            break
    return [SetMove(color, kind, rotation, flipped, p % W, p // W) for kind, rotation, flipped, p in chosen]


def play(position: BlokusPosition, move: SetMove) -> BlokusPosition:
    """The referee's ``_perform`` without its checks and its cell order: the piece's mask is the
    orientation's, shifted."""
    after = position.copy()
    color = move.color
    after.occupied[color] |= PLACEMENTS[move.kind, move.rotation, move.flipped][0] << (move.y * W + move.x)
    after.undeployed[color] &= ~(1 << move.kind)
    if not after.undeployed[color]:
        after.last_move_mono[color] = move.kind == MONO
    after._advance()
    after.last_move = move
    while any(after.valid) and not after.has_placement(after.current_color):
        after.valid[after.current_color] = False
        after._advance()
    return after


def value(position: BlokusPosition, seat_: int) -> float:
    margin = position.team_points(seat_) - position.team_points(1 - seat_)
    if position.is_over():
        return 0.0 if margin == 0 else (WIN if margin > 0 else -WIN) + margin
    everything = position.all_occupied()
    corners = 0
    for color in range(4):
        if position.valid[color]:
            count = _free_corners(position, color, everything).bit_count()
            corners += count if team_of(color) == seat_ else -count
    return margin + CORNER_WEIGHT * corners
