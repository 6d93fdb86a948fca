"""Penguins 2023 for the ladder's search rungs (the contract: games/strategy.py).

Evaluation (also on the game's docs page): the difference between the seat's fish and the other
team's, plus a third of the difference between the fish each team's penguins can reach in one
slide (what it can take soon); at the end WIN for a won game (plus the fish margin).  Why the
reach: penguins that run out of floes stop scoring, and fish in hand alone walks into corners.
"""

from __future__ import annotations

from swc_local.games.penguins.rules import RAYS, Position, index_of
from swc_local.games.strategy import WIN

SHORT_NODES = 1_500
LONG_NODES = 8_000
GREEDY_SHARES = (50,)
"""The greedy-N rungs between random and greedy (client/ladder.py): greedy wins nearly every game
against random here, a gap no number of games bounds.  Chosen on in-process series with the seats
swapped (seeds from 1000): random 28.5 of 200 against greedy-50, greedy-50 30.5 of 200 against
greedy (about 310 and 300 Elo; greedy against random 198 of 200)."""


def position(game) -> Position:
    return game.position


def seat(position: Position) -> int:
    return position.current


def moves(position: Position) -> list:
    board = position.board
    found = position.legal_moves()
    # the floes with the most fish first: alpha-beta cuts more after good moves
    found.sort(key=lambda move: -board[index_of(*move.to)])
    return found


def play(position: Position, move) -> Position:
    after = position.copy()
    after.push_unchecked(move)
    return after


def over(position: Position) -> bool:
    return position.is_over()


def _reach(position: Position, team: int) -> int:
    board, total = position.board, 0
    for p in position.penguins[team]:
        for ray in RAYS[p]:
            for j in ray:
                if board[j] <= 0:
                    break
                total += board[j]
    return total


def value(position: Position, seat: int) -> float:
    other = 1 - seat
    margin = position.fishes[seat] - position.fishes[other]
    if position.is_over():
        return 0.0 if margin == 0 else (WIN if margin > 0 else -WIN) + margin
    return margin + (_reach(position, seat) - _reach(position, other)) / 3
