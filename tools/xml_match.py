"""The runner's seat adapter for the XML games (the six Software-Challenge seasons).

One in-process server per run (per distinct set of server options) on a free localhost port with
a random admin passphrase.  For each game an admin prepares a room with the players' names in
seat order and observes it; a seat's command joins with its reservation code (``{reservation}``;
``{color}`` is the seat's label, red/blue or ONE/TWO, :func:`~swc_local.games.plugin.seat_labels`).
The room's board comes from the game's own seed, so game *i* is the same whatever else runs.

A seat whose command did not join (see :mod:`swc_local.tools.runner`) gets a stand-in: a client
that joins with the seat's code and leaves as soon as the server answers, so the game, started
by that join, ends at once with the seat ``LEFT`` and the runner names the real cause.  (Not a
forced ``step``: the classic server's dummy would lose only by the move timer, and the 2022+
servers ignore (2022) or cancel on (2025+) a forced step in a half-empty room.)

Time per move is measured by the observer: the time from one state to the next is charged to
the seat that was to move (it includes the loopback round trip, well under a millisecond).

Options (``GameSpec.options``): ``soft_timeout_ms``, ``hard_timeout_ms``, ``load_game``,
``turn``; ``server`` and ``password`` to play on a server that is already running (the pytest
fixture).
"""

from __future__ import annotations

import contextlib
import logging
import random
import secrets

import trio

from swc_local.client.admin import Admin
from swc_local.client.client import Client
from swc_local.client.messages import Left, Memento, Result
from swc_local.games import registry
from swc_local.games.plugin import seat_labels
from swc_local.server.app import Server
from swc_local.server.xml.door import XmlDoor
from swc_local.server.xml.settings import door_settings
from swc_local.server.config import Settings
from swc_local.tools.results import ranks_from_points
from swc_local.tools.seats import Flag, Outcome, SeatOutcome

log = logging.getLogger("swc.match")

SERVER_OPTIONS = ("soft_timeout_ms", "hard_timeout_ms", "load_game", "turn")
OPTIONS = SERVER_OPTIONS + ("server", "password")
FLAGS = (  # swc match's and swc tournament's flags of this family (tools/family_flags.py)
    Flag(("--load-game",), "load_game", "start every game from a replay's state (with --turn)"),
    Flag(("--turn",), "turn", "turn of --load-game to start from (default 0)", int),
    Flag(("--soft-timeout",), "soft_timeout_ms", "soft move time limit (default: the game's, 2000)", int, "MS",
         tournament="soft move time limit"),
    Flag(("--hard-timeout",), "hard_timeout_ms", "hard move time limit (default: the game's, 10000)", int, "MS",
         tournament="hard move time limit"),
)
POLL = 0.01  # seconds between looks at a seat while its player joins


def check_options(game: str, options: dict) -> str | None:
    """A one-line problem with the options (a replay that cannot be loaded, or of another
    game), or None."""
    if options.get("load_game"):
        from swc_local.server.xml.replay import ReplayError

        try:
            _position(game, options)
        except (ReplayError, OSError) as error:
            return str(error)
    return None


def _position(game: str, options: dict):
    """The rooms' start position from ``load_game``/``turn`` (None: the game's own start)."""
    if not options.get("load_game"):
        return None
    from swc_local.server.xml.replay import position_factory

    return position_factory(options["load_game"], options.get("turn") or 0, game)


class Family:
    def __init__(self, nursery: trio.Nursery) -> None:
        self.nursery = nursery
        self.servers: dict[tuple, tuple[XmlDoor, str]] = {}  # each in-process server's XML door
        self.lock = trio.Lock()

    async def server(self, spec) -> tuple[XmlDoor, str]:
        if "server" in spec.options:
            return spec.options["server"].door(XmlDoor.name), spec.options["password"]  # a host of the fixture
        key = (str(spec.replays),) + tuple(spec.options.get(name) for name in SERVER_OPTIONS)
        async with self.lock:
            if key not in self.servers:
                password = secrets.token_hex(16)
                options = spec.options
                settings = Settings(
                    host="127.0.0.1", free_ports=True, password=password,
                    save_replay=spec.replays is not None, replay_dir=str(spec.replays or "replays"),
                    load_game_file=options.get("load_game"), turn_to_load=options.get("turn") or 0,
                    soft_timeout_ms=options.get("soft_timeout_ms"), hard_timeout_ms=options.get("hard_timeout_ms"),
                    passphrase_checks_per_second=0,  # a private server with a random passphrase
                )
                factory = _position(spec.game, options)  # the XML door's, built here when a position is given
                given = {XmlDoor.name: XmlDoor(door_settings(settings), factory)} if factory else None
                server = Server(settings, prepared=given, families=(XmlDoor.name,))  # a bad replay raises ReplayError
                await self.nursery.start(server.run)
                self.servers[key] = (server.door(XmlDoor.name), password)
            return self.servers[key]

    @contextlib.asynccontextmanager
    async def table(self, spec):
        server, password = await self.server(spec)
        plugin = registry.get(registry.resolve(spec.game))
        async with await Admin.connect("127.0.0.1", server.port, password) as admin:
            async with self.lock:  # the room's board comes from the seed the lobby draws next
                server.lobby.rng = random.Random(spec.seed)
                prepared = await admin.prepare(plugin, [name for name, _ in spec.players])
            await admin.observe(prepared.room_id)
            async with trio.open_nursery() as stand_ins:
                table = XmlTable(server, admin, plugin, prepared, spec, stand_ins)
                try:
                    yield table
                finally:
                    if not table.over:
                        with trio.CancelScope(shield=True), trio.move_on_after(2):
                            await admin.cancel(prepared.room_id)
                    stand_ins.cancel_scope.cancel()
        table.keep_replay()


class XmlTable:
    ordered = False

    def __init__(self, server: XmlDoor, admin: Admin, plugin, prepared, spec, stand_ins: trio.Nursery) -> None:
        self.server, self.admin, self.plugin, self.spec = server, admin, plugin, spec
        self.stand_ins = stand_ins
        self.room_id = prepared.room_id
        self.codes = prepared.reservations
        self.labels = list(seat_labels(plugin))
        self.over = False
        self.replay: str | None = None

    def values(self, seat: int) -> dict:
        return dict(host="127.0.0.1", port=self.server.port, reservation=self.codes[seat], color=self.labels[seat])

    async def wait_joined(self, seat: int) -> None:
        while True:
            room = self.server.lobby.rooms.get(self.room_id)
            if room is None or room.slots[seat].occupied:
                return
            await trio.sleep(POLL)

    async def fill(self, seats: list[int]) -> None:
        log.info("game %d: seat(s) %s did not join; stand-ins take them and leave", self.spec.index + 1, seats)
        for seat in seats:
            self.stand_ins.start_soon(_leaving_stand_in, self.plugin, self.server.port, self.codes[seat])

    async def finish(self) -> Outcome:
        times: dict[int, list[float]] = {0: [], 1: []}
        last: tuple[float, int] | None = None  # (time, seat to move) of the previous state
        result: Result | None = None
        async for message in self.admin.room_messages(self.room_id):
            if isinstance(message, Memento):
                now = trio.current_time()
                seat = self.plugin.game_from_state(message.state).current_seat
                if last is not None:
                    times[last[1]].append(now - last[0])
                last = (now, seat)
            elif isinstance(message, Result):
                result = message
            elif isinstance(message, Left):
                break
        self.over = True
        if result is None:
            return Outcome(None, error="the room closed without a result", move_times=times)
        points = [score.points for score in result.scores]
        seats = [
            SeatOutcome(rank, tuple(score.parts), score.cause, score.reason)
            for rank, score in zip(ranks_from_points(points), result.scores)
        ]
        return Outcome(seats, move_times=times, raw=result, replay=self._replay_path(), score_names=result.fragments)

    def _replay_path(self) -> str | None:
        writer = self.server.replay_writer
        if writer is None or self.room_id not in writer.paths:
            return None
        path = writer.paths[self.room_id]
        return str(path.with_name(f"game{self.spec.index + 1:03d}_{path.name}"))

    def keep_replay(self) -> None:
        """The replay file gets the game's number in front (written once the room is over)."""
        writer = self.server.replay_writer
        if writer is not None and self.room_id in writer.paths:
            path = writer.paths[self.room_id]
            if path.exists():
                path.rename(path.with_name(f"game{self.spec.index + 1:03d}_{path.name}"))


async def _leaving_stand_in(plugin, port: int, code: str) -> None:
    """Take a prepared seat and leave as soon as the server answers: the game, started by this
    join, ends at once with the seat ``LEFT`` (both dialects score a player who leaves a running
    game so), instead of a forced start whose dummy would lose only by the move timer."""
    try:
        async with await Client.connect("127.0.0.1", port, plugin) as client:
            await client.join_prepared(code)
            async for _ in client:
                break
    except Exception as error:  # a taken seat's refusal or the room's end: nothing to do
        log.debug("stand-in for %s: %s", code, error)
