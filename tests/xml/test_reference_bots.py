"""Reference bots against each other through real sockets, many games at once.

Sixteen games eight at a time: two rounds of eight rooms at once on one server prove the
concurrency as well as a hundred did (the count was never the claim).
"""

from __future__ import annotations

import trio

from swc_local.client.bot import play_game
from swc_local.games import registry
from tests.helpers import UNHURRIED

GAMES = 16


async def play_many(port: int, game_type: str, games: int, parallel: int) -> list:
    plugin = registry.get(game_type)
    reports = []
    limiter = trio.CapacityLimiter(parallel)

    async def one_game(index: int) -> None:
        async with limiter:
            async with trio.open_nursery() as nursery:
                for seat in range(2):
                    async def seat_task(seat=seat):
                        reports.append(await play_game(plugin, "127.0.0.1", port, seed=index * 2 + seat))
                    nursery.start_soon(seat_task)

    with trio.fail_after(240):
        async with trio.open_nursery() as nursery:
            for index in range(games):
                nursery.start_soon(one_game, index)
    return reports


async def test_sixteen_piranhas_games_eight_at_a_time_all_end_regular(start_server):
    server = await start_server(**UNHURRIED)
    reports = await play_many(server.door("xml").port, "swc_2019_piranhas", games=GAMES, parallel=8)
    assert len(reports) == 2 * GAMES
    rooms = {report.room_id for report in reports}
    assert len(rooms) == GAMES
    for report in reports:
        assert report.result is not None, report.error
        causes = [score.get("cause") for score in report.result.findall("score")]
        assert causes == ["REGULAR", "REGULAR"], (report.room_id, causes)
    assert server.door("xml").lobby.rooms == {}


async def test_sixteen_hase_und_igel_games_eight_at_a_time_all_end_regular(start_server):
    server = await start_server(**UNHURRIED)
    reports = await play_many(server.door("xml").port, "swc_2018_hase_und_igel", games=GAMES, parallel=8)
    assert len(reports) == 2 * GAMES
    assert len({report.room_id for report in reports}) == GAMES
    for report in reports:
        assert report.result is not None, report.error
        causes = [score.get("cause") for score in report.result.findall("score")]
        assert causes == ["REGULAR", "REGULAR"], (report.room_id, causes)
    assert server.door("xml").lobby.rooms == {}
