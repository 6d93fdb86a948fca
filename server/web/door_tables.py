"""People at the table for the families without reservations (ReversiXT, Robo Rally): what their
tables and persons' seats share; the viewer's table host (:mod:`.table_host`) keeps them beside
every other family's, and each family registers its tables with it (``person_tables``).

A table of these families gets **a door of its own**, as ``swc match`` gives every game one
(tools/reversixt_match.py, tools/roborally_match.py): the family's door class, started in the
viewer's nursery on a free loopback port with the table's map or course and the house door's
settings.  Neither protocol has reservation codes, and both seat players in the order they join
(ReversiXT: player numbers; Robo Rally: client IDs), so a door of its own is the one way to
promise a person the seat they picked and to keep a stranger's client out of the game.  The
seats join one after another, seat *k* once seat *k-1* has joined.

Conformance notes (choices where the issue and the specs are silent):

* ``open`` is a seat for a bot started by hand: the answer names the table door's ``host`` and
  ``port`` (no reservation: the protocols have none); the seats after it wait until it joined.
* ``command`` fills ``{host} {port} {seed} {player}`` (``{reservation}`` is not needed and,
  if given, is left empty), as ``swc match`` does for these families.
* A table whose persons all left (or were closed as idle, :class:`~.seats.SeatLimits`) before
  its game began is called off: its door closes and the bots it started are left to end, so a
  seat nobody takes cannot hold one of the tables for ever.  Once the game runs, a person who
  leaves is treated by the door as any client that leaves (DISQ; Robo Rally's ``Remove``).
* The game's record is the house viewer's, made by the family's own ``watch_for_viewer`` hook,
  and its log is written where the house door writes its logs, so the game can be watched,
  replayed (``swc replay``) and checked like any other.
"""

from __future__ import annotations

import logging
import secrets
import shlex
from dataclasses import dataclass, field

import trio

from .table_host import FamilyTables, TableError, fill  # noqa: F401 -- FamilyTables: the families import it from here

log = logging.getLogger("swc.web.seats")

FAMILY_KINDS = ("you", "person", "bot", "command", "open")
JOIN_POLL = 0.01
ABANDON_POLL = 0.5


@dataclass
class DoorTable:
    """One game on a door of its own; kept by the table host (:class:`~.table_host.TableHost`)."""

    id: str
    game: str
    title: str
    labels: list[str]
    nursery: trio.Nursery
    kinds: tuple[str, ...]
    door: object = None
    record_id: str | None = None
    seats: list = field(default_factory=list)
    processes: list = field(default_factory=list)
    commands: list[list[str]] = field(default_factory=list)  # the bots' command lines, as started
    created: float = 0.0
    ended: trio.Event = field(default_factory=trio.Event)
    scope: trio.CancelScope = field(default_factory=trio.CancelScope)

    @property
    def finished(self) -> bool:
        return self.ended.is_set() and all(s.over for s in self.seats) and all(p.returncode is not None for p in self.processes)

    def done(self) -> bool:
        """The table's door has ended, its persons and bots too (the table host asks)."""
        return self.finished


class FamilySeat:
    """A person's client of a table's door: what it was told, its turn, the page's version."""

    PAGE = "seat_family.html"  # the viewer's page of this seat (server/web/static/)

    def __init__(self, seat_id: str, table: DoorTable, index: int, kind: str) -> None:
        self.id, self.table, self.index, self.kind = seat_id, table, index, kind
        self.version = 0
        self.changed = trio.Event()
        self.your_turn = False
        self.turn_since: float | None = None
        self.error: str | None = None
        self.result: dict | None = None
        self.over = False
        self.closed_reason: str | None = None
        self.last_read = trio.current_time()
        self.stream: trio.abc.Stream | None = None
        self.send_lock = trio.Lock()
        self.joined = trio.Event()

    def touch(self) -> None:
        self.version += 1
        self.changed.set()
        self.changed = trio.Event()

    async def send_bytes(self, data: bytes) -> None:
        if self.over or self.stream is None:
            raise TableError("this seat's game is over")
        async with self.send_lock:
            try:
                await self.stream.send_all(data)
            except (trio.BrokenResourceError, trio.ClosedResourceError) as error:
                raise TableError(f"the connection is gone: {error}") from None

    def finish(self, reason: str) -> None:
        if self.closed_reason is None:
            self.closed_reason = reason
        self.over, self.your_turn = True, False
        if self.stream is not None:
            stream, self.stream = self.stream, None
            self.table.nursery.start_soon(_close, stream)
        self.touch()

    def base_json(self) -> dict:
        return {
            "seat": self.id, "game": self.table.game, "title": self.table.title, "game_id": self.table.record_id,
            "color": self.table.labels[self.index], "version": self.version, "your_turn": self.your_turn,
            "error": self.error, "over": self.over or self.result is not None, "closed": self.closed_reason,
            "result": self.result,
        }


async def _close(stream: trio.abc.Stream) -> None:
    with trio.move_on_after(2):
        await stream.aclose()


def read_seats(request: dict, count: int, tables=None, entry=None) -> list[tuple[str, str | None]]:
    """The request's ``seats`` (default: you, then the reference bot) for a game of ``count``; a
    bot seat comes as its command, the reference bot at its ``rung`` (table_host.py ``bot_command``)."""
    wanted = request.get("seats", ["you"] + ["bot"] * (count - 1))
    if not isinstance(wanted, list) or len(wanted) != count:
        raise TableError(f"seats: a list of {count} seats (the game's number of players), e.g. [\"you\", \"bot\"]")
    out = []
    for item in wanted:
        if isinstance(item, str):
            item = {"kind": item}
        if not isinstance(item, dict) or item.get("kind") not in FAMILY_KINDS:
            raise TableError(f"a seat is one of {', '.join(FAMILY_KINDS)} (or {{\"kind\": \"command\", \"command\": ...}}), not {item!r}"[:300])
        command = item.get("command")
        if item["kind"] == "command" and (not isinstance(command, str) or "{port}" not in command):
            raise TableError("a command seat needs \"command\": a bot command with {host} {port} (and {seed}, {player})")
        if item["kind"] == "bot":
            if tables is None:
                raise TableError("this server offers no reference bots; a seat is you, person, command or open")
            command = shlex.join(tables.bot_command(entry, item))
        out.append((item["kind"], command))
    return out


def check_room(tables) -> None:
    tables.check_room()


def new_table(tables, game: str, title: str, labels: list[str], kinds) -> DoorTable:
    return DoorTable(secrets.token_urlsafe(12), game, title, labels, tables.nursery, tuple(kinds),
                     created=trio.current_time())


def seat_id() -> str:
    return secrets.token_urlsafe(16)


def register_seat(tables, seat: FamilySeat) -> None:
    tables.add_seat(seat)


def bot_argv(entry, kind: str, command: str | None, port: int, index: int, seed: int) -> list[str]:
    args = shlex.split(command or "")  # a bot seat's command is the reference bot's (read_seats)
    args = [a.replace("{player}", str(index + 1)).replace("{color}", str(index + 1)) for a in args]
    return fill(args, "127.0.0.1", port, "", seed)


async def fill_in_order(tables, table: DoorTable, entry, seats, persons: dict, joined) -> None:
    """Seat after seat in join order: a person's client (``persons[index]``, run against the
    table's door), a bot, or an open seat; each waits until the one before it has joined
    (``joined(k)``: k seats have joined), as ``swc match`` seats these families."""
    for index, (kind, command) in enumerate(seats):
        person = persons.get(index)
        if person is not None:
            tables.nursery.start_soon(person.run, table.door.port)
        elif kind != "open":
            argv = bot_argv(entry, kind, command, table.door.port, index, tables.rng.getrandbits(31))
            table.commands.append(argv)
            tables.nursery.start_soon(tables._run_bot, table, argv)
        while not joined(index + 1):
            if table.ended.is_set() or (person is not None and person.over):
                return  # a person who left before the game began: the table waits for nobody
            await trio.sleep(JOIN_POLL)


async def end_if_abandoned(table: DoorTable, persons: dict, started, scope: trio.CancelScope) -> None:
    """Call the table off when every person left (or was closed as idle) before its game began:
    its door would otherwise wait for ever for a seat nobody takes, holding one of the tables."""
    while persons:
        if started():
            return
        if all(seat.over for seat in persons.values()):
            log.info("table %s: every person left before the game began; the table is called off", table.id)
            scope.cancel()
            return
        await trio.sleep(ABANDON_POLL)


def seat_answer(table: DoorTable, index: int, kind: str, seat: FamilySeat | None) -> dict:
    answer = {"kind": kind, "color": table.labels[index]}
    if seat is not None:
        answer.update(seat=seat.id, url=f"/seat/{seat.id}")
    elif kind == "open":
        answer.update(host="127.0.0.1", port=table.door.port)
    return answer


def house_door(tables, name: str):
    """The house's door of that family (its settings are the table door's), or None."""
    server = getattr(tables, "house", None)
    return server.door(name) if server is not None else None


def newest_record(book):
    """The record a family's viewer hook has just added (called right after it, in the same step)."""
    return next(reversed(book.records.values()), None)


def note_started(tables, table: DoorTable, persons: dict) -> None:
    """The table's game has begun: its record is the one the family's viewer hook has just added
    (called from the door's start listener, in the same step), and the persons' pages redraw."""
    record = newest_record(tables.book)
    table.record_id = record.id if record is not None else None
    for seat in persons.values():
        seat.touch()


def close_table(table: DoorTable, persons: dict) -> None:
    """The table's door has ended (its game over or called off): the seats still open are told so;
    the others redraw, as their record is finished by now and the pages read its result."""
    table.ended.set()
    for seat in persons.values():
        if not seat.over:
            seat.finish("the table's game ended")
        else:
            seat.touch()


def start_logged(table: DoorTable, what: str) -> None:
    log.info("table %s: %s with %s", table.id, what, ", ".join(table.kinds))


__all__ = ["FamilyTables", "DoorTable", "FamilySeat", "FAMILY_KINDS", "read_seats", "check_room", "new_table", "register_seat",
           "fill_in_order", "end_if_abandoned", "seat_answer", "house_door", "newest_record", "note_started", "close_table", "seat_id"]
