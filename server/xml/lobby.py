"""The lobby: who is admin, which rooms exist, and what both dialects do alike (spec §2, §5).

The answers to each dialect's requests are beside it (:mod:`.classic_lobby` for 2018/2019,
:mod:`.modern_lobby` for 2022+); :mod:`.dialects` decides which of them answers a message
(``LOBBY_CLASSES``), except a move: a ``<room>`` from a player of that room goes straight to the
room (:meth:`Lobby.receive`).

Spec-conformance notes (those of one dialect are in its module):

* Which game a ``<join/>`` without gameType plays (2022+; docs/manual/server.md, "Which game a
  join plays"): the official servers since 2022 served one game, so their clients never name
  it.  A bare join takes the seat of the join that has waited longest in a room of any 2022+
  game (FIFO by the time the seat became free: ``open_since``); a join naming a 2022+ game
  takes a waiting join of its own game first, else the oldest waiting bare join, whose room
  (of ``defaultGame``) becomes a room of the named game under the same id (:meth:`Lobby._regame`),
  else opens a room.  Two bare joins play ``defaultGame``.  So at most one bare join waits, and
  only while no typed 2022+ join does; typed joins of different games wait side by side.  A
  bare join never pairs with a 2018-2021 join (those clients always name their game and speak
  another dialect).  A bare player that got another game than ``defaultGame`` has ``gameType``
  on its welcome (``announce_game``); with ``defaultGame`` its bytes are the official ones.
* Differences, all listed in the README: ``join`` pairs only clients of the same game type (the
  official server ignored the type when any room was open); rooms are searched in the order their
  seats became free, through an index of open rooms per game type, so a join costs the same with
  10,000 rooms waiting as with none (the official order was a hash map's, its search a scan); a
  ``join`` room whose only player disconnected while waiting is removed (officially the next joiner
  was paired with the dead player); one connection holds at most ``maxSeatsPerConnection`` seats at
  once, a join beyond that drops it; a rejected ``prepare`` (three or more or zero slots)
  leaves no orphan room behind; a listed slot without ``displayName`` plays as ``Unknown``
  (2022+: an empty name) instead of making the game impossible to start.
* A wrong passphrase is logged without the passphrase itself, once per burst with the peer's
  address.  The server checks at most ``passphraseChecksPerSecond`` passphrases a second per
  peer address (a token bucket holding up to four seconds' worth, so a script that authenticates
  for every game is not hit), and as many in total from addresses that sent a wrong one in the
  last minute (server/limits.py's ``PassphraseGate``; the viewer shares it): an attempt beyond
  that is answered unchecked as a wrong one, an admin at another address is never locked out,
  and joining players are never affected.
* Unauthenticated admin requests are refused by the dialect's answer; only the first of each
  connection is logged at INFO (the rest at DEBUG), so a flood of them cannot flood the log.
"""

from __future__ import annotations

import itertools
import logging
import random
import secrets
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from swc_local.games import registry
from swc_local.games.plugin import MODERN, GamePlugin, ScoreFragment
from swc_local.protocol import messages as msg
from swc_local.protocol.element import Element
from swc_local.server.xml.settings import XmlDoorSettings  # the door's own, built in its prepare (server/xml/door.py)
from swc_local.server.xml.connection import Connection
from swc_local.server.limits import PassphraseGate, peer_address
from swc_local.server.finished_games import RecentGames
from swc_local.server.xml.dialects import LOBBY_CLASSES, room_class, route
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
    """All rooms, reservations and admins of one server, and what both dialects share (the
    passphrase gate, the join path, preparing, seating, the admin requests about a room).  Each
    dialect's answers (``LOBBY_CLASSES``: ``ClassicLobby``, ``ModernLobby``) use these
    operations; :func:`~swc_local.server.xml.dialects.route` decides which dialect answers."""

    def __init__(
        self,
        settings: XmlDoorSettings,
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
        self.recent_games = RecentGames()  # the last ones, for the stop's summary
        rate = settings.passphrase_checks_per_second
        self.passphrase_gate = PassphraseGate(rate, burst_seconds=PASSPHRASE_BURST_SECONDS, logger=log)
        self.passphrase_checks = 0  # passphrases compared (the rest were over a limit)
        # game type -> rooms that may have a seat free for a join, in the order they got one
        # (a dict as an ordered set); entries are checked when used, so a stale one costs O(1)
        self.open_rooms: dict[str, dict[GameRoom, None]] = {}
        self.open_since: dict[GameRoom, int] = {}  # when a room last got a free join seat (a count)
        self._opened = itertools.count()
        self.bare_rooms: dict[GameRoom, None] = {}  # rooms a <join/> without gameType opened, waiting
        self.room_listeners: list[Callable[[GameRoom], None]] = []
        self.game_factory = game_factory  # starts every room from a loaded position
        self.answers = {dialect: answers(self) for dialect, answers in LOBBY_CLASSES.items()}
        """dialect -> the object answering its requests (``handle(connection, element)``)"""

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
        self.answers[route(self, connection, element)].handle(connection, element)

    # -- rooms --------------------------------------------------------------------------------

    def create_room(
        self,
        plugin: GamePlugin,
        descriptors: tuple[msg.SlotDescriptor, msg.SlotDescriptor],
        prepared: bool,
        paused: bool,
        initial_game: object | None = None,
        room_id: str | None = None,
    ) -> GameRoom:
        """A new room (``room_id``: the id of a ``<join/>`` room it replaces, see
        :meth:`_regame`)."""
        seed = self.rng.getrandbits(63)
        initial = initial_game  # a position chosen in the web viewer ("play from here")
        if initial is None and self.game_factory:
            initial = self.game_factory(plugin, random.Random(seed))
        room = room_class(plugin)(
            id=room_id or new_id(),
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
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
        self.open_rooms.get(room.plugin.game_type, {}).pop(room, None)
        self.bare_rooms.pop(room, None)
        self.open_since.pop(room, None)
        for slot in room.slots:  # a room's live codes are its slots' (constant time, no scan)
            entry = self.reservations.get(slot.reservation or "")
            if entry is not None and entry[0] is room:
                del self.reservations[slot.reservation or ""]
        if not room.abandoned:
            self.rooms_finished += 1
            self.recent_games.add(f"{room.plugin.game_type} room {room.id}: {room.result_summary or 'cancelled, no result'}")
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
        """The server's one passphrase gate (shared with the viewer, server/limits.py's
        :class:`PassphraseGate`: limits per peer address, a global ceiling for peers that just
        failed): True (``connection`` is an admin now), False (wrong), or None (not checked)."""
        verdict = self.passphrase_gate.check(peer_address(connection.peer), given, self.settings.password)
        self.passphrase_checks = self.passphrase_gate.checks
        if verdict is None:
            log.debug("%r: admin passphrase not checked: over passphraseChecksPerSecond", connection)
            return None
        if verdict:
            log.info("%r authenticated as admin%s", connection, " again" if connection.is_admin else "")
            connection.is_admin = connection.engaged = True
            if connection not in self.admins:
                self.admins.append(connection)
            return True
        log.debug("%r: wrong admin passphrase", connection)  # the gate logs it once per burst with the peer
        return False

    def seat_limit_reached(self, connection: Connection) -> bool:
        """Drop ``connection`` (logged) when it already holds ``maxSeatsPerConnection`` seats."""
        limit = self.settings.max_seats_per_connection
        if limit > 0 and len(connection.slots) >= limit:
            connection.drop(f"join beyond {limit} seats held at once (maxSeatsPerConnection)")
            return True
        return False

    def join(self, connection: Connection, plugin: GamePlugin, descriptor: msg.SlotDescriptor) -> None:
        """The ``join`` that names ``plugin``'s game, in both dialects: a free join seat of that
        game in the room that got one first (the index of open rooms); else, for a 2022+ game,
        the seat beside a waiting ``<join/>`` without gameType, whose room becomes one of this
        game; else a new room whose seats ``descriptor`` describes."""
        room = self._first_open(plugin.game_type)
        if room is None and plugin.dialect == MODERN:
            bare = self._first_bare()
            if bare is not None:
                room = self._regame(bare, plugin)
        if room is None:
            room = self.create_room(plugin, (descriptor, descriptor), prepared=False, paused=self.settings.paused)
            self.mark_open(room)
            self.seat(connection, room, room.slots[0], existing=False)
            return
        self._take_join_seat(connection, room)

    def join_without_game(self, connection: Connection, default: GamePlugin, descriptor: msg.SlotDescriptor) -> None:
        """``<join/>`` (2022+, no gameType): the seat of the join that has waited longest in a
        room of any 2022+ game, whatever game it named (the official clients since 2022 never
        name one: each official server served one game); else a new room of ``default``
        (``defaultGame``) that a later join of any 2022+ game may take over (:meth:`join`).
        Its welcome names the game when it is not ``default`` (the official bytes otherwise,
        as a one-game official server sent them)."""
        waiting = [room for game_type in list(self.open_rooms)
                   if (plugin := registry.get(game_type)) is not None and plugin.dialect == MODERN
                   and (room := self._first_open(game_type)) is not None]
        if waiting:
            room = min(waiting, key=lambda r: self.open_since.get(r, 0))
            log.info("%r: <join/> without gameType plays %s, the game of the join waiting in room %s",
                     connection, room.plugin.game_type, room.id)
            self._take_join_seat(connection, room, announce=room.plugin is not default)
            return
        room = self.create_room(default, (descriptor, descriptor), prepared=False, paused=self.settings.paused)
        self.bare_rooms[room] = None
        self.mark_open(room)
        self.seat(connection, room, room.slots[0], existing=False)

    def _first_open(self, game_type: str) -> GameRoom | None:
        """The room of ``game_type`` that has had a free join seat longest (stale index entries
        dropped on the way), or None."""
        open_rooms = self.open_rooms.get(game_type)
        while open_rooms:
            room = next(iter(open_rooms))
            if self._ghosts_left(room):
                continue  # the room was given up or has its seat back: look again
            if self._free_join_seats(room):
                return room
            del open_rooms[room]
        return None

    def _first_bare(self) -> GameRoom | None:
        """The oldest room a ``<join/>`` without gameType opened whose player still waits
        there, or None (rooms that stopped waiting leave the list on the way)."""
        for room in list(self.bare_rooms):
            self._ghosts_left(room)
            if room.id in self.rooms and room.player_count and self._free_join_seats(room):
                return room
            self.bare_rooms.pop(room, None)
        return None

    @staticmethod
    def _free_join_seats(room: GameRoom) -> list[PlayerSlot]:
        return [slot for slot in room.slots if slot.is_open] if room.takes_joiners and room.status is Status.CREATED else []

    def _take_join_seat(self, connection: Connection, room: GameRoom, announce: bool = False) -> None:
        """Seat a join in ``room``'s first free join seat (it has one: :meth:`_first_open`);
        ``announce``: its welcome names the game."""
        free = self._free_join_seats(room)
        if len(free) <= 1:  # this join takes the last free seat
            self.open_rooms.get(room.plugin.game_type, {}).pop(room, None)
            self.bare_rooms.pop(room, None)
        free[0].announce_game = announce
        self.seat(connection, room, free[0], existing=True)

    def _regame(self, waiting: GameRoom, plugin: GamePlugin) -> GameRoom:
        """A ``<join/>`` room of ``defaultGame`` becomes a room of ``plugin``'s game, for the
        join that named it: a fresh room of that game under the same id (its player was told
        that id), with the waiting player (whose welcome will name the game) and the observing
        admins; the old room is closed without a word and without a viewer record (it never
        started).  The joiner takes the free seat at once (:meth:`_take_join_seat`)."""
        log.info("room %s: its <join/> without gameType plays %s, the game of the join that came (was %s)",
                 waiting.id, plugin.game_type, waiting.plugin.game_type)
        seated = [(slot.seat, slot.connection) for slot in waiting.slots if slot.occupied]
        observers = [observer for observer in waiting.observers if isinstance(observer, Connection)]
        waiting.abandoned = waiting.superseded = True
        waiting.stop("its <join/> player plays another game")
        room = self.create_room(plugin, waiting.descriptors, prepared=False, paused=waiting.paused, room_id=waiting.id)
        room.observers.extend(observers)
        for seat, connection in seated:
            room.occupy(room.slots[seat], connection)
            room.slots[seat].announce_game = True
            if connection is not None:
                self._adopt_envelope(connection, room)
        return room

    def _ghosts_left(self, room: GameRoom) -> bool:
        """Before pairing: every player waiting in ``room`` whose connection is gone (its reader
        may not have seen the end yet) leaves now, as its end would make it leave; True if one
        did (issue 34: a joiner was paired with such a seat and won by LEFT)."""
        gone = [slot for slot in room.slots if slot.occupied and slot.connection is not None and slot.connection.peer_gone()]
        for slot in gone:
            log.info("%r: gone before its game started; its seat in room %s is given back", slot.connection, room.id)
            room.on_disconnect(slot)
        if gone and room.id in self.rooms and room.status is Status.CREATED and any(s.is_open for s in room.slots):
            self.mark_open(room)  # the seat is free again: the room goes back to the waiting list
        return bool(gone)

    def mark_open(self, room: GameRoom) -> None:
        """``room`` has a seat a ``join`` may take (checked again when a join uses it)."""
        rooms = self.open_rooms.setdefault(room.plugin.game_type, {})
        if room not in rooms:
            rooms[room] = None
            self.open_since[room] = next(self._opened)

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
        log.info("%r joined room %s (%s) as %s", connection, room.id, room.plugin.game_type, slot.label)
        room.occupy(slot, connection)
        self._adopt_envelope(connection, room)
        if existing is not None or room.joined_on_reservation:
            connection.send(msg.joined(room.id))
        notice = room.join_notice(existing) if existing is not None else None
        if notice is not None and room.admins_see_join_before_start:
            self._tell_admins(notice)
        if room.full and room.status is Status.CREATED:
            room.start()
        if notice is not None and not room.admins_see_join_before_start:
            self._tell_admins(notice)

    @staticmethod
    def _adopt_envelope(connection: Connection, room: GameRoom) -> None:
        """The connection writes and reads as its newest room's game does (2022+ envelope)."""
        if room.envelope is not None:
            connection.envelope = room.envelope
            connection.close_alias = room.plugin.close_alias

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

    def answer_prepare(self, connection: Connection, request: msg.Prepare, closes: frozenset[str]) -> None:
        """The admin's ``prepare`` of both dialects, whichever syntax it came in
        (:func:`~swc_local.protocol.messages.decode_prepare`): ``prepared`` with the room and the
        codes of its reserved seats.  A request that cannot be prepared (``game`` unknown, no
        ``slots`` or more than two) closes the connection politely when its kind is in
        ``closes`` (the dialect's answer), else drops it; it leaves no room behind."""
        plugin = registry.get(request.game_type or "")
        count = len(request.slots)
        if plugin is None:
            kind, reason = "game", f"prepare: unknown game type {request.game_type!r}"
        elif not 1 <= count <= 2:
            kind, reason = ("slots" if count else "no slots"), f"prepare with {count} slots"
        else:
            listed = request.slots + (msg.UNLISTED_SLOT,) * (2 - count)
            room, codes = self.prepare(plugin, (listed[0], listed[1]), request.pause, tuple(s.reserved for s in listed))
            connection.send(msg.prepared(room.id, codes))
            return
        (connection.close_politely if kind in closes else connection.drop)(reason)

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
            room.cancel_reason = room.cancel_reason or "cancelled by an admin"
            room.cancel()

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
