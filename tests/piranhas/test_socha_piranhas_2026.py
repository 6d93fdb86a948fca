"""The official Python client ``socha==4.3.9`` (PyPI) plays Piranhas 2026 against this server.

Nobody here wrote that client: its xsdata parser, its stream splitting and its Rust move
generator (which matches the official rules, spec §7) judge our bytes.  Two random bots per game
(``tests/foreign_clients/socha_piranhas_2026.py``), 2 games through ``<join/>`` and 2 through
``joinPrepared`` (an admin prepares named slots over a raw socket), two games at a time (each
kind more than once and games overlapping is the claim, not the count; a game takes a few seconds: the server hands a socha client one message per read, so its 0.1 s
socket poll never waits on a message already received, ``tests/xml/test_socha_reads.py``).  The timeouts stay on, as for any ``<join/>`` player, but at 20 s/30 s
instead of 2 s/10 s: Python processes starting at once on a small CI machine can keep a
client off the CPU for more than 2 s, and this test is about the protocol, not the machine (the
2 s and 10 s limits have their own byte-exact capture tests).  Every game must end with a result
that is REGULAR for both players, both clients must agree on it, and every client must exit 0.

The venv with socha comes from :mod:`tests.socha_clients` (built once from PyPI, then cached).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

from tests.helpers import TESTS
from tests.socha_clients import socha_client  # noqa: F401  (the fixture)
from tests.socha_games import game_results, prepare, run_bot

BOT = TESTS / "foreign_clients" / "socha_piranhas_2026.py"
GAMES_PER_BATCH = 2


@pytest.mark.parametrize("how", ["join", "prepared"])
async def test_socha_4_3_9_random_bots(start_server, socha_client, how):  # noqa: F811
    """Four ``<join/>`` games, or four ``joinPrepared`` games (one test per kind, so a slow
    machine spreads them over separate test time limits)."""
    python = socha_client("4.3.9")
    server = await start_server(
        password="examplepassword", default_game="swc_2026_piranhas",
        soft_timeout_ms=20_000, hard_timeout_ms=30_000,
    )
    port = server.door("xml").port
    outputs: list[tuple[int, str]] = []
    prepared = how == "prepared"

    async def bot(seed: int, code: str | None = None) -> None:
        outputs.append(await run_bot(python, BOT, port, seed, code, timeout=240))

    async def join_game(index: int) -> None:
        # <join/> pairs clients in arrival order, so the two started here may meet others
        async with trio.open_nursery() as nursery:
            nursery.start_soon(bot, 2 * index)
            nursery.start_soon(bot, 2 * index + 1)

    async def prepared_game(index: int) -> None:
        codes = await prepare(port, index, "swc_2026_piranhas")
        assert len(codes) == 2
        async with trio.open_nursery() as nursery:
            nursery.start_soon(bot, 2 * index, codes[0])
            nursery.start_soon(bot, 2 * index + 1, codes[1])

    async with trio.open_nursery() as nursery:
        for index in range(GAMES_PER_BATCH):
            nursery.start_soon(prepared_game if prepared else join_game, index)
    results = game_results(outputs)
    assert len(results) == GAMES_PER_BATCH
    for team, regular, reason in results.values():
        assert regular == "True", reason
        if prepared:  # the reasons name the prepared slots' display names
            assert reason.startswith(("alpha", "beta")) or reason == "Beide Spieler sind gleichauf", reason
        else:
            assert reason.startswith(("ONE ", "TWO ")) or reason == "Beide Spieler sind gleichauf", reason
