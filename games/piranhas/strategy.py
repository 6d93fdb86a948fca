"""Piranhas 2019 for the ladder's search rungs (the contract: games/strategy.py).

The search's position is a small tuple of bitboards, ``(red, blue, kraken, turn)`` in the rules'
``x * 10 + y`` numbering: a move is a handful of big-int operations and a copy is free, where the
referee's :class:`~swc_local.games.piranhas.rules.Position` keeps a cell array in step and checks
every move.  The moves are the rules' own :class:`Move` objects (the tables of rules.py), so the
move the search chooses is the one the bot sends; the tests compare ``play`` with the referee's
``push`` move by move.

Evaluation (also on the game's docs page), for each colour, then the seat's minus the other's:

* ``-spread``: the sum of the fish's king-move (Chebyshev) distances to their centre of mass
  (rounded to a field), less the least that many fish can have (a packed 3x3, 5x5 block): how
  far the swarm is from one heap, the measure strong Piranhas bots build on;
* ``+ 2 * largest`` and ``- 3 * (swarms - 1)``: the largest swarm (the score at the round limit)
  and how many pieces the fish still fall into.

At the end (checked, as the server does, only at even turns): WIN for a won game plus the
difference of the largest swarms, 0 a draw.  Why the spread dominates: a colour wins by joining
all its fish, and the distance to one heap falls with every useful move long before two swarms
merge, so the search sees progress at every depth.

Move ordering: each fish's move by how much closer it lands to the mover's centre of mass
(rounded to a field), with
a capture of an enemy fish that is not its last first (eating splits the other swarm).
"""

from __future__ import annotations

from swc_local.games.piranhas.rules import (
    BLUE, DIRECTIONS, LINE, OBSTRUCTED, RAYS, RED, TURN_LIMIT, Move,
)
from swc_local.games.grid10 import KING, LEAST_SPREAD, centre, generate, spread, swarms
from swc_local.games.strategy import WIN

SHORT_NODES = 1_000
LONG_NODES = 20_000
"""The budgets: at most about 0.03 s and 0.6 s of CPU a move (some 43,000 positions per CPU
second, measured over positions of seeded games on the shared 2-CPU machine); search-long as
long as the 2 s soft limit allows with room for a loaded machine (the time guard, client/ladder.py).
Search-short is the size that splits greedy to search-long in two gaps games can measure: at
3,000 positions it won 38.5 of 40 against greedy (+564 Elo, too near one way to measure to ±50).
In-process series with the seats swapped (seeds from 1000), greedy's points against search-short
at N positions: N = 300: 14.5 of 60 (+199), 1,000: 6.5 of 60 (+366); search-short's against
search-long: N = 1,000: 9.5 of 40 (+203), 3,000 (the calibration's round robin): 2.5 of 10."""
GREEDY_SHARES = (25, 50, 75)
"""The greedy-N rungs between random and greedy (client/ladder.py): greedy wins nearly every game
against random here, a gap no number of games bounds.  Chosen on in-process series with the seats
swapped (seeds from 1000): each lower rung's points of 200 against the next: random 32, greedy-25
35, greedy-50 40.5, greedy-75 48 (about 290, 270, 240 and 200 Elo; greedy against random 200 of
200)."""

Position = tuple  # (red, blue, kraken, turn): bitboards of x * 10 + y, the turns played


def _step_table() -> list[tuple]:
    """``STEPS[cell]``: per axis (line mask, forward, backward), where forward and backward hold
    per distance (path mask, destination bit, move) or None off the board: the rules' geometry in
    the form the generator and ``play`` read with one popcount per axis."""
    table = []
    for c in range(100):
        axes = []
        for forward in DIRECTIONS[:4]:
            backward = DIRECTIONS[DIRECTIONS.index(forward) + 4]
            sides = []
            for direction in (forward, backward):
                ray = RAYS[c][DIRECTIONS.index(direction)]
                per_distance: list = [None]
                for dist in range(1, 20):
                    if dist > len(ray):
                        per_distance.append(None)
                        continue
                    path = 1 << c
                    for cell in ray[: dist - 1]:
                        path |= 1 << cell
                    per_distance.append((path, 1 << ray[dist - 1], Move(c // 10, c % 10, direction)))
                sides.append(tuple(per_distance))
            axes.append((LINE[c][forward.axis], *sides))
        table.append(tuple(axes))
    return table


STEPS = _step_table()
_DIRECTION = {d: i for i, d in enumerate(DIRECTIONS)}


def position(game) -> Position:
    bb = game.position.bb
    return (bb[RED], bb[BLUE], bb[OBSTRUCTED], game.position.turn)


def seat(p: Position) -> int:
    return p[3] & 1


def moves(p: Position) -> list[Move]:
    if over(p):
        return []
    red, blue, kraken, turn = p
    own, opp = (red, blue) if turn % 2 == 0 else (blue, red)
    found = generate(STEPS, own, opp, kraken)
    king = KING[centre(own)]
    last_enemy = opp.bit_count() == 1

    def gain(entry) -> float:
        _, start, dest = entry
        closer = king[dest.bit_length() - 1] - king[start]
        return closer - 0.5 if dest & opp and not last_enemy else closer

    found.sort(key=gain)
    return [entry[0] for entry in found]


def play(p: Position, move: Move) -> Position:
    red, blue, kraken, turn = p
    start = move.x * 10 + move.y
    index = _DIRECTION[move.direction]
    axis = STEPS[start][index % 4]
    dest = axis[1 + index // 4][((red | blue) & axis[0]).bit_count()][1]
    if turn % 2 == 0:
        return (red ^ (1 << start) ^ dest, blue & ~dest, kraken, turn + 1)
    return (red & ~dest, blue ^ (1 << start) ^ dest, kraken, turn + 1)


_FACTS: dict[int, tuple[int, float]] = {}
_FACTS_MAX = 1 << 16


def _facts(own: int) -> tuple[int, float]:
    """(largest swarm, the colour's own term of the evaluation) of the fish ``own``, kept per
    bitboard: the side that did not move last keeps its fish, and iterative deepening visits the
    same positions again."""
    known = _FACTS.get(own)
    if known is None:
        groups = swarms(own)
        largest = max((group.bit_count() for group in groups), default=0)
        shape = -(spread(own) - LEAST_SPREAD[own.bit_count()]) + 2 * largest - 3 * (len(groups) - 1)
        if len(_FACTS) >= _FACTS_MAX:
            _FACTS.clear()
        known = _FACTS[own] = (largest, shape)
    return known


def _winner(p: Position) -> int | None | bool:
    """The seat that won (None: a draw) at an end, False while the game goes on (the rules'
    ``decision``: only at even turns)."""
    red, blue, _, turn = p
    if turn % 2:
        return False
    red_largest, blue_largest = _facts(red)[0], _facts(blue)[0]
    red_connected = red_largest == red.bit_count()
    blue_connected = blue_largest == blue.bit_count()
    if red_connected:
        if not blue_connected or red_largest > blue_largest:
            return 0
        if blue_largest > red_largest:
            return 1
    elif blue_connected:
        return 1
    if turn >= TURN_LIMIT:
        return None if red_largest == blue_largest else (0 if red_largest > blue_largest else 1)
    return False


def over(p: Position) -> bool:
    return _winner(p) is not False


def value(p: Position, seat_: int) -> float:
    winner = _winner(p)
    red, blue, kraken, _ = p
    if winner is not False:
        if winner is None:
            return 0.0
        margin = abs(_facts(red)[0] - _facts(blue)[0])
        return WIN + margin if winner == seat_ else -WIN - margin
    score = _facts(red)[1] - _facts(blue)[1]
    return score if seat_ == 0 else -score
