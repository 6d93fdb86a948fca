"""Hase und Igel 2025 for the ladder's search rungs (the contract: games/strategy.py).

Evaluation (also on the game's docs page): as in 2018, a race scored by the difference between
the two hares' *estimated turns to finish* (:func:`turns_to_finish`), ten points a turn, plus a
tie-break on the fields covered that grows towards the round limit (where the farther hare wins,
then the one with fewer carrots, spec §5).  The estimate counts one turn per salad still to eat
(an EAT_SALAD card in hand, playable on a hare field ahead, saves half of it: it needs an
advance that ends on a hare field), a fall back for a salad
that has no salad field left ahead, the strides the carrots allow (``R`` fields in ``n`` advances
cost about ``R²/2n + R/2`` carrots, counting the carrots the salads will still bring; at least
one advance per :data:`LONGEST_STRIDE` fields), the turns
spent taking carrots when the stock is short and those spent dropping carrots (10 a turn) when
more than 10 would be left at the goal.  The last also while salads are left (:func:`most_spent`):
each salad brings about 20 carrots, and a hare that must still eat cannot spend its stock in one
long stride, since every salad takes an advance of its own; counted only once the salads were
eaten, a hare one salad and 50 carrots before the goal looked a turn from it and the search
changed carrots back and forth instead of eating (search-short scored 0.74 against greedy).

Strength in one process (seeds 1000-1099, seats swapped, 200 games a pair): search-short 174 of
200 against greedy (0.87, +330 Elo), search-long 148.5 against search-short (0.74, +184) and 186
against greedy (0.93), greedy 197 against random (0.985).  Run from the repository's root for
rungs A and B (it prints A's points)::

    python -c "import sys;from tests.ladder.rung_games import play;a,b=sys.argv[1:];print(sum((o.winner==s)+(o.winner is None)/2 for n in range(1000,1100) for s,(x,y) in enumerate(((a,b),(b,a))) for o in [play('hase_und_igel_2025',x,y,n)[0]]))" A B

The moves are the server's own "sensible moves" (``movegen.sensible_moves``), the list a
hare is skipped on; when both hares are stuck the hare to move has none (spec §4.7): such a
position counts as over and lost for it, since any move it sends is a mistake.

Fast path: ``play`` copies the state (two small hares) and pushes the move through the referee's
``perform_move``, skips included, so the search plays exactly the server's game.
"""

from __future__ import annotations

from swc_local.games.hase_und_igel_2025 import movegen, rules
from swc_local.games.hase_und_igel_2025.state import (
    EAT_SALAD,
    Advance,
    EatSalad,
    ExchangeCarrots,
    FallBack,
    Hare,
    State,
)
from swc_local.games.hase_und_igel_2025.track import GOAL_INDEX, HARE, SALAD
from swc_local.games.hare_race import race_turns
from swc_local.games.strategy import WIN

# The budgets: the CPU time of each move (time.process_time) over four whole games of search-long
# against search-short, measured at 1,500 and 8,000 positions at most 0.139 s and 0.320 s; set for about 0.1 s and 0.3 s
# of CPU.  On the loaded machine they were measured on (load 20 on 2 CPUs) a move took five
# times that on the wall clock; beyond that client/ladder.py's time guard keeps the soft limit.
SHORT_NODES = 1_000
LONG_NODES = 7_000
GREEDY_SHARES = (50,)
"""The greedy-N rung between random and greedy (client/ladder.py): with the evaluation above greedy
won 197 of 200 games against random, a gap no affordable number of games bounds.  In-process, seats
swapped, seeds from 1000 (``tests.ladder.rung_games.play``): greedy-50 146 of 200 against random,
greedy 169 of 200 against greedy-50 (about 170 and 290 Elo)."""
GUARD_SECONDS = 1.0
"""The time guard of a search move here (client/ladder.py's is 1.6 s): at a load of 20 on 2 CPUs
moves of these budgets came back up to 3 s after the request with the 1.6 s guard, so the guard
strikes earlier and leaves room below the 2 s soft limit."""

TURN_POINTS = 10.0
"""What one turn of the race is worth: the evaluation's unit."""
LONGEST_STRIDE = 6
"""The longest advance a race keeps up on average (hedgehogs, salads and hare fields break longer
ones): carrots beyond what it costs buy no more speed."""
CARD_SAVES = 0.5
"""The turns an EAT_SALAD card in hand saves: not a whole turn, since it needs an advance that
ends on a hare field (a search that counted a whole turn bought cards at every market and
carried them to the end instead of eating on the salad fields it passed)."""


def position(game) -> State:
    return game.position


def seat(position: State) -> int:
    return position.seat


def _order(move) -> float:
    """Eating first, then long advances (those with cards a little earlier), fall backs last."""
    if isinstance(move, EatSalad):
        return -100
    if isinstance(move, Advance):
        return -move.distance - 2 * (EAT_SALAD in move.cards)
    if isinstance(move, ExchangeCarrots):
        return 5
    if isinstance(move, FallBack):
        return 10
    return 20


def moves(position: State) -> list:
    if rules.is_over(position):
        return []
    found = movegen.sensible_moves(position)
    found.sort(key=_order)
    return found


def play(position: State, move) -> State:
    after = position.copy()
    rules.perform_move(after, move)
    return after


def _stuck(position: State) -> bool:
    return not movegen.has_sensible_move(position)


def over(position: State) -> bool:
    return rules.is_over(position) or _stuck(position)


def _fields(track: tuple[str, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per field, the salad fields and the hare fields beyond it."""
    salads = [i for i, kind in enumerate(track) if kind == SALAD]
    hares = [i for i, kind in enumerate(track) if kind == HARE]
    return (tuple(sum(1 for f in salads if f > i) for i in range(len(track))),
            tuple(sum(1 for f in hares if f > i) for i in range(len(track))))


_FIELDS: dict[tuple[str, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}


def turns_to_finish(track: tuple[str, ...], hare: Hare) -> float:
    """How many more turns ``hare`` needs to reach the goal, estimated (see the module doc)."""
    index, carrots, salads = hare.position, hare.carrots, hare.salads
    if index == GOAL_INDEX:
        return 0.0
    known = _FIELDS.get(track)
    if known is None:
        known = _FIELDS[track] = _fields(track)
    salads_ahead, hares_ahead = known
    left = GOAL_INDEX - index
    turns = 0.0
    visits = 0
    if salads:
        eat_cards = min(hare.cards.count(EAT_SALAD), hares_ahead[index], salads)
        pending = track[index] == SALAD and not isinstance(hare.last_action, EatSalad)
        turns = salads - CARD_SAVES * eat_cards
        short = salads - eat_cards - salads_ahead[index] - pending
        if short > 0:
            turns += 6.0 * short  # back to a hedgehog and on to a salad again
        visits = max(salads - eat_cards - pending, 0)
    turns = race_turns(turns, left, carrots, salads, visits, longest_stride=LONGEST_STRIDE)
    if salads:  # the goal takes at most 10: what the salads bring must be spent or dropped too
        excess = carrots + 20 * salads - most_spent(left, visits + eat_cards + 1) - 10
        if excess > 0:
            turns += excess / 10
    return turns


def most_spent(left: int, advances: int) -> float:
    """The most carrots ``advances`` advances can spend over the ``left`` fields to the goal: all
    but one of a field, the rest in one stride (each salad eaten needs an advance of its own, so a
    hare with salads left cannot burn its carrots in one long stride)."""
    if advances >= left:
        return left
    longest = left - advances + 1
    return longest * (longest + 1) / 2 + advances - 1


def value(position: State, seat: int) -> float:
    me, other = position.hares[seat], position.hares[1 - seat]
    margin = (me.position - other.position) / 100
    if rules.is_over(position):
        winner = rules.winner(position).winner
        return 0.0 if winner is None else (WIN if winner == seat else -WIN) + margin
    if _stuck(position):  # both hares stuck: the one to move can only make a mistake
        return -WIN if position.seat == seat else WIN
    track = position.track
    race = turns_to_finish(track, other) - turns_to_finish(track, me)
    late = max(position.turn - 40, 0) / 20  # towards the round limit the fields decide
    return TURN_POINTS * race + (0.2 + 3 * late) * (me.position - other.position)
