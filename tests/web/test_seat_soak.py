"""The seat soak of benchmarks/seat_soak.py, reduced: every game the start page offers, once, played
to its end through the seat API with random offered moves; no seat may be stuck (issue 41)."""

from __future__ import annotations

from benchmarks.seat_soak import soak


async def test_every_offered_game_plays_to_its_end_through_the_seat_api_with_no_seat_stuck():
    tally = await soak(seeds=1, parallel=4, bound=1800.0, stall=120.0, reduced=True)
    assert tally.stuck == [] and tally.refused == []
    assert tally.planned >= 16 and tally.games == tally.planned, tally
    assert tally.moves > 20 * tally.games
