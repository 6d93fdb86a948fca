"""Clients written like third-party 2019 clients play many games without one error.

``tests/foreign_clients`` holds two stand-alone clients that use only the standard library and
their own reading of the rules, in the styles real clients were written in (a pull parser with
the Java client's polite close; SAX callbacks with split writes and a bare ``</protocol>``) for
Piranhas, one that parses every read as a sequence of whole messages, as several C#, Swift and
C++ clients did, and one for Hase und Igel that sends its actions out of XML order.
Each runs as its own process and fails on any error message, unexpected element, framing
surprise or a result that is not REGULAR for both players.

Who plays whom is fixed: an admin prepares every game's room first and each process joins its
games with its own reservation codes (``joinPrepared``), so no process can be left with games
to play and nobody to play them, whatever order the processes reach the server in.

Each process plays five games in a row on one connection per game, eight pairs at once: what
a long run of games would find (framing state carried from game to game, rooms of many pairs
interleaved on the server) shows in five as in twenty-five.
"""

from __future__ import annotations

import sys
from pathlib import Path

import trio

from swc_local.client.admin import Admin
from tests.helpers import TESTS, UNHURRIED
from tests.conftest import PASSWORD

CLIENTS = TESTS / "foreign_clients"
GAMES_EACH = 5


async def prepare_pairs(port: int, game_type: str, games_each: int, pairs: int) -> list[tuple[list[str], list[str]]]:
    """For each pair, the reservation codes of its two processes, one room per game."""
    admin = await Admin.connect("127.0.0.1", port, PASSWORD)
    try:
        codes = []
        for pair in range(pairs):
            rooms = [await admin.prepare(game_type, [f"first{pair}", f"second{pair}"]) for _ in range(games_each)]
            codes.append(([room.reservations[0] for room in rooms], [room.reservations[1] for room in rooms]))
    finally:
        await admin.close()
    return codes


async def run_pairs(port: int, scripts: tuple[str, str], games_each: int, pairs: int,
                    game_type: str = "swc_2019_piranhas") -> list[str]:
    """``pairs`` pairs of client processes, each process playing ``games_each`` games with its partner."""
    failures: list[str] = []
    codes = await prepare_pairs(port, game_type, games_each, pairs)

    async def run(script: str, seed: int, reservations: list[str]) -> None:
        result = await trio.run_process(
            [sys.executable, str(CLIENTS / script), "--port", str(port), "--seed", str(seed),
             "--reservations", ",".join(reservations)],
            capture_stderr=True,
            check=False,
        )
        if result.returncode != 0:
            failures.append(f"{script} seed {seed}: {result.stderr.decode()}")

    with trio.fail_after(300):
        async with trio.open_nursery() as nursery:
            for pair, (first, second) in enumerate(codes):
                nursery.start_soon(run, scripts[0], pair, first)
                nursery.start_soon(run, scripts[1], 100 + pair, second)
    return failures


async def test_foreign_piranhas_clients_play_forty_games_eight_pairs_at_a_time(start_server):
    server = await start_server(**UNHURRIED)
    assert await run_pairs(server.door("xml").port, ("pull_client.py", "sax_client.py"), games_each=GAMES_EACH, pairs=8) == []
    assert server.door("xml").lobby.rooms_finished == 8 * GAMES_EACH


async def test_clients_that_parse_each_read_as_whole_messages_play_twenty_games(start_server):
    """The C#/Swift/C++ style: read until a short read, parse the chunk as complete messages."""
    server = await start_server(**UNHURRIED)
    assert await run_pairs(server.door("xml").port, ("chunk_client.py", "pull_client.py"), games_each=GAMES_EACH, pairs=4) == []
    assert server.door("xml").lobby.rooms_finished == 4 * GAMES_EACH


async def test_foreign_hase_und_igel_clients_play_forty_games_eight_pairs_at_a_time(start_server):
    server = await start_server(**UNHURRIED)
    assert await run_pairs(server.door("xml").port, ("hui_client.py", "hui_client.py"), games_each=GAMES_EACH, pairs=8,
                           game_type="swc_2018_hase_und_igel") == []
    assert server.door("xml").lobby.rooms_finished == 8 * GAMES_EACH


async def test_the_join_path_still_pairs_two_clients(server):
    """One game each through ``join`` by game type, as these clients join without a code."""
    failures: list[str] = []

    async def run(script: str) -> None:
        result = await trio.run_process([sys.executable, str(CLIENTS / script), "--port", str(server.door("xml").port)],
                                        capture_stderr=True, check=False)
        if result.returncode != 0:
            failures.append(f"{script}: {result.stderr.decode()}")

    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:  # two processes, one waiting room: no choice of partner
            nursery.start_soon(run, "chunk_client.py")
            nursery.start_soon(run, "sax_client.py")
    assert failures == []
    assert server.door("xml").lobby.rooms_finished == 1
