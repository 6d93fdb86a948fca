"""Mississippi Queen 2024 for the ladder's search rungs (the contract: games/strategy.py).

What the search knows: only the revealed segments.  The river ahead is hidden from the players
(a memento carries the revealed segments only), so :func:`position` drops the unrevealed ones
from a game that holds them (the server's own game, in-process tests) and the search plays on
the river as a player's bot sees it.  Where that river offers no move although the server asks
for one (it accepts moves into segments it has not revealed, spec §10 D1), the search plays on
the next segment as :mod:`.horizon` guesses it, and at the root only among the moves most likely
legal on the server's river (each played on a guessed board it is legal on).

Evaluation (also on the game's docs page), for my ship against theirs: the difference of the
game's own points (5 a segment, 1 a column, 5 a passenger: what the round limit compares), 2
points a unit of coal (the fuel of every extra turn and acceleration), 4 more for each of the
first two passengers (the goal needs two) and 1 point a unit of speed (the next turn's reach);
at the end WIN for a won game (the goal, a stuck opponent, three segments ahead, more points).

Move ordering and cap: a turn offers hundreds of moves (accelerate, advance, turn, push in
every order the official iterator finds; up to ~1,800), far more than a search of a few hundred
positions can try.  :func:`moves` scores every move by where it leaves the ship, replaying its
actions on coordinates without validation (advance points of the end field, coal spent, a
passenger picked up at the end, the speed) and keeps the best, best first: :data:`ROOT_CAP` at
the position asked about, :data:`MOVE_CAP` below it (the search's position is a :class:`Node`
that knows its depth).  The caps are the price of looking two turns ahead at all; a move outside
them is never played.
"""

from __future__ import annotations

from typing import NamedTuple

from swc_local.games.mississippi_queen import horizon
from swc_local.games.mississippi_queen.rules import (
    ACCELERATE,
    ADVANCE,
    PUSH,
    TURN,
    VECTORS,
    Board,
    Position,
    turn_count,
)
from swc_local.games.strategy import WIN

# The budgets, by the depths they complete (positions made up to a full depth, median over a
# game: 16 for one ply, ~52 for two, ~135 for three, ~350 for four).  At 40 and 150 search-short
# finished one ply and a few moves of the second: the greedy rung's choice among fewer moves
# (greedy - search-short 8-12 in a 20-game calibration).  Now search-short sees the opponent's
# reply (two plies) and search-long two replies (four plies): in-process series of 16 games,
# search-short beat greedy 11-5 and search-long beat search-short 15-1, at 0.06 s and 0.40 s a
# move on average (0.98 s at most, the guard striking) on a 2-CPU machine at load 4.  A middle
# step was tried and is not stronger: search-short at 120 (two plies and part of a third) scored
# 9.5-6.5 and 9-7 against search-long at 350 and at 800.
SHORT_NODES = 60
LONG_NODES = 400
GUARD_SECONDS = 0.8
"""The time guard of a search move here (client/ladder.py's is 1.6 s): a position costs about a
millisecond of CPU and the search looks at the clock every 64, so on a loaded machine the guard
needs room below the 2 s soft limit."""
ROOT_CAP = 16
"""The moves the search tries at the position it is asked about, the best by the static score."""
MOVE_CAP = 5
"""The moves it tries at the positions below (the replies and what follows)..."""
SCAN = 120
"""... chosen among the first this many of the official iterator's moves (its shortest action
lists, all the plain advances and turns among them): a full list takes ~0.1 s here."""

COAL = 2.0
PASSENGER_FOR_GOAL = 4.0
SPEED = 1.0


def _known(position: Position) -> Position:
    """``position`` with the unrevealed segments dropped (as a player's memento shows it)."""
    board = position.board
    if board.visible >= len(board.segments):
        return position
    nxt = board.wire_next_direction()
    shown = board.segments[:board.visible]
    waiting = {coord: n for coord, n in board.passengers.items() if board.fields[coord][0] < board.visible}
    known = Board(shown, board.visible, nxt, passengers=waiting, following=nxt)
    return Position(known, [ship.copy() for ship in position.ships], position.turn, position.current,
                    position.last_move)


class Node(NamedTuple):
    """A position of the search and how many moves below the asked one it lies (the cap);
    at a root whose revealed river has no move, the likely moves beyond it, each with the
    guessed position it is played on (:mod:`.horizon`)."""

    position: Position
    ply: int
    beyond: dict | None = None


def position(game) -> Node:
    known = _known(game.position)
    if known.is_over() or known.can_move():
        return Node(known, 0)
    beyond = horizon.likely_moves(known)
    return Node(next(iter(beyond.values()), known), 0, beyond or None)


def seat(node: Node) -> int:
    return node.position.current


_DOCKS: dict[int, tuple[dict, dict[tuple[int, int], int]]] = {}
"""Per river (its field index, which every copy of a board shares): each passenger field's dock."""


def _dock(board: Board, coord: tuple[int, int]) -> int:
    """``board.dock``, remembered per river (a passenger field's dock never changes)."""
    known = _DOCKS.get(id(board.fields))
    if known is None or known[0] is not board.fields:  # the entry holds the river: its id stays its own
        if len(_DOCKS) > 64:
            _DOCKS.clear()
        docks = {c: board.dock(c) for segment in board.docks for c in segment}
        known = _DOCKS[id(board.fields)] = (board.fields, docks)
    return known[1][coord]


def _static(position: Position, move) -> float:
    """Where ``move`` leaves the mover, scored without making it (see the module doc)."""
    ship = position.ships[position.current]
    q, r, direction = ship.q, ship.r, ship.direction
    speed, coal, free_turns, free_acc = ship.speed, 0, ship.free_turns, ship.free_acc
    for kind, amount in move:
        if kind == ADVANCE:
            dq, dr = VECTORS[direction]
            q, r = q + dq * amount, r + dr * amount
        elif kind == TURN:
            steps = abs(turn_count(direction, amount))
            if steps > free_turns:
                coal += steps - free_turns
                free_turns = 0
            else:
                free_turns -= steps
            direction = amount
        elif kind == ACCELERATE:
            if abs(amount) > free_acc:
                coal += abs(amount) - free_acc
            free_acc = 0
            speed += amount
    board = position.board
    found = board.fields.get((q, r))
    score = (0.0 if found is None else found[0] * 5 + found[1]) + SPEED * speed
    score += -COAL * coal + (2 if any(kind == PUSH for kind, _ in move) else 0)  # a push costs them a turn's way
    if speed - ((q, r) in board.current) < 2:
        passengers = board.passengers
        for way, (dq, dr) in enumerate(VECTORS):
            coord = (q + dq, r + dr)
            if passengers.get(coord, 0) > 0 and _dock(board, coord) == (way + 3) % 6:
                score += 5 + PASSENGER_FOR_GOAL
                break
    return score


def moves(node: Node) -> list:
    position = node.position
    if position.is_over():
        return []
    if node.beyond is not None:
        found = list(node.beyond)
    else:
        found = position.legal_moves(SCAN) if node.ply else position.legal_moves()
    cap = MOVE_CAP if node.ply else ROOT_CAP
    if len(found) <= 1:
        return found
    ranked = sorted(range(len(found)), key=lambda i: -_static(position, found[i]))
    return [found[i] for i in ranked[:cap]]


def play(node: Node, move) -> Node:
    after = (node.position if node.beyond is None else node.beyond[move]).copy()
    after.push(move)
    return Node(after, node.ply + 1)


def over(node: Node) -> bool:
    return node.position.is_over()


def _worth(position: Position, seat: int) -> float:
    ship = position.ships[seat]
    points = position.board.advance_points(ship.position) + 5 * ship.passengers
    return points + COAL * ship.coal + PASSENGER_FOR_GOAL * min(ship.passengers, 2) + SPEED * ship.speed


def value(node: Node, seat: int) -> float:
    position = node.position
    if position.is_over():
        winner = position.winner().winner
        return 0.0 if winner is None else (WIN if winner == seat else -WIN)
    return _worth(position, seat) - _worth(position, 1 - seat)
