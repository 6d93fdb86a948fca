"""Mississippi Queen 2024: the moves a player can still make when the revealed river has none.

Why this exists: the official server keeps all 8 segments and accepts advances and pushes into
the ones it has not revealed yet (spec mississippi_queen_2024.md §4.5, §10 D1), while a player's
memento shows only the revealed ones (§2.3).  The server declares a ship stuck only when its own
generator finds no move (§3), and it sends a move request only to a ship that is not stuck: so a
player asked to move always has a legal move, though its own generator on the revealed river may
find none (a fast ship short of coal at the revealed edge, or a ship pushed into the last
revealed segment).  A bot that then sends nothing loses by leaving.

What a player knows of the first unrevealed segment (§2.1, §2.2): its direction (the board's
``nextDirection``), hence its centre (the last centre plus 4 fields that way) and every field's
coordinate; its front column is water (the goal's rows in the last segment), for special fields
go to columns 0-2 only; two of its current fields (behind and on the centre) carry the current
when they are water, the other two follow the direction of the segment after it, one of the
three directions around its own (the generation's rule, §2.2).  Its 15 back cells hide 2-3
islands and, in segments 1-6, most often a passenger field: about one cell in
:data:`BLOCKED_SHARE` is not passable.

Conformance notes (a choice where the spec gives a player no certainty):

* :func:`likely_moves` guesses the segment: its back cells water, once per possible direction of
  the segment after it (each a board of its own for the current), and keeps the moves whose
  chance to be legal on the server's river is the highest: ``(1 - BLOCKED_SHARE) ** n`` for the
  ``n`` back cells the move (or the ship it pushes) enters, times the share of those boards it
  is legal on.  Every reference bot (all four rungs) plays one of these moves there: the random
  rung uniformly, the others by their evaluation.  A move that still meets an island is an
  invalid move on the server, which loses as leaving would; it is the best a player can do.
* The segment after the first unrevealed one is not guessed: a move needs it only from the last
  revealed segment at full speed, and such a ship nearly always has moves into the nearer one
  (one of about a thousand sampled positions had none; the bot then has no move and leaves, as
  before).
"""

from __future__ import annotations

from .rules import (
    ADVANCE,
    GOAL,
    PUSH,
    SEGMENTS,
    TURN,
    VECTORS,
    WATER,
    WIDTH,
    HEIGHT,
    Board,
    Move,
    Position,
    Segment,
    local_to_global,
)

BLOCKED_SHARE = 0.22
"""The share of a segment's 15 back cells that are islands or a passenger field: 2.5 islands on
average and a passenger field in 5 of the 6 middle segments (§2.2), 3.3 of 15."""


def _next_segment(board: Board) -> Segment:
    """The first unrevealed segment as far as a player can know it: its back cells water."""
    last = board.segments[-1]
    direction = board.wire_next_direction()
    dq, dr = VECTORS[direction]
    center = (last.center[0] + 4 * dq, last.center[1] + 4 * dr)
    goal = len(board.segments) == SEGMENTS - 1
    columns = [[(GOAL,) if goal and x == WIDTH - 1 and 0 < y < HEIGHT - 1 else (WATER,) for y in range(HEIGHT)]
               for x in range(WIDTH)]
    return Segment(direction, center, columns)


def _following_directions(board: Board, direction: int) -> list[int]:
    """The directions the segment after the guessed one may take (§2.2): within 60 degrees of
    the guessed one's, never the opposite of the segment two before the guessed one; the last
    segment's current follows its own direction (``Board.nextDirection`` once all are shown)."""
    index = len(board.segments)  # the guessed segment's index
    if index + 1 >= SEGMENTS:
        return [direction]
    directions = [segment.direction for segment in board.segments] + [direction]
    forbidden = (directions[max(index + 1 - 3, 0)] + 3) % 6
    return [d for d in ((direction - 1) % 6, direction, (direction + 1) % 6) if d != forbidden]


def guessed_positions(position: Position) -> tuple[list[Position], frozenset]:
    """``position`` (a player's: only the revealed segments) with the next segment guessed, one
    per direction the segment after it may take; and that segment's unknown (back) cells.
    No positions when every segment is revealed."""
    board = position.board
    if len(board.segments) >= SEGMENTS or board.visible < len(board.segments):
        return [], frozenset()
    segment = _next_segment(board)
    unknown = frozenset(local_to_global(x, y, segment.direction, segment.center)
                        for x in range(WIDTH - 1) for y in range(HEIGHT))
    guesses = []
    for following in _following_directions(board, segment.direction):
        guessed = Board(board.segments + [segment], board.visible, segment.direction,
                        passengers=dict(board.passengers), following=following)
        guesses.append(Position(guessed, [ship.copy() for ship in position.ships], position.turn,
                                position.current, position.last_move))
    return guesses, unknown


def entered(position: Position, move: Move) -> set[tuple[int, int]]:
    """The fields ``move`` takes the mover (and a ship it pushes) onto, replayed without checks."""
    ship = position.ships[position.current]
    q, r, direction = ship.q, ship.r, ship.direction
    fields = set()
    for kind, value in move:
        if kind == ADVANCE:
            dq, dr = VECTORS[direction]
            for _ in range(value):
                q, r = q + dq, r + dr
                fields.add((q, r))
        elif kind == TURN:
            direction = value
        elif kind == PUSH:
            dq, dr = VECTORS[value]
            fields.add((q + dq, r + dr))
    return fields


def likely_moves(position: Position) -> dict[Move, Position]:
    """The moves most likely legal on the server's river when ``position`` (a player's) has
    none on the revealed one, each with a guessed position it is legal on (to play it there);
    empty when nothing is left to guess (see the module's notes)."""
    guesses, unknown = guessed_positions(position)
    found = [(guess, guess.legal_moves()) for guess in guesses]  # lists: the iterator's order, seedable
    legal = [set(moves) for _, moves in found]
    chance: dict[Move, float] = {}
    where: dict[Move, Position] = {}
    for guess, moves in found:
        for move in moves:
            if move in chance:
                continue
            boards = sum(move in other for other in legal)
            hidden = len(entered(guess, move) & unknown)
            chance[move] = (1 - BLOCKED_SHARE) ** hidden * boards / len(found)
            where[move] = guess
    if not chance:
        return {}
    best = max(chance.values())
    return {move: where[move] for move in where if chance[move] >= best - 1e-9}
