"""The fixture page's ladder example (docs/manual/fixture.md), run as written: a bot's CI asserting
"beats greedy in 70 % of 20 games", with ``my_bot.py`` the Penguins reference bot at search-short."""

from __future__ import annotations

import re

from tests.helpers import REPOSITORY

PAGE = REPOSITORY / "docs" / "manual" / "fixture.md"
MY_BOT = """
import sys
from swc_local.client.bot import main

sys.exit(main(["penguins", "--strategy", "search-short", *sys.argv[1:]]))
"""


def ladder_example() -> str:
    (example,) = [block for block in re.findall(r"```python\n(.*?)```", PAGE.read_text(), flags=re.S)
                  if "beats greedy" in block]
    return example


def test_the_beats_greedy_example_runs_as_written(pytester, monkeypatch):
    example = ladder_example()
    assert 'opponent="greedy"' in example and "GAMES, WINS_NEEDED = 20, 14" in example
    pytester.makepyfile(my_bot=MY_BOT, test_my_bot=example)
    monkeypatch.setenv("PYTHONPATH", str(REPOSITORY))
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-p", "no:randomly")
    result.assert_outcomes(passed=1)
