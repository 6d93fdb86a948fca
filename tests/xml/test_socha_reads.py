"""Every message reaches the official socha clients in a read of its own (issue 23).

socha 3.x-5.x return at most one complete message per ``recv`` and then wait in the next
``recv`` (0.1 s timeout) even when the next message already sits in their buffer; a memento and
a move request that arrive in one read cost every move 0.1 s
(``../shared/golden/socha_timing/``).  The server now holds a 2022+ client's next message until
the client has read the one before (server/xml/connection.py).

Here one real prepared game per socha version (3.7.2 Hase und Igel 2025, 4.3.9 Piranhas 2026,
5.1.0 Blokus 2027) is played by two random bots started through
``tests/foreign_clients/recv_probe.py``, which looks at the client's own buffer before every
``recv``.  Nothing is timed: the test counts the ``recv`` calls entered with a complete message
already buffered (must be none) and the reads that completed more than one message (must be
none), over a whole game, for both clients.  Before the change a Piranhas 2026 game had about
35 such calls per client.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import trio

from tests.helpers import TESTS
from tests.socha_clients import socha_client  # noqa: F401  (the fixture)
from tests.socha_games import prepare

HERE = TESTS
PROBE = HERE / "foreign_clients" / "recv_probe.py"
GAMES = {
    "3.7.2": ("swc_2025_hase_und_igel", HERE / "socha_bots" / "hui25_random.py"),
    "4.3.9": ("swc_2026_piranhas", HERE / "foreign_clients" / "socha_piranhas_2026.py"),
    "5.1.0": ("swc_2027_blokus", HERE / "foreign_clients" / "socha_blokus_2027.py"),
}


async def probed_bot(python: Path, bot: Path, port: int, code: str, seed: int, out: Path) -> tuple[int, str]:
    command = [str(python), str(PROBE), str(bot), "--host", "127.0.0.1", "--port", str(port),
               "--reservation", code]
    env = dict(os.environ, SOCHA_BOT_SEED=str(seed), SWC_RECV_PROBE=str(out), PYTHONDONTWRITEBYTECODE="1")
    with trio.fail_after(600):  # a guard against a hung client, not a speed limit
        done = await trio.run_process(command, capture_stdout=True, capture_stderr=True, check=False, env=env)
    return done.returncode, (done.stdout + done.stderr).decode(errors="replace")[-3000:]


@pytest.mark.timeout(900)
@pytest.mark.parametrize("version", list(GAMES))
async def test_each_message_reaches_the_socha_client_in_a_read_of_its_own(
    start_server, socha_client, tmp_path, version,  # noqa: F811
):
    python = await trio.to_thread.run_sync(socha_client, version)
    game_type, bot = GAMES[version]
    # long limits: this test is about reads, not about the speed of a shared CI machine
    server = await start_server(password="examplepassword", soft_timeout_ms=60_000, hard_timeout_ms=120_000)
    codes = await prepare(server.door("xml").port, 0, game_type)
    outputs: list[tuple[int, str]] = [(-1, "")] * 2

    async def seat(index: int) -> None:
        out = tmp_path / f"probe{index}.json"
        outputs[index] = await probed_bot(python, bot, server.door("xml").port, codes[index], index, out)

    async with trio.open_nursery() as nursery:
        for index in range(2):
            nursery.start_soon(seat, index)
    for code, output in outputs:
        assert code == 0, output
    assert server.door("xml").lobby.rooms_finished == 1
    for index in range(2):
        stats = json.loads((tmp_path / f"probe{index}.json").read_text())
        assert stats["move_requests"] > 0, stats
        assert stats["reads"] > stats["move_requests"], stats  # welcome, mementos, result, left too
        assert stats["stalls"] == 0, stats
        assert stats["joint_reads"] == 0, stats
