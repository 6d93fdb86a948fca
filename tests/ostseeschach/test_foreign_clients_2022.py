"""Clients written for the official 2022 server play whole Ostseeschach games against ours.

``tests/foreign_clients/ostsee_client.py`` uses only the standard library and its own reading of
the piece rules, in the two styles of 2022 clients: the official Java client's framing (join with
gameType, pretty-printed moves, CloseConnection) and a hand-written one (``<join/>``, compact moves
in split writes, a bare ``</protocol>``).  Each process fails on any error, errorpacket,
unexpected element, framing surprise or a result that is not REGULAR for both players.
"""

from __future__ import annotations

import sys
from pathlib import Path

import trio
from tests.helpers import TESTS, UNHURRIED

CLIENT = TESTS / "foreign_clients" / "ostsee_client.py"


GAMES = 8  # a pair plays its games one after another; 8 show its framing as well as 25 did


async def test_official_style_2022_clients_play_eight_games_a_pair(start_server):
    """Four pairs, each on its own server so that a pair's games always pair its two clients."""
    servers = [await start_server(default_game="swc_2022_ostseeschach", **UNHURRIED) for _ in range(4)]
    failures: list[str] = []

    async def run(style: str, seed: int) -> None:
        port = servers[seed % 100].door("xml").port
        command = [sys.executable, str(CLIENT), "--style", style, "--port", str(port), "--games", str(GAMES), "--seed", str(seed)]
        done = await trio.run_process(command, capture_stderr=True, check=False)
        if done.returncode != 0:
            failures.append(f"{style} seed {seed}: {done.stderr.decode()}")

    with trio.fail_after(240):
        async with trio.open_nursery() as nursery:
            for pair in range(4):
                nursery.start_soon(run, "java", pair)
                nursery.start_soon(run, "raw", 100 + pair)
    assert failures == []
    assert [server.door("xml").lobby.rooms_finished for server in servers] == [GAMES] * 4
