"""The ladder's rungs in Piranhas 2026 (games/piranhas_2026/strategy.py): every rung plays legally to
the end against every other, the same game again from the same seeds, the strategy's ``play``
walks the referee's positions exactly, and the search-short rung plays a real game through
``swc match``."""

from __future__ import annotations

import pytest

from swc_local.client import ladder
from swc_local.games import registry
from swc_local.games.piranhas_2026.rules import TEAM_OF
from tests.ladder.ladder_games import PAIRS, play, random_walk, reduce_budgets, search_short_against_random

GAME = "piranhas_2026"


def test_piranhas_2026_offers_every_rung():
    assert ladder.rungs(registry.entry(GAME)) == ladder.RUNGS


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_every_rung_plays_legally_to_the_end_against_every_other(monkeypatch, first, second):
    reduce_budgets(monkeypatch, GAME, short=30, long=90)
    seed = PAIRS.index((first, second))
    _, moves = play(GAME, first, second, seed)  # the referee raises on an illegal move
    assert len(moves) >= 2


def test_the_search_rungs_play_the_same_game_again_from_the_same_seeds(monkeypatch):
    reduce_budgets(monkeypatch, GAME, short=30, long=90)
    assert play(GAME, "search-long", "search-short", seed=4) == play(GAME, "search-long", "search-short", seed=4)


def test_the_search_beats_random_at_a_small_budget(monkeypatch):
    reduce_budgets(monkeypatch, GAME, short=100, long=300)
    assert play(GAME, "random", "search-short", seed=1)[0] == 1


@pytest.mark.parametrize("seed", range(6))
def test_play_walks_the_referees_positions(seed):
    strategy = registry.entry(GAME).strategy
    plugin = registry.entry(GAME).plugin
    for game, position in random_walk(GAME, seed):
        assert position == strategy.position(game)
        outcome = game.outcome()
        assert strategy.over(position) == (outcome is not None)
        if outcome is None:
            assert strategy.seat(position) == game.current_seat
            ordered = [str(move) for move, _ in strategy.ordered(position)]
            assert sorted(ordered) == sorted(map(str, plugin.legal_moves(game)))
    for seat in (0, 1):
        value = strategy.value(position, seat)
        assert value == 0 if outcome.winner is None else (value >= 1e6) == (outcome.winner == seat)


@pytest.mark.slow
async def test_search_short_plays_a_real_game_through_swc_match():
    record = await search_short_against_random(GAME, seed=3)
    ours = record.seat_of("player1")
    assert (ours.cause, record.seat_of("player2").cause) == ("REGULAR", "REGULAR")
    assert ours.rank == 1


@pytest.mark.parametrize("seed", range(3))
def test_the_search_looks_at_the_best_moves_by_the_ordering_and_every_capture(seed):
    strategy = registry.entry(GAME).strategy
    widths = []
    for game, position in random_walk(GAME, seed):
        found = strategy.ordered(position)
        chosen = strategy.moves(position)
        best, rest = found[:strategy.WIDTH], found[strategy.WIDTH:]
        assert chosen == [move for move, _ in best] + [move for move, capture in rest if capture]
        state = game.position
        for move, capture in found:  # "eats a fish": the target holds one of the other team's
            distance = state.distance(move.x, move.y, move.direction)
            target = state.at(move.x + distance * move.direction.dx, move.y + distance * move.direction.dy)
            assert capture == (TEAM_OF[target] == 1 - state.team_to_move)
        widths.append(len(found))
    assert max(widths) > strategy.WIDTH  # the cap was exercised
