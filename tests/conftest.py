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
