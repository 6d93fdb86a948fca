"""The ``reversixt_server`` fixture: a ReversiXT door in a background thread, and ``play``.

::

    @pytest.mark.reversixt_server(map="maps/my_4p.map", time_limit=1)
    def test_my_client_is_never_disqualified(reversixt_server):
        game = reversixt_server.play("./my_client -s 127.0.0.1 -p {port}", opponents="greedy")
        assert not game.disqualified and game.ranks[1] == 1

``reversixt_server.port`` is a running door (every ``n`` clients that join play a game);
``play`` runs one game on a fresh door of its own with the given commands: ``bot`` sits in seat
``seat`` (default 1), the other seats play ``opponents`` (``"greedy"``, ``"random"`` or a
command), through the match runner (:mod:`swc_local.tools.runner`). It returns a
:class:`PlayedReversi` with ``ranks``, ``points``, ``disqualified`` and ``causes`` per player
number, plus ``result`` (the ``-r`` file's text), ``log`` (the move log) and ``record`` (the
runner's :class:`~swc_local.tools.results.GameResult`). A bot that exits before it joins or
never joins loses its seat (cause ``CRASHED``/``NEVER_JOINED``, ranked last; a stand-in takes
the seat and is disqualified at once); a command that cannot start raises
:class:`~swc_local.tools.runner.CommandError`.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

import pytest

from swc_local.swc_pytest.causes import Cause
from swc_local.client.blocking import Portal
from swc_local.server.reversixt.door import DEFAULT_MAP, DoorSettings, ReversiDoor
from swc_local.server.reversixt.game import Timing
from swc_local.tools.results import GameResult
from swc_local.tools.runner import GameSpec, play_games, require_commands

MARKER = "reversixt_server(map=None, time_limit=0, depth=1, start_delay=0, turn_delay=0): options of the reversixt_server fixture"


def bot_command(rung: str) -> list[str]:
    """The ReversiXT reference bot at ``rung`` (client/ladder.py ``command``)."""
    from swc_local.client import ladder
    from swc_local.games import registry

    return ladder.command(registry.entry("reversixt"), rung)


@dataclass
class PlayedReversi:
    """One ReversiXT game; every mapping is keyed by player number (1-based, = seat)."""

    record: GameResult

    @property
    def error(self) -> str | None:
        return self.record.error

    @property
    def ranks(self) -> dict[int, int]:
        return {int(s.seat): s.rank for s in self.record.seats} if self.error is None else {}

    @property
    def points(self) -> dict[int, int]:
        return {int(s.seat): int(s.score[0]) for s in self.record.seats if s.score} if self.error is None else {}

    @property
    def causes(self) -> dict[int, str]:
        return {int(s.seat): Cause(s.cause, s.reason) for s in self.record.seats}  # a failing assert says why

    @property
    def disqualified(self) -> set[int]:
        """Players out of the game: disqualified, or whose command never played."""
        return {int(s.seat) for s in self.record.seats if s.cause != "REGULAR"} if self.error is None else set()

    @property
    def result(self) -> str:
        finished = self.record.raw
        return finished.result_text() if finished is not None else ""

    @property
    def log(self) -> str:
        finished = self.record.raw
        return "".join(finished.referee.log) if finished is not None else ""


class RunningReversi:
    def __init__(self, portal: Portal, door: ReversiDoor, options: dict) -> None:
        self.portal = portal
        self.door = door
        self.host = "127.0.0.1"
        self.port = door.port
        self.options = options
        self.map_path = options["map"]
        self._games = 0

    def play(self, bot, *, seat: int = 1, opponents="greedy", seed: int = 0, timeout: float = 120.0,
             start_timeout: float = 15.0) -> PlayedReversi:
        """One game on a door of its own; blocks until it is over. ``opponents``: every other
        seat's rung of the ladder (the reference bot at it; default greedy) or a command."""
        from swc_local.client import ladder
        from swc_local.games import registry

        players = self.door.game_map.players
        other = ladder.opponent_command(registry.entry("reversixt"), opponents)
        commands = [(f"opponent{k + 1}", other) for k in range(players)]
        commands[seat - 1] = ("bot", bot)
        spec = GameSpec(game="reversixt", index=self._games, seed=seed, players=commands,
                        start_timeout=start_timeout, game_timeout=timeout, options=dict(self.options))
        require_commands(spec.players)
        self._games += 1
        (record,) = self.portal.call(play_games, [spec], give_up_after=None)
        return PlayedReversi(record)


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
