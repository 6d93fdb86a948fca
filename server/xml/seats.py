"""People at the table: a person's seat of an XML game, played from the viewer's pages or a script.

``POST /api/tables`` prepares a room through the XML lobby (``Lobby.prepare``, as "play from here"
does) and fills each seat: ``you`` and ``person`` are persons, ``bot`` is the game's reference
bot (the registry's ``bot`` command, run as a subprocess), ``command`` any bot command with
``{host} {port} {reservation}`` (and ``{seed}``), ``open`` a reservation code for a bot started
by hand.  A person is a real client: :class:`PersonSeat` opens a TCP connection to the server's
own XML door, sends ``joinPrepared`` and reads the wire with the ``protocol/`` codecs, so the
referee, the messages and the replay are exactly those of a bot game.  The XML door lends these
tables to the viewer's table host (server/web/table_host.py) through its family's
``share_with_viewer`` hook, as the other families lend theirs: the viewer names no family.

Conformance notes (choices where the issue and the specs are silent):

* A person's slot is prepared with ``canTimeout=false`` (no move deadline, as the official GUI's
  human player) unless the request says ``"timeout": true``; bot, command and open seats keep
  the game's deadlines (``canTimeout=true``, as ``swc match`` prepares them).
* A person's seat that nobody reads (``GET /api/seats/ID``) or moves for
  :attr:`SeatLimits.idle_seconds` (default 600 s) is closed: its connection hangs up, so the
  server scores it LEFT as any client that left.  The page reads its seat several times a second.
* At most :attr:`SeatLimits.max_tables` tables (default 16) are unfinished at once (more are
  refused with 503); finished tables stay readable until newer ones push them out (at most
  ``2 * max_tables`` kept).  Seat ids are ``secrets.token_urlsafe(16)``.
* A move by index is one of the legal moves computed, on the seat's turn, by the game's own
  ``plugin.legal_moves`` from the room's own position (the referee's, in this process), plus
  the moves that list leaves out but the rules allow (a Blokus colour's skip,
  server/web/pointing.py's ``extra_moves``): a person is offered exactly what the referee
  accepts, also where the memento hides part of the position (Mississippi Queen sends only the
  revealed segments, while the referee accepts moves into the next ones, spec §10 D1).  The
  memento's game serves only if the room is gone or at another turn.  Each move comes with its
  pointing steps (the same module, drawn on the memento's game, as the page shows it); a raw
  ``<data>`` body is sent as it is, wrapped in ``<room roomId=...>``, so a script can send
  anything a bot could and see the server's own ``error`` text.
* A table may start any bot command on this machine, so ``POST /api/tables``, ``/api/seats`` and
  a move are refused (403) when a browser names another site's page as their ``Origin`` (no
  cross-site request forgery); scripts send no ``Origin``. Off loopback the admin gate of every
  page applies as well.
* A ``bot`` seat may name its ``rung`` on the game's ladder (``{"kind": "bot", "rung":
  "search-short"}``; ``"strength"`` as before): one of the rungs the host's opponents offer for
  the game (server/web/table_host.py ``bot_command``); without one it is the reference bot as
  ``swc match`` runs it.  A rung the game does not offer is refused (400) naming its rungs.
* A move request with nothing to offer is a defect (the referee ends a game where the player to
  move has no move): the seat logs it as an error and leaves, so the room scores it LEFT with
  that reason instead of waiting for ever for a move nobody can make.
* Default display names: what the request's ``names`` say, else the seat's kind (``you``,
  ``person``, ``bot``, ``command``, ``open``).
* ``"start"``: ``"now"`` (default), ``"paused"`` or seconds a move (:mod:`.pace`).
"""

from __future__ import annotations

import json
import logging
import secrets
import shlex
from dataclasses import dataclass, field

import trio

from swc_local.games import registry
from swc_local.games.plugin import seat_labels
from swc_local.protocol import messages as msg
from swc_local.protocol.element import Element, parse
from swc_local.protocol.reader import Message, ProtocolError, StreamEnded, StreamReader

from swc_local.server.web.pointing import board_boxes, extra_moves, move_steps
from swc_local.server.web.table_host import (  # noqa: F401 -- KINDS, SeatLimits, TableLimit: read from here too
    KINDS, PERSONS, FamilyTables, NotOffered, SeatLimits, TableError, TableHost, TableLimit, fill,
)
from swc_local.server.web.pace import pace_room, read_start

log = logging.getLogger("swc.web.seats")

RECEIVE_SIZE = 65536


def game_title(plugin) -> str:
    """"Piranhas 2019": the registry row's title (two seasons share a name)."""
    game = registry.entry(plugin.game_type)
    return game.title if game is not None and game.title else plugin.game_type


@dataclass
class PersonSeat:
    """One person's client of a prepared room: its connection, what it was told, its turn."""

    PAGE = "seat.html"  # the viewer's page of this seat (server/web/static/)
    FOLLOWS_ROOM = True  # the seat API reads the room's newest step too (server/web/seat_routes.py)

    id: str
    table: Table
    index: int  # 0: the first seat (red/ONE)
    kind: str
    reservation: str
    version: int = 0  # grows with every message; ?after=N waits for a newer one
    color: str | None = None
    state: Element | None = None
    game: object | None = None
    moves: list = field(default_factory=list)  # the legal moves while it is this seat's turn
    moves_json: tuple = (None, None)  # (moves, their JSON): the JSON of the moves last read
    your_turn: bool = False
    turn_since: float | None = None
    error: str | None = None
    result: Element | None = None
    over: bool = False
    closed_reason: str | None = None
    last_read: float = 0.0
    stream: trio.abc.Stream | None = None
    changed: trio.Event = field(default_factory=trio.Event)
    send_lock: trio.Lock = field(default_factory=trio.Lock)

    def touch(self) -> None:
        self.version += 1
        self.changed.set()
        self.changed = trio.Event()

    # -- the wire ---------------------------------------------------------------------------------

    async def run(self, host: str, port: int) -> None:
        try:
            self.stream = await trio.open_tcp_stream(host, port)
        except OSError as error:
            self.finish(f"cannot reach the XML door: {error}")
            return
        reader = StreamReader(max_message_bytes=64 << 20, max_depth=256)
        try:
            await self.send_text("<protocol>" + Element("joinPrepared", {"reservationCode": self.reservation}).render(0))
            while not self.over:
                data = await self.stream.receive_some(RECEIVE_SIZE)
                if not data:
                    break
                for event in reader.feed(data):
                    if isinstance(event, StreamEnded):
                        self.over = True
                    elif isinstance(event, Message):
                        self.receive(event.element)
        except (trio.BrokenResourceError, trio.ClosedResourceError, ProtocolError) as error:
            log.info("seat %s: connection ended (%s)", self.id, error)
        except Exception as error:  # a message this seat cannot read ends this seat, never the viewer
            log.exception("seat %s: cannot go on", self.id)
            self.closed_reason = f"this seat failed: {type(error).__name__}"
        finally:
            self.finish("the server closed the connection" if self.closed_reason is None else self.closed_reason)

    def receive(self, element: Element) -> None:
        """One server message, read as a client reads it (classic and 2022+ forms alike)."""
        if element.tag == "left":
            self.over = True
        elif element.tag == msg.CLOSE_CONNECTION_TAG:
            self.over = True
        elif element.tag == "room":
            data = element.find("data")
            kind = data.get("class") if data is not None else None
            if kind == "welcomeMessage":
                self.color = data.get("color")
            elif kind == "memento" and data.find("state") is not None:
                self.state = data.find("state")
                self.game = self.table.plugin.game_from_state(self.state)
                self.your_turn, self.moves = False, []
            elif kind in (msg.MOVE_REQUEST_CLASS, "moveRequest"):
                self.your_turn, self.turn_since, self.error = True, trio.current_time(), None
                self.moves = self.legal_moves()
                if not self.moves:
                    self.stuck()
            elif kind == "error":
                self.error = data.get("message") or "error"
                self.your_turn, self.moves = False, []
            elif kind == "result":
                self.result = data
                self.your_turn, self.moves = False, []
        self.touch()

    async def send_text(self, text: str) -> None:
        async with self.send_lock:
            await self.stream.send_all(text.encode("utf-8"))

    async def send_move(self, index: int | None = None, raw: str | None = None) -> None:
        """The move at ``index`` of the legal moves, or a raw ``<data>`` element; TableError if
        the seat cannot send it now."""
        if self.over or self.stream is None or self.table.room_id is None:
            raise TableError("this seat's game is over")
        if raw is not None:
            try:
                data = parse(raw)
            except Exception as error:
                raise TableError(f"the body is not one XML element: {error}") from None
            if data.tag != "data":
                raise TableError(f"a move is a <data> element, not <{data.tag}>")
        else:
            if not self.your_turn:
                raise TableError("it is not this seat's turn")
            if index is None or not 0 <= index < len(self.moves):
                raise TableError(f"no legal move {index} (0..{len(self.moves) - 1})")
            data = self.table.plugin.move_element(self.moves[index])
        self.your_turn, self.moves, self.error = False, [], None
        self.touch()
        await self.send_text(msg.room(self.table.room_id, data).render(0))

    async def send_request(self, body: bytes) -> None:
        """A move request's body (:func:`read_move_body`) sent; the seat API calls this for every
        family's seat (server/web/door_tables.py has the others)."""
        index, raw = read_move_body(body)
        await self.send_move(index, raw)

    def finish(self, reason: str) -> None:
        if self.closed_reason is None:
            self.closed_reason = reason
        self.over, self.your_turn, self.moves = True, False, []
        if self.stream is not None:
            stream, self.stream = self.stream, None
            self.table.nursery.start_soon(_close, stream)
        self.touch()

    # -- what the page and a script read ----------------------------------------------------------

    def legal_moves(self) -> list:
        game = self.referee_game()
        if game is None:
            return []
        game_type = self.table.plugin.game_type
        return list(self.table.plugin.legal_moves(game)) + extra_moves(game_type, game)

    def referee_game(self) -> object | None:
        """The room's own game while it stands where the memento says, else the memento's."""
        room, seen = self.table.room, self.game
        own = getattr(room, "game", None)
        if seen is None or own is None:
            return seen
        return own if (own.turn, own.current_seat) == (seen.turn, seen.current_seat) else seen

    def stuck(self) -> None:
        """Asked to move with no move to offer: log the defect and leave (never wait for ever)."""
        turn = self.game.turn if self.game is not None else None
        log.error("seat %s: %s asks a move at turn %s and this seat has no legal move to offer; "
                  "the seat leaves", self.id, self.table.plugin.game_type, turn)
        self.closed_reason = f"no legal move to offer at turn {turn} (a defect, logged): this seat left"
        self.your_turn, self.over = False, True

    def move_text(self, move: object) -> str:
        """The move in the game's own notation, as the pages and ``swc replay`` write it."""
        return self.table.plugin.notation(move, self.game)

    def room_view(self, newest, data: dict) -> dict:
        """Turn and side to move from the room's newest step (``newest``, the viewer's record of
        it), as the game page shows them: a paused room shows a move to its observers only (the
        players get that state with the next step)."""
        view = {"turn": getattr(newest.state, "turn", data["turn"])}
        if not data["over"] and newest.to_move is not None and hasattr(newest.state, "current_seat"):
            view["to_move"] = seat_labels(self.table.plugin)[newest.state.current_seat]
        return view

    def json(self) -> dict:
        plugin = self.table.plugin
        labels = seat_labels(plugin)
        data = {
            "seat": self.id,
            "game": plugin.game_type,
            "title": game_title(plugin),
            "game_id": self.table.record_id,
            "color": labels[self.index],
            "version": self.version,
            "your_turn": self.your_turn,
            "turn": self.game.turn if self.game is not None else None,
            "to_move": labels[self.game.current_seat] if self.game is not None and self.result is None else None,
            "state": self.state.render() if self.state is not None else None,
            "error": self.error,
            "over": self.over or self.result is not None,
            "closed": self.closed_reason,
            "result": self.result.render() if self.result is not None else None,
            "clock": {"deadline_ms": self.table.deadline_ms(self.index),
                      "waiting_ms": int((trio.current_time() - self.turn_since) * 1000)
                      if self.your_turn and self.turn_since is not None else None},
        }
        if self.your_turn:
            if self.moves_json[0] is not self.moves:  # computed once per turn, not once per read
                self.moves_json = (self.moves, [self.move_json(i, m) for i, m in enumerate(self.moves)])
            data["moves"] = self.moves_json[1]
            data["cells"] = board_boxes(plugin.game_type, self.game)
        return data

    def move_json(self, index: int, move: object) -> dict:
        steps = move_steps(self.table.plugin.game_type, self.game, move)
        return {"index": index, "text": self.move_text(move), "steps": steps,
                "cells": [step["cell"] for step in steps if "cell" in step]}


async def _close(stream: trio.abc.Stream) -> None:
    with trio.move_on_after(2):
        try:
            await stream.send_all(b"</protocol>")
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
    await stream.aclose()


@dataclass
class Table:
    id: str
    plugin: object
    nursery: trio.Nursery
    kinds: tuple[str, ...]
    timed: tuple[bool, ...]
    room_id: str | None = None
    record_id: str | None = None
    room: object | None = None  # the GameRoom, whose referee's position the legal moves come from
    seats: list[PersonSeat] = field(default_factory=list)
    processes: list = field(default_factory=list)
    commands: list[list[str]] = field(default_factory=list)  # the bots' command lines, as started
    created: float = 0.0
    rooms: dict = field(default_factory=dict)  # the lobby's rooms: the table's room is over once gone

    def done(self) -> bool:
        """The table's room is over (gone from the lobby), its persons and bots too."""
        return self.room_id not in self.rooms and self.finished

    def deadline_ms(self, index: int) -> int | None:
        return self.plugin.hard_timeout_ms if self.timed[index] else None

    @property
    def finished(self) -> bool:
        return all(seat.over for seat in self.seats) and all(p.returncode is not None for p in self.processes)


def _seat_request(item, entry: registry.Game, tables: TableHost) -> tuple[str, str | None]:
    """(kind, command) of one seat of a table request; a bot seat comes as its command (the
    reference bot at the seat's ``rung``, or ``strength``, from the host's opponents)."""
    if isinstance(item, str):
        item = {"kind": item}
    if not isinstance(item, dict) or item.get("kind") not in KINDS:
        raise TableError(f"a seat is one of {', '.join(KINDS)} (or {{\"kind\": \"command\", \"command\": ...}}), not {item!r}"[:300])
    command = item.get("command")
    if item["kind"] == "command":
        if not isinstance(command, str) or "{reservation}" not in command:
            raise TableError("a command seat needs \"command\": a bot command with {host} {port} {reservation}")
    if item["kind"] == "bot":
        command = shlex.join(tables.bot_command(entry, item))
    return item["kind"], command


def table_games() -> tuple:
    """The games these tables are for: the XML family's (the other families register their own
    with the viewer's table host, server/web/table_host.py)."""
    return tuple(g for g in registry.entries() if g.family == registry.XML)


def game_rows() -> list[dict]:
    """The start page's menu of XML games: name and title (the host adds the rungs its opponents offer)."""
    return [{"game": g.game_type, "name": g.name, "title": game_title(registry.get(g.game_type))}
            for g in table_games()]


class Tables:
    """The XML door's tables: prepares rooms through its lobby, runs persons and bots as clients
    of its port; registered with the viewer's table host (:meth:`family_tables`), which keeps
    the tables and seats of every family."""

    def __init__(self, lobby, host: str, port: int) -> None:
        self.lobby = lobby
        # the person's client and the bots reach the XML door where it listens (any address: loopback)
        self.host = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(host, host)
        self.port = port

    def family_tables(self) -> FamilyTables:
        """What the XML family registers with the viewer's table host: every XML game (the
        fallback: a game has several names), its menu and the join on a reservation code."""
        return FamilyTables(registry.XML, self.create, games=game_rows, join=self.join, fallback=True)

    def create(self, tables: TableHost, request: dict) -> dict:
        """Prepare a room for ``request`` (``game``, ``seats``, ``names``, ``timeout``) and start
        its persons and bots; the table's seats as JSON."""
        if tables.nursery is None:
            raise TableError("the viewer is not serving yet")
        entry = registry.entry(request.get("game") if isinstance(request.get("game"), str) else "")
        if entry is None or entry not in table_games():
            xml_games = ", ".join(g.name for g in table_games())
            raise NotOffered(f"an XML game ({xml_games})")  # the host names the other families' games first
        plugin = registry.get(entry.game_type)
        wanted = request.get("seats", ["you", "bot"])
        if not isinstance(wanted, list) or len(wanted) != 2:
            raise TableError("seats: a list of two seats, e.g. [\"you\", \"bot\"]")
        seats = [_seat_request(item, entry, tables) for item in wanted]
        names = request.get("names")
        if not (isinstance(names, list) and len(names) == 2 and all(isinstance(n, str) for n in names)):
            names = [kind for kind, _ in seats]
        names = [name[:60] for name in names]
        person_timed = request.get("timeout") is True
        try:
            paused, pace = read_start(request)
        except ValueError as error:
            raise TableError(str(error)) from None
        tables.check_room()
        timed = tuple(person_timed if kind in PERSONS else True for kind, _ in seats)
        descriptors = tuple(msg.SlotDescriptor(display_name=name, can_timeout=t) for name, t in zip(names, timed))
        room, codes = self.lobby.prepare(plugin, descriptors, paused=paused)
        table = Table(secrets.token_urlsafe(12), plugin, tables.nursery, tuple(k for k, _ in seats), timed,
                      room_id=room.id, created=trio.current_time(), rooms=self.lobby.rooms)
        self._register(tables, table, room)
        record = tables.book.get(table.record_id or "")
        if pace is not None and record is not None:
            record.pace = pace
            tables.nursery.start_soon(pace_room, record, pace)
        answer = []
        for index, ((kind, command), code) in enumerate(zip(seats, codes)):
            label = seat_labels(plugin)[index]
            if kind in PERSONS:
                seat = self._seat_person(tables, table, index, kind, code)
                answer.append({"kind": kind, "color": label, "seat": seat.id, "url": f"/seat/{seat.id}"})
            elif kind == "open":
                answer.append({"kind": kind, "color": label, "reservation": code})
            else:
                argv = fill(shlex.split(command), self.host, self.port, code, self.lobby.rng.getrandbits(31))
                table.commands.append(argv)
                tables.nursery.start_soon(tables._run_bot, table, argv)
                answer.append({"kind": kind, "color": label})
        log.info("table %s: room %s (%s) with %s", table.id, room.id, plugin.game_type, ", ".join(table.kinds))
        return {"table": table.id, "room": room.id, "game": plugin.game_type, "game_id": table.record_id,
                "seats": answer}

    def _register(self, tables: TableHost, table: Table, room) -> None:
        table.record_id = next((r.id for r in tables.book.records.values() if getattr(r, "room", None) is room), None)
        table.room = room
        tables.tables[table.id] = table

    def _seat_person(self, tables: TableHost, table: Table, index: int, kind: str, code: str) -> PersonSeat:
        seat = PersonSeat(secrets.token_urlsafe(16), table, index, kind, code, last_read=trio.current_time())
        tables.add_seat(seat)
        tables.nursery.start_soon(seat.run, self.host, self.port)
        return seat

    def join(self, tables: TableHost, code: object) -> dict:
        """A person's seat on a reservation code of a room prepared elsewhere (an admin's
        ``prepare``, ``swc match --prepare-only``, "play from here"): its client joins with it."""
        if tables.nursery is None:
            raise TableError("the viewer is not serving yet")
        entry = self.lobby.reservations.get(code) if isinstance(code, str) else None
        if entry is None:
            raise TableError("unknown reservation code")
        tables.check_room()
        room, index = entry
        timed = tuple(slot.can_timeout for slot in room.slots)
        table = Table(secrets.token_urlsafe(12), room.plugin, tables.nursery, ("you",), timed, room_id=room.id,
                      created=trio.current_time(), rooms=self.lobby.rooms)
        self._register(tables, table, room)
        seat = self._seat_person(tables, table, index, "you", code)
        log.info("table %s: a person joins room %s on a reservation", table.id, room.id)
        return {"table": table.id, "room": room.id, "game": room.plugin.game_type, "game_id": table.record_id,
                "seats": [{"kind": "you", "color": seat_labels(room.plugin)[index], "seat": seat.id,
                           "url": f"/seat/{seat.id}"}]}


def read_move_body(body: bytes) -> tuple[int | None, str | None]:
    """(index, raw data element) of a move request: JSON ``{"index": N}`` or an XML ``<data>``."""
    text = body.decode("utf-8", "replace").strip()
    if text.startswith("<"):
        return None, text
    try:
        data = json.loads(text or "{}")
    except ValueError:
        raise TableError('a move is JSON {"index": N} or a raw <data class="move" ...> element') from None
    index = data.get("index") if isinstance(data, dict) else None
    if not isinstance(index, int) or isinstance(index, bool):
        raise TableError('a move is JSON {"index": N} or a raw <data class="move" ...> element')
    return index, None


__all__ = ["PersonSeat", "SeatLimits", "Table", "TableError", "TableLimit", "Tables", "game_rows", "read_move_body"]
