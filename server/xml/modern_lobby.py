"""The lobby's answers to the 2022+ requests.

:class:`~swc_local.server.xml.lobby.Lobby` keeps the rooms, reservations and admins of both
dialects and the operations they share (the passphrase gate, the join path, preparing, seating,
the admin requests about a room); :mod:`~swc_local.server.xml.dialects` decides which dialect
answers a message.  This module never imports the lobby or the 2018/2019 answers: it is handed
the lobby, as :class:`~swc_local.server.xml.classic_lobby.ClassicLobby` is.

Spec-conformance notes (ostseeschach_2022.md A.3, A.4; modern_dialect_2023plus.md §3):

* ``<join/>`` plays the game of the join it meets (the rules: the lobby's notes,
  :meth:`~swc_local.server.xml.lobby.Lobby.join_without_game`); two of them play the server's
  default modern game: ``defaultGame`` in server.properties or ``swc serve --game``, else the
  newest modern season registered.  ``<join gameType>`` of a modern game pairs with ``<join>``
  players of that game, else with a waiting ``<join/>`` (22.final seated a ``<join>`` in any
  open room whatever its type; there was only one game).  An unknown gameType closes the
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
from typing import TYPE_CHECKING

from swc_local.games import registry
from swc_local.games.plugin import ENVELOPE_2022, MODERN, GamePlugin
from swc_local.protocol import messages as msg
from swc_local.protocol import modern as wire
from swc_local.protocol.element import Element
from swc_local.protocol.messages import ROOM_REQUESTS
from swc_local.server.xml.room import Status

if TYPE_CHECKING:
    from swc_local.server.xml.connection import Connection

log = logging.getLogger("swc.lobby")

ADMIN_TAGS = ROOM_REQUESTS | {"prepare"}
PREPARE_CLOSES: frozenset[str] = frozenset()
"""Every ``prepare`` refusal drops the admin's connection without a word (22.final)."""
ROOM_REQUEST_FLAGS = {"pause": "pause", "step": "forced"}
"""The attribute that carries a room request's flag."""
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


class ModernLobby:
    """The answers of the 2022+ requests, with the operations the shared ``Lobby`` (which
    keeps the rooms, reservations and admins of both dialects) offers."""

    def __init__(self, lobby) -> None:
        self.lobby = lobby
        self.settings = lobby.settings

    # -- dispatch -------------------------------------------------------------------------------

    def handle(self, connection: Connection, element: Element) -> None:
        connection.dialect = connection.dialect or MODERN
        tag = element.tag
        if tag in ADMIN_TAGS and not self.lobby.admit_admin(connection, f"<{tag}>"):
            connection.send(wire.errorpacket(wire.unauthenticated(element), element))
            return
        if tag in ROOM_REQUESTS:
            self._room_request(connection, element)
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
        if self.lobby.seat_limit_reached(connection):
            return
        descriptor = msg.SlotDescriptor(display_name="", can_timeout=self.settings.join_timeout)
        if game_type is None:
            self.lobby.join_without_game(connection, plugin, descriptor)
        else:
            self.lobby.join(connection, plugin, descriptor)

    def _on_joinRoom(self, connection: Connection, element: Element) -> None:
        room_id = element.get("roomId")
        room = self.lobby.rooms.get(room_id or "")
        if room is None or room.dialect != MODERN:
            self._error(connection, wire.room_not_found(room_id), element)
            return
        slot = next((slot for slot in room.slots if slot.is_open), None)
        if slot is not None and self.lobby.seat_limit_reached(connection):
            return
        if slot is None or room.status is not Status.CREATED:
            self._error(connection, f"{wire.ROOM_EXCEPTION}Room {room_id} is already full!", element)
            return
        self.lobby.seat(connection, room, slot)

    def _on_joinPrepared(self, connection: Connection, element: Element) -> None:
        if self.lobby.join_prepared(connection, element.get("reservationCode") or "", MODERN) is not None:
            self._error(connection, wire.UNKNOWN_RESERVATION, element)

    # -- admin ----------------------------------------------------------------------------------

    def _on_authenticate(self, connection: Connection, element: Element) -> None:
        """No answer on success; the errorpacket otherwise (also unchecked, over the rate of
        the server's one passphrase gate), and the connection stays open."""
        if not self.lobby.check_passphrase(connection, element.get("password")):
            connection.send(wire.errorpacket(wire.AUTHENTICATION_FAILED, element))

    def _on_prepare(self, connection: Connection, element: Element) -> None:
        self.lobby.answer_prepare(connection, wire.decode_prepare(element), closes=PREPARE_CLOSES)

    def _room_request(self, connection: Connection, element: Element) -> None:
        """``observe``/``pause``/``step``/``cancel``: an unknown room is an errorpacket."""
        tag, room_id = element.tag, element.get("roomId")
        flag = wire.java_bool(element.get(ROOM_REQUEST_FLAGS.get(tag, "")))

        def missing() -> None:
            self._error(connection, wire.room_not_found(room_id), element)

        self.lobby.room_request(connection, tag, room_id, flag, missing)

    # -- players --------------------------------------------------------------------------------

    def _on_room(self, connection: Connection, element: Element) -> None:
        """Room data of a client that does not play in that room (a player's own data went to
        its room in ``Lobby.receive``)."""
        room_id = element.get("roomId")
        room = self.lobby.rooms.get(room_id or "")
        if room is None or room.dialect != MODERN:
            self._error(connection, wire.room_not_found(room_id), element)
        else:
            self._error(connection, f"{wire.ROOM_EXCEPTION}Client is not a member of game {room.id}", element)

    def _on_close(self, connection: Connection, element: Element) -> None:
        if element.tag == wire.CLOSE_ALIAS and connection.envelope == ENVELOPE_2022:
            connection.drop("unknown element <close> (22.x had no close alias)")
            return
        if element.tag == wire.CLOSE_ALIAS and not connection.close_alias:
            connection.protocol_error = True  # 24.x: an unknown element, LEFT PROTOCOL_ERROR
            connection.drop("unknown element <close> (24.x had no close alias)")
            return
        connection.close_stream("the client closed the connection")
