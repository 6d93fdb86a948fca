"""Hive 2020 for the ladder's search rungs (the contract: games/strategy.py).

Evaluation (also on the game's docs page), for the seat ``me`` against ``them``:

* the bees: 12 points for every field around *their* bee that is taken (a piece, a blocked
  field or the board's edge) and minus 12 for every one around *mine* (a surrounded bee loses,
  and at the round limit the bee with more free fields wins, spec §6);
* mobility: 2 points for every piece of mine that may move (on top of its stack and not
  holding the swarm together: the swarm's articulation points, found in one depth-first pass)
  and minus 2 for theirs; a pinned piece can neither attack nor defend;
* 3 points for each of my pieces touching their bee, minus 3 for theirs touching mine (the
  pieces that keep a bee surrounded);
* before the bees are set: 1 point a piece on the board.

Move ordering: moves that end next to the opponent's bee first, then moves away from my own
bee, placing last (the official list puts placing first; alpha-beta cuts more after attacks).

Fast paths: ``play`` copies the position (a list of small stacks) and makes the move without the
referee's validation (``Position.perform``, what ``push`` does after validating), because every move comes from the rules' own generator
(:func:`legal_moves`: ``Position._drag_moves`` told the pinned pieces, instead of testing the
swarm per piece); tests/ladder/test_rungs.py checks the result against the referee's ``push``,
and tests/ladder/test_hive_rungs.py the moves against the referee's ``legal_moves``.
"""

from __future__ import annotations

from swc_local.games.hive.rules import (
    BEE,
    INDEX,
    NEIGHBOURS,
    ROUND_LIMIT_TURN,
    SKIP,
    Position,
    SetMove,
)
from swc_local.games.strategy import WIN

# The budgets: the CPU time of each move (time.process_time) over four whole games of search-long
# against search-short, measured at 900 and 5,000 positions at most 0.154 s and 0.334 s; set for about 0.1 s and 0.3 s
# of CPU.  On the loaded machine they were measured on (load 20 on 2 CPUs) a move took five
# times that on the wall clock; beyond that client/ladder.py's time guard keeps the soft limit.
SHORT_NODES = 600
LONG_NODES = 4_000
GUARD_SECONDS = 1.0
"""The time guard of a search move here (client/ladder.py's is 1.6 s): at a load of 20 on 2 CPUs
moves of these budgets came back up to 3 s after the request with the 1.6 s guard, so the guard
strikes earlier and leaves room below the 2 s soft limit."""

BEE_FIELD = 12.0
MOBILE_PIECE = 2.0
BEE_ATTACKER = 3.0


def position(game) -> Position:
    return game.position


def seat(position: Position) -> int:
    return position.current


def _cell(coord) -> int:
    return INDEX[(coord[0], coord[1])]


def legal_moves(position: Position) -> list:
    """``Position.legal_moves``, the same moves in the same order, faster: a piece's drag moves
    are skipped when it holds the swarm together (the articulation points, found once) instead
    of testing the swarm's connection once per piece as the referee does."""
    me = position.current
    moves: list = position._set_moves()
    if position.bee_placed(me) and not position._bee_due(me):
        stacks = position.stacks
        moves += position._drag_moves(pinned=_pinned(stacks, [i for i, s in enumerate(stacks) if s]))
    if not moves and not position._bee_due(me):
        moves.append(SKIP)
    return moves


def moves(position: Position) -> list:
    found = legal_moves(position)
    if not found:  # the bee is due and cannot be set: the server accepts a skip (spec §5)
        return [] if over(position) else [SKIP]
    if found[0] is SKIP:
        return found
    me = position.current
    _, bees = _scan(position.stacks)
    theirs, mine = bees[1 - me], bees[me]
    near_theirs = set(NEIGHBOURS[theirs]) if theirs is not None else set()
    near_mine = set(NEIGHBOURS[mine]) if mine is not None else set()

    def order(move) -> int:
        if isinstance(move, SetMove):
            return 2 if move.kind != BEE else 0
        to, frm = _cell(move.destination), _cell(move.start)
        return -(to in near_theirs) * 3 + (frm in near_theirs) * 2 - (frm in near_mine) + (to in near_mine)

    found.sort(key=order)
    return found


def play(position: Position, move) -> Position:
    after = position.copy()
    after.perform(move)
    return after


def over(position: Position) -> bool:
    return _decision(position, _scan(position.stacks)[1]) is not None


def _scan(stacks) -> tuple[list[int], list[int | None]]:
    """The occupied fields and each colour's bee field (None: not set), in one pass."""
    occupied: list[int] = []
    bees: list[int | None] = [None, None]
    for field, stack in enumerate(stacks):
        if stack:
            occupied.append(field)
            for piece in stack:
                if piece & 7 == BEE:
                    bees[piece >> 3] = field
    return occupied, bees


def _pinned(stacks, occupied: list[int]) -> set[int]:
    """The fields whose piece holds the swarm together (articulation points of the occupied
    fields, one iterative depth-first pass); a piece on a stack of two or more is never pinned
    by this."""
    if len(occupied) <= 2:
        return set()
    depth: dict[int, int] = {}
    low: dict[int, int] = {}
    cut: set[int] = set()
    root = occupied[0]
    depth[root] = low[root] = 0
    stack = [(root, -1, iter(NEIGHBOURS[root]))]
    children = 0
    while stack:
        node, parent, it = stack[-1]
        advanced = False
        for n in it:
            if not stacks[n] or n == parent:
                continue
            if n in depth:
                if depth[n] < low[node]:
                    low[node] = depth[n]
                continue
            depth[n] = low[n] = depth[node] + 1
            stack.append((n, node, iter(NEIGHBOURS[n])))
            if node == root:
                children += 1
            advanced = True
            break
        if not advanced:
            stack.pop()
            if parent >= 0:
                if low[node] < low[parent]:
                    low[parent] = low[node]
                if parent != root and low[node] >= depth[parent]:
                    cut.add(parent)
    if children > 1:
        cut.add(root)
    return {i for i in cut if len(stacks[i]) == 1}


def _free_around(stacks, blocked, field: int) -> int:
    return sum(1 for n in NEIGHBOURS[field] if not stacks[n] and n not in blocked)


def _decision(position: Position, bees) -> tuple[int | None] | None:
    """``Position.decision``'s winner from the bee fields already found (the same rule, spec
    §6.1: only at even turns; both bees blocked is a draw)."""
    if position.turn % 2:
        return None
    stacks, blocked = position.stacks, position.blocked
    free = [-1 if bee is None else _free_around(stacks, blocked, bee) for bee in bees]
    red, blue = free[0] == 0, free[1] == 0
    if red and blue:
        return (None,)
    if red or blue:
        return (1,) if red else (0,)
    if position.turn >= ROUND_LIMIT_TURN:
        return (None,) if free[0] == free[1] else ((0,) if free[0] > free[1] else (1,))
    return None


def value(position: Position, seat: int) -> float:
    stacks = position.stacks
    occupied, bees = _scan(stacks)
    decision = _decision(position, bees)
    if decision is not None:
        winner = decision[0]
        return 0.0 if winner is None else (WIN if winner == seat else -WIN)
    other = 1 - seat
    mine, theirs = bees[seat], bees[other]
    blocked = position.blocked
    score = 0.0
    if theirs is not None:
        score += BEE_FIELD * (6 - _free_around(stacks, blocked, theirs))
        for n in NEIGHBOURS[theirs]:
            if stacks[n] and stacks[n][-1] >> 3 == seat:
                score += BEE_ATTACKER
    if mine is not None:
        score -= BEE_FIELD * (6 - _free_around(stacks, blocked, mine))
        for n in NEIGHBOURS[mine]:
            if stacks[n] and stacks[n][-1] >> 3 == other:
                score -= BEE_ATTACKER
    pinned = _pinned(stacks, occupied)
    for field in occupied:
        if field not in pinned:
            score += MOBILE_PIECE if stacks[field][-1] >> 3 == seat else -MOBILE_PIECE
    if mine is None or theirs is None:
        score += len(position.undeployed[other]) - len(position.undeployed[seat])
    return score
