"""An in-process server in a background thread, and the one-game helper, for the pytest plugin
(usable without pytest too: ``with start_server(seed=1) as server: server.play(...)``)."""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

from swc_local.client.blocking import Portal
from swc_local.client.client import resolve_plugin
from swc_local.client.messages import seat_of
from swc_local.server.app import Server
from swc_local.server.config import DEFAULT_PASSWORD, Settings
from swc_local.tools.match import MatchConfig, PlayedGame, play_one_game


def _seat(color: str) -> int:
    """The seat ``color`` names: red/ONE first, blue/TWO second (both dialects' names are
    accepted for every game, so a test reads the same for a classic and a 2022+ game)."""
    if not isinstance(color, str) or color.upper() not in ("RED", "ONE", "BLUE", "TWO"):
        raise ValueError(f"color must be red/blue or ONE/TWO, not {color!r}")
    return seat_of(color)


class RunningServer:
    """What the ``swc_server`` fixture yields: address, options, and ``play``."""

    def __init__(self, portal: Portal, server: Server, game, seed: int | None) -> None:
        self.portal = portal
        self.server = server
        self.plugin = resolve_plugin(game)
        self.seed = seed
        self.host = "127.0.0.1"
        self.port: int = server.port
        self.password: str | None = server.settings.password
        self._games = 0

    @property
    def game_type(self) -> str:
        return self.plugin.game_type

    def play(
        self,
        bot: str | list[str],
        *,
        color: str = "red",
        opponent: str | list[str] | None = None,
        seed: int | None = None,
        timeout: float = 120.0,
        start_timeout: float = 15.0,
        logs: str | Path | None = None,
    ) -> PlayedGame:
        """Play one game: ``bot`` (a command with ``{port}``/``{reservation}``) against
        ``opponent`` (default: the reference bot), ``bot`` seated as ``color`` (red/blue, or
        ONE/TWO in 2022+ games; either pair, in any case, is accepted for every game).  The
        returned game's ``color`` uses the game's own names (red/blue or ONE/TWO)."""
        seat = _seat(color)
        if self.password is None:
            raise RuntimeError("play needs an admin password on the server")
        config = MatchConfig(
            plugin=self.plugin, games=1, player1=bot, player2=opponent,
            start_timeout=start_timeout, game_timeout=timeout, logs=Path(logs) if logs else None,
        )
        if seed is None and self.seed is not None:
            seed = self.seed + self._games
        self._games += 1
        record = self.portal.call(
            play_one_game, config, self.server, self.password,
            player1_seat=seat, seed=seed,
        )
        return PlayedGame(record)

    async def aplay(self, bot: str | list[str], **options) -> PlayedGame:
        """``play`` for async tests: runs in a worker thread, the caller's loop stays free."""
        import trio

        return await trio.to_thread.run_sync(lambda: self.play(bot, **options))

    def __repr__(self) -> str:
        return f"<swc server {self.host}:{self.port} {self.game_type} seed={self.seed}>"


@contextlib.contextmanager
def start_server(
    game: str = "piranhas",
    seed: int | None = None,
    paused: bool = False,
    password: str | None = DEFAULT_PASSWORD,
    **settings,
):
    """Run a server on a free localhost port until the block ends."""
    plugin = resolve_plugin(game)
    with contextlib.ExitStack() as stack:
        if settings.get("save_replay") and "replay_dir" not in settings:
            settings["replay_dir"] = stack.enter_context(tempfile.TemporaryDirectory(prefix="swc-replays-"))
        settings = {"passphrase_checks_per_second": 0} | settings  # a private test server: no rate
        options = Settings(host="127.0.0.1", port=0, seed=seed, paused=paused, password=password, **settings)
        portal = stack.enter_context(Portal(name="swc-server"))
        server = portal.start(Server(options).run)
        yield RunningServer(portal, server, plugin, seed)
