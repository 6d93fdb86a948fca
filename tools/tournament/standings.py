"""Standings from finished games: W/D/L, points, crosstable, Elo, openskill ratings, causes.

Conformance notes (choices where no server defines the numbers):

- a game counts as a *win* for the bot with rank 1 alone, a *draw* for each bot sharing rank 1,
  a *loss* otherwise; a game without a result (``error`` set) counts for nobody and is listed as
  "no result";
- *points* are the Software-Challenge victory points per opponent: 2 for every opponent ranked
  below, 1 for every opponent with the same rank, 0 otherwise. In a two-player game that is the
  server's own 2/1/0; in a multi-player game it is the pairwise decomposition of the ranks, which
  also fills the crosstable (points of the row bot against the column bot, over all games in
  which both sat);
- *Elo* is the logistic Elo of :mod:`.elo` for two-player games: per head-to-head pairing from
  the pentanomial counts of its complete game pairs (trinomial game counts while no pair is
  complete), and per bot against the whole field from all its pairs;
- *ratings* are openskill's Plackett-Luce model fed with the ranks of every game with a result,
  in the order the games finished (for every game, two-player ones included); the table shows
  ``mu ± sigma`` and sorts by the conservative ordinal ``mu - 3 sigma``;
- *causes* are every cause other than ``REGULAR`` a bot's seat ended with, counted per bot;
- *think time* is the average and the maximum time a bot took per move, over every timed move
  (the XML games: the observer's clock, as ``swc match``'s ms/move; other families do not time
  moves, so their bots show none);
- a game pair is a *mirror* when its second game ended seat for seat as its first (same ranks,
  score parts and causes per seat) although the bots swapped seats: what two copies of a bot
  that ignores ``{seed}`` play. The report says so when every pair of a pairing was one.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

from swc_local.tools.results import REGULAR, GameResult
from swc_local.tools.tournament.db import Stored
from swc_local.tools.tournament.elo import EloEstimate, shown


@dataclass
class BotLine:
    name: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: int = 0
    max_points: int = 0
    no_result: int = 0
    causes: Counter = field(default_factory=Counter)
    mu: float = 0.0
    sigma: float = 0.0
    ordinal: float = 0.0
    elo: EloEstimate | None = None
    moves: int = 0  # timed moves
    think_total_ms: float = 0.0
    think_max_ms: float | None = None

    @property
    def think_avg_ms(self) -> float | None:
        return self.think_total_ms / self.moves if self.moves else None

    @property
    def score(self) -> float:
        """Share of the points possible, 0..1."""
        return self.points / self.max_points if self.max_points else 0.0


@dataclass
class HeadToHead:
    first: str
    second: str
    pentanomial: list[int] = field(default_factory=lambda: [0] * 5)  # pairs, first bot's view
    trinomial: list[int] = field(default_factory=lambda: [0] * 3)  # [L, D, W] games, first bot's view
    mirrors: int = 0  # pairs whose second game repeated the first seat for seat

    @property
    def pairs(self) -> int:
        return sum(self.pentanomial)

    @property
    def all_mirrors(self) -> bool:
        return self.pairs > 0 and self.mirrors == self.pairs

    def elo(self) -> EloEstimate | None:
        if self.pairs:
            return shown(self.pentanomial)
        return shown(self.trinomial) if sum(self.trinomial) else None


@dataclass
class Standings:
    bots: dict[str, BotLine]
    crosstable: dict[str, dict[str, list[int]]]  # row -> column -> [points, games]
    heads: dict[tuple[str, str], HeadToHead]
    games: int = 0
    no_result: int = 0

    def ranked(self) -> list[BotLine]:
        return sorted(self.bots.values(), key=lambda b: (-b.ordinal, -b.score, b.name))


def pair_score(mine: int, theirs: int) -> float:
    """1, 0.5 or 0: the game score of a seat with rank ``mine`` against one with ``theirs``."""
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


class Tally:
    """Standings built one game at a time, so the live view costs no recount after every game."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        bots = {name: BotLine(name) for name in names}
        cross = {a: {b: [0, 0] for b in names if b != a} for a in names}
        self.table = Standings(bots, cross, {})
        self.model = PlackettLuce()
        self.ratings = {name: self.model.rating(name=name) for name in names}
        self.blocks: dict[str, list[GameResult]] = defaultdict(list)

    def add(self, item: Stored) -> None:
        table, result = self.table, item.result
        table.games += 1
        _count(table, result, table.bots, self.model, self.ratings)
        for name, (moves, average, most) in (item.info.get("think") or {}).items():
            line = table.bots.get(name)
            if line is not None and moves:
                line.moves += moves
                line.think_total_ms += moves * average
                line.think_max_ms = most if line.think_max_ms is None else max(line.think_max_ms, most)
        if result.ok and len(result.seats) == 2:
            games = self.blocks[item.block]
            games.append(result)
            head = _head(table.heads, self.names, result)
            head.trinomial[round(2 * _score_of(result, head.first))] += 1
            if len(games) == 2:
                _add_pair(table.heads, self.names, games)

    def standings(self) -> Standings:
        for name, rating in self.ratings.items():
            line = self.table.bots[name]
            line.mu, line.sigma, line.ordinal = rating.mu, rating.sigma, rating.ordinal()
        _field_elo(self.table.bots, self.table.heads)
        return self.table


def _count(table: Standings, result: GameResult, bots, model, ratings) -> None:
    for seat in result.seats:
        line = bots.setdefault(seat.name, BotLine(seat.name))
        line.games += 1
        if seat.cause != REGULAR:
            line.causes[seat.cause] += 1
    if not result.ok:
        table.no_result += 1
        for seat in result.seats:
            bots[seat.name].no_result += 1
        return
    ranks = [seat.rank for seat in result.seats]
    best = min(ranks)
    for seat in result.seats:
        line = bots[seat.name]
        if seat.rank != best:
            line.losses += 1
        elif ranks.count(best) == 1:
            line.wins += 1
        else:
            line.draws += 1
        for other in result.seats:
            if other is seat:
                continue
            points = round(2 * pair_score(seat.rank, other.rank))
            line.points += points
            line.max_points += 2
            cell = table.crosstable.setdefault(seat.name, {}).setdefault(other.name, [0, 0])
            cell[0] += points
            cell[1] += 1
    teams = model.rate([[ratings[seat.name]] for seat in result.seats], ranks=ranks)
    for seat, (rating,) in zip(result.seats, teams):
        ratings[seat.name] = rating


def _head(heads, names: list[str], result: GameResult) -> HeadToHead:
    first, second = sorted((s.name for s in result.seats), key=names.index)
    return heads.setdefault((first, second), HeadToHead(first, second))


def _score_of(result: GameResult, name: str) -> float:
    mine = result.seat_of(name)
    other = next(s for s in result.seats if s is not mine)
    return pair_score(mine.rank, other.rank)


def _add_pair(heads, names: list[str], games: list[GameResult]) -> None:
    head = _head(heads, names, games[0])
    total = sum(_score_of(game, head.first) for game in games)
    head.pentanomial[round(2 * total)] += 1
    if is_mirror(*games):
        head.mirrors += 1


def is_mirror(first: GameResult, second: GameResult) -> bool:
    """The second game of a pair ended seat for seat as the first, with the bots swapped."""
    outcome = [[(s.rank, s.score, s.cause) for s in game.seats] for game in (first, second)]
    return outcome[0] == outcome[1] and [s.name for s in first.seats] == [s.name for s in second.seats][::-1]


def _field_elo(bots: dict[str, BotLine], heads) -> None:
    """Each bot's Elo against everyone it met, from all its game pairs."""
    pooled: dict[str, list[int]] = defaultdict(lambda: [0] * 5)
    for head in heads.values():
        for i, count in enumerate(head.pentanomial):
            pooled[head.first][i] += count
            pooled[head.second][4 - i] += count
    for name, counts in pooled.items():
        if sum(counts):
            bots[name].elo = shown(counts)
