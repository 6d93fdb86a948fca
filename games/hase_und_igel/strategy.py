"""Hase und Igel 2018 for the ladder's search rungs (the contract: games/strategy.py).

Evaluation (also on the game's docs page): the game is a race, so a position is worth the
difference between the two hares' *estimated turns to finish* (:func:`turns_to_finish`), ten
points a turn, plus a tie-break on the fields each has covered that grows towards the round
limit (where the farther hare wins, spec §7).  The estimate counts what a strong player counts:
one turn per salad still to eat (the EAT_SALAD card saves one), the salad fields left ahead to
eat them on (a salad without a field ahead costs a fall back), the strides the carrots allow
(covering ``R`` fields in ``n`` advances costs about ``R²/2n + R/2`` carrots, counting the
carrots the salads and the TAKE card will still bring), the turns spent taking carrots when the
stock is short, and the turns spent dropping carrots when more than 10 would be left at the goal.

Why not fields and carrots with fixed weights: a carrot is worth a lot far from the goal and
nothing (less than nothing) near it; turns to finish puts both on one scale, the one that decides
the game.

Fast paths: the moves are the rules' generator (``movegen.legal_moves``, memoised card chains);
``play`` copies the state (two small players) and pushes the move through the referee's own
``perform_move``, so the search can never make a move the server would refuse.
"""

from __future__ import annotations

from swc_local.games.hase_und_igel import movegen, rules
from swc_local.games.hase_und_igel.board import GOAL_INDEX, HARE, SALAD
from swc_local.games.hase_und_igel.rules import (
    ADVANCE, CARD, EAT, EAT_SALAD, EXCHANGE, FALL, FALL_BACK, HURRY, TAKE, State,
)
from swc_local.games.hare_race import race_turns
from swc_local.games.strategy import WIN

# The budgets: the CPU time of each move (time.process_time) over four whole games of search-long
# against search-short, measured at 2,500 and 12,000 positions at most 0.105 s and 0.387 s; set for about 0.1 s
# and 0.3 s of CPU.  On the loaded machine they were measured on (load 20 on 2 CPUs) a move took five
# times that on the wall clock; beyond that client/ladder.py's time guard keeps the soft limit.
SHORT_NODES = 2_000
LONG_NODES = 10_000
GUARD_SECONDS = 1.0
"""The time guard of a search move here (client/ladder.py's is 1.6 s): at a load of 20 on 2 CPUs
moves of these budgets came back up to 3 s after the request with the 1.6 s guard, so the guard
strikes earlier and leaves room below the 2 s soft limit."""

TURN_POINTS = 10.0
"""What one turn of the race is worth: the evaluation's unit."""


def position(game) -> State:
    return game.position


def seat(position: State) -> int:
    return position.turn % 2


def _order(move) -> float:
    """Eating first (it is progress that costs nothing), then long advances, fall backs last."""
    first = move.actions[0]
    kind = first.kind
    if kind == EAT_SALAD:
        return -100
    if kind == ADVANCE:
        return -first.value - 5 * (len(move.actions) > 1 and any(a.card == EAT for a in move.actions))
    if kind == CARD:
        return -20 if first.card == EAT else 0
    if kind == EXCHANGE:
        return 5
    if kind == FALL_BACK:
        return 10
    return 20


def moves(position: State) -> list:
    found = movegen.legal_moves(position)
    found.sort(key=_order)
    return found


def play(position: State, move) -> State:
    after = position.copy()
    rules.perform_move(after, move)
    return after


def over(position: State) -> bool:
    return rules.outcome(position) is not None


def _fields(board: tuple[str, ...]) -> tuple[tuple[int, ...], int]:
    """Per field, the salad fields beyond it; and the board's last hare field (where the
    EAT_SALAD card can be played at the latest)."""
    hares = [i for i, kind in enumerate(board) if kind == HARE]
    salads = [i for i, kind in enumerate(board) if kind == SALAD]
    return tuple(sum(1 for f in salads if f > i) for i in range(len(board))), max(hares, default=-1)


_FIELDS: dict[tuple[str, ...], tuple[tuple[int, ...], int]] = {}


def turns_to_finish(board: tuple[str, ...], player: rules.Player) -> float:
    """How many more turns ``player`` needs to reach the goal, estimated (see the module doc)."""
    index, carrots, salads = player.index, player.carrots, player.salads
    if index == GOAL_INDEX:
        return 0.0
    known = _FIELDS.get(board)
    if known is None:
        known = _FIELDS[board] = _fields(board)
    salads_ahead, last_hare = known
    left = GOAL_INDEX - index
    cards = player.cards
    turns = 0.0
    if salads:
        eat_card = EAT in cards and last_hare > index
        last = player.last
        pending = board[index] == SALAD and last is not None and (
            last.kind == ADVANCE or (last.kind == CARD and last.card in (HURRY, FALL)))  # eats it next turn
        turns = salads - eat_card
        short = salads - eat_card - salads_ahead[index] - pending
        if short > 0:
            turns += 6.0 * short  # back to a hedgehog and on to a salad again
        visits = max(salads - eat_card - pending, 0)
    else:
        visits = 0
    take = TAKE in cards
    return race_turns(turns, left, carrots, salads, visits, extra=20 if take else 0, drop=20 if take else 10)


def value(position: State, seat: int) -> float:
    result = rules.outcome(position)
    me, other = position.player(seat), position.player(1 - seat)
    margin = (me.index - other.index) / 100
    if result is not None:
        return (WIN if result[0] == seat else -WIN) + margin
    board = position.board
    race = turns_to_finish(board, other) - turns_to_finish(board, me)
    late = max(position.turn - 40, 0) / 20  # towards the round limit the fields decide
    return TURN_POINTS * race + (0.2 + 3 * late) * (me.index - other.index)
