"""Ostseeschach 2022 for the ladder's search rungs (the contract: games/strategy.py).

Evaluation (also on the game's docs page, "The ladder's evaluation"), for the seat against the
other team, in points:

* an amber 100 (two win the game);
* a piece on the board 10 per piece it holds (a tower of two counts 20): material is what the
  distance tie-break and the next ambers are made of;
* a tower of two 6 more for its owner when it is *safe* and 12 for the other team when the owner
  cannot defend it: a tower of two that captures anything becomes an amber, and capturing a tower
  of two makes one, so the towers of two are where the next amber comes from;
* a light piece 2 per square it has come from its start line, squared over 7 (the last squares
  count most: a light piece on the far line is an amber), and the farthest light piece 1 per
  square once more (the official tie-break at equal ambers).

Move ordering: moves that score an amber first, then captures (the bigger tower taken first),
then light pieces moving forward.  At the end WIN for a won game, plus the amber margin.

Fast paths: ``play`` makes the referee's move on a cheap copy (the pieces' dict and the 32
bucket lists copied directly, no re-insertion) without the referee's checks, which
``legal_moves`` already satisfied; the referee's :meth:`Position.push` is unchanged.
"""

from __future__ import annotations

from swc_local.games.ostseeschach.rules import (
    AMBERS_TO_WIN, ROUND_LIMIT, SIZE, START_LINES, Move, Piece, Position, bucket_of, _VECTORS,
)
from swc_local.games.strategy import WIN

SHORT_NODES = 80
LONG_NODES = 1_200
"""Small on purpose, so that greedy to search-short and search-short to search-long are gaps games
can measure to ±50 Elo.  With 500 and 2,500 positions a move search-short won 229.5 of 232 games
against greedy in the calibration; with 80 and 2,500 search-long won 220.5 of 230 against
search-short (+499 ± 99 Elo): both too near one way.  In-process series with the seats swapped,
greedy's points against search-short at N positions (100 games from seed 1000): N = 10: 71.5
(weaker than greedy: too shallow to see a reply), 20: 52, 40: 40.5, 60: 27, 80: 12.5; 200 games
from seed 2000: N = 80: 19 (about +390 Elo), 100: 12.5 (+470).  Search-short's points at 80
against search-long at M (100 games from seed 3000): M = 600: 19 (+252), 1,200: 11 (+363)."""
GREEDY_SHARES = (25, 50, 75)
"""The greedy-N rungs between random and greedy (client/ladder.py): greedy wins nearly every game
against random here, a gap no number of games bounds.  Chosen on in-process series with the seats
swapped (seeds from 1000): each lower rung's points of 200 against the next: random 18.5, greedy-25
40.5, greedy-50 51, greedy-75 59 (about 400, 240, 185 and 150 Elo; greedy against random 200 of
200)."""

AMBER, PIECE, SAFE_TOWER, HANGING_TOWER, ADVANCE, FARTHEST = 100.0, 10.0, 6.0, 12.0, 2.0, 1.0


def position(game) -> Position:
    return game.position


def seat(position: Position) -> int:
    return position.current


def _copy(position: Position) -> Position:
    after = Position.__new__(Position)
    after.pieces = dict(position.pieces)
    after.buckets = [list(bucket) for bucket in position.buckets]
    after.turn = position.turn
    after.last_move = position.last_move
    after.ambers = list(position.ambers)
    after.amber_entries = list(position.amber_entries)
    return after


def play(position: Position, move: Move) -> Position:
    """The referee's :meth:`Position.push` without its checks, on a copy."""
    after = _copy(position)
    start, to = move.from_, move.to
    pieces, buckets = after.pieces, after.buckets
    piece = pieces.pop(start)
    buckets[bucket_of(start)].remove(start)
    target = pieces.get(to)
    if target is None:
        buckets[bucket_of(to)].append(to)
        moved = piece
    else:
        moved = Piece(piece.type, piece.team, piece.count + target.count)
    pieces[to] = moved
    gained = int(moved.count >= 3) + int(moved.type.is_light and to[0] == START_LINES[1 - moved.team])
    if gained:
        del pieces[to]
        buckets[bucket_of(to)].remove(to)
    team = piece.team
    after.ambers[team] += gained
    after.amber_entries[team] = True
    after.last_move = move
    after.turn += 1
    return after


def _order(position: Position, move: Move) -> float:
    pieces = position.pieces
    piece, target = pieces[move.from_], pieces.get(move.to)
    key = 0.0
    if target is not None:
        key += 10 * target.count + (100 if piece.count + target.count >= 3 else 0)
    if piece.type.is_light:
        line = START_LINES[piece.team]
        if move.to[0] == START_LINES[1 - piece.team]:
            key += 100
        key += abs(move.to[0] - line) - abs(move.from_[0] - line)
    return -key


def moves(position: Position) -> list[Move]:
    found = position.legal_moves()
    found.sort(key=lambda move: _order(position, move))
    return found


def over(position: Position) -> bool:
    return position.is_over()


def _attacked(pieces: dict, square: tuple[int, int], by: int) -> bool:
    """Whether a piece of team ``by`` can move onto ``square``."""
    x, y = square
    for (px, py), piece in pieces.items():
        if piece.team == by and abs(px - x) <= 2 and abs(py - y) <= 2:
            if (x - px, y - py) in _VECTORS[piece.type][by]:
                return True
    return False


def value(position: Position, seat: int) -> float:
    other = 1 - seat
    if position.is_over():
        decision = position.decision()
        margin = position.ambers[seat] - position.ambers[other]
        if decision.winner is None:
            return 0.0
        return (WIN if decision.winner == seat else -WIN) + margin
    pieces = position.pieces
    score = AMBER * (position.ambers[seat] - position.ambers[other])
    farthest = [0, 0]
    to_move = position.current
    for square, piece in pieces.items():
        team = piece.team
        sign = 1.0 if team == seat else -1.0
        worth = PIECE * piece.count
        if piece.count == 2:
            enemy = 1 - team
            if _attacked(pieces, square, enemy):
                # the side to move takes it now; otherwise the owner may still save it
                worth -= HANGING_TOWER if to_move == enemy else HANGING_TOWER / 3
            else:
                worth += SAFE_TOWER
        if piece.type.is_light:
            gone = abs(square[0] - START_LINES[team])
            worth += ADVANCE * gone * gone / (SIZE - 1)
            farthest[team] = max(farthest[team], gone)
        score += sign * worth
    score += FARTHEST * (farthest[seat] - farthest[other])
    # close to the end an amber ahead decides the game: count it more
    if max(position.ambers) == AMBERS_TO_WIN - 1 or position.round >= ROUND_LIMIT - 3:
        score += AMBER * (position.ambers[seat] - position.ambers[other])
    return score
