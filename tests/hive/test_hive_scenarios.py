"""Captured scenarios of the official Hive 2020 server (backend 20.final), replayed byte for byte.

Each capture (``tests/data/hive_2020/``, README there) is replayed against our server started on
the captured board; every byte each connection received must be the same, modulo room ids and
reservation codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scenario import load, replay_capture, run_capture
from tests.wire import data_class, messages
from tests.helpers import TESTS

FOLDER = TESTS / "data" / "hive_2020"
INVALID = sorted(p.name.removeprefix("transcript_").removesuffix(".txt") for p in FOLDER.glob("transcript_invalid_*.txt"))


@pytest.mark.parametrize("name", [n for n in INVALID if n != "invalid_cube"])
async def test_every_invalid_move_gets_the_official_answer(start_server, name):
    await replay_capture(start_server, FOLDER, name)


@pytest.mark.parametrize("name", ["disconnect", "hints"])
async def test_captured_scenario(start_server, name):
    await replay_capture(start_server, FOLDER, name)


@pytest.mark.parametrize("name", ["softtimeout", "hardtimeout", "notyourturn", "invalid_cube"])
async def test_captured_timeout(start_server, mock_clock, name):
    """The 2 s soft and 10 s hard timeouts (join rooms time out in 2020), on a virtual clock;
    ``notyourturn``: the sender out of turn is dropped, the game goes on and it times out."""
    mock_clock.autojump_threshold = 0.1
    await replay_capture(start_server, FOLDER, name, timed=True)


async def test_the_lobby_answers_as_the_2020_server(start_server):
    """``lobbyDialect=2020``: ``password=`` logs in, ``passphrase=`` and ``<join/>`` close."""
    await replay_capture(start_server, FOLDER, "lobby", lobby_dialect="2020")


async def test_the_admin_controls_answer_as_the_2020_server(start_server):
    """Observe, pause with a request pending, step, cancel: the official bytes, except that the
    admin who cancels stays connected (the classic rooms' choice, docs/games/hive.md): its
    stream ends without the official ``</protocol>``."""
    actions, clients = load(FOLDER, "admin_misc")
    actions = [a for a in actions if not (a.client == "ADMIN" and a.kind in ("expect_closed", "close"))]
    admin = clients["ADMIN"]
    assert admin.golden.endswith(b"\n</protocol>")
    admin.golden = admin.golden.removesuffix(b"\n</protocol>")
    red_start = next(m.find("data").find("state") for m in messages(clients["RED"].golden) if data_class(m) == "memento")
    replay = await run_capture(start_server, actions, clients, boards=[red_start], lobby_dialect="2020")
    for client in clients.values():
        assert replay.normalised(client) == client.golden, client.name
    assert not admin.closed_by_server
