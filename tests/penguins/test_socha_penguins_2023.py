"""The official Python client ``socha==1.0.8`` (PyPI) plays Penguins 2023 against this server.

Nobody here wrote that client: its xsdata parser, its own move generator and its own skip rule
(``current_team_from_turn``) judge our bytes.  Two random bots per game
(``tests/foreign_clients/socha_penguins_2023.py``), 2 games in rooms an admin prepared with named
slots over a raw socket, both at once (every client process costs seconds of CPU, and more games
prove nothing more).  The timeouts stay on (``canTimeout="true"``) but at
20 s/30 s instead of 2 s/10 s: Python processes starting at once on a small shared machine can
keep a client off the CPU for more than 2 s, and this test is about the protocol (the 2 s/10 s
limits have their byte-exact capture tests).  Every game must end REGULAR for both players (a
stuck team is skipped, never a violation), both clients must report the same result, every
client must exit 0, and the result must be the one the fish counts give.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import trio

from tests.socha_clients import socha_client  # noqa: F401  (the fixture)
from tests.socha_games import game_results, prepare, run_bot
from tests.helpers import TESTS

BOT = TESTS / "foreign_clients" / "socha_penguins_2023.py"
GAMES = 2
PARALLEL_GAMES = 2
SLOW = {"soft_timeout_ms": 20_000, "hard_timeout_ms": 30_000}
SCORES = re.compile(r"^ONE=(\w+),(\d+),(\d+) TWO=(\w+),(\d+),(\d+)$")


@pytest.mark.timeout(1800)
async def test_socha_1_0_8_random_bots_play_prepared_games(start_server, socha_client):  # noqa: F811
    python = socha_client("1.0.8")
    server = await start_server(password="examplepassword", **SLOW)
    outputs: list[tuple[int, str]] = []

    async def bot(seed: int, code: str) -> None:
        outputs.append(await run_bot(python, BOT, server.door("xml").port, seed, code, timeout=900))

    async def prepared_game(index: int) -> None:
        codes = await prepare(server.door("xml").port, index, "swc_2023_penguins")
        assert len(codes) == 2
        async with trio.open_nursery() as nursery:
            nursery.start_soon(bot, 2 * index, codes[0])
            nursery.start_soon(bot, 2 * index + 1, codes[1])

    limiter = trio.CapacityLimiter(PARALLEL_GAMES)

    async def limited(index: int) -> None:
        async with limiter:
            await prepared_game(index)

    async with trio.open_nursery() as nursery:
        for index in range(GAMES):
            nursery.start_soon(limited, index)
    results = game_results(outputs)  # every client exited 0, saw one result and left; both agree
    assert len(results) == GAMES
    for winner, regular, scores in results.values():
        assert regular == "True", scores
        one_cause, one_points, one_fish, two_cause, two_points, two_fish = SCORES.match(scores).groups()
        assert one_cause == two_cause == "REGULAR"
        fish = (int(one_fish), int(two_fish))
        expected = "None" if fish[0] == fish[1] else ("ONE" if fish[0] > fish[1] else "TWO")
        assert winner == expected, scores
        assert (int(one_points), int(two_points)) == {"ONE": (2, 0), "TWO": (0, 2), "None": (1, 1)}[winner]
    assert server.door("xml").lobby.rooms_finished == GAMES
    moves = [len(re.findall(r"^PEER move ", out, re.M)) for _, out in outputs]
    assert all(moves) and sum(moves) >= GAMES * 30  # whole games, not early ends
    # the skip rule: a client asked at turns of both parities moved again while the other team
    # was stuck (socha computes that itself); the official runs had skips in 8 of 12 games
    turns = [{int(t) % 2 for t in re.findall(r"^PEER move \d+ (\d+) ", out, re.M)} for _, out in outputs]
    skipped = [parities for parities in turns if len(parities) == 2]
    assert skipped, "no game had a stuck team: the skip rule went untested"
