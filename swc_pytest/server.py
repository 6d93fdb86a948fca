"""An in-process server in a background thread, and the one-game helper, for the pytest plugin
(usable without pytest too: ``with start_server(seed=1) as server: server.play(...)``)."""

from __future__ import annotations

import contextlib
import tempfile
import secrets
from dataclasses import dataclass
from pathlib import Path

from swc_local.client import ladder
from swc_local.client.blocking import Portal
from swc_local.client.client import resolve_plugin
from swc_local.client.messages import seat_of
from swc_local.games import registry
from swc_local.swc_pytest.causes import Cause, typed_part
from swc_local.server.app import Server
from swc_local.server.config import DEFAULT_PASSWORD, Settings
from swc_local.tools.results import GameResult
from swc_local.tools.runner import GameSpec, play_games, require_commands
from swc_local.tools.sandbox import Limits, default_sandbox


def _seat(color: str) -> int:
    """The seat ``color`` names: red/ONE first, blue/TWO second (both dialects' names are
    accepted for every game, so a test reads the same for a classic and a 2022+ game)."""
    if not isinstance(color, str) or color.upper() not in ("RED", "ONE", "BLUE", "TWO"):
        raise ValueError(f"color must be red/blue or ONE/TWO, not {color!r}")
    return seat_of(color)


@dataclass(frozen=True)
class SeatScore:
    """One player's side of a game: the server's cause (:class:`Cause`, its repr with the reason),
    reason and score parts, and its points (2 won, 1 draw, 0 lost: from the ranks, so a seat whose
    command never played has 0).

    ``parts`` are numbers (:func:`typed_part`): ``game.bot.parts[1] > 5`` compares as a test
    means it; their names are ``game.record.score_names`` (``("Gewinner", "∅ Schwarm")``)."""

    cause: Cause
    reason: str | None
    parts: tuple[int | float | str, ...]
    points: int
    exit_code: int | None
    log: str | None


@dataclass
class PlayedGame:
    """One game seen from the bot under test (``player1``): what ``swc_server.play`` returns.

    ``record`` is the runner's :class:`~swc_local.tools.results.GameResult`."""

    record: GameResult

    @property
    def result(self):
        """The server's result message (:class:`swc_local.client.messages.Result`), or None."""
        return self.record.raw

    def _side(self, name: str) -> SeatScore | None:
        if self.record.error is not None:
            return None
        seat = self.record.seat_of(name)
        other = next(s for s in self.record.seats if s.name != name)
        points = 1 if seat.rank == other.rank else 2 if seat.rank < other.rank else 0
        return SeatScore(Cause(seat.cause, seat.reason), seat.reason, tuple(typed_part(p) for p in seat.score), points,
                         seat.exit_code, seat.log)

    @property
    def bot(self) -> SeatScore | None:
        return self._side("player1")

    @property
    def opponent(self) -> SeatScore | None:
        return self._side("player2")

    @property
    def color(self) -> str:
        """The bot's seat in the game's own names: red/blue, or ONE/TWO in 2022+ games."""
        return self.record.seat_of("player1").seat

    @property
    def team(self) -> str:
        """The bot's seat as the 2022+ games name it (ONE moves first, as red does)."""
        return ("ONE", "TWO")[[s.name for s in self.record.seats].index("player1")]

    @property
    def won(self) -> bool:
        return self.bot is not None and self.bot.points == 2

    @property
    def draw(self) -> bool:
        return self.bot is not None and self.bot.points == 1

    @property
    def exit_code(self) -> int | None:
        return self.record.seat_of("player1").exit_code

    @property
    def replay(self) -> Path | None:
        return Path(self.record.replay) if self.record.replay else None

    @property
    def error(self) -> str | None:
        return self.record.error

    def __repr__(self) -> str:
        """``<game: bot red CRASHED 0/8 (exited with code 1 before it joined; last output: ...),
        opponent REGULAR 2/8, won=False>``: a side that did not end REGULAR says why."""
        if self.bot is None:
            return f"<game without a result: {self.error}>"
        return f"<game: bot {self.color} {_side_text(self.bot)}, opponent {_side_text(self.opponent)}, won={self.won}>"


def _side_text(side: SeatScore) -> str:
    text = f"{side.cause} {'/'.join(str(part) for part in side.parts)}".rstrip()
    return f"{text} ({side.reason})" if side.reason and side.cause != "REGULAR" else text


class RunningServer:
    """What the ``swc_server`` fixture yields: address, options, and ``play``."""

    def __init__(self, portal: Portal, server: Server, game, seed: int | None) -> None:
        self.portal = portal
        self.server = server
        self.plugin = resolve_plugin(game)
        self.seed = seed
        self.host = "127.0.0.1"
        self.port: int = server.door(registry.entry(self.plugin.game_type).family).port  # the door of its game's family
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
        sandbox: bool | None = None,
        limits: Limits | None = None,
    ) -> PlayedGame:
        """Play one game: ``bot`` (a command with ``{port}``/``{reservation}``) against
        ``opponent``: a rung of the game's ladder (``"random"``, ``"greedy"``, ``"search-short"``,
        ``"search-long"``: the reference bot at that rung, a ValueError naming the game's rungs if
        it has no such rung), a command, or None (the default reference bot); ``bot`` seated as ``color`` (red/blue, or
        ONE/TWO in 2022+ games; either pair, in any case, is accepted for every game).  The
        returned game's ``color`` uses the game's own names (red/blue or ONE/TWO).

        A bot that exits before it joins, or never joins within ``start_timeout`` seconds,
        loses with the cause ``CRASHED`` or ``NEVER_JOINED`` (its last output lines in
        ``game.bot.reason``, and in the repr of the game and of the cause, so a failing assertion
        shows them); a command that cannot start at all (exit 126/127, no such program) raises
        :class:`swc_local.tools.runner.CommandError` with a one-line reason.

        A leading bare ``python``/``python3`` in ``bot`` or ``opponent`` runs this test's own
        interpreter (``sys.executable``, as ``swc match`` runs its own: the match runner's
        rule, tools/players.py), not the first ``python`` on PATH.

        ``sandbox=True`` runs ``bot`` in the sandbox of ``swc match --sandbox`` (tools/sandbox.py,
        with ``limits``, default :class:`~swc_local.tools.sandbox.Limits`); the default is the
        sandbox for a client archive and none for a plain command.  A bot that a limit ends
        loses with that limit as its cause (``MEMORY_LIMIT``, ``CPU_TIME_LIMIT``,
        ``PROCESS_LIMIT``)."""
        seat = _seat(color)
        if self.password is None:
            raise RuntimeError("play needs an admin password on the server")
        if seed is None:
            seed = self.seed + self._games if self.seed is not None else secrets.randbits(31)
        players = [("player1", bot), ("player2", ladder.opponent_command(registry.entry(self.game_type), opponent))]
        spec = GameSpec(
            game=self.game_type, index=self._games, seed=seed, players=players[::-1] if seat else players,
            logs=Path(logs) if logs else None, start_timeout=start_timeout, game_timeout=timeout,
            options={"server": self.server, "password": self.password},
            sandboxed={"player1": limits or Limits()} if (default_sandbox(bot) if sandbox is None else sandbox) else {},
        )
        require_commands(spec.players)
        self._games += 1
        (record,) = self.portal.call(play_games, [spec], give_up_after=None)
        return PlayedGame(record)

    async def aplay(self, bot: str | list[str], **options) -> PlayedGame:
        """``play`` for async tests: runs in a worker thread, the caller's loop stays free."""
        import trio

        return await trio.to_thread.run_sync(lambda: self.play(bot, **options))

    def __repr__(self) -> str:
        return f"<swc server {self.host}:{self.port} {self.game_type} seed={self.seed}>"


@contextlib.contextmanager
def start_server(
    game: str = registry.FIXTURE_GAME.name,
    seed: int | None = None,
    paused: bool = False,
    password: str | None = DEFAULT_PASSWORD,
    **settings,
):
    """Run a server on a free localhost port until the block ends."""
    entry = registry.entry(game) if isinstance(game, str) else None
    if entry is not None and entry.plugin is None:  # a game of another family has its own fixture
        raise ValueError(f"swc_server serves the Software-Challenge games; {entry.name} is played with the "
                         f"{entry.family}_server fixture")
    plugin = resolve_plugin(game)
    with contextlib.ExitStack() as stack:
        if settings.get("save_replay") and "replay_dir" not in settings:
            settings["replay_dir"] = stack.enter_context(tempfile.TemporaryDirectory(prefix="swc-replays-"))
        settings = {"passphrase_checks_per_second": 0} | settings  # a private test server: no rate
        options = Settings(host="127.0.0.1", free_ports=True, seed=seed, paused=paused, password=password, **settings)
        portal = stack.enter_context(Portal(name="swc-server"))
        server = portal.start(Server(options, opponents=ladder).run)  # its tables seat the ladder's bots
        yield RunningServer(portal, server, plugin, seed)
