"""Shared fixtures: an in-process server on a free port; the run's Ctrl-C and process hooks."""

from __future__ import annotations

import logging

import pytest
import trio

from swc_local.server.app import Server
from swc_local.server.config import Settings
from tests.processes import (  # noqa: F401 -- hooks: Ctrl-C stops the run, no process outlives it
    pytest_configure, pytest_runtest_call, pytest_runtest_setup, pytest_runtest_teardown, pytest_unconfigure,
)

PASSWORD = "testpassword"

pytest_plugins = ["pytester"]  # the fixture, packaging and README tests run pytest projects of their own


@pytest.fixture
def start_server(nursery):
    """``await start_server(**settings)`` -> a running Server on a free port (per test)."""

    async def start(game_factory=None, **overrides) -> Server:
        fields = {"port": 0, "password": PASSWORD, "seed": 1} | overrides
        return await nursery.start(Server(Settings(**fields), game_factory=game_factory).run)

    return start


@pytest.fixture
async def server(start_server):
    return await start_server()


@pytest.fixture(autouse=True)
def _quiet_logs(caplog):
    caplog.set_level(logging.INFO, logger="swc")


# -- the quick subset: `python -m pytest -q -m "not slow"` ------------------------------------------
# Tests of a quarter minute or more on two CPUs (measured with --durations), marked here so that
# their modules stay as their owners wrote them; tests/packaging/test_suite_interrupt.py checks that
# every name below still exists.
SLOW_MODULES = {
    "test_packaging.py",  # builds the wheel, installs it into fresh venvs
    "test_benchmarks_smoke.py",
    "test_roborally_soak.py",
    "test_foreign_clients.py",  # hundreds of games of foreign client processes
    "test_foreign_clients_2022.py",
    "test_socha_clients.py",  # the official socha clients, each in its own venv
    "test_socha_hase_und_igel_2025.py",
    "test_socha_piranhas_2026.py",
    "test_socha_blokus_2027.py",
    "test_socha_penguins_2023.py",
    "test_socha_mississippi_queen_2024.py",
    "test_web_seat_family_browser.py",  # whole ReversiXT and Robo Rally games played by clicking
}
SLOW_TESTS = {
    # a person plays a whole game of each XML game in Chromium (6 min for the ten)
    "test_web_seat_games.py": {"test_a_person_plays_a_whole_game_by_pointing_against_the_reference_bot"},
    "test_piranhas_2026_play.py": {"test_hundred_reference_bot_games_eight_at_a_time"},
    "test_hase_und_igel_2025_play.py": {"test_hundred_reference_bot_games_eight_at_a_time"},
    "test_match.py": {"test_twenty_reference_games_alternate_colours_and_write_replays"},
    "test_fixture.py": {"test_fixture_in_a_plain_pytest_project", "test_fixture_in_a_trio_mode_project"},
    "test_blokus_tools.py": {"test_the_fixture_plays_a_blokus_game"},
    "test_readme_examples.py": {"test_fixture_example", "test_the_readme_quick_match_as_written"},
    "test_tournament_trust_play.py": {"test_a_four_seat_reversixt_tournament_of_24_games_uses_all_24_orders",
                                      "test_dask_with_a_shared_replays_folder_keeps_every_replay_and_records_the_retry"},
    "test_tournament_readme.py": {"test_the_self_play_sanity_example_runs_as_written_and_is_no_mirror"},
    "test_web_seat_browser.py": {"test_a_person_plays_piranhas_by_clicking_against_the_reference_bot"},
    "test_web_seats_families.py": {"test_a_person_plays_a_whole_reversixt_game_against_the_reference_bot",
                                   "test_an_uploaded_three_player_map_offers_the_choices_of_its_special_squares"},
    "test_penguins_play.py": {"test_hundred_reference_bot_games_eight_at_a_time"},
    "test_mississippi_queen_tools.py": {"test_the_fixture_plays_a_mississippi_queen_game"},
}


def pytest_collection_modifyitems(config, items) -> None:
    for item in items:
        module = item.path.name
        if module in SLOW_MODULES or item.originalname in SLOW_TESTS.get(module, ()):
            item.add_marker(pytest.mark.slow)
