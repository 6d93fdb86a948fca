"""The ladder's rungs in Blokus 2027 (games/blokus/strategy.py on games/blokus_strategy.py):
every rung plays legally to the end against every other, the same game again from the same
seeds, the strategy's ``play`` walks the referee's positions exactly, and the search-short rung
plays a real game through ``swc match``."""

from __future__ import annotations

import pytest

from swc_local.client import ladder
from swc_local.games import registry
from tests.ladder.blokus_rungs import check_walk
from tests.ladder.ladder_games import PAIRS, play, reduce_budgets, search_short_against_random

GAME = "blokus"


def test_blokus_offers_every_rung():
    assert ladder.rungs(registry.entry(GAME)) == ladder.RUNGS


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_every_rung_plays_legally_to_the_end_against_every_other(monkeypatch, first, second):
    reduce_budgets(monkeypatch, GAME, short=12, long=30)
    seed = PAIRS.index((first, second))
    _, moves = play(GAME, first, second, seed)  # the referee raises on an illegal move
    assert len(moves) >= 40


def test_the_search_rungs_play_the_same_game_again_from_the_same_seeds(monkeypatch):
    reduce_budgets(monkeypatch, GAME, short=12, long=30)
    assert play(GAME, "search-long", "search-short", seed=4) == play(GAME, "search-long", "search-short", seed=4)


def test_the_search_beats_random_at_a_small_budget(monkeypatch):
    reduce_budgets(monkeypatch, GAME, short=12, long=30)
    assert play(GAME, "random", "search-short", seed=1)[0] == 1


@pytest.mark.parametrize("seed", range(3))
def test_play_walks_the_referees_positions(seed):
    check_walk(GAME, seed)


@pytest.mark.slow
async def test_search_short_plays_a_real_game_through_swc_match():
    record = await search_short_against_random(GAME, seed=3)
    ours = record.seat_of("player1")
    assert (ours.cause, record.seat_of("player2").cause) == ("REGULAR", "REGULAR")
    assert ours.rank == 1
