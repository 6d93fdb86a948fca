"""Blokus 2027 on the server: 16 reference-bot games over TCP, eight at a time, all REGULAR.

The reference bot (:mod:`swc_local.client.bot`) plays each seat's two colours with uniformly
random placements.  The soft/hard limits are raised to 20 s/30 s: sixteen bots and the server
share a small CI machine, and this test is about the room's turn order (one request per colour
slot, a seat asked twice in a row when the other team's colour in between is gone), not the
clock, which the byte-exact ``last_piece_mono`` capture test covers.
"""

from __future__ import annotations

import pytest
import trio

from swc_local.client.bot import play_game
from swc_local.games.blokus.entry import ENTRY as BLOKUS_ENTRY

PLUGIN = BLOKUS_ENTRY.plugin

GAMES = 16  # two rounds of eight rooms at once: the turn order under concurrency, not a count
PARALLEL = 8
SLOW = {"soft_timeout_ms": 20_000, "hard_timeout_ms": 30_000}


@pytest.mark.timeout(900)  # a few seconds on an idle CI machine; generous for a loaded one
async def test_sixteen_reference_bot_games_eight_at_a_time_end_regular(start_server):
    server = await start_server(**SLOW)
    reports = []
    limiter = trio.CapacityLimiter(PARALLEL)

    async def game(index: int) -> None:
        async with limiter:
            async with trio.open_nursery() as nursery:
                for seat in (0, 1):
                    async def bot(seed=2 * index + seat) -> None:
                        reports.append(await play_game(PLUGIN, "127.0.0.1", server.door("xml").port, seed=seed))
                    nursery.start_soon(bot)

    with trio.fail_after(900):
        async with trio.open_nursery() as nursery:
            for index in range(GAMES):
                nursery.start_soon(game, index)
    assert len(reports) == 2 * GAMES
    rooms: dict[str, list] = {}
    for report in reports:
        assert report.error is None, report.error
        winner = report.result.find("winner")
        assert winner.get("regular") == "true", winner.attrs
        assert winner.get("reason") in ("ONE hat am meisten Punkte erzielt.", "TWO hat am meisten Punkte erzielt.",
                                        "Beide Spieler sind gleichauf")
        assert all(score.parts[0] in ("0", "1", "2") and int(score.parts[1]) > 0 for score in report.outcome.scores)
        rooms.setdefault(report.room_id, []).append(report)
    assert len(rooms) == GAMES and all(len(pair) == 2 for pair in rooms.values())
    for pair in rooms.values():
        assert pair[0].result.find("winner").attrs == pair[1].result.find("winner").attrs
