"""The ReversiXT front door of ``swc serve``: the reference server's protocol, game after game.

Unlike the reference (one game, then exit) the door keeps serving: connections are accepted at
any time, each sends its GROUP, and whenever the map's number of players have joined a game
starts with them in join order (player numbers = join order, as on the reference); several games
run at once. Each game is exactly the reference's: MAP and PLAYER, the 1 s pause, the same
requests, verdicts and bytes (``server/reversixt/game.py``).

Conformance notes and differences:
- a bad join (GROUP > 99, wrong type or length, a close) aborts the whole reference server; here
  it only closes that connection (nothing sent, as on the reference) and the others wait on;
- ``zleep`` (``-z``) limits waiting: a connection that has not sent its GROUP after that long is
  closed, and a game still short of players that long after its first player joined is called
  off (its players closed, nothing sent), as the reference's abort; without it the door waits
  for ever, for that connection or that game only;
- a client that closes while it waits for its game is not dealt in: the others wait on, first in
  the queue, for someone to take its place (the reference has no such waiting);
- every game's move log (``log_game.txt`` format) can be kept in ``replay_dir`` for
  ``swc replay``, and a result file (``-r`` format) beside it;
- at most ``maxConnections`` connections at once (the XML door's key), within the process's one
  connection budget (``server/limits.py``); more are closed at once, logged once per burst;
- without ``zleep`` a connection still has ``join_timeout`` (60 s, ``reversixtJoinTimeout``) to
  send its GROUP (the reference waits for ever), and at most ``max_idle`` (100,
  ``reversixtMaxIdle``) connections may wait without one: the oldest that sent nothing is closed
  for a newcomer (one whose GROUP waits unread is never taken for a silent one), so silent
  connections can never lock honest clients out;
- a send the client does not take within ``write_timeout`` (10 s, ``reversixtWriteTimeout``;
  the reference blocks for ever) disqualifies it as one that does not answer (``timeout during
  move``) and the game goes on: a client that never reads a large MAP no longer stalls the others;
- a crash inside one game is logged and closes that game's connections only;
- ``stop(reason)`` (SIGTERM/SIGINT, the Door contract of ``server/door.py``) ends every game as
  the reference's abort does, every connection closed without another byte, and writes each
  running game's move log with a last line ``game stopped before its end: <reason>`` and no
  result file.
"""

from __future__ import annotations

import collections
import itertools
import logging
import math
import os
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import trio

from swc_local.games import registry
from swc_local.protocol import reversixt as wire
from swc_local.server.reversixt.dropin import JoinAbort, read_group
from swc_local.server import transport
from swc_local.server.door import cannot_listen
from swc_local.server.finished_games import RecentGames
from swc_local.server.limits import BurstLog
from swc_local.server.reversixt.game import GameRunner, Seat, Timing, send_frame
from swc_local.server.reversixt.settings import ReversiSettings, door_port

if TYPE_CHECKING:
    from swc_local.games.reversixt.mapfile import GameMap
    from swc_local.games.reversixt.referee import Referee

log = logging.getLogger("swc.reversixt")

GAME = registry.entry("reversixt")
"""The door's game as the registry knows it; the door reaches its rules (maps, referee) only
through ``GAME.rules``, as the XML door reaches its games through their plugins.  The family's
wire mapping (server/reversixt/game.py: a referee's verdicts to frames) imports the referee
itself: it exists for that one game, and typing it against the rules keeps it honest."""

DEFAULT_PORT = 7777
KEEP_FINISHED = 100
"""Finished games a door remembers (swc match and tests read them); older ones are forgotten."""
DEFAULT_MAP = "classic_2p.map"
"""A bundled map by name: the rules' ``load_map`` finds it among the package's resources
(``importlib.resources``), so it loads from a wheel, a zip or the frozen ``swc`` executable alike
(a path beside this file's did not: the executable has no ``server/reversixt/`` folder to climb
out of). As for any ``--map`` name, a file of that name in the working folder comes first."""


_KEYS = ReversiSettings.model_fields
"""The section's fields (server/reversixt/settings.py): the one place their defaults are stated."""
SHARED_FIELDS = ("time_limit", "depth", "zleep", "join_timeout", "write_timeout", "max_idle")
"""What the door reads of its section as it is; the rest the house says (address, records, budget)."""


@dataclass
class DoorSettings:
    """A running door's settings: its section's fields (defaults from :class:`ReversiSettings`),
    the house's address, records and budget, and the map and pauses of ``swc match`` and tests."""

    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    map_path: str = ""
    time_limit: float = _KEYS["time_limit"].default
    depth: int = _KEYS["depth"].default
    zleep: float | None = _KEYS["zleep"].default
    replay_dir: str | None = None
    timing: Timing = field(default_factory=Timing)
    max_connections: int = 1000  # more at once are closed at once (the XML door's maxConnections)
    join_timeout: float = _KEYS["join_timeout"].default  # seconds to send the GROUP without zleep (0: for ever)
    write_timeout: float = _KEYS["write_timeout"].default  # seconds a client may take no bytes: disqualified (0: for ever)
    max_idle: int = _KEYS["max_idle"].default  # connections without a GROUP; the oldest makes room for a new one


@dataclass
class FinishedGame:
    game_id: str
    referee: Referee
    groups: list[int]

    def result_text(self) -> str:
        return self.referee.result_text(os.path.basename(self.referee.map_name))


class ReversiDoor:
    """``await door.run(task_status=...)`` inside a nursery; the started value is the door.

    A :class:`~swc_local.server.door.Door`: ``handle``, ``stop(reason)``, ``busy()``.
    """

    name = "reversixt"

    def __init__(self, settings: DoorSettings, game_map: GameMap | None = None):
        self.settings = settings
        self.game_map = game_map if game_map is not None else GAME.rules.load_map(settings.map_path or DEFAULT_MAP)
        self.map_name = settings.map_path or os.path.basename(DEFAULT_MAP)
        self.port: int | None = None
        self.games_started = 0
        self.finished: collections.deque[FinishedGame] = collections.deque(maxlen=KEEP_FINISHED)
        self.games_ended = 0  # all of them, not only the last KEEP_FINISHED
        self.recent = RecentGames()  # the last ones, for the stop's summary
        self.on_finished: list[Callable[[FinishedGame], None]] = []
        # told of every game as it starts (the web viewer); may return a callback for each turn
        self.game_listeners: list[Callable[[str, Referee], Callable[[Referee], None] | None]] = []
        self._waiting: list[tuple[Seat, int, trio.Event]] = []
        self._waiting_since: float | None = None
        self._waiting_changed = trio.Event()
        self._counter = itertools.count(1)
        self._nursery: trio.Nursery | None = None
        self._joining: dict[int, tuple[trio.CancelScope, Seat]] = {}  # connections without a GROUP yet, oldest first
        self._evicted = BurstLog(log)
        self.transport = transport.Transport(
            "reversixt", log, max_connections=settings.max_connections, connect=self._connect,
            serve=self._serve_seat, admit=self._admit, evict=self._evict_idle, close=_abort_seat)
        self._games: dict[str, trio.CancelScope] = {}  # running games by id

    async def run(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        self.port = await self.transport.listen(self.settings.port, self.settings.host or None)
        log.info(
            "ReversiXT door listening on %s:%d (%s, %d players)",
            self.settings.host,
            self.port,
            self.map_name,
            self.game_map.players,
        )
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            if self.settings.zleep:
                nursery.start_soon(self._watch_waiting)
            task_status.started(self)
            await self.transport.run(nursery)

    @property
    def open_connections(self) -> int:
        return len(self.transport.connections)

    def waiting_count(self) -> int:
        """Players joined and waiting for their game to fill up."""
        return len(self._waiting)

    def cancel(self) -> None:
        """End at once, every game and connection without a record."""
        if self._nursery is not None:
            self._nursery.cancel_scope.cancel()

    def stop(self, reason: str) -> None:
        """Stop accepting; every game and every connection ends as the reference's abort (see above)."""
        self.transport.stop(reason)
        for scope in self._games.values():
            scope.cancel()
        self._waiting, self._waiting_since = [], None

    def busy(self) -> int:
        return self.open_connections + len(self._games)

    def games_finished(self) -> int:
        """Games ended by the rules since the door opened (the stop's summary)."""
        return self.games_ended

    def recent_games(self) -> list[tuple[int, str]]:
        """The last games ended by the rules, one line each (server/finished_games.py)."""
        return self.recent.lines()

    async def handle(self, stream: trio.SocketStream) -> None:
        await self.transport.handle(stream)

    def _scaled(self, seconds: float) -> float:
        return seconds * self.settings.timing.scale

    def _admit(self) -> str | None:
        """At most ``max_idle`` connections without a GROUP (the oldest makes room, so an honest
        client always gets in), at most ``max_connections`` in all (then refused)."""
        if len(self._joining) >= self.settings.max_idle:
            self._evict_idle()
        if self.open_connections >= self.settings.max_connections:
            return f"{self.open_connections} connections open (maxConnections)"
        return None

    def _evict_idle(self) -> bool:
        """Close the oldest connection without a GROUP that has sent nothing: one whose GROUP
        waits unread in its socket (its reader has not run yet, as under a flood of connects)
        is a player, not a squatter, and is never the one closed while a silent one is open
        (issue 34: a real player was closed that way and waited for ever)."""
        if not self._joining:
            return False
        number = next((n for n, (_, seat) in self._joining.items() if not seat.has_input()), next(iter(self._joining)))
        self._joining.pop(number)[0].cancel()
        self._evicted.note("reversixt: the oldest connection without a group was closed for a new one (at most %d)",
                           self.settings.max_idle)
        return True

    def _connect(self, stream: trio.SocketStream, peer: str) -> Seat:
        return Seat(0, stream, write_timeout=self.settings.write_timeout, peer=peer)

    async def _serve_seat(self, seat: Seat) -> None:
        with seat.cancel_scope:  # cancelled already if the door stopped (_abort_seat)
            await self._serve_connection(next(self._counter), seat)

    def _join_limit(self) -> float:
        """-z when given (the reference's), else the door's join deadline; inf without either."""
        if self.settings.zleep:
            return self._scaled(self.settings.zleep)
        return self.settings.join_timeout if self.settings.join_timeout > 0 else math.inf

    async def _serve_connection(self, number: int, seat: Seat) -> None:
        with trio.move_on_after(self._join_limit()) as scope:
            self._joining[number] = (scope, seat)
            try:
                group = await read_group(seat)
            except JoinAbort as error:
                log.info("reversixt connection %d refused: %s", number, error)
                await seat.close_now()
                return
            finally:
                self._joining.pop(number, None)
        if scope.cancelled_caught:
            if scope.deadline <= trio.current_time():
                log.info("reversixt connection %d: no group after %g s, closed", number,
                         self.settings.zleep or self.settings.join_timeout)
            await seat.close_now()
            return
        log.info("reversixt connection %d joined with group %d", number, group)
        done = trio.Event()
        self._join(seat, group, done)
        await done.wait()  # the transport closes the stream when this handler returns

    def _join(self, seat: Seat, group: int, done: trio.Event) -> None:
        if not self._waiting:
            self._waiting_since = trio.current_time()
        self._waiting.append((seat, group, done))
        if len(self._waiting) == self.game_map.players:
            players, self._waiting, self._waiting_since = self._waiting, [], None
            assert self._nursery is not None
            self._nursery.start_soon(self._play, players)
        self._waiting_changed.set()
        self._waiting_changed = trio.Event()

    async def _watch_waiting(self) -> None:
        """Call off a game still short of players ``zleep`` after its first player joined."""
        while True:
            if self._waiting_since is None:
                await self._waiting_changed.wait()
                continue
            deadline = self._waiting_since + self._scaled(self.settings.zleep)
            with trio.move_on_at(deadline):
                await self._waiting_changed.wait()
                continue
            seats, self._waiting, self._waiting_since = self._waiting, [], None
            log.info("reversixt: not all clients joined after %g s; %d waiting closed", self.settings.zleep, len(seats))
            for seat, _, done in seats:
                await seat.close_now()
                done.set()

    async def _play(self, players: list[tuple[Seat, int, trio.Event]]) -> None:
        finished = players
        try:
            finished = await self._play_game(players)
        finally:
            for _, _, done in finished:  # their handlers end, the transport closes the streams
                done.set()

    async def _still_there(self, seat: Seat) -> bool:
        """False when the client has closed while it waited (bytes it sent early are kept)."""
        try:
            with trio.move_on_after(0.001):
                data = await seat.receive_some(4096)
                if not data:
                    return False
                seat.reader.feed(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            return False
        return True

    async def _play_game(self, players: list[tuple[Seat, int, trio.Event]]) -> list:
        """Play one game; returns the entries whose connections are done with."""
        gone = [entry for entry in players if not await self._still_there(entry[0])]
        if gone:
            # a client that left while waiting is not dealt into a game: the others wait on,
            # first in the queue again, for someone to take its place
            log.info("reversixt: %d waiting client(s) left before their game started", len(gone))
            for seat, _, _ in gone:
                await seat.close_now()
            stayed = [entry for entry in players if entry not in gone]
            self._waiting[:0] = stayed
            if self._waiting_since is None:
                self._waiting_since = trio.current_time()
            if len(self._waiting) >= self.game_map.players:
                ready = self._waiting[: self.game_map.players]
                del self._waiting[: self.game_map.players]
                if not self._waiting:
                    self._waiting_since = None
                assert self._nursery is not None
                self._nursery.start_soon(self._play, ready)
            self._waiting_changed.set()
            self._waiting_changed = trio.Event()
            return gone
        game_id = uuid.uuid4().hex[:12]
        self.games_started += 1
        seats = {}
        groups = []
        for k, (seat, group, _) in enumerate(players, 1):
            seat.player = k
            seats[k] = seat
            groups.append(group)
        settings = self.settings
        referee = GAME.rules.Referee(
            self.game_map,
            groups,
            int(round(settings.time_limit * 1000)),
            settings.depth,
            self.map_name,
            self.port or 0,
            settings.time_limit,
        )
        log.info("reversixt game %s started: groups %s", game_id, groups)
        scope = self._games[game_id] = trio.CancelScope()
        if self.transport.stopping is not None:
            scope.cancel()
        try:
            with scope:
                try:
                    unreachable = []
                    for player, seat in seats.items():
                        # a client that takes no bytes (a large map, never read) costs the others at
                        # most write_timeout, then it is out like one that does not answer
                        if not await send_frame(seat, wire.encode_map(self.game_map.raw)) or not await send_frame(
                            seat, wire.encode_player(seat.player)
                        ):
                            unreachable.append(player)
                    hooks = [hook for listener in self.game_listeners if (hook := listener(game_id, referee)) is not None]
                    progress = (lambda r: [hook(r) for hook in hooks]) if hooks else None
                    runner = GameRunner(referee, seats, settings.timing, progress, f"reversixt game {game_id}",
                                        unreachable=unreachable)
                    await runner.run()
                except Exception:
                    log.exception("reversixt game %s: internal error; its connections are closed", game_id)
                    for seat in seats.values():
                        await seat.close_now()
                    return players
            if scope.cancelled_caught:
                log.info("reversixt game %s stopped before its end (%s)", game_id, self.transport.stopping)
                await self._write({".log": "".join(referee.log) + f"game stopped before its end: {self.transport.stopping}\n"}, game_id)
                return players
        finally:
            del self._games[game_id]
        finished = FinishedGame(game_id, referee, groups)
        self.finished.append(finished)
        self.games_ended += 1
        summary = finished.result_text().strip().replace("\n", " | ").replace("\t", " ")
        log.info("reversixt game %s ended: %s", game_id, summary)
        self.recent.add(f"reversixt game {game_id}: {summary}")
        await self._write({".log": "".join(referee.log), ".result": finished.result_text()}, game_id)
        for callback in self.on_finished:
            callback(finished)
        return players

    async def _write(self, files: dict[str, str], game_id: str) -> None:
        """A game's files in ``replay_dir`` (if set), written in a thread so a slow disk never
        stalls the other doors; a failing write costs that file only."""
        if self.settings.replay_dir:
            base = os.path.join(self.settings.replay_dir, f"reversixt-{game_id}")
            with trio.CancelScope(shield=True):  # a stop's cancel must not lose the record of a game
                await trio.to_thread.run_sync(write_game_files, {base + suffix: text for suffix, text in files.items()})


def _abort_seat(seat: Seat, reason: str) -> None:
    """How a stopping door ends a connection: as the reference's abort, without another byte."""
    seat.cancel_scope.cancel()


def write_game_files(files: dict[str, str]) -> None:
    """Write a finished game's log and result; a failure (disk full, no descriptors, a bad folder,
    text the file system cannot take) is logged and costs these files only, never the door."""
    for path, text in files.items():
        try:
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
        except (OSError, ValueError) as error:
            log.error("reversixt: %s not written: %s", path, error)


# What the web viewer reads of this family (its ServerFamily's viewer hooks, server/reversixt/family.py);
# its records (server/reversixt/records.py) are imported only when a viewer runs or a file is opened.


def watch_for_viewer(door: ReversiDoor, book) -> None:
    """Every game of the door gets a record in the viewer's ``book``, told of each turn as it happens."""
    from swc_local.server.reversixt.records import watch_door

    watch_door(door, book)


def read_record_file(data: bytes, source: str):
    """A move log (``log_game.txt``, ours or the reference server's: it starts with ``Starting game
    with map``); None for any other file."""
    if not data.startswith(b"Starting game with map "):
        return None
    from swc_local.server.reversixt.records import read_move_log_file

    return read_move_log_file(data.decode("utf-8", "replace"), source)


async def open_door(nursery, host):
    """The door as a task of ``swc serve``: None when it is off; a map it cannot read is logged,
    not fatal (``swc serve`` checked the map before); a port it cannot open stops the server
    (server/door.py's CannotListen, as for every door)."""
    settings = host.settings
    part = settings.section("reversixt")
    if not part.enabled:
        return None
    door_settings = DoorSettings(
        host=settings.host,
        port=door_port(settings),
        map_path=part.map or "",
        replay_dir=settings.replay_dir if settings.save_replay else None,
        max_connections=settings.max_connections,
        **{name: getattr(part, name) for name in SHARED_FIELDS},
    )
    try:
        door = ReversiDoor(door_settings)
    except (OSError, GAME.rules.MapError) as error:
        log.error("ReversiXT door not started: map %s: %s", part.map, error)
        return None
    try:
        return await nursery.start(door.run)
    except (OSError, BaseExceptionGroup) as raised:
        raise cannot_listen(raised, "ReversiXT door", settings.host, door_settings.port, "--reversixt-port",
                            "--no-reversixt", key="reversixtPort") from None
