"""The lobby's modern (2022+) side, and the routing that lets both dialects share one port.

:class:`~swc_local.server.lobby.Lobby` keeps the rooms, reservations and admins of both
dialects; :func:`route` decides for each message whether the classic handlers (2018/2019) or
:class:`ModernLobby` answer it, and remembers on the connection which dialect it speaks.

Routing (in this order; the first that applies):

* ``authenticate``: the dialect the connection already speaks, else ``password=`` is modern and
  ``passphrase=`` classic;
* ``join``: without gameType modern; with one, the dialect of that game (an unknown game: the
  connection's dialect); ``joinRoom`` and the 2022+ CloseConnection forms: modern;
* ``joinPrepared``: the dialect of the room the code reserves;
* ``prepare``: modern for a modern game, else the connection's dialect, else the syntax
  (``pause=``/``reserved=`` modern, ``shouldBePaused=`` classic);
* ``<room>``: the dialect of the sender's room; from a client that is not in it, the
  connection's dialect, else the room's;
* ``observe``/``pause``/``step``/``cancel``: the connection's dialect, else the room's;
* anything else: the connection's dialect.

A connection that has shown no dialect yet (its first message is malformed, unknown, or an
error case above) is answered in the server's ``lobbyDialect`` (default classic, the 2018/2019
answers): the two servers answered byte-identical junk differently (``<protocol/>`` versus
nothing), so one of them has to be the default.

Spec-conformance notes (ostseeschach_2022.md A.3, A.4; modern_dialect_2023plus.md §3):

* ``<join/>`` goes to the server's default modern game: ``defaultGame`` in server.properties
  or ``swc serve --game``, else the newest modern season registered.  ``<join gameType>`` of a
  modern game pairs only with ``<join>`` players of that game (22.final seated a ``<join>``
  in any open room whatever its type; there was only one game).  An unknown gameType closes the
  connection without a word.
* ``joined`` goes to the joiner at once (also for ``joinPrepared``); ``joinedGameRoom
  playerCount`` goes to every admin after a ``<join>`` was handled, after the game-start
  messages.
* Errors are errorpackets with the request echoed; the connection stays open.  Texts not
  captured are those of the 22.x/25.x Lobby and GameRoom code: "Room R is already full!" for a
  ``joinRoom`` without a free slot, "Client is not a member of game R" for a move into a room
  the sender does not play in.  Prepare of an
  unknown game type, without slots (or, our addition, with more than two) closes the admin's
  connection without a word, as 22.final did.
* A wrong password is answered with the errorpacket and the connection stays open, as on
  22.final; the lobby's passphrase gate (``passphraseChecksPerSecond``) bounds the guesses per
  second for the whole server, an attempt over the rate gets the same errorpacket unchecked.
* ``<join/>`` uses the lobby's index of open rooms per game type, and every join counts against
  ``maxSeatsPerConnection`` (a join beyond it closes the connection without a word).
"""

from __future__ import annotations

import logging
import re
import secrets
from typing import TYPE_CHECKING


from swc_local.games import registry
from swc_local.games.plugin import CLASSIC, ENVELOPE_2022, MODERN, GamePlugin
from swc_local.protocol import messages as msg
from swc_local.protocol import modern as wire
from swc_local.protocol.element import Element
from swc_local.server.modern_room import ModernRoom
from swc_local.server.room import GameRoom, Status

if TYPE_CHECKING:
    from swc_local.server.connection import Connection
    from swc_local.server.lobby import Lobby

log = logging.getLogger("swc.lobby")

ADMIN_TAGS = frozenset({"prepare", "observe", "pause", "step", "cancel"})
_YEAR = re.compile(r"(\d{4})")


def season(plugin: GamePlugin) -> int:
    """The year of a game: its ``season`` hook, else the year in its game type."""
    if plugin.season is not None:
        return plugin.season
    match = _YEAR.search(plugin.game_type)
    return int(match[1]) if match else 0


def modern_plugins() -> list[GamePlugin]:
    return [plugin for plugin in registry.all_plugins() if plugin.dialect == MODERN]


def default_game(configured: str | None) -> GamePlugin | None:
    """The game ``<join/>`` without a gameType joins: the configured one, else the newest."""
    if configured:
        plugin = registry.get(registry.resolve(configured))
        return plugin if plugin is not None and plugin.dialect == MODERN else None
    plugins = modern_plugins()
    return max(plugins, key=lambda p: (season(p), p.game_type)) if plugins else None


def check_default_game(configured: str | None) -> str | None:
    """An error text when ``configured`` is not a modern game this server knows, else None."""
    if configured and default_game(configured) is None:
        known = ", ".join(p.game_type for p in modern_plugins()) or "none"
        return f"defaultGame {configured!r} is not a modern game of this server (known: {known})"
    return None


def _room_dialect(room: GameRoom) -> str:
    return MODERN if isinstance(room, ModernRoom) else CLASSIC


def route(lobby: Lobby, connection: Connection, element: Element) -> str:
    """Which dialect answers ``element``; remembers it on the connection when it shows one."""
    tag = element.tag
    known = connection.dialect
    hint = wire.dialect_hint(element)
    chosen: str | None = None
    if tag == "authenticate":
        chosen = known or hint
    elif tag == "join":
        game_type = element.get("gameType")
        plugin = registry.get(game_type) if game_type is not None else None
        chosen = MODERN if game_type is None else (plugin.dialect if plugin is not None else known)
    elif hint == MODERN and tag != "prepare":
        chosen = MODERN
    elif tag == "joinPrepared":
        entry = lobby.reservations.get(element.get("reservationCode") or "")
        chosen = _room_dialect(entry[0]) if entry is not None else known
    elif tag == "prepare":
        plugin = registry.get(element.get("gameType") or "")
        chosen = MODERN if plugin is not None and plugin.dialect == MODERN else (known or hint)
    elif tag == "room":
        room = lobby.rooms.get(element.get("roomId") or "")
        mine = room is not None and any(slot.room is room for slot in connection.slots)
        chosen = _room_dialect(room) if mine else (known or (_room_dialect(room) if room is not None else None))
    elif tag in ADMIN_TAGS:
        room = lobby.rooms.get(element.get("roomId") or "")
        chosen = known or (_room_dialect(room) if room is not None else hint)
    else:
        chosen = known or hint
    if chosen is None:
        chosen = connection.fallback_dialect
    if connection.dialect is None and (hint is not None or tag in ("join", "joinPrepared", "room", "authenticate")):
        connection.dialect = chosen
    return chosen


class ModernLobby:
    """Handlers for the 2022+ requests; rooms and reservations live in the shared Lobby."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.settings = lobby.settings

    # -- dispatch -------------------------------------------------------------------------------

    def handle(self, connection: Connection, element: Element) -> None:
        connection.dialect = connection.dialect or MODERN
        tag = element.tag
        if tag in ADMIN_TAGS and not connection.is_admin:
            log.info("%r: <%s> without authentication", connection, tag)
            connection.send(wire.errorpacket(wire.unauthenticated(element), element))
            return
        handler = getattr(self, "_on_" + tag, None) if tag.isidentifier() else None
        if tag in (wire.CLOSE_CONNECTION_2022, wire.CLOSE_ALIAS):
            handler = self._on_close
        if handler is None:
            connection.protocol_error = True
            connection.drop(f"unknown element <{tag}>")
            return
        handler(connection, element)

    def _error(self, connection: Connection, message: str, element: Element) -> None:
        log.info("%r: %s", connection, message)
        connection.send(wire.errorpacket(message, element))

    # -- joining --------------------------------------------------------------------------------

    def _on_join(self, connection: Connection, element: Element) -> None:
        game_type = element.get("gameType")
        plugin = default_game(self.settings.default_game) if game_type is None else registry.get(game_type)
        if plugin is None or plugin.dialect != MODERN:
            connection.drop(f"join: no modern game {game_type!r}")
            return
        if self.lobby._seat_limit_reached(connection):
            return
        room = None
        open_rooms = self.lobby.open_rooms.get(plugin.game_type)
        while open_rooms:
            candidate = next(iter(open_rooms))
            free = (
                [slot for slot in candidate.slots if slot.is_open]
                if isinstance(candidate, ModernRoom) and candidate.join_room and candidate.status is Status.CREATED
                else []
            )
            if len(free) <= 1:  # this join takes the last free seat, or there is none
                del open_rooms[candidate]
            if free:
                room = candidate
                break
        if room is None:
            descriptor = msg.SlotDescriptor(display_name="", can_timeout=self.settings.join_timeout)
            room = self.lobby.create_room(plugin, (descriptor, descriptor), prepared=False, paused=self.settings.paused)
            room.join_room = True
            self.lobby._mark_open(room)
        slot = next(slot for slot in room.slots if slot.is_open)
        self._seat(connection, room, slot)
        notice = wire.joined_game_room(room.id, room.player_count).render(1).encode()
        for admin in self.lobby.admins:
            admin.send(notice)

    def _seat(self, connection: Connection, room: ModernRoom, slot) -> None:
        log.info("%r joined room %s as %s", connection, room.id, slot.team)
        connection.envelope = room.envelope
        connection.send(wire.joined(room.id))
        room.occupy(slot, connection)
        if room.full and room.status is Status.CREATED:
            room.start()

    def _on_joinRoom(self, connection: Connection, element: Element) -> None:
        room_id = element.get("roomId")
        room = self.lobby.rooms.get(room_id or "")
        if not isinstance(room, ModernRoom):
            self._error(connection, wire.room_not_found(room_id), element)
            return
        slot = next((slot for slot in room.slots if slot.is_open), None)
        if slot is not None and self.lobby._seat_limit_reached(connection):
            return
        if slot is None or room.status is not Status.CREATED:
            self._error(connection, f"{wire.ROOM_EXCEPTION}Room {room_id} is already full!", element)
            return
        self._seat(connection, room, slot)

    def _on_joinPrepared(self, connection: Connection, element: Element) -> None:
        code = element.get("reservationCode") or ""
        entry = self.lobby.reservations.get(code)
        if entry is None or not isinstance(entry[0], ModernRoom) or entry[0].slots[entry[1]].occupied:
            self._error(connection, wire.UNKNOWN_RESERVATION, element)
            return
        if self.lobby._seat_limit_reached(connection):
            return  # the code stays usable
        del self.lobby.reservations[code]
        room, seat = entry
        self._seat(connection, room, room.slots[seat])

    # -- admin ----------------------------------------------------------------------------------

    def _on_authenticate(self, connection: Connection, element: Element) -> None:
        """No answer on success; the errorpacket otherwise, and the connection stays open.

        The lobby's passphrase gate caps the checks per second for the whole server (both
        dialects); an attempt over the rate gets the same errorpacket unchecked.
        """
        lobby = self.lobby
        answer = wire.errorpacket(wire.AUTHENTICATION_FAILED, element)
        if not lobby.passphrase_gate.allow():
            lobby.passphrases_unchecked += 1
            level = logging.WARNING if lobby.passphrases_unchecked == 1 else logging.DEBUG
            log.log(level, "%r: admin password not checked (passphraseChecksPerSecond)", connection)
            connection.send(answer)
            return
        lobby.passphrase_checks += 1
        password, given = self.settings.password, element.get("password")
        if password is not None and given is not None and secrets.compare_digest(given.encode(), password.encode()):
            log.info("%r authenticated as admin%s", connection, " again" if connection.is_admin else "")
            connection.is_admin = connection.engaged = True
            if connection not in lobby.admins:
                lobby.admins.append(connection)
            return
        connection.failed_logins += 1
        log.warning("%r: wrong admin password", connection)
        connection.send(answer)

    def _on_prepare(self, connection: Connection, element: Element) -> None:
        request = wire.decode_prepare(element)
        plugin = registry.get(request.game_type or "")
        if plugin is None:
            connection.drop(f"prepare: unknown game type {request.game_type!r}")
            return
        if not request.slots or len(request.slots) > 2:
            connection.drop(f"prepare with {len(request.slots)} slots")
            return
        slots = list(request.slots)
        while len(slots) < 2:
            slots.append(wire.Slot(display_name=None, can_timeout=True, reserved=True))
        descriptors = tuple(
            msg.SlotDescriptor(
                display_name=s.display_name if s.display_name is not None else ("" if plugin.dialect == MODERN else "Unknown"),
                can_timeout=s.can_timeout,
            )
            for s in slots
        )
        room = self.lobby.create_room(plugin, descriptors, prepared=True, paused=request.pause)
        codes = []
        for slot, wanted in zip(room.slots, slots):
            if wanted.reserved:
                slot.reservation = self.lobby.new_code()
                self.lobby.reservations[slot.reservation] = (room, slot.seat)
                codes.append(slot.reservation)
        connection.send(wire.prepared(room.id, codes))

    def _admin_room(self, connection: Connection, element: Element) -> GameRoom | None:
        room_id = element.get("roomId")
        room = self.lobby.rooms.get(room_id or "")
        if room is None:
            self._error(connection, wire.room_not_found(room_id), element)
        return room

    def _on_observe(self, connection: Connection, element: Element) -> None:
        room = self._admin_room(connection, element)
        if room is not None:
            room.add_observer(connection)
            connection.send(wire.observed(room.id))

    def _on_pause(self, connection: Connection, element: Element) -> None:
        room = self._admin_room(connection, element)
        if room is not None:
            room.set_paused(wire.java_bool(element.get("pause")))

    def _on_step(self, connection: Connection, element: Element) -> None:
        room = self._admin_room(connection, element)
        if room is not None:
            room.step(wire.java_bool(element.get("forced")))

    def _on_cancel(self, connection: Connection, element: Element) -> None:
        room = self._admin_room(connection, element)
        if room is not None:
            room.cancel()

    # -- players --------------------------------------------------------------------------------

    def _on_room(self, connection: Connection, element: Element) -> None:
        room_id = element.get("roomId")
        room = self.lobby.rooms.get(room_id or "")
        slots = [slot for slot in connection.slots if room is not None and slot.room is room]
        if room is None or not isinstance(room, ModernRoom):
            self._error(connection, wire.room_not_found(room_id), element)
            return
        if not slots:
            self._error(connection, f"{wire.ROOM_EXCEPTION}Client is not a member of game {room.id}", element)
            return
        data = element.find("data")
        data_class = data.get("class") if data is not None else None
        slot = next((s for s in slots if s.seat == room.game.current_seat), slots[0])
        if data_class in wire.ROOM_DATA_CLASSES and data_class not in room.plugin.move_classes:
            room.not_a_move(slot, element)
            return
        room.on_data(slot, data)

    def _on_close(self, connection: Connection, element: Element) -> None:
        if element.tag == wire.CLOSE_ALIAS and connection.envelope == ENVELOPE_2022:
            connection.drop("unknown element <close> (22.x had no close alias)")
            return
        connection.close_stream("the client closed the connection")
