"""The official socha 3.7.2 client (from PyPI, in its own venv) plays Hase und Igel 2025 here.

Issue 13, "Done when": games with two socha random bots, some that come in by ``<join/>`` and some
in admin-prepared rooms (``joinPrepared`` with reservation codes); the issue's 10 of each were
played once, the suite plays 2 of each at once (each kind of entry, several rooms at a time: every
client process costs seconds of CPU, and more games prove nothing more). Every game must end
with a result that both clients parse, with ``regular="true"`` (no violation, no timeout) and
both players' scores, and every client process must exit 0. The bots
(``tests/socha_bots/hui25_random.py``) choose from socha's own ``possible_moves()``, so every
move the client's rules offer is also accepted by ours.

Timeouts are off here (``timeout = false`` for the ``<join/>`` games, ``canTimeout="false"``
slots for the prepared ones): a busy CI machine running eight clients at once could push one over
the 2 s soft limit; the timeouts themselves are tested in
``test_modern_lobby.py``. What is proven here is that the real client understands every message
and that our referee accepts every move its rules offer.

The venv is built on first use by :mod:`tests.socha_clients` (``pip install socha==3.7.2``;
``SWC_SOCHA_OPTIONAL=1`` skips these tests on a machine without PyPI). The client's start-up
version check against pypi.org is switched off in the bot script.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest
import trio

from tests.conftest import PASSWORD
from tests.helpers import TESTS, prepare_codes
from tests.processes import run_process
from tests.socha_clients import socha_client  # noqa: F401  (fixture)
from tests.wire import Raw

GAME = "swc_2025_hase_und_igel"
BOT = TESTS / "socha_bots" / "hui25_random.py"
GAMES = 2
PARALLEL = 4


async def run_bot(python: Path, port: int, seed: int, reservation: str | None = None) -> dict:
    command = [str(python), str(BOT), "--port", str(port)]
    if reservation is not None:
        command += ["--reservation", reservation]
    env = dict(os.environ, SOCHA_BOT_SEED=str(seed), PYTHONDONTWRITEBYTECODE="1")
    with trio.fail_after(600):  # a guard against a hung client, not a speed limit
        done = await run_process(command, capture_stdout=True, capture_stderr=True, env=env)  # own group
    events = [json.loads(line) for line in done.stdout.decode().splitlines() if line.startswith("{")]
    return {"seed": seed, "code": done.returncode, "events": events,
            "stderr": done.stderr.decode()[-2000:]}


async def prepare(port: int) -> list[str]:
    return await prepare_codes(port, GAME, password=PASSWORD, can_timeout=False)


async def play_games(python: Path, port: int, prepared: bool) -> list[dict]:
    runs: list[dict] = []
    limiter = trio.CapacityLimiter(PARALLEL)

    async def one_game(index: int) -> None:
        async with limiter:
            codes = await prepare(port) if prepared else [None, None]
            async with trio.open_nursery() as nursery:
                for seat in range(2):
                    async def bot(seat=seat):
                        runs.append(await run_bot(python, port, 2 * index + seat, codes[seat]))
                    nursery.start_soon(bot)
                    if not prepared and seat == 0:
                        await trio.sleep(0.2)  # ONE first, so the two of a game pair up

    async with trio.open_nursery() as nursery:
        for index in range(GAMES):
            nursery.start_soon(one_game, index)
    return runs


def check(runs: list[dict]) -> list[str]:
    problems = []
    for run in runs:
        results = [e for e in run["events"] if e["event"] == "result"]
        errors = [e for e in run["events"] if e["event"] in ("error", "no_moves")]
        where = f"bot seed {run['seed']}"
        if run["code"] != 0:
            problems.append(f"{where}: exit {run['code']}\n{run['stderr']}")
        if errors:
            problems.append(f"{where}: {errors}")
        if len(results) != 1:
            problems.append(f"{where}: {len(results)} results\n{run['stderr']}")
            continue
        result = results[0]
        if result["regular"] is not True or not result["reason"]:
            problems.append(f"{where}: not regular: {result}")
        teams = [team for team, _ in result["scores"]]
        points = sorted(parts[0] for _, parts in result["scores"])
        if teams != ["ONE", "TWO"] or points not in ([0, 2], [1, 1]):
            problems.append(f"{where}: scores {result['scores']}")
    return problems


@pytest.mark.timeout(900)  # eight client processes at once; slow only on a crowded machine
async def test_socha_games_by_join(start_server, socha_client):  # noqa: F811
    python = await trio.to_thread.run_sync(socha_client, "3.7.2")
    server = await start_server(default_game=GAME, sections={"xml": {"join_timeout": False}})
    runs = await play_games(python, server.door("xml").port, prepared=False)
    assert len(runs) == 2 * GAMES
    assert check(runs) == []
    assert server.door("xml").lobby.rooms_finished == GAMES


@pytest.mark.timeout(900)
async def test_socha_games_in_prepared_rooms(start_server, socha_client):  # noqa: F811
    python = await trio.to_thread.run_sync(socha_client, "3.7.2")
    server = await start_server(default_game=GAME)
    runs = await play_games(python, server.door("xml").port, prepared=True)
    assert len(runs) == 2 * GAMES
    assert check(runs) == []
    names = {result["reason"].split()[0] for run in runs for result in run["events"]
             if result["event"] == "result" and "gleichauf" not in result["reason"]}
    assert names <= {"Alice", "Bob"}
    assert server.door("xml").lobby.rooms_finished == GAMES


@pytest.mark.timeout(900)
async def test_socha_joining_bare_meets_swc_bot_waiting_before_it(start_server, socha_client):  # noqa: F811
    """Issue 43, the other order than tests/xml/test_socha_bare_joins.py (socha 1.x, 2.x, 4.x,
    5.x): ``swc bot hase_und_igel_2025`` names its game and waits on a server without ``--game`` (a ``<join/>`` alone would be Blokus
    2027); the socha 3.7.2 player joins as it always does, without a game type, takes the seat
    beside it and both play the game to its end."""
    python = await trio.to_thread.run_sync(socha_client, "3.7.2")
    server = await start_server(sections={"xml": {"join_timeout": False}})
    port = server.door("xml").port
    lobby = server.door("xml").lobby
    swc_bot: list = []

    async def reference_bot() -> None:
        command = [sys.executable, "-m", "swc_local.tools.cli", "bot", "hase_und_igel_2025", "--port", str(port)]
        with trio.fail_after(600):  # a guard against a hang, not a speed limit
            swc_bot.append(await run_process(command, capture_stdout=True, capture_stderr=True))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(reference_bot)
        with trio.fail_after(120):  # the reference bot waits first, in a Hase und Igel 2025 room
            while not any(room.player_count == 1 for room in lobby.open_rooms.get(GAME, {})):
                await trio.sleep(0.05)
        run = await run_bot(python, port, 1)
    assert check([run]) == []
    assert swc_bot[0].returncode == 0, swc_bot[0].stderr.decode()[-3000:]
    assert lobby.rooms_finished == 1
