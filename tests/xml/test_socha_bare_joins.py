"""Issue 43: the official Python clients of several seasons (``socha`` 1.x to 5.x from PyPI, each in
its own venv, :mod:`tests.socha_clients`) join as they always do, without a game type, on a server
started without ``--game`` (so a ``<join/>`` alone would be Blokus 2027); then ``swc bot GAME``
joins naming its game.  They meet in one room of GAME and play it to a regular end (before issue
43 they waited in two rooms until killed).

One case per socha major the suite installs, each with the random bot of its season's own test
(``tests/foreign_clients/socha_*.py``), for a GAME other than the default wherever the client
plays one: socha 5.x plays Blokus 2027 only, the default, so its case shows that naming the
default game still meets a bare join.  The other order (``swc bot`` waiting first) is
``tests/hase_und_igel/test_socha_hase_und_igel_2025.py``'s case with socha 3.7.2.

The timeouts stay on, as for any ``<join/>`` player, at 20 s/30 s instead of 2 s/10 s (Python
processes starting at once on a small machine can keep a client off the CPU for more than 2 s).
The server's seed and both bots' seeds make each game the same on every run.  Every game must
end by the rules: with ``regular="true"``, or, in Mississippi Queen 2024, where random ships
nearly always end stuck, with the season's own end for a ship that cannot move
(``regular="false"``, the reason naming it, as the official 24.2.5 server sends it; both
clients' scores REGULAR).  Never by a timeout, a leave or a violation.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
import trio

from tests.helpers import TESTS
from tests.processes import run_process
from tests.socha_clients import socha_client  # noqa: F401  (the fixture)
from tests.socha_games import RESULT, run_bot

REGULAR = r"True .*"
STUCK_SHIP = r"False (ONE|TWO) kann sich nicht mehr bewegen\."  # Mississippi Queen's end by the rules, regular="false"

CASES = [  # socha version, its season's random bot, the game swc bot names, the ends by the rules
    ("1.0.8", "socha_penguins_2023.py", "swc_2023_penguins", REGULAR),
    ("2.2.2", "socha_mississippi_queen_2024.py", "swc_2024_mississippi_queen", f"{REGULAR}|{STUCK_SHIP}"),
    ("4.3.9", "socha_piranhas_2026.py", "swc_2026_piranhas", REGULAR),
    ("5.1.0", "socha_blokus_2027.py", "swc_2027_blokus", REGULAR),
]


@pytest.mark.timeout(900)
@pytest.mark.parametrize("version, bot, game, ends", CASES, ids=[f"socha_{case[0]}" for case in CASES])
async def test_socha_joining_bare_meets_swc_bot_naming_its_game(start_server, socha_client, version, bot, game, ends):  # noqa: F811
    python = await trio.to_thread.run_sync(socha_client, version)
    server = await start_server(soft_timeout_ms=20_000, hard_timeout_ms=30_000)
    port = server.door("xml").port
    lobby = server.door("xml").lobby
    outputs: list[tuple[int, str]] = []
    swc_bot: list[subprocess.CompletedProcess] = []

    async def socha() -> None:
        outputs.append(await run_bot(python, TESTS / "foreign_clients" / bot, port, 1, timeout=600))

    async def reference_bot() -> None:
        with trio.fail_after(120):  # the socha player waits first, in a room of defaultGame
            while not lobby.bare_rooms:
                await trio.sleep(0.05)
        command = [sys.executable, "-m", "swc_local.tools.cli", "bot", game, "--port", str(port), "--seed", "1"]
        with trio.fail_after(600):  # a guard against a hang, not a speed limit
            swc_bot.append(await run_process(command, capture_stdout=True, capture_stderr=True))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(socha)
        nursery.start_soon(reference_bot)
    assert swc_bot[0].returncode == 0, swc_bot[0].stderr.decode()[-3000:]
    code, output = outputs[0]
    assert code == 0, output[-3000:]
    assert "PEER left" in output and RESULT.search(output), output[-3000:]
    result = RESULT.search(output)
    assert re.fullmatch(ends, f"{result[2]} {result[3]}"), output[-3000:]  # an end by the rules
    (ended,) = [line for _, line in lobby.recent_games.lines()]  # one room, of the game swc bot named
    assert re.fullmatch(rf"{game} room \S+: ONE (REGULAR )?\d+, TWO (REGULAR )?\d+", ended), ended
