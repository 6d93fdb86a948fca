"""The Robo Rally fixtures: ``roborally_server`` and ``roborally_play``.

::

    @pytest.mark.roborally_server(map="Death Trap", timer=0.5)
    def test_my_client_wins_sometimes(roborally_server):
        game = roborally_server.play("java -jar client.jar --host {host} --port {port}", opponents=2)
        assert game.winner is not None

``roborally_server`` is a Robo Rally door (as inside ``swc serve``: many lobbies and games) on a
free localhost port, running in a background thread, so a test can point any client at
``roborally_server.host``/``.port``. ``play(command, opponents=1, seed=None)`` plays one whole
game of ``command`` (seat 1) against greedy reference bots on a door of its own with the same
options, through the match runner, and returns a :class:`PlayedRoboRally` (winner seat, 0-based,
checkpoints, reboots, rounds, causes; ``record`` is the runner's
:class:`~swc_local.tools.results.GameResult`). A command that exits before it joins or never
joins loses its seat (cause ``CRASHED``/``NEVER_JOINED``); one that cannot start raises
:class:`~swc_local.tools.runner.CommandError`. Marker keywords are :class:`RoboRallySettings` fields (``map``,
``timer``, ``play_card_timeout``, ``min_players``, ...) plus ``max_rounds``.
"""

from __future__ import annotations

import contextlib

import pytest

from swc_local.swc_pytest.causes import Cause  # light: no server part

# the server side is imported when a fixture is used, not when pytest loads the plugin

MARKER = ("roborally_server(map='Dizzy Highway', timer=30.0, max_rounds=40, **settings): "
          "options of the roborally_server fixture")


class PlayedRoboRally:
    """One Robo Rally game; lists are in seat order (seat 0 = client ID 1)."""

    def __init__(self, record) -> None:
        self.record = record
        summary = record.raw or {}
        self.winner: int | None = summary.get("winner")
        self.rounds: int = summary.get("rounds", 0)
        self.error: str | None = record.error
        self.checkpoints = [int(s.score[0]) for s in record.seats if s.score]
        self.reboots = [int(s.score[1]) for s in record.seats if len(s.score) > 1]
        self.causes = [Cause(s.cause, s.reason) for s in record.seats]  # a failing assert says why
        self.log_file: str | None = record.replay

    def __repr__(self) -> str:
        return f"<Robo Rally game: winner seat {self.winner}, {self.rounds} rounds, causes {self.causes}>"


class RunningRoboRally:
    def __init__(self, portal, door, options: dict, max_rounds: int) -> None:
        self.portal = portal
        self.door = door
        self.options = options
        self.max_rounds = max_rounds
        self.host = "127.0.0.1"
        self.port: int = door.port  # type: ignore[assignment]
        self._games = 0

    def play(self, command: str | list[str], *, opponents: int | list = 1, seed: int | None = None,
             timeout: float = 300.0, start_timeout: float = 15.0, opponent: str | None = None) -> PlayedRoboRally:
        """One game: ``command`` in seat 1 against ``opponents`` reference bots at the rung
        ``opponent`` (default: greedy; ValueError naming the rungs for one Robo Rally lacks), or
        against these commands (each a command or a rung's name)."""
        from swc_local.client import ladder
        from swc_local.games import registry
        from swc_local.tools.runner import GameSpec, play_games, require_commands

        entry = registry.entry("roborally")
        reference = ladder.opponent_command(entry, opponent)
        others = [reference] * opponents if isinstance(opponents, int) else \
            [ladder.opponent_command(entry, other) for other in opponents]
        players = [("bot", command)] + [(f"opponent{k + 1}", other) for k, other in enumerate(others)]
        options = {k: v for k, v in self.options.items() if k not in ("seed", "port", "host", "single_game", "min_players")}
        options["max_rounds"] = self.max_rounds
        base = self.options.get("seed") if seed is None else seed
        spec = GameSpec(game="roborally", index=self._games, seed=(base if base is not None else 0) + self._games,
                        players=players, start_timeout=start_timeout, game_timeout=timeout, options=options)
        require_commands(spec.players)
        self._games += 1
        (record,) = self.portal.call(play_games, [spec], give_up_after=None)
        return PlayedRoboRally(record)


@contextlib.contextmanager
def start_roborally(max_rounds: int = 40, **options):
    from swc_local.client.blocking import Portal
    from swc_local.server.roborally.door import RoboRallyDoor
    from swc_local.server.roborally.lobby import RoboRallySettings

    settings = RoboRallySettings(**dict({"port": 0, "single_game": False}, **options))
    with Portal(name="swc-roborally") as portal:
        door = portal.start(RoboRallyDoor(settings).run)
        yield RunningRoboRally(portal, door, options, max_rounds)


@pytest.fixture
def roborally_server(request):
    """A running Robo Rally door on a free port (stopped after the test)."""
    marker = request.node.get_closest_marker("roborally_server")
    options = dict(marker.kwargs) if marker else {}
    with start_roborally(**options) as server:
        yield server


@pytest.fixture
def roborally_play(roborally_server):
    """``roborally_play(command, opponents=1)``: one game against greedy reference bots."""
    return roborally_server.play
