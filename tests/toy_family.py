"""A test-only fourth wire family, to show what adding one takes (ARCHITECTURE.md, shown on the docs site as docs/architecture.md).

Each part stands where a real family's would, in miniature, and nothing outside them changes:

* the codec (``protocol/<family>.py``): :class:`LineCodec`, lines of text, sans I/O; its
  ``feed`` is what the shared transport reads through (a line over :data:`MAX_LINE` bytes, or
  one that is not UTF-8, is a protocol error: the transport drops that connection);
* the pure rules (``games/<game>/``): :class:`CountToThree`, players take turns to count; the
  one who says 3 wins;
* the door module (``server/<family>/door.py``): :class:`ToyDoor`, the four members of the Door
  contract, built on the shared transport (``server/transport.py``) as the real doors are: a
  :class:`~swc_local.server.transport.Transport` accepts (caps, process budget, refusals,
  ``busy()``'s count) and :class:`ToyConnection`, a small
  :class:`~swc_local.server.transport.Connection`, names the codec and the goodbye; the door's
  logic only reacts to whole received messages and queues its answers (it never touches a
  socket). It reaches its rules through the registry (``registry.entry("count_to_three").rules``);
  its settings section :data:`SECTION` (the key ``toyPort``, the ``swc serve`` flag
  ``--toy-port``, its defaults); :func:`open_door`, how ``swc serve`` opens it; and
  :func:`add_commands`, its own ``swc`` command;
* its :class:`~swc_local.server.door.ServerFamily` (:data:`TOY`), one entry of server/families.py's
  tuple, and the one ``Game`` line of ``games/registry.py``: :func:`register` adds them (here
  for one test, with ``monkeypatch``).

The toy protocol: a client sends ``PLAY <name>``; two players make a game; the player to move
gets ``TURN``, answers ``COUNT``, and everybody gets ``COUNTED <name> <n>``; at 3 everybody gets
``WON <name>`` and the connections close (other lines, and a ``COUNT`` out of turn, are
ignored). The protocol's goodbye is ``STOPPED <reason>``: a stopped server sends it to every
connection (players in a game, the one waiting for a partner, those that have not sent
``PLAY``) and writes each running game's log with ``unfinished <reason>``; a player that leaves
a game ends it the same way for the other (``STOPPED <name> left``).
"""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass, field

import trio

from swc_local.games import registry
from swc_local.server import families, transport
from swc_local.server.door import ServerFamily
from swc_local.server.sections import PortSection

log = logging.getLogger("swc.toy")

MAX_LINE = 1024
"""The longest line the toy protocol takes, in bytes (a bound on what one client makes us keep)."""


class LineTooLong(ValueError):
    pass


class LineCodec:
    """Bytes to lines and back (the toy family's codec)."""

    errors = (LineTooLong, UnicodeDecodeError)
    """What :meth:`feed` raises on input that is not the toy protocol."""

    def __init__(self) -> None:
        self._buffer = b""

    def feed(self, data: bytes) -> list[str]:
        self._buffer += data
        *lines, self._buffer = self._buffer.split(b"\n")
        if len(self._buffer) > MAX_LINE or any(len(line) > MAX_LINE for line in lines):
            raise LineTooLong(f"a line over {MAX_LINE} bytes")
        return [line.decode() for line in lines if line.strip()]

    @staticmethod
    def encode(*words: object) -> bytes:
        return (" ".join(str(word) for word in words) + "\n").encode()


@dataclass
class CountToThree:
    """The toy game's rules: pure, no clock, no I/O."""

    players: list[str]
    count: int = 0
    moves: list[str] = field(default_factory=list)

    @property
    def to_move(self) -> str:
        return self.players[self.count % len(self.players)]

    @property
    def winner(self) -> str | None:
        return self.players[(self.count - 1) % len(self.players)] if self.count >= 3 else None

    def play(self, player: str) -> bool:
        if player != self.to_move or self.winner is not None:
            return False
        self.count += 1
        self.moves.append(f"{player} {self.count}")
        return True


class ToyConnection(transport.Connection):
    """A toy client on the shared transport: its codec, its goodbye, its messages to the door."""

    codec_errors = LineCodec.errors
    idle_timeout = 60.0
    """Seconds to send ``PLAY``."""
    write_timeout = 10.0
    """Seconds a client may take no bytes before it is cut off."""

    def __init__(self, stream: trio.SocketStream, peer: str, door: ToyDoor) -> None:
        super().__init__(stream, peer)
        self.codec = LineCodec()
        self.door = door
        self.name = ""  # said with PLAY
        self.table: Table | None = None  # its game, once it has a partner

    def received(self, message: str) -> None:
        self.door.received(self, message)

    def send(self, *words: object) -> None:
        self.write(LineCodec.encode(*words))

    def polite_farewell(self) -> bytes:
        return LineCodec.encode("STOPPED", self.reason)


@dataclass(eq=False)
class Table:
    """One game under way: its rules' state and its players' connections."""

    game: CountToThree
    seats: list[ToyConnection]

    def tell(self, *words: object) -> None:
        for seat in self.seats:
            seat.send(*words)

    def mover(self) -> ToyConnection:
        return next(seat for seat in self.seats if seat.name == self.game.to_move)


class ToyDoor:
    """The toy family's door: ``run``, ``handle``, ``stop(reason)``, ``busy()``."""

    name = "toy"

    def __init__(self, host: str = "127.0.0.1", port: int = 0, max_connections: int = 1000) -> None:
        self.host = host
        self.port: int | None = port
        self.rules = registry.entry("count_to_three").rules  # the door knows its game by the registry
        self.logs: list[str] = []  # each game's log, as the family would write it to a file
        self.transport = transport.Transport(
            "toy", log, max_connections=max_connections, connect=self._connect, serve=self._serve)
        self._waiting: ToyConnection | None = None  # a player without a partner yet
        self._tables: dict[Table, None] = {}  # games under way

    async def run(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        self.port = await self.transport.listen(self.port or 0, self.host)
        async with trio.open_nursery() as nursery:
            task_status.started(self)
            await self.transport.run(nursery)

    async def handle(self, stream: trio.SocketStream) -> None:
        await self.transport.handle(stream)

    def stop(self, reason: str) -> None:
        """Stop accepting; every game ends unfinished (its log written) and every connection gets
        the toy protocol's goodbye, then closes once it is sent."""
        for table in list(self._tables):
            self._end(table, f"unfinished {reason}")
        self.transport.stop(reason)  # a connection accepted meanwhile gets the goodbye too

    def busy(self) -> int:
        return len(self.transport.connections) + len(self._tables)

    # -- connections (the transport calls these) ------------------------------------------------

    def _connect(self, stream: trio.SocketStream, peer: str) -> ToyConnection:
        return ToyConnection(stream, peer, self)

    async def _serve(self, connection: ToyConnection) -> None:
        try:
            await connection.serve()
        finally:
            self._left(connection)

    def _left(self, connection: ToyConnection) -> None:
        if self._waiting is connection:
            self._waiting = None
        table = connection.table
        if table is not None and table in self._tables:  # it left its game: the game ends
            why = f"{connection.name} left"
            self._end(table, f"unfinished {why}")
            for seat in table.seats:
                seat.close_politely(why)

    # -- the game, one received message at a time --------------------------------------------

    def received(self, connection: ToyConnection, line: str) -> None:
        if not connection.name:
            if line.startswith("PLAY ") and line[5:]:
                connection.name = line[5:]
                connection.engaged = True  # no join deadline any more
                self._seat(connection)
            return
        table = connection.table
        if table is None or line != "COUNT" or table.mover() is not connection:
            return
        game = table.game
        game.play(connection.name)
        table.tell("COUNTED", connection.name, game.count)
        if game.winner is None:
            table.mover().send("TURN")
            return
        table.tell("WON", game.winner)
        self._end(table, f"winner {game.winner}")
        for seat in table.seats:
            seat.hang_up("game over")

    def _seat(self, connection: ToyConnection) -> None:
        """The first player waits; the second makes the game, and the first to join moves first."""
        if self._waiting is None:
            self._waiting = connection
            return
        first, self._waiting = self._waiting, None
        table = Table(self.rules.CountToThree([first.name, connection.name]), [first, connection])
        self._tables[table] = None
        first.table = connection.table = table
        table.mover().send("TURN")

    def _end(self, table: Table, last_line: str) -> None:
        """A game is over: its log, with how it ended as the last line."""
        del self._tables[table]
        self.logs.append("\n".join(table.game.moves) + f"\n{last_line}\n")


class ToySection(PortSection):
    """The toy family's part of ``server.properties`` and of ``swc serve``: its port."""

    name = "toy"
    title = "toy door (tests/toy_family.py)"
    key = "toyPort"
    flag = "--toy-port"
    default_port = 7700
    what = "toy door"


SECTION = ToySection()


async def open_door(nursery: trio.Nursery, host) -> ToyDoor | None:
    port = host.settings.section("toy").port
    if port is not None and port < 0:
        return None
    return await nursery.start(ToyDoor(host.settings.host, port or 0, host.settings.max_connections).run)


def add_commands(commands) -> None:
    """The family's own ``swc`` command (a real family's drop-in server, as ``swc roborally``)."""
    command = commands.add_parser("toy", help="count to three (the test family's own command)")
    command.set_defaults(run=lambda args: 0)


# No seat adapter and no replay reader: this test family is served, not played by ``swc match``.
TOY = ServerFamily("toy", SECTION, open_door, add_commands=add_commands)
class CountToThreeEntry(registry.GameEntry):
    game_type, family, short_names = "count_to_three", "toy", ("count_to_three",)

    def load_parts(self):
        return registry.Parts(rules=sys.modules[__name__])


GAME = CountToThreeEntry()


def register(monkeypatch) -> None:
    """The family's one entry in server/families.py's tuple and its game's one value in
    ``games/registry.py``."""
    monkeypatch.setattr(families, "FAMILIES", (*families.FAMILIES, TOY))
    monkeypatch.setattr(registry, "GAMES", (*registry.GAMES, GAME))
