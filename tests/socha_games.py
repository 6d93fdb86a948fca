"""What the "official socha client plays against us" tests share: run a bot, prepare a room,
collect the results.

Every such test starts the same random bot (``tests/foreign_clients/socha_*.py``) in socha's
own venv (:mod:`tests.socha_clients`), lets it print ``PEER`` lines, and reads them back; the
rooms are either paired by ``<join/>`` or prepared by an admin over a raw socket.  Only the
game type, the bot script, the time limit and the per-game assertions differ, so those stay in
each test module.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import trio

from tests.helpers import prepare_codes
from tests.processes import run_process

RESULT = re.compile(r"^PEER result (ONE|TWO|None) (True|False) (.*)$", re.M)
JOINED = re.compile(r"^PEER joined (\S+)$", re.M)


async def run_bot(
    python: Path, bot: Path, port: int, seed: int, reservation: str | None = None, *, timeout: float,
) -> tuple[int, str]:
    """Run one socha bot to its end; return its exit code and its stdout + stderr."""
    command = [str(python), str(bot), "--host", "127.0.0.1", "--port", str(port)]
    if reservation is not None:
        command += ["--reservation", reservation]
    env = dict(os.environ, SOCHA_BOT_SEED=str(seed), PYTHONUNBUFFERED="1")
    with trio.fail_after(timeout):
        done = await run_process(command, capture_stdout=True, capture_stderr=True, env=env)  # own group
    return done.returncode, done.stdout.decode() + done.stderr.decode()


async def prepare(port: int, index: int, game_type: str) -> list[str]:
    """Prepare a room with two named slots as an admin would; return the reservation codes."""
    return await prepare_codes(port, game_type, (f"alpha{index}", f"beta{index}"))


def game_results(outputs: list[tuple[int, str]]) -> dict[str, tuple[str, str, str]]:
    """Each room's result, from the clients' reports; every client exited 0, both seats of a
    room agree, and each room had exactly two clients."""
    rooms: dict[str, list[tuple[str, str, str]]] = {}
    for code, output in outputs:
        assert code == 0, f"a socha client exited {code}:\n{output[-3000:]}"
        found = RESULT.findall(output)
        assert len(found) == 1, f"a socha client saw {len(found)} results:\n{output[-3000:]}"
        assert "PEER left" in output, output[-3000:]
        room = JOINED.search(output)
        assert room is not None, output[-3000:]
        rooms.setdefault(room[1], []).append(found[0])
    for room, results in rooms.items():
        assert len(results) == 2 and results[0] == results[1], (room, results)
    return {room: results[0] for room, results in rooms.items()}
