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
options, and returns a :class:`~swc_local.tools.roborally_match.RoboRallyGame` (winner seat,
checkpoints, reboots, rounds). Marker keywords are :class:`RoboRallySettings` fields (``map``,
``timer``, ``play_card_timeout``, ``min_players``, ...) plus ``max_rounds``.
"""

from __future__ import annotations

import contextlib

import pytest

# the server side is imported when a fixture is used, not when pytest loads the plugin

MARKER = ("roborally_server(map='Dizzy Highway', timer=30.0, max_rounds=40, **settings): "
          "options of the roborally_server fixture")


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
             timeout: float = 300.0, start_timeout: float = 15.0):
        """One game: ``command`` in seat 1 against ``opponents`` greedy bots (or these commands)."""
        from swc_local.tools.roborally_match import RoboRallyGame, RoboRallyMatchConfig, greedy_bot_command, play_one

        others = [greedy_bot_command()] * opponents if isinstance(opponents, int) else list(opponents)
        door = {k: v for k, v in self.options.items() if k not in ("map", "seed", "port", "host", "single_game")}
        config = RoboRallyMatchConfig(map=self.options.get("map") or "Dizzy Highway", players=[command] + others,
                                      max_rounds=self.max_rounds, start_timeout=start_timeout, game_timeout=timeout,
                                      door=door)
        base = self.options.get("seed") if seed is None else seed
        game = RoboRallyGame(index=self._games, seed=(base if base is not None else 0) + self._games)
        self._games += 1
        self.portal.call(play_one, config, game)
        return game


@contextlib.contextmanager
def start_roborally(max_rounds: int = 40, **options):
    from swc_local.client.blocking import Portal
    from swc_local.server.roborally_door import RoboRallyDoor
    from swc_local.server.roborally_lobby import RoboRallySettings

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
