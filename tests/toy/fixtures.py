"""The toy family's fixtures: ``toy_door``, a running toy door in a background thread (a pytest plugin)."""

from __future__ import annotations

import sys

import pytest

from swc_local.client.blocking import Portal
from swc_local.swc_pytest.families import FixtureFamily

from tests.toy_family import ToyDoor

MARKER = "toy_door: a running toy door (tests/toy/fixtures.py)"


@pytest.fixture
def toy_door():
    """A toy door on a free localhost port, stopped after the test."""
    with Portal(name="swc-toy") as portal:
        yield portal.start(ToyDoor("127.0.0.1", 0, 10).run)


FAMILY = FixtureFamily("toy", sys.modules[__name__], MARKER)
