"""Clients written like third-party 2019 clients play hundreds of games without one error.

``tests/foreign_clients`` holds two stand-alone clients that use only the standard library and
their own reading of the rules, in the styles real clients were written in (a pull parser with
the Java client's polite close; SAX callbacks with split writes and a bare ``</protocol>``) for
Piranhas, one that parses every read as a sequence of whole messages, as several C#, Swift and
C++ clients did, and one for Hase und Igel that sends its actions out of XML order.
Each runs as its own process and fails on any error message, unexpected element, framing
surprise or a result that is not REGULAR for both players.
"""

from __future__ import annotations

import sys
from pathlib import Path

import trio

CLIENTS = Path(__file__).parent / "foreign_clients"


async def run_pairs(port: int, scripts: tuple[str, str], games_each: int, pairs: int) -> list[str]:
    """``pairs`` pairs of client processes, each process playing ``games_each`` games."""
    failures: list[str] = []

    async def run(script: str, seed: int) -> None:
        result = await trio.run_process(
            [sys.executable, str(CLIENTS / script), "--port", str(port), "--games", str(games_each), "--seed", str(seed)],
            capture_stderr=True,
            check=False,
        )
        if result.returncode != 0:
            failures.append(f"{script} seed {seed}: {result.stderr.decode()}")

    with trio.fail_after(300):
        async with trio.open_nursery() as nursery:
            for pair in range(pairs):
                nursery.start_soon(run, scripts[0], pair)
                nursery.start_soon(run, scripts[1], 100 + pair)
    return failures


async def test_foreign_piranhas_clients_play_two_hundred_games(server):
    assert await run_pairs(server.port, ("pull_client.py", "sax_client.py"), games_each=25, pairs=8) == []
    assert server.lobby.rooms_finished == 200


async def test_clients_that_parse_each_read_as_whole_messages_play_a_hundred_games(server):
    """The C#/Swift/C++ style: read until a short read, parse the chunk as complete messages."""
    assert await run_pairs(server.port, ("chunk_client.py", "pull_client.py"), games_each=25, pairs=4) == []
    assert server.lobby.rooms_finished == 100


async def test_foreign_hase_und_igel_clients_play_two_hundred_games(server):
    assert await run_pairs(server.port, ("hui_client.py", "hui_client.py"), games_each=25, pairs=8) == []
    assert server.lobby.rooms_finished == 200
