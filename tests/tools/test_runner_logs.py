"""The runner's temporary seat logs (a run without ``--logs``): each lives as long as its game,
also when the run is cancelled mid-game (Ctrl-C, a command that cannot start stopping the run)."""

from __future__ import annotations

import sys
import tempfile

import trio

from swc_local.tools.runner import GameSpec, play_games
from tests.helpers import until

NEVER_JOINS = [sys.executable, "-c", "import time; time.sleep(60)", "{port}"]


def test_a_run_cancelled_mid_game_leaves_no_temporary_seat_log(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where mkstemp puts the seat logs
    spec = GameSpec("piranhas", 0, 1, [("one", NEVER_JOINS), ("two", NEVER_JOINS)])

    async def run() -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play_games, [spec])
            await until(lambda: len(list(tmp_path.glob("swc-seat-*.log"))) == 2, timeout=30)
            nursery.cancel_scope.cancel()  # as Ctrl-C does, while both seats wait for their join

    trio.run(run)
    assert list(tmp_path.glob("swc-seat-*.log")) == []
