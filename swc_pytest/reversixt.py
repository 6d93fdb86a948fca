"""The ``reversixt_server`` fixture: a ReversiXT door in a background thread, and ``play``.

::

    @pytest.mark.reversixt_server(map="maps/my_4p.map", time_limit=1)
    def test_my_client_is_never_disqualified(reversixt_server):
        game = reversixt_server.play("./my_client -s 127.0.0.1 -p {port}", opponents="greedy")
        assert not game.disqualified and game.ranks[1] == 1

``reversixt_server.port`` is a running door (every ``n`` clients that join play a game);
``play`` runs one game on a fresh door of its own with the given commands: ``bot`` sits in seat
``seat`` (default 1), the other seats play ``opponents`` (``"greedy"``, ``"random"`` or a
command). It returns a :class:`swc_local.tools.reversixt_match.GameOutcome` with ``ranks``,
``points``, ``disqualified``, plus ``result`` (the ``-r`` file's text) and ``log`` (the move log).
"""

from __future__ import annotations

import argparse
import contextlib
import sys

import pytest

from swc_local.client.blocking import Portal
from swc_local.games.reversixt.mapfile import load_map
from swc_local.server.reversixt_door import DEFAULT_MAP, DoorSettings, ReversiDoor
from swc_local.server.reversixt_game import Timing

MARKER = "reversixt_server(map=None, time_limit=0, depth=1, start_delay=0, turn_delay=0): options of the reversixt_server fixture"


def bot_command(strategy: str) -> list[str]:
    return [sys.executable, "-m", "swc_local.client.reversixt_bot", "--port", "{port}", "--strategy", strategy, "--seed", "{seed}"]


class RunningReversi:
    def __init__(self, portal: Portal, door: ReversiDoor, options: dict) -> None:
        self.portal = portal
        self.door = door
        self.host = "127.0.0.1"
        self.port = door.port
        self.options = options
        self.map_path = options["map"]

    def play(self, bot, *, seat: int = 1, opponents="greedy", seed: int = 0, timeout: float = 120.0):
        """One game; blocks until it is over."""
        from swc_local.tools.reversixt_match import play_one

        game_map = load_map(self.map_path)
        other = bot_command(opponents) if opponents in ("greedy", "random") else opponents
        commands = [other] * game_map.players
        commands[seat - 1] = bot
        args = argparse.Namespace(
            map=self.map_path, timelimit=self.options["time_limit"], depth=self.options["depth"],
            start_delay=self.options["start_delay"], turn_delay=self.options["turn_delay"],
            start_timeout=15.0, game_timeout=timeout, results=None, replays=None,
        )
        return self.portal.call(play_one, 1, args, commands, game_map, seed, None)


@contextlib.contextmanager
def start_reversixt(map=None, time_limit=0.0, depth=1, start_delay=0.0, turn_delay=0.0):
    options = dict(map=map or DEFAULT_MAP, time_limit=time_limit, depth=depth, start_delay=start_delay, turn_delay=turn_delay)
    settings = DoorSettings(
        host="127.0.0.1", port=0, map_path=options["map"], time_limit=time_limit, depth=depth,
        timing=Timing(start_delay=start_delay, turn_delay=turn_delay),
    )
    with Portal(name="swc-reversixt") as portal:
        door = portal.start(ReversiDoor(settings).run)
        yield RunningReversi(portal, door, options)


@pytest.fixture
def reversixt_server(request):
    """A running ReversiXT door on a free port (stopped after the test)."""
    marker = request.node.get_closest_marker("reversixt_server")
    with start_reversixt(**(dict(marker.kwargs) if marker else {})) as server:
        yield server
