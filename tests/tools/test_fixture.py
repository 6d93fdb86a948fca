"""The pytest plugin as a bot author uses it: a test file in a fresh directory, run by pytester."""

from __future__ import annotations

import sys

BOT = f"{sys.executable} -m swc_local.tools.cli bot piranhas --port {{port}} --reservation {{reservation}} --seed {{seed}}"

PLAIN_PROJECT_TEST = f'''
import pytest

@pytest.mark.swc_server(game="piranhas", seed=7)
def test_my_bot_finishes_without_faults(swc_server):
    game = swc_server.play("{BOT}")
    assert game.result is not None
    assert game.bot.cause == "REGULAR" and game.color == "red"
    assert game.bot.points + game.opponent.points == 2

def test_as_blue_with_the_play_fixture(swc_play):
    game = swc_play("{BOT}", color="blue")
    assert game.color == "blue" and game.bot.cause == "REGULAR"

@pytest.mark.swc_server(password="secret", paused=True)
def test_options_reach_the_server(swc_server):
    assert swc_server.password == "secret"
    assert swc_server.server.settings.section("xml").paused
    assert swc_server.port > 0
'''

TRIO_MODE_TEST = f'''
import trio
from swc_local.client.client import Client

async def test_async_test_with_the_same_fixture(swc_server):
    game = await swc_server.aplay("{BOT}")
    assert game.bot.cause == "REGULAR"
    async with await Client.connect("127.0.0.1", swc_server.port, "piranhas") as client:
        await client.join()
        await trio.sleep(0)
'''


def test_fixture_in_a_plain_pytest_project(pytester):
    pytester.makepyfile(test_bot=PLAIN_PROJECT_TEST)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", timeout=60)
    result.assert_outcomes(passed=3)


def test_fixture_in_a_trio_mode_project(pytester):
    pytester.makeini("[pytest]\ntrio_mode = true\n")
    pytester.makepyfile(test_bot=TRIO_MODE_TEST)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", timeout=60)
    result.assert_outcomes(passed=1)
