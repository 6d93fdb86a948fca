"""The viewer's table host: where every family's persons' tables live, knowing no family.

A person takes a seat through ``/api/tables`` and ``/api/seats`` (server/web/seat_routes.py); what
a table of a game *is* belongs to that game's family, which registers its tables here through its
``ServerFamily`` hooks (server/door.py): the XML family through ``share_with_viewer`` (its tables
are rooms its running door prepares: server/xml/seats.py), ReversiXT and Robo Rally through
``person_tables`` (each table starts a door of its own: server/web/door_tables.py). So a server
without an XML door still offers the other families' tables, and the host itself names no family.

What the host keeps for every family alike: the tables and seats (ids from ``secrets``), the
limit of unfinished tables, the idle watch of a person's seat, the bots it starts, the waits of
the seat API, and the end of them all when the viewer stops.

Conformance notes (choices where the issue and the specs are silent):

* A request's ``game`` picks the family whose tables name that game; the family that takes the
  rest (``fallback``: the XML family, whose games are many and have several names) is asked last.
  Without it, a game no family offers is refused (400) naming the games offered.
* The seeds of the bots of a door-of-its-own table come from the host's random source, seeded by
  the house's ``seed`` (before, they came from the XML lobby's, so without an XML door there were
  none); a seeded server still gives the same seeds in the same order of tables.
* The reference bots come from the ``opponents`` the builder of the server handed in
  (server/app.py ``Server``: ``rungs(entry)`` and ``command(entry, rung)``, the client layer's
  ladder for ``swc serve``): the server imports no client.  Without them the start page offers no
  bot seat (``kinds`` lacks ``bot``, no game lists rungs) and a request for one is refused (400).
  Each game of the menu and each family's card lists its ``rungs`` (weakest first), and, as
  before, the same list as ``strengths``.
"""

from __future__ import annotations

import logging
import os
import random
import signal
import subprocess
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import trio

from swc_local.games import registry

log = logging.getLogger("swc.web.seats")

KINDS = ("you", "person", "bot", "command", "open")
REAP_SECONDS = 1.0
"""How long a stopping viewer waits for a killed bot to be gone (well inside the shutdown's 2 s)."""
PERSONS = ("you", "person")


class TableError(ValueError):
    """A request for a table that cannot be served; the text is the answer (status 400)."""


class TableLimit(TableError):
    """Too many unfinished tables (status 503)."""


class NotOffered(TableError):
    """The fallback family has no game of that name; the text says what it offers (``an XML game
    (...)``), and the host names the other families' games before it."""


@dataclass
class SeatLimits:
    max_tables: int = 16  # unfinished tables at once
    idle_seconds: float = 600.0  # a person's seat nobody reads is closed after this
    wait_seconds: float = 15.0  # longest wait of GET /api/seats/ID?after=N


@dataclass(frozen=True)
class FamilyTables:
    """What a family registers with the :class:`TableHost`: the game its tables are for (the
    request's ``game``), how a table is made (``create(host, request) -> answer``, a coroutine or
    not), what the start page offers (``offer() -> dict``: a card with maps, courses, the seats'
    range; ``games() -> list``: rows of the game menu), a person's seat on a reservation code of a
    room prepared elsewhere (``join(host, code) -> answer``, for a family with reservations), and
    whether it takes every game no other family names (``fallback``)."""

    game: str
    create: Callable[[Any, dict], Any]
    offer: Callable[[], dict] | None = None
    games: Callable[[], list] | None = None
    join: Callable[[Any, object], dict] | None = None
    fallback: bool = False


def fill(args: list[str], host: str, port: int, reservation: str, seed: int) -> list[str]:
    """A bot command line with ``{host} {port} {reservation} {seed} {python}`` filled in."""
    values = {"{host}": host, "{port}": str(port), "{reservation}": reservation, "{seed}": str(seed),
              "{python}": sys.executable}
    out = []
    for arg in args:
        for key, value in values.items():
            arg = arg.replace(key, value)
        out.append(arg)
    return out


class TableHost:
    """Every table of the viewer, of every family: ``register`` a family's tables, then the seat
    API's ``create``, ``join``, ``seat``, ``wait`` and ``wait_turn``; ``house`` is the server of
    ``swc serve`` (its doors and settings, for the tables that copy a house door's settings)."""

    def __init__(self, book, house=None, seed: int | None = None, limits: SeatLimits | None = None,
                 opponents: Any = None) -> None:
        self.book = book
        self.house = house
        # rungs(entry) and command(entry, rung): the house's (Server.opponents) unless given; None: no bots
        self.opponents = opponents if opponents is not None else getattr(house, "opponents", None)
        self.rng = random.Random(seed)
        self.limits = limits or SeatLimits()
        self.families: list[FamilyTables] = []
        self.tables: dict[str, Any] = {}  # table id -> a family's table (``done()``, ``seats``, ``processes``)
        self.seats: dict[str, Any] = {}  # seat id -> a family's person's seat
        self.nursery: trio.Nursery | None = None
        # how a command seat's command is read, lent by a layer above (``swc serve`` run by the
        # ``swc`` command: a client archive's spec becomes its start command, tools/archive.py);
        # None: started as given (the server itself never unpacks an archive)
        self.resolve_command: Callable[[str], str] | None = None

    def register(self, tables: FamilyTables) -> None:
        """A family's tables, offered from now on (the fallback family is kept last)."""
        self.families.append(tables)
        self.families.sort(key=lambda family: family.fallback)

    # -- what the start page offers --------------------------------------------------------------

    def menu(self) -> list:
        return [self._with_rungs(row) for family in self.families if family.games is not None for row in family.games()]

    def offers(self) -> list[dict]:
        return [self._with_rungs(family.offer()) for family in self.families if family.offer is not None]

    def kinds(self) -> list[str]:
        """The kinds of seat offered: every kind, but ``bot`` only with :attr:`opponents`."""
        return [kind for kind in KINDS if kind != "bot" or self.opponents is not None]

    def _with_rungs(self, row: dict) -> dict:
        entry = registry.entry(row.get("game", ""))
        offered = list(self.opponents.rungs(entry)) if self.opponents is not None and entry is not None else []
        return row | {"rungs": offered, "strengths": offered}

    def bot_command(self, entry, item: dict) -> list[str]:
        """The command of a ``{"kind": "bot"}`` seat of a table of ``entry``'s game: the reference
        bot at the seat's ``rung`` (or, as before, ``strength``; none: the game's default bot);
        a TableError naming the rungs the game offers, or saying that this server has no bots."""
        if self.opponents is None:
            raise TableError("this server offers no reference bots (it was started without them: swc serve has "
                             "them); a seat is you, person, command or open")
        rung = item.get("rung", item.get("strength"))
        if rung is not None and (not isinstance(rung, str) or rung not in self.opponents.rungs(entry)):
            raise TableError(f"rung {rung!r}: the reference bot of {entry.name} plays "
                             f"{', '.join(self.opponents.rungs(entry))}"[:300])
        return list(self.opponents.command(entry, rung))

    def family_for(self, game: object) -> FamilyTables:
        named = next((family for family in self.families if family.game == game and not family.fallback), None)
        fallback = next((family for family in self.families if family.fallback), None)
        if named or fallback:
            return named or fallback  # type: ignore[return-value]
        offered = ", ".join(family.game for family in self.families) or "none on this server"
        raise TableError(f"a table is for {offered}, not {game!r}"[:400])

    async def create(self, request: dict) -> dict:
        """A table for ``request`` made by the family whose game it names; its seats as JSON."""
        game = request.get("game") if isinstance(request.get("game"), str) else None
        family = self.family_for(game)
        if self.resolve_command is not None:
            request = await self._resolved(request)
        try:
            answer = family.create(self, request)
        except NotOffered as offered:
            named = [f.game for f in self.families if not f.fallback]
            raise TableError(f"a table is for {', '.join(named)}{' or ' if named else ''}{offered}, "
                             f"not {request.get('game')!r}"[:400]) from None
        return await answer if isinstance(answer, Awaitable) else answer

    async def _resolved(self, request: dict) -> dict:
        """``request`` with every command seat's command read by :attr:`resolve_command` (in a
        thread: an archive is hashed, and unpacked the first time); its ValueError is the answer."""
        seats = request.get("seats")
        if not isinstance(seats, list):
            return request
        out = []
        for item in seats:
            if isinstance(item, dict) and item.get("kind") == "command" and isinstance(item.get("command"), str):
                try:
                    item = item | {"command": await trio.to_thread.run_sync(self.resolve_command, item["command"])}
                except ValueError as error:
                    raise TableError(str(error)[:400]) from None
            out.append(item)
        return request | {"seats": out}

    def join(self, code: object) -> dict:
        """A person's seat on a reservation code, by the family that knows the code."""
        for family in self.families:
            if family.join is not None:
                return family.join(self, code)
        raise TableError("unknown reservation code")

    # -- what every family's tables share -------------------------------------------------------

    def check_room(self) -> None:
        """Raises unless a table can be set now; forgets the oldest finished tables."""
        if self.nursery is None:
            raise TableError("the viewer is not serving yet")
        if self.open_tables() >= self.limits.max_tables:
            raise TableLimit(f"{self.limits.max_tables} tables are being played; finish or leave one first")
        self._forget_old()

    def done(self, table) -> bool:
        """The table's game is over, its persons and bots too."""
        return table.done()

    def open_tables(self) -> int:
        return sum(1 for table in self.tables.values() if not self.done(table))

    def _forget_old(self) -> None:
        finished = [t for t in self.tables.values() if self.done(t)]
        while finished and len(self.tables) >= 2 * self.limits.max_tables:
            table = finished.pop(0)
            del self.tables[table.id]
            for seat in table.seats:
                self.seats.pop(seat.id, None)

    def add_seat(self, seat) -> None:
        """A person's seat of a table: found by its id, closed when nobody reads it."""
        seat.table.seats.append(seat)
        self.seats[seat.id] = seat
        assert self.nursery is not None
        self.nursery.start_soon(self._idle_watch, seat)

    async def _run_bot(self, table, argv: list[str]) -> None:
        """Run a bot of a table until it ends; cancelled (the viewer stops), it is killed and
        waited for (shielded, at most :data:`REAP_SECONDS`), so no bot outlives the server."""
        try:
            process = await trio.lowlevel.open_process(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                                       stderr=subprocess.DEVNULL, start_new_session=True)
        except OSError as error:
            log.warning("table %s: the bot %r did not start: %s", table.id, argv[0], error)
            return
        table.processes.append(process)
        try:
            await process.wait()
            if process.returncode:
                log.warning("table %s: the bot %r ended with exit code %d", table.id, argv[0], process.returncode)
        finally:
            running = process.returncode is None
            kill_group(process)  # also a child the bot's command started (a script's java)
            if running:
                with trio.CancelScope(shield=True), trio.move_on_after(REAP_SECONDS):
                    await process.wait()

    async def _idle_watch(self, seat) -> None:
        """Close a person's seat nobody read for ``idle_seconds`` (its client hangs up: LEFT)."""
        while not seat.over:
            await trio.sleep_until(seat.last_read + self.limits.idle_seconds)
            if not seat.over and trio.current_time() >= seat.last_read + self.limits.idle_seconds:
                log.info("seat %s: nobody read it for %g s; closing it", seat.id, self.limits.idle_seconds)
                seat.finish(f"nobody read this seat for {self.limits.idle_seconds:g} s")

    def seat(self, seat_id: str):
        seat = self.seats.get(seat_id)
        if seat is not None:
            seat.last_read = trio.current_time()
        return seat

    async def wait(self, seat, after: int, seconds: float | None = None) -> None:
        """Until ``seat`` changed past version ``after`` (at most ``seconds``, else ``wait_seconds``)."""
        with trio.move_on_after(self.limits.wait_seconds if seconds is None else seconds):
            while seat.version <= after:
                await seat.changed.wait()
        seat.last_read = trio.current_time()

    async def wait_turn(self, seat) -> None:
        """Until it is ``seat``'s turn or its game is over (at most ``wait_seconds``)."""
        with trio.move_on_after(self.limits.wait_seconds):
            while not (seat.your_turn or seat.over or seat.result is not None):
                await seat.changed.wait()
        seat.last_read = trio.current_time()

    def close_all(self, reason: str = "the viewer stopped") -> None:
        for seat in list(self.seats.values()):
            if not seat.over:
                seat.finish(reason)
        for table in self.tables.values():
            for process in table.processes:
                kill_group(process)


def kill_group(process) -> None:
    """SIGKILL to a bot's process group (its own session: the bot and whatever it started), so
    nothing a table started outlives the table or the server (issue 43)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


__all__ = ["FamilyTables", "KINDS", "NotOffered", "PERSONS", "SeatLimits", "TableError", "TableHost", "TableLimit", "fill"]
