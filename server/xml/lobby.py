"""The lobby: who is admin, which rooms exist, and what each request does (spec §2, §5).

Spec-conformance notes:

* Admin requests from a connection that has not authenticated are silently ignored.
* Lobby errors close the connection as the official server does: "close" (CloseConnection then
  ``</protocol>``) for a wrong passphrase, an unknown game type, an unknown reservation code, an
  unknown room in ``observe``/``step``/``<room>``; "drop" for unknown elements, zero slots, an
  unknown ``freeReservation`` code and an unknown ``scoreForPlayer`` name.
* Differences, all listed in the README: ``join`` pairs only clients of the same game type (the
  official server ignored the type when any room was open); rooms are searched in the order their
  seats became free, through an index of open rooms per game type, so a join costs the same with
  10,000 rooms waiting as with none (the official order was a hash map's, its search a scan); a
  ``join`` room whose only player disconnected while waiting is removed (officially the next joiner
  was paired with the dead player); one connection holds at most ``maxSeatsPerConnection`` seats at
  once, a join beyond that drops it; a rejected ``prepare`` (three or more or zero slots)
  leaves no orphan room behind; a listed slot without ``displayName`` plays as ``Unknown``
  instead of making the game impossible to start; ``timeout`` on a room that has not started sets
  the slot's flag instead of crashing the admin's connection; ``cancel`` keeps the admin
  connected; ``cancel`` of an unknown room closes the admin's connection.
* A wrong passphrase is logged without the passphrase itself.  Each connection gets one attempt
  (the official server closes it after a wrong one), and the close comes at once.  The server
  checks at most ``passphraseChecksPerSecond`` passphrases a second in total (a token bucket
  holding up to four seconds' worth, so a script that authenticates for every game is not hit);
  an attempt beyond that is closed unchecked with the same answer as a wrong one, so nothing tells
  the attacker whether its guess was looked at, and joining players are never affected.
* Unauthenticated admin requests are ignored silently on the wire; only the first of each
  connection is logged at INFO (the rest at DEBUG), so a flood of them cannot flood the log.
"""

from __future__ import annotations

import logging
import random
import secrets
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from swc_local.games import registry
from swc_local.games.plugin import CLASSIC, MODERN, GamePlugin, ScoreFragment
from swc_local.protocol import messages as msg
from swc_local.protocol.element import Element
from swc_local.server.config import Settings
from swc_local.server.xml.connection import Connection
from swc_local.server.xml.dialects import ROOM_CLASSES, route
from swc_local.server.limits import TokenBucket
from swc_local.server.xml.modern_lobby import ModernLobby
from swc_local.server.xml.room import GameRoom, PlayerSlot, Status

log = logging.getLogger("swc.lobby")

PASSPHRASE_BURST_SECONDS = 4
"""Passphrase checks saved up while nobody authenticates, in seconds of the rate: a script that
authenticates for every game it prepares is not hit by the limit."""


def new_id() -> str:
    """Room ids and reservation codes: random UUIDs, unguessable (uuid4 reads os.urandom)."""
    return str(uuid.uuid4())


@dataclass
class TestScores:
    """Per-display-name score sums for ``testMode``/``scoreForPlayer``."""

    fragments: tuple[ScoreFragment, ...]  # the definition of the game these scores come from
    games: int = 0
    sums: list[float] = field(default_factory=list)


class Lobby:
    """All rooms, reservations and admins of one server; what both dialects share (the
    passphrase gate, the join path, preparing, seating, the admin requests about a room); and
    the answers of the 2018/2019 requests.  :class:`ModernLobby` answers the 2022+ requests with
    the same operations; :mod:`~swc_local.server.xml.dialects` decides which of the two answers."""

    def __init__(
        self,
        settings: Settings,
        spawn: Callable[..., object],
        game_factory: Callable[[GamePlugin, random.Random], object | None] | None = None,
    ) -> None:
        self.settings = settings
        self.spawn = spawn
        self.rooms: dict[str, GameRoom] = {}
        self.reservations: dict[str, tuple[GameRoom, int]] = {}
        self.admins: list[Connection] = []
        self.rng = random.Random(settings.seed)
        self.test_mode = settings.test_mode
        self.test_scores: dict[str, TestScores] = {}
        self.rooms_finished = 0
        rate = settings.passphrase_checks_per_second
        self.passphrase_gate = TokenBucket(rate, burst=PASSPHRASE_BURST_SECONDS * rate)
        self.passphrase_checks = 0  # passphrases compared (the rest were over the rate)
        self.passphrases_unchecked = 0  # attempts over the rate since the last check
        # game type -> rooms that may have a seat free for a join, in the order they got one
        # (a dict as an ordered set); entries are checked when used, so a stale one costs O(1)
        self.open_rooms: dict[str, dict[GameRoom, None]] = {}
        self.room_listeners: list[Callable[[GameRoom], None]] = []
        self.game_factory = game_factory  # starts every room from a loaded position
        self.modern = ModernLobby(self)

    def receive(self, connection: Connection, element: Element) -> None:
        """One message from ``connection``.

        A ``<room>`` from a player of that room, the one message of every move, goes straight
        to the room (looked up once, no routing, no request model); anything else is answered
        by the dialect :func:`~swc_local.server.xml.dialects.route` chooses.
        """
        if element.tag == "room":
            room = self.rooms.get(element.attrs.get("roomId") or "")
            if room is not None:
                slots = [slot for slot in connection.slots if slot.room is room]
                if slots:
                    if connection.dialect is None:
                        connection.dialect = room.dialect
                    seat = room.game.current_seat
                    room.on_message(next((s for s in slots if s.seat == seat), slots[0]), element)
                    return
        if route(self, connection, element) == MODERN:
            self.modern.handle(connection, element)
        else:
            self.handle(connection, msg.decode_request(element))

    # -- rooms --------------------------------------------------------------------------------

    def create_room(
        self,
        plugin: GamePlugin,
        descriptors: tuple[msg.SlotDescriptor, msg.SlotDescriptor],
        prepared: bool,
        paused: bool,
        initial_game: object | None = None,
    ) -> GameRoom:
        seed = self.rng.getrandbits(63)
        initial = initial_game  # a position chosen in the web viewer ("play from here")
        if initial is None and self.game_factory:
            initial = self.game_factory(plugin, random.Random(seed))
        room = ROOM_CLASSES[plugin.dialect](
            id=new_id(),
            plugin=plugin,
            rng_seed=seed,
            descriptors=descriptors,
            prepared=prepared,
            paused=paused,
            spawn=self.spawn,
            on_over=self._room_over,
            soft_timeout_ms=self.settings.soft_timeout_ms or plugin.soft_timeout_ms,
            hard_timeout_ms=self.settings.hard_timeout_ms or plugin.hard_timeout_ms,
            initial_game=initial,
            recording=self.settings.save_replay,
        )
        self.rooms[room.id] = room
        for listener in self.room_listeners:
            listener(room)
        log.info("room %s created: %s%s", room.id, plugin.game_type, " (prepared)" if prepared else "")
        return room

    def _room_over(self, room: GameRoom) -> None:
        self.rooms.pop(room.id, None)
        self.open_rooms.get(room.plugin.game_type, {}).pop(room, None)
        for slot in room.slots:  # a room's live codes are its slots' (constant time, no scan)
            entry = self.reservations.get(slot.reservation or "")
            if entry is not None and entry[0] is room:
                del self.reservations[slot.reservation or ""]
        if not room.abandoned:
            self.rooms_finished += 1
        result = room.last_result
        if self.test_mode and result is not None and room.counts_test_scores:
            for slot, score in zip(room.slots, result.scores):
                entry = self.test_scores.setdefault(slot.display_name, TestScores(room.plugin.score_fragments))
                entry.games += 1
                values = [float(part) for part in score.parts]
                entry.sums = [a + b for a, b in zip(entry.sums, values)] if entry.sums else values

    # -- what both dialects share -------------------------------------------------------------

    def admit_admin(self, connection: Connection, what: str) -> bool:
        """True for an admin; else ``what`` is refused (logged once per connection at INFO, the
        rest at DEBUG: a flood of them cannot flood the log) and the dialect answers."""
        if connection.is_admin:
            return True
        connection.ignored_admin_requests += 1
        level = logging.INFO if connection.ignored_admin_requests == 1 else logging.DEBUG
        log.log(level, "%r: %s without authentication, ignored", connection, what)
        return False

    def check_passphrase(self, connection: Connection, given: str | None) -> bool | None:
        """The server's one passphrase gate: True (``connection`` is an admin now), False
        (wrong), or None (not checked: more than ``passphraseChecksPerSecond``)."""
        if not self.passphrase_gate.allow():
            self.passphrases_unchecked += 1  # the first of a run is a warning, the rest debug
            level = logging.WARNING if self.passphrases_unchecked == 1 else logging.DEBUG
            log.log(
                level,
                "%r: admin passphrase not checked: more than %g checks a second (passphraseChecksPerSecond)",
                connection,
                self.settings.passphrase_checks_per_second,
            )
            return None
        self.passphrase_checks += 1
        if self.passphrases_unchecked:
            log.warning("%d admin passphrases were not checked (passphraseChecksPerSecond)", self.passphrases_unchecked)
            self.passphrases_unchecked = 0
        password = self.settings.password
        if password is not None and given is not None and secrets.compare_digest(given.encode(), password.encode()):
            log.info("%r authenticated as admin%s", connection, " again" if connection.is_admin else "")
            connection.is_admin = connection.engaged = True
            if connection not in self.admins:
                self.admins.append(connection)
            return True
        connection.failed_logins += 1
        log.warning("%r: wrong admin passphrase", connection)
        return False

    def seat_limit_reached(self, connection: Connection) -> bool:
        """Drop ``connection`` (logged) when it already holds ``maxSeatsPerConnection`` seats."""
        limit = self.settings.max_seats_per_connection
        if limit > 0 and len(connection.slots) >= limit:
            connection.drop(f"join beyond {limit} seats held at once (maxSeatsPerConnection)")
            return True
        return False

    def join(self, connection: Connection, plugin: GamePlugin, descriptor: msg.SlotDescriptor) -> None:
        """The ``join`` of both dialects: a free join seat of ``plugin``'s game in the room that
        got one first (the index of open rooms), else a new room whose seats ``descriptor``
        describes."""
        open_rooms = self.open_rooms.get(plugin.game_type)
        while open_rooms:
            room = next(iter(open_rooms))
            free = [slot for slot in room.slots if slot.is_open] if room.takes_joiners and room.status is Status.CREATED else []
            if len(free) <= 1:  # this join takes the last free seat, or there is none
                del open_rooms[room]
            if free:
                self.seat(connection, room, free[0], existing=True)
                return
        room = self.create_room(plugin, (descriptor, descriptor), prepared=False, paused=self.settings.paused)
        self.mark_open(room)
        self.seat(connection, room, room.slots[0], existing=False)

    def mark_open(self, room: GameRoom) -> None:
        """``room`` has a seat a ``join`` may take (checked again when a join uses it)."""
        self.open_rooms.setdefault(room.plugin.game_type, {})[room] = None

    def join_prepared(self, connection: Connection, code: str, dialect: str) -> str | None:
        """Seat ``connection`` on a reservation of a ``dialect`` room; the reason it cannot be
        (the dialect answers it), or None (seated, or dropped at its seat limit: the code
        stays usable)."""
        entry = self.reservations.get(code)
        if entry is None or entry[0].dialect != dialect:
            return "unknown reservation code"
        room, seat = entry
        if room.slots[seat].occupied:  # a forced step gave the seat to a dummy meanwhile
            return "the reserved seat is already taken"
        if self.seat_limit_reached(connection):
            return None
        del self.reservations[code]
        self.seat(connection, room, room.slots[seat])
        return None

    def seat(self, connection: Connection, room: GameRoom, slot: PlayerSlot, existing: bool | None = None) -> None:
        """Give ``slot`` to ``connection``; the game starts when the room is full.

        ``existing`` is set for a ``join``: the admins hear of it (before the game-start
        messages or after them, as the room's dialect did) and whether the room existed."""
        log.info("%r joined room %s as %s", connection, room.id, slot.label)
        room.occupy(slot, connection)
        if room.envelope is not None:
            connection.envelope = room.envelope
        if existing is not None or room.joined_on_reservation:
            connection.send(msg.joined(room.id))
        notice = room.join_notice(existing) if existing is not None else None
        if notice is not None and room.admins_see_join_before_start:
            self._tell_admins(notice)
        if room.full and room.status is Status.CREATED:
            room.start()
        if notice is not None and not room.admins_see_join_before_start:
            self._tell_admins(notice)

    def _tell_admins(self, notice: Element) -> None:
        rendered = notice.render(1).encode()
        for admin in self.admins:
            admin.send(rendered)

    def prepare(
        self,
        plugin: GamePlugin,
        descriptors: tuple[msg.SlotDescriptor, msg.SlotDescriptor],
        paused: bool,
        reserved: tuple[bool, ...] = (True, True),
        initial_game: object | None = None,
    ) -> tuple[GameRoom, list[str]]:
        """A prepared room and the reservation codes of its ``reserved`` seats (the admin's
        ``prepare`` of both dialects, and the viewer's "play from here" from ``initial_game``)."""
        room = self.create_room(plugin, descriptors, prepared=True, paused=paused, initial_game=initial_game)
        codes = []
        for slot, wanted in zip(room.slots, reserved):
            if wanted:
                slot.reservation = new_id()
                self.reservations[slot.reservation] = (room, slot.seat)
                codes.append(slot.reservation)
        return room, codes

    def room_request(
        self, connection: Connection, tag: str, room_id: str | None, flag: bool, missing: Callable[[], None]
    ) -> None:
        """``observe``/``pause``/``step``/``cancel`` of either dialect (``flag``: ``pause`` or
        ``forced``); ``missing`` answers when there is no such room."""
        room = self.rooms.get(room_id or "")
        if room is None:
            missing()
        elif tag == "observe":
            room.add_observer(connection)
            connection.send(msg.observed(room.id))
        elif tag == "pause":
            room.set_paused(flag)
        elif tag == "step":
            room.step(flag)
        else:
            room.cancel()

    # -- the 2018/2019 requests ---------------------------------------------------------------

    def handle(self, connection: Connection, request: msg.Request) -> None:
        """Process one 2018/2019 request from ``connection``; never raises for anything a
        client sends.  Admin requests of a client that is not an admin are ignored."""
        if isinstance(request, msg.ADMIN_REQUESTS) and not self.admit_admin(connection, type(request).__name__):
            return
        handler = getattr(self, "_on_" + type(request).__name__)
        handler(connection, request)

    def _on_Authenticate(self, connection: Connection, request: msg.Authenticate) -> None:
        verdict = self.check_passphrase(connection, request.passphrase)
        if verdict is None:
            connection.close_politely("authentication failed (not checked: passphrase rate limit)", logging.DEBUG)
        elif not verdict:
            connection.close_politely("authentication failed")

    def _on_Prepare(self, connection: Connection, request: msg.Prepare) -> None:
        plugin = registry.get(request.game_type or "")
        if plugin is None:
            connection.close_politely(f"prepare: unknown game type {request.game_type!r}")
            return
        if not request.slots:
            connection.drop("prepare without slots")
            return
        if len(request.slots) > 2:
            connection.close_politely(f"prepare with {len(request.slots)} slots")
            return
        listed = list(request.slots)
        paused = any(slot.should_be_paused for slot in listed)
        descriptors = [s if s.display_name is not None else s.model_copy(update={"display_name": "Unknown"}) for s in listed]
        while len(descriptors) < 2:
            descriptors.append(msg.DEFAULT_SLOT)
        room, codes = self.prepare(plugin, (descriptors[0], descriptors[1]), paused)
        connection.send(msg.prepared(room.id, codes))

    def _on_JoinPrepared(self, connection: Connection, request: msg.JoinPrepared) -> None:
        refused = self.join_prepared(connection, request.reservation_code or "", CLASSIC)
        if refused is not None:
            connection.close_politely(f"joinPrepared: {refused}")

    def _on_Join(self, connection: Connection, request: msg.Join) -> None:
        if self.seat_limit_reached(connection):
            return
        plugin = registry.get(request.game_type or "")
        if plugin is None:
            connection.close_politely(f"join: unknown game type {request.game_type or ''!r}")
            return
        self.join(connection, plugin, msg.SlotDescriptor(display_name="Unknown", can_timeout=True))

    def _close_on_unknown_room(self, connection: Connection, what: str, room_id: str | None) -> Callable[[], None]:
        return lambda: connection.close_politely(f"{what}: unknown room {room_id!r}")

    def _on_Observe(self, connection: Connection, request: msg.Observe) -> None:
        missing = self._close_on_unknown_room(connection, "observe", request.room_id)
        self.room_request(connection, "observe", request.room_id, False, missing)

    def _on_Pause(self, connection: Connection, request: msg.Pause) -> None:
        def missing() -> None:
            log.info("%r: pause of unknown room %r ignored", connection, request.room_id)

        self.room_request(connection, "pause", request.room_id, request.pause, missing)

    def _on_Step(self, connection: Connection, request: msg.Step) -> None:
        missing = self._close_on_unknown_room(connection, "step", request.room_id)
        self.room_request(connection, "step", request.room_id, request.forced, missing)

    def _on_Cancel(self, connection: Connection, request: msg.Cancel) -> None:
        missing = self._close_on_unknown_room(connection, "cancel", request.room_id)
        self.room_request(connection, "cancel", request.room_id, False, missing)

    def _on_FreeReservation(self, connection: Connection, request: msg.FreeReservation) -> None:
        entry = self.reservations.pop(request.reservation or "", None)
        if entry is None:
            connection.drop("freeReservation: unknown reservation code")
            return
        room, seat = entry
        room.slots[seat].reservation = None
        log.info("room %s: reservation of %s freed", room.id, room.slots[seat].label)
        if room.status is Status.CREATED and room.slots[seat].is_open:
            self.mark_open(room)

    def _on_Timeout(self, connection: Connection, request: msg.Timeout) -> None:
        room = self.rooms.get(request.room_id or "")
        if room is None:
            connection.close_politely(f"timeout: unknown room {request.room_id!r}")
        elif request.slot in (0, 1):
            room.slots[request.slot].can_timeout = request.activate

    def _on_TestMode(self, connection: Connection, request: msg.TestMode) -> None:
        self.test_mode = request.test_mode
        connection.send(msg.testing(request.test_mode))

    def _on_ScoreForPlayer(self, connection: Connection, request: msg.ScoreForPlayer) -> None:
        scores = self.test_scores.get(request.display_name or "")
        if scores is None:
            connection.drop(f"scoreForPlayer: unknown name {request.display_name!r}")
            return
        connection.send(self._player_score(request.display_name or "", scores))

    def _player_score(self, name: str, scores: TestScores) -> Element:
        values = []
        for fragment, total in zip(scores.fragments, scores.sums):
            if fragment.aggregation == "AVERAGE":
                text = f"{total / max(scores.games, 1):.6f}"
            else:
                text = str(int(total)) if total == int(total) else str(total)
            fragment_element = fragment.to_element()
            values.append(Element("values", children=[fragment_element, Element("value", text=text)]))
        score = Element("score", {"displayName": name, "numberOfTests": str(scores.games)}, values)
        return Element("playerScore", children=[score])

    def _on_CloseConnection(self, connection: Connection, request: msg.CloseConnection) -> None:
        connection.drop("the client closed the connection")

    def _on_RoomPacket(self, connection: Connection, request: msg.RoomPacket) -> None:
        # a player's own room data went to its room in receive(): this is someone else's room
        connection.close_politely(f"data for room {request.room_id!r}, which is not the client's")

    def _on_UnknownMessage(self, connection: Connection, request: msg.UnknownMessage) -> None:
        connection.drop(f"unknown element <{request.tag}>")

    # -- connections --------------------------------------------------------------------------

    def disconnected(self, connection: Connection) -> None:
        """``connection`` is gone: its seats count as LEFT, it stops being admin or observer."""
        for slot in list(connection.slots):
            slot.room.on_disconnect(slot)
        if connection in self.admins:
            self.admins.remove(connection)
        if connection.is_admin:  # only admins observe: a player's goodbye never scans the rooms
            for room in list(self.rooms.values()):
                if connection in room.observers:
                    room.observers.remove(connection)
