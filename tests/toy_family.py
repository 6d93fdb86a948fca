"""A test-only fourth wire family, to show what adding one takes (ARCHITECTURE.md).

Each part stands where a real family's would, in miniature, and nothing outside them changes:

* the codec (``protocol/<family>.py``): :class:`LineCodec`, lines of text, sans I/O;
* the pure rules (``games/<game>/``): :class:`CountToThree`, players take turns to count; the
  one who says 3 wins;
* the door module (``server/<family>/door.py``): :class:`ToyDoor`, the four members of the Door
  contract, reaching its rules through the registry (``registry.entry("count_to_three").rules``);
  its settings section :data:`SECTION` (the key ``toyPort``, the ``swc serve`` flag
  ``--toy-port``, its defaults); :func:`open_door`, how ``swc serve`` opens it; and
  :func:`add_commands`, its own ``swc`` command;
* the one ``Family`` line and the one ``Game`` line of ``games/registry.py``: :func:`register`
  adds them (here for one test, with ``monkeypatch``).

The toy protocol: a client sends ``PLAY <name>``; two players make a game; the player to move
gets ``TURN``, answers ``COUNT``, and everybody gets ``COUNTED <name> <n>``; at 3 everybody gets
``WON <name>`` and the connections close. A stopped server sends ``STOPPED <reason>`` (the toy
protocol's way to end a game early) and writes the game's log with ``unfinished <reason>``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import trio

from swc_local.games import registry
from swc_local.server.settings import PortSection


class LineCodec:
    """Bytes to lines and back (the toy family's codec)."""

    def __init__(self) -> None:
        self._buffer = b""

    def feed(self, data: bytes) -> list[str]:
        self._buffer += data
        *lines, self._buffer = self._buffer.split(b"\n")
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


@dataclass
class _Seat:
    name: str
    stream: trio.SocketStream
    codec: LineCodec
    done: trio.Event = field(default_factory=trio.Event)


class ToyDoor:
    """The toy family's door: ``run``, ``handle``, ``stop(reason)``, ``busy()``."""

    name = "toy"

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.host = host
        self.port: int | None = port
        self.rules = registry.entry("count_to_three").rules_module()  # the door knows its game by the registry
        self.logs: list[str] = []  # each game's log, as the family would write it to a file
        self.open = 0
        self.stopping: str | None = None
        self._waiting: _Seat | None = None
        self._accepting = trio.CancelScope()
        self._joining: set[trio.CancelScope] = set()  # connections that have not sent PLAY yet
        self._games: dict[int, tuple[CountToThree, list[_Seat], trio.CancelScope]] = {}

    async def run(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(self.port, host=self.host)
        self.port = listeners[0].socket.getsockname()[1]
        async with trio.open_nursery() as nursery:
            task_status.started(self)
            with self._accepting:
                await trio.serve_listeners(self.handle, listeners, handler_nursery=nursery)

    async def handle(self, stream: trio.SocketStream) -> None:
        self.open += 1
        try:
            seat = _Seat("", stream, LineCodec())
            joining = trio.CancelScope()
            self._joining.add(joining)
            try:
                with joining:
                    while not seat.name and self.stopping is None:
                        data = await stream.receive_some(4096)
                        if not data:
                            return
                        for line in seat.codec.feed(data):
                            if line.startswith("PLAY "):
                                seat.name = line[5:]
            finally:
                self._joining.discard(joining)
            if self.stopping is not None or not seat.name:
                return
            if self._waiting is None:
                self._waiting = seat
                await seat.done.wait()  # the partner's task plays the game on this stream too
                return
            seats, self._waiting = [self._waiting, seat], None
            await self._play(seats)
        finally:
            self.open -= 1

    async def _play(self, seats: list[_Seat]) -> None:
        game = self.rules.CountToThree([seat.name for seat in seats])
        scope = trio.CancelScope()
        self._games[id(game)] = (game, seats, scope)
        try:
            with scope:
                while game.winner is None:
                    mover = next(seat for seat in seats if seat.name == game.to_move)
                    await mover.stream.send_all(LineCodec.encode("TURN"))
                    line = await self._next_line(mover)
                    if line == "COUNT" and game.play(mover.name):
                        for seat in seats:
                            await seat.stream.send_all(LineCodec.encode("COUNTED", mover.name, game.count))
                for seat in seats:
                    await seat.stream.send_all(LineCodec.encode("WON", game.winner))
                self.logs.append("\n".join(game.moves) + f"\nwinner {game.winner}\n")
            if scope.cancelled_caught:  # stop(): the toy protocol's early end, then the log
                with trio.CancelScope(shield=True), trio.move_on_after(1):
                    for seat in seats:
                        await seat.stream.send_all(LineCodec.encode("STOPPED", self.stopping))
                self.logs.append("\n".join(game.moves) + f"\nunfinished {self.stopping}\n")
        finally:
            with trio.CancelScope(shield=True):
                for seat in seats:
                    await trio.aclose_forcefully(seat.stream)
                    seat.done.set()
            del self._games[id(game)]

    @staticmethod
    async def _next_line(seat: _Seat) -> str:
        while True:
            data = await seat.stream.receive_some(4096)
            if not data:
                return ""
            lines = seat.codec.feed(data)
            if lines:
                return lines[0]

    def stop(self, reason: str) -> None:
        self.stopping = reason
        self._accepting.cancel()
        for scope in [*self._joining, *(scope for _, _, scope in self._games.values())]:
            scope.cancel()
        if self._waiting is not None:  # a player without a game: closed, nothing to record
            waiting, self._waiting = self._waiting, None
            waiting.stream.socket.close()
            waiting.done.set()

    def busy(self) -> int:
        return self.open + len(self._games)


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
    return await nursery.start(ToyDoor(host.settings.host, port or 0).run)


def add_commands(commands) -> None:
    """The family's own ``swc`` command (a real family's drop-in server, as ``swc roborally``)."""
    command = commands.add_parser("toy", help="count to three (the test family's own command)")
    command.set_defaults(run=lambda args: 0)


# No seat adapter and no replay reader: this test family is served, not played by ``swc match``.
TOY = registry.Family("toy", adapter="", replay="", log_suffixes=(".toy",), door="tests.toy_family")
GAME = registry.Game("count_to_three", TOY, ("count_to_three",), (2, 2), bot=(), rules="tests.toy_family")


def register(monkeypatch) -> None:
    """The family's one ``Family`` line and its game's one ``Game`` line in ``games/registry.py``."""
    monkeypatch.setattr(registry, "FAMILIES", (*registry.FAMILIES, TOY))
    monkeypatch.setattr(registry, "GAMES", (*registry.GAMES, GAME))
