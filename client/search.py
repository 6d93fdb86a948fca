"""The search the ladder's upper rungs play with: one algorithm for every game, a game's own
knowledge in its ``games/<game>/strategy.py`` (the contract: games/strategy.py ``Strategy``).

Why one algorithm: a bot author compares a bot against rungs that differ only in how far they
look, so the search is the same everywhere and each game states only its moves, how a move is
made on a copy, and its evaluation (written down in the game's docs page).

The algorithm is minimax with alpha-beta and iterative deepening.  The seat that searches
maximises and every other seat minimises its value: plain alpha-beta in a two-player game and
the *paranoid* search in a game of more seats (ReversiXT), which assumes the others play
together against it.  Moves are ordered by the strategy (best first) and, from the second
depth on, at the root by the previous depth's scores.

:func:`max_n_move` is the other algorithm for three or more seats: every seat maximises its own
value, so the search predicts whom the others attack instead of assuming they all attack the
searching seat.  It has no pruning, so a game uses it where there are few moves (ReversiXT's
bomb phase: client/reversixt_bot.py).

Why a budget of nodes and not of time: a rung must be deterministic from its seed, on a fast
machine and a loaded one alike, so the search stops after ``nodes`` positions, not after so many
seconds.  ``seconds`` is only a guard that keeps the bot inside the game's soft limit on a
machine far slower than the budget was measured on; when it strikes the move may differ from
the seeded one, and the bot logs it.  A depth the budget cuts short is discarded except for its
first moves, which were searched completely (the previous best comes first, so the answer is
never worse than the last full depth's).
"""

from __future__ import annotations

import logging
import math
import random
import time
from dataclasses import dataclass
from typing import Any, Callable

from swc_local.games.strategy import WIN, Strategy

log = logging.getLogger("swc.search")

class OutOfBudget(Exception):
    """The node budget or the time guard is spent: the depth being searched is abandoned."""


@dataclass
class Search:
    """One move's search: ``best`` the move, ``depth`` the last depth searched completely,
    ``nodes`` the positions made, ``timed_out`` whether the time guard (not the budget) struck."""

    strategy: Strategy
    root_seat: int
    nodes_budget: int
    deadline: float | None = None
    nodes: int = 0
    depth: int = 0
    timed_out: bool = False

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes > self.nodes_budget:
            raise OutOfBudget
        if self.deadline is not None and self.nodes % 64 == 0 and time.monotonic() > self.deadline:
            self.timed_out = True
            raise OutOfBudget

    def minimax(self, position: Any, depth: int, alpha: float, beta: float) -> float:
        strategy = self.strategy
        if depth == 0 or strategy.over(position):
            return strategy.value(position, self.root_seat)
        maximising = strategy.seat(position) == self.root_seat
        best = -math.inf if maximising else math.inf
        for move in strategy.moves(position):
            self._count()
            score = self.minimax(strategy.play(position, move), depth - 1, alpha, beta)
            if maximising:
                best = max(best, score)
                alpha = max(alpha, score)
            else:
                best = min(best, score)
                beta = min(beta, score)
            if alpha >= beta:
                break
        return best


def _deepen(search: Search, moves: list, max_depth: int,
            root_scores: Callable[[list, int, list[tuple[float, int]]], None],
            settled: Callable[[list[tuple[float, int]]], bool], name: str) -> Any:
    """Iterative deepening at the root, shared by :func:`best_move` and :func:`max_n_move`: each
    depth scores the moves (``root_scores`` appends ``(score, index in order)``) in the order the
    depth before ranked them, best first; a depth the budget cuts short keeps the best of the
    moves it finished.  It stops at ``max_depth``, at a forced move, or once ``settled`` says of a
    finished depth's ranking that no deeper look changes it."""
    order, best = moves, moves[0]
    for depth in range(1, max_depth + 1):
        scores: list[tuple[float, int]] = []
        try:
            root_scores(order, depth, scores)
        except OutOfBudget:
            if scores:  # the moves searched completely at this depth (the previous best first)
                best = order[max(scores, key=lambda pair: (pair[0], -pair[1]))[1]]
            break
        ranked = sorted(scores, key=lambda pair: (-pair[0], pair[1]))
        order = [order[index] for _, index in ranked]
        best = order[0]
        search.depth = depth
        if len(order) == 1 or settled(ranked):
            break
    if search.timed_out:
        log.warning("%s stopped by the time guard after %d positions at depth %d: this move may differ "
                    "from the seeded one", name, search.nodes, search.depth)
    return best


def best_move(strategy: Strategy, position: Any, rng: random.Random, nodes: int, *, max_depth: int = 64,
              seconds: float | None = None) -> Any | None:
    """The move the search chooses at ``position`` for the seat on turn, within ``nodes``
    positions (and ``seconds`` as a guard); None if there is no legal move.  ``rng`` orders
    equal moves, so equal scores are broken the same way for the same seed."""
    moves = list(strategy.moves(position))
    if not moves:
        return None
    rng.shuffle(moves)  # ties go to a seeded choice, not to the move generator's order
    search = Search(strategy, strategy.seat(position), nodes,
                    None if seconds is None else time.monotonic() + seconds)

    def root_scores(order: list, depth: int, scores: list[tuple[float, int]]) -> None:
        alpha = -math.inf
        for index, move in enumerate(order):
            search._count()
            score = search.minimax(strategy.play(position, move), depth - 1, alpha, math.inf)
            scores.append((score, index))
            alpha = max(alpha, score)

    # a forced end found: no deeper look changes it
    return _deepen(search, moves, max_depth, root_scores, lambda ranked: abs(ranked[0][0]) >= WIN, "search")


def max_n_move(strategy: Strategy, position: Any, rng: random.Random, nodes: int, seats: list[int], *,
               max_depth: int = 64, seconds: float | None = None) -> Any | None:
    """The move *max-n* chooses at ``position`` (``seats``: every seat still in), within ``nodes``
    positions (``seconds`` a guard); None if there is no legal move.

    Why a second algorithm for games of three or more seats: paranoid search lets every other seat
    play against the searching one, so where the others in truth fight each other (the one in the
    lead is everyone's target), every line looks equally lost and the search learns nothing from
    looking deeper.  Max-n lets every seat on turn choose what is best *for itself* (its own value
    of the leaf), so the search predicts who attacks whom.  It cannot prune as alpha-beta does, so
    it suits positions with few moves (a game's endgame); ties go to the strategy's order, the
    root's to ``rng``.  A depth the budget cuts short keeps its first moves, as in :func:`best_move`.
    """
    moves = list(strategy.moves(position))
    if not moves:
        return None
    rng.shuffle(moves)
    root = strategy.seat(position)
    search = Search(strategy, root, nodes, None if seconds is None else time.monotonic() + seconds)

    cut = False  # whether a leaf of the depth being searched was not the game's end

    def values(node: Any, depth: int) -> dict[int, float]:
        nonlocal cut
        if strategy.over(node) or depth == 0:
            cut |= not strategy.over(node)
            return {seat: strategy.value(node, seat) for seat in seats}
        mover = strategy.seat(node)
        best: dict[int, float] | None = None
        for move in strategy.moves(node):
            search._count()
            found = values(strategy.play(node, move), depth - 1)
            if best is None or found[mover] > best[mover]:
                best = found
        return best

    def root_scores(order: list, depth: int, scores: list[tuple[float, int]]) -> None:
        nonlocal cut
        cut = False
        for index, move in enumerate(order):
            search._count()
            scores.append((values(strategy.play(position, move), depth - 1)[root], index))

    # every line reached the end: the answer is exact
    return _deepen(search, moves, max_depth, root_scores, lambda ranked: not cut, "max-n")


def greedy_move(strategy: Strategy, position: Any, rng: random.Random) -> Any | None:
    """One ply on the game's own evaluation: the move whose position values best for the seat on
    turn, equal ones broken by ``rng`` (the greedy rung of games without a greedy of their own)."""
    moves = list(strategy.moves(position))
    if not moves:
        return None
    rng.shuffle(moves)
    seat = strategy.seat(position)
    return max(moves, key=lambda move: strategy.value(strategy.play(position, move), seat))
