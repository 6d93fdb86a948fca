"""Piranhas 2026 for the ladder's search rungs (the contract: games/strategy.py).

The search's position is a tuple of bitboards in the rules' ``y * 10 + x`` numbering,
``(one, two, squids, medium, large, turn, first_union)`` (``medium``/``large``: the fish of
weight 2 and 3 of both teams; the rest weigh 1): a move is a few big-int operations and a copy
is free, where the referee's :class:`~swc_local.games.piranhas_2026.rules.GameState` keeps a
list of 100 fields and checks every move.  The moves are the rules' own :class:`Move` objects;
the tests compare ``play`` with the referee's ``perform`` move by move.

Evaluation (also on the game's docs page), for each team, then the seat's minus the other's:

* ``-spread``: the sum of the fish's king-move distances to their centre of mass (rounded to a
  field) less the least that many fish can have: how far the team is from one swarm;
* ``+ 1.5 * heaviest``: the weight of the heaviest swarm, which decides the game whenever a team
  is connected and at the round limit (spec §4);
* ``+ total``: the weight of all the team's fish (eating a large fish costs the other team 3);
* ``- 3 * (swarms - 1)``: how many pieces the fish still fall into.

At the end: WIN for a won game plus the difference of the heaviest swarms, 0 a tie.  Why weight
counts here and not in 2019: a team that joins a light swarm loses to a heavier one (§4 rule 1),
so fish in hand are worth keeping and the other team's heavy fish worth eating.

Move ordering: by how much closer to the mover's centre of mass (rounded to a field) the fish
lands, a capture half a field closer per unit of weight it eats.  **A width, by choice:** the
search looks only at the :data:`WIDTH` best moves by that order and at every capture, at every
node (the root included; the greedy rung chooses among the same).  Why: a team has 40 to 70
moves, most of them a fish swimming away from its swarm; at full width search-long reached
depth 3, rarely 4, and search-short depth 2 to 3, so one ply parted the two rungs and the team
moving last won most games whichever rung it was.  The moves left out swim away from the centre
without eating: a strong player rarely prefers one, and the end (a swarm joined, a fish eaten
from the other's) is among those kept.  Measured with the width: search-long beat search-short
15-1 in the calibration (docs/games/piranhas_2026.md).
"""

from __future__ import annotations

from swc_local.games.grid10 import KING, LEAST_SPREAD, centre, generate, spread, swarms
from swc_local.games.piranhas_2026.rules import (
    DIRECTIONS, LINES, ONE, ONE_L, ONE_M, RAYS, SIZE, SQUID, TURN_LIMIT, TWO, TWO_L, TWO_M, TEAM_OF, Move,
)
from swc_local.games.strategy import WIN

SHORT_NODES = 100
LONG_NODES = 1_500
"""The budgets, chosen so that greedy to search-short and search-short to search-long are gaps games
can measure to ±50 Elo: with 500 and 15,000 positions (depth 2 to 3 against 4 to 5) search-short won
10 of 10 against greedy and search-long 10 of 10 against search-short in the calibration's round
robin (search-short 57 of 60 against greedy in-process), gaps no number of games bounds well.
In-process series with the seats swapped, greedy's points against search-short at N positions: N = 100:
12 of 60 (seeds from 1000) and 12 of 100 (from 3000), about +240 and +350 Elo; 200: 5 of 60 (+417);
search-short's at 100 against search-long at M: M = 1,500: 5 of 40 (from 1000) and 7 of 60 (from
3000), about +340 and +350; 5,000: 3 of 40 (+436). About 0.002 s and 0.03 s of CPU a move (some
50,000 positions per CPU second), far inside the guard below."""
GREEDY_SHARES = (25, 50, 75)
"""The greedy-N rungs between random and greedy (client/ladder.py): greedy wins nearly every game
against random here, a gap no number of games bounds.  Chosen on in-process series with the seats
swapped (seeds from 1000): each lower rung's points of 200 against the next: random 31.5, greedy-25
37, greedy-50 42, greedy-75 60.5 (about 290, 260, 230 and 145 Elo; greedy against random 200 of
200)."""
GUARD_SECONDS = 1.0
"""The time guard (client/ladder.py's is 1.6 s; Hive's and both Hase und Igel seasons' are 1.0 s as
well): at a load of 7 on 2 CPUs search-long's 15,000 positions took 0.5 to 1 s a move, and
20,000 at the 1.6 s guard took 1.2 s on average and up to 2.3 s."""
WIDTH = 12
"""The moves searched at a node besides the captures (the module docstring)."""

Position = tuple  # (one, two, squids, medium, large, turn, first_union)


def _step_table() -> list[tuple]:
    """``STEPS[field]``: per axis (line mask, forward, backward), forward and backward per
    distance (path mask, target bit, move) or None off the board."""
    table = []
    for c in range(100):
        axes = []
        for i in range(4):
            line = sum(1 << f for f in LINES[c][i])
            sides = []
            for index in (i, i + 4):
                ray = RAYS[c][index]
                per_distance: list = [None]
                for dist in range(1, 20):
                    if dist > len(ray):
                        per_distance.append(None)
                        continue
                    path = 0
                    for f in ray[: dist - 1]:
                        path |= 1 << f
                    per_distance.append((path, 1 << ray[dist - 1], Move(c % SIZE, c // SIZE, DIRECTIONS[index])))
                sides.append(tuple(per_distance))
            axes.append((line, *sides))
        table.append(tuple(axes))
    return table


STEPS = _step_table()
_DIRECTION = {d: i for i, d in enumerate(DIRECTIONS)}


def position(game) -> Position:
    state = game.position
    one = two = squids = medium = large = 0
    for c, v in enumerate(state.cells):
        bit = 1 << c
        if v == SQUID:
            squids |= bit
        elif TEAM_OF[v] == ONE:
            one |= bit
        elif TEAM_OF[v] == TWO:
            two |= bit
        if v in (ONE_M, TWO_M):
            medium |= bit
        elif v in (ONE_L, TWO_L):
            large |= bit
    return (one, two, squids, medium, large, state.turn, state.first_union)


def seat(p: Position) -> int:
    return p[5] & 1


def _weight(group: int, medium: int, large: int) -> int:
    return group.bit_count() + (group & medium).bit_count() + 2 * (group & large).bit_count()


_TEAMS: dict[tuple[int, int, int], tuple[float, bool, int, tuple]] = {}
_TEAMS_MAX = 1 << 16


def _team(own: int, medium: int, large: int) -> tuple[float, bool, int, tuple]:
    """What the search asks of one team's fish, computed once per (fish, their weights):
    (its term of the evaluation, connected, heaviest swarm (-1 without fish), the king distances
    from its centre of mass).  Why one cache for all four: a move changes one team's fish (two
    on a capture), the other's answer is a hit, and the flood fill that finds the swarms gives
    connectedness for the end test and ``first_union`` as well (flooding the same fish again for
    each question took a sixth of the search's time)."""
    key = (own, medium & own, large & own)
    known = _TEAMS.get(key)
    if known is not None:
        return known
    groups = swarms(own)
    heaviest = max((_weight(g, medium, large) for g in groups), default=-1)
    king = KING[centre(own)] if own else KING[0]
    shape = (-(spread(own) - LEAST_SPREAD[own.bit_count()]) + 1.5 * max(heaviest, 0)
             + _weight(own, medium, large) - 3 * (len(groups) - 1))
    if len(_TEAMS) >= _TEAMS_MAX:
        _TEAMS.clear()
    result = _TEAMS[key] = (shape, len(groups) == 1, heaviest, king)
    return result


def _connected(own: int, medium: int, large: int) -> bool:
    """A team is connected when all its fish form one swarm (none: not connected)."""
    return _team(own, medium, large)[1]


def _heaviest(own: int, medium: int, large: int) -> int:
    """``greatestSwarmSize``: -1 without fish."""
    return _team(own, medium, large)[2]


_LAST_OVER: list = [None, False]
"""The last position :func:`over` answered (held, so ``is`` cannot match a new tuple): the
search asks it for a position and then its ``moves`` ask again."""


def over(p: Position) -> bool:
    if p is _LAST_OVER[0]:
        return _LAST_OVER[1]
    one, two, squids, medium, large, turn, _ = p
    if turn >= TURN_LIMIT or turn % 2 == 0 and (_connected(one, medium, large) or _connected(two, medium, large)):
        result = True
    else:
        own, opp = (one, two) if turn % 2 == 0 else (two, one)
        result = not generate(STEPS, own, opp, squids, True)
    _LAST_OVER[0], _LAST_OVER[1] = p, result
    return result


def _winner(p: Position) -> int | None:
    """``current_winner`` of the rules on the bitboards (call at an end)."""
    one, two, squids, medium, large, turn, first_union = p
    heavy_one, heavy_two = _heaviest(one, medium, large), _heaviest(two, medium, large)
    if _connected(one, medium, large) or _connected(two, medium, large):
        if heavy_one != heavy_two:
            return ONE if heavy_one > heavy_two else TWO
        return first_union
    own, opp = (one, two) if turn % 2 == 0 else (two, one)
    if not generate(STEPS, own, opp, squids, True):
        return 1 - (turn & 1)
    if heavy_one != heavy_two:
        return ONE if heavy_one > heavy_two else TWO
    return None


def ordered(p: Position) -> list[tuple[Move, bool]]:
    """Every legal move of the team on turn as (move, eats a fish), best first by the move
    ordering (the module docstring); empty only when ``over``."""
    if over(p):
        return []
    one, two, squids, medium, large, turn, _ = p
    own, opp = (one, two) if turn % 2 == 0 else (two, one)
    king = _team(own, medium, large)[3]
    keyed = []
    for index, (move, start, target) in enumerate(generate(STEPS, own, opp, squids)):
        key = 2 * (king[target.bit_length() - 1] - king[start])  # twice the gain: integers sort faster
        capture = target & opp != 0
        if capture:
            key -= 1 + (target & medium != 0) + 2 * (target & large != 0)
        keyed.append((key, index, move, capture))
    keyed.sort()
    return [(entry[2], entry[3]) for entry in keyed]


def moves(p: Position) -> list[Move]:
    """The :data:`WIDTH` best moves by the ordering and every capture (the module docstring)."""
    found = ordered(p)
    return [move for index, (move, capture) in enumerate(found) if index < WIDTH or capture]


def play(p: Position, move: Move) -> Position:
    one, two, squids, medium, large, turn, first_union = p
    start = move.y * SIZE + move.x
    index = _DIRECTION[move.direction]
    axis = STEPS[start][index % 4]
    target = axis[1 + index // 4][((one | two) & axis[0]).bit_count()][1]
    moved = (1 << start) | target
    if medium & target:
        medium ^= target
    if large & target:
        large ^= target
    if medium >> start & 1:
        medium ^= moved
    elif large >> start & 1:
        large ^= moved
    if turn % 2 == 0:
        one, two = one ^ moved, two & ~target
    else:
        one, two = one & ~target, two ^ moved
    if first_union is None:
        first_union = ONE if _connected(one, medium, large) else TWO if _connected(two, medium, large) else None
    return (one, two, squids, medium, large, turn + 1, first_union)


def value(p: Position, seat_: int) -> float:
    one, two, squids, medium, large, turn, _ = p
    if over(p):
        winner = _winner(p)
        if winner is None:
            return 0.0
        margin = abs(_heaviest(one, medium, large) - _heaviest(two, medium, large))
        return WIN + margin if winner == seat_ else -WIN - margin
    score = _team(one, medium, large)[0] - _team(two, medium, large)[0]
    return score if seat_ == ONE else -score
