"""The ladder's rungs in every XML game with a search strategy (games/<game>/strategy.py): every
rung plays legally to the end against every other rung, the same game again from the same seeds,
the search beats a weaker rung, the strategy's ``play`` makes the referee's moves, and the
search-short rung plays a real game through ``swc match``.  The search rungs run on reduced
budgets here (the same search, fewer positions); their strength is measured outside the suite.

What differs between the games is data (``RungGame``): budgets, seeds, how long a game must be,
which check of ``play`` fits the strategy's position.  Tests that only one game has stay in its
own module (test_<game>_rungs.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from swc_local.client import ladder
from swc_local.games import registry
from swc_local.games.blokus_strategy import WIDTH
from swc_local.games.piranhas_2026.rules import TEAM_OF
from tests.ladder.rung_games import PAIRS, play, positions_along_a_game, random_walk, reduce_budgets, \
    search_short_against_random


@dataclass(frozen=True)
class Win:
    """A game the search must win at the given budgets (None: the real ones): ``first`` in seat
    0, ``winner`` a seat."""

    first: str
    second: str
    seed: int
    winner: int
    budgets: tuple[int, int] | None = None


@dataclass(frozen=True)
class RungGame:
    name: str
    budgets: tuple[int, int] | None = None
    """The search rungs' reduced (SHORT_NODES, LONG_NODES) for the games between every pair."""
    pair_seed: int | None = None
    """The seed of every pair's game; None: each pair its own (its index in ``PAIRS``)."""
    min_moves: int = 1
    again: tuple[str, str, int] | None = None
    """Two rungs and a seed whose game, played twice, must be the same."""
    win: Win | None = None
    same_move: Callable | None = None
    """A strategy's position after ``play`` against the referee's after ``apply``: the fields
    that must agree (checked for the strategy's first moves at positions along a random game)."""
    same_move_every: int = 3
    same_move_checks: int = 20
    walk: Callable | None = None
    """A check of the strategy's ``play`` all along a random game (never rebuilt)."""
    walk_seeds: range = range(0)
    match_seed: int | None = None


def exact_walk(name: str, seed: int) -> None:
    """``play`` along a random game equals the strategy's own reading of the referee's game; its
    ``moves`` are the referee's; ``value`` at the end names the winner."""
    strategy, plugin = registry.entry(name).strategy, registry.entry(name).plugin
    for game, position in random_walk(name, seed):
        assert position == strategy.position(game)
        outcome = game.outcome()
        assert strategy.over(position) == (outcome is not None)
        if outcome is None:
            assert strategy.seat(position) == game.current_seat
            assert sorted(map(str, strategy.moves(position))) == sorted(map(str, plugin.legal_moves(game)))
    for seat in (0, 1):
        value = strategy.value(position, seat)
        assert value == 0 if outcome.winner is None else (value >= 1e6) == (outcome.winner == seat)


def piranhas_2026_walk(name: str, seed: int) -> None:
    """Piranhas 2026 (games/piranhas_2026/strategy.py): ``play`` and ``value`` as
    :func:`exact_walk`; the strategy's ``ordered`` moves are the referee's, each marked whether it
    eats a fish, and the search's ``moves`` are the ``WIDTH`` first of them plus every capture."""
    strategy, plugin = registry.entry(name).strategy, registry.entry(name).plugin
    widest = 0
    for game, position in random_walk(name, seed):
        assert position == strategy.position(game)
        outcome = game.outcome()
        assert strategy.over(position) == (outcome is not None)
        if outcome is not None:
            break
        assert strategy.seat(position) == game.current_seat
        found = strategy.ordered(position)
        assert sorted(str(move) for move, _ in found) == sorted(map(str, plugin.legal_moves(game)))
        state = game.position
        for move, capture in found:  # "eats a fish": the target holds one of the other team's
            distance = state.distance(move.x, move.y, move.direction)
            target = state.at(move.x + distance * move.direction.dx, move.y + distance * move.direction.dy)
            assert capture == (TEAM_OF[target] == 1 - state.team_to_move)
        best, rest = found[:strategy.WIDTH], found[strategy.WIDTH:]
        assert strategy.moves(position) == [move for move, _ in best] + [move for move, capture in rest if capture]
        widest = max(widest, len(found))
    assert widest > strategy.WIDTH  # the cap was exercised
    for seat in (0, 1):
        value = strategy.value(position, seat)
        assert value == 0 if outcome.winner is None else (value >= 1e6) == (outcome.winner == seat)


def blokus_fields(position) -> tuple:
    """What a Blokus position is made of (the rules' position has no equality of its own)."""
    return (position.turn, position.start_piece, position.occupied, position.undeployed, position.valid,
            position.last_move_mono, position.last_move)


def blokus_walk(name: str, seed: int) -> None:
    """Both Blokus seasons (games/blokus_strategy.py): four colours on two teams, placements
    capped by the search, so ``moves`` is checked as a best-first subset of the referee's:
    legal, the largest pieces first, ``WIDTH`` of them when there are more; the team to move is
    the seat."""
    strategy = registry.entry(name).strategy
    for game, position in random_walk(name, seed):
        assert blokus_fields(position) == blokus_fields(game.position)
        outcome = game.outcome()
        assert strategy.over(position) == (outcome is not None)
        if outcome is not None:
            break
        assert strategy.seat(position) == game.current_seat == game.position.current_color % 2
        legal = game.position.legal_moves()
        chosen = strategy.moves(position)
        assert set(chosen) <= set(legal) and len(chosen) == min(WIDTH, len(legal))
        sizes = [sum(1 for _ in move.cells()) for move in chosen]
        assert sizes == sorted(sizes, reverse=True) and sizes[0] == max(len(move.cells()) for move in legal)
    for seat in (0, 1):
        value = strategy.value(position, seat)
        assert value == 0 if outcome.winner is None else (value >= 1e6) == (outcome.winner == seat)


def hares_2018(mine, ref) -> bool:
    return (mine.red, mine.blue, mine.turn) == (ref.red, ref.blue, ref.turn)


def hares_2025(mine, ref) -> bool:
    return mine.hares == ref.hares and mine.turn == ref.turn


def hive_fields(mine, ref) -> bool:
    return (mine.stacks, mine.undeployed, mine.turn, mine.current) == (ref.stacks, ref.undeployed, ref.turn, ref.current)


def ships(mine, ref) -> bool:
    mine = mine.position  # the search's node holds the position
    return [s.key() for s in mine.ships] == [s.key() for s in ref.ships] and \
        (mine.turn, mine.current) == (ref.turn, ref.current)


SEARCHED_BY_PIECES = dict(budgets=(12, 30), min_moves=40, again=("search-long", "search-short", 4),
                          win=Win("random", "search-short", 1, 1, (12, 30)), walk=blokus_walk, walk_seeds=range(3),
                          match_seed=3)
PIRANHAS = dict(budgets=(30, 90), min_moves=2, again=("search-long", "search-short", 4),
                win=Win("random", "search-short", 1, 1, (100, 300)), walk=exact_walk, walk_seeds=range(6),
                match_seed=3)
HARES = dict(budgets=(40, 80), pair_seed=3, again=("search-long", "greedy", 8))

GAMES = (
    RungGame("hase_und_igel", **HARES, same_move=hares_2018),
    RungGame("hase_und_igel_2025", **HARES, same_move=hares_2025),
    RungGame("hive", budgets=(12, 24), pair_seed=3, again=("search-long", "greedy", 8), same_move=hive_fields),
    RungGame("mississippi_queen", budgets=(4, 8), pair_seed=3, again=("search-long", "greedy", 8), same_move=ships,
             same_move_every=1, same_move_checks=10),
    RungGame("piranhas", **PIRANHAS),
    RungGame("piranhas_2026", **{**PIRANHAS, "walk": piranhas_2026_walk}),
    RungGame("blokus", **SEARCHED_BY_PIECES),
    RungGame("blokus_2021", **SEARCHED_BY_PIECES),
    # Ostseeschach plays its pairs in both seats (test_ostseeschach_rungs.py); Penguins at full budgets.
    RungGame("ostseeschach", win=Win("search-short", "greedy", 4, 0), match_seed=2),
    RungGame("penguins"),
)


def games_with(field: str) -> list:
    return [pytest.param(game, id=game.name) for game in GAMES if getattr(game, field) is not None]


@pytest.mark.parametrize("game", [pytest.param(game, id=game.name) for game in GAMES])
def test_the_game_offers_every_rung(game):
    offered = ladder.rungs(registry.entry(game.name))
    assert tuple(rung for rung in offered if ladder.greedy_share(rung) is None) == ladder.RUNGS


@pytest.mark.parametrize(("game", "first", "second"), [
    pytest.param(game, first, second, id=f"{game.name}-{first}-{second}")
    for game in GAMES if game.again is not None for first, second in PAIRS])
def test_every_rung_plays_legally_to_the_end_against_every_other(monkeypatch, game, first, second):
    reduce_budgets(monkeypatch, game.name, *game.budgets)
    seed = PAIRS.index((first, second)) if game.pair_seed is None else game.pair_seed
    outcome, moves = play(game.name, first, second, seed)  # the referee raises on an illegal move
    assert outcome is not None and len(moves) >= game.min_moves


@pytest.mark.parametrize("game", games_with("again"))
def test_the_same_seeds_play_the_same_game_again(monkeypatch, game):
    reduce_budgets(monkeypatch, game.name, *game.budgets)
    first, second, seed = game.again
    assert play(game.name, first, second, seed) == play(game.name, first, second, seed)


@pytest.mark.parametrize("game", games_with("win"))
def test_the_search_wins_against_a_weaker_rung(monkeypatch, game):
    win = game.win
    if win.budgets is not None:
        reduce_budgets(monkeypatch, game.name, *win.budgets)
    outcome, _ = play(game.name, win.first, win.second, win.seed)
    assert outcome.winner == win.winner


@pytest.mark.parametrize("game", games_with("same_move"))
def test_the_strategys_play_agrees_with_the_referee(game):
    strategy = registry.entry(game.name).strategy
    checked = 0
    for referee in positions_along_a_game(game.name, seed=5, every=game.same_move_every):
        before = strategy.position(referee)
        for move in list(strategy.moves(before))[:4]:
            after = strategy.play(before, move)
            ref = referee.snapshot()
            ref.apply(ref.current_seat, move)
            assert game.same_move(after, ref.position), move
            checked += 1
    assert checked > game.same_move_checks


@pytest.mark.parametrize(("game", "seed"), [
    pytest.param(game, seed, id=f"{game.name}-{seed}") for game in GAMES for seed in game.walk_seeds])
def test_play_walks_the_referees_positions(game, seed):
    game.walk(game.name, seed)


@pytest.mark.slow
@pytest.mark.parametrize("game", games_with("match_seed"))
async def test_search_short_plays_a_real_game_through_swc_match(game):
    record = await search_short_against_random(game.name, seed=game.match_seed)
    ours = record.seat_of("player1")
    assert (ours.cause, record.seat_of("player2").cause) == ("REGULAR", "REGULAR")
    assert ours.rank == 1
