"""The lobby's answers to the 2018/2019 requests.

:class:`~swc_local.server.xml.lobby.Lobby` keeps the rooms, reservations and admins of both
dialects and the operations they share (the passphrase gate, the join path, preparing, seating,
the admin requests about a room); :mod:`~swc_local.server.xml.dialects` decides which dialect
answers a message.  This module never imports the lobby or the 2022+ answers: it is handed the
lobby, as :class:`~swc_local.server.xml.modern_lobby.ModernLobby` is.

Spec-conformance notes (classic lobby spec §2, §5):

* Admin requests from a connection that has not authenticated are silently ignored.
* Lobby errors close the connection as the official server does: "close" (CloseConnection then
  ``</protocol>``) for a wrong passphrase, an unknown game type, an unknown reservation code, an
  unknown room in ``observe``/``step``/``<room>``; "drop" for unknown elements, zero slots, an
  unknown ``freeReservation`` code and an unknown ``scoreForPlayer`` name.
* Each connection gets one passphrase attempt (the official server closes it after a wrong one),
  and the close comes at once; an attempt over the lobby's ``passphraseChecksPerSecond`` is
  closed unchecked with the same answer, so nothing tells the attacker whether its guess was
  looked at.
* Differences, all listed in the README: ``timeout`` on a room that has not started sets the
  slot's flag instead of crashing the admin's connection; ``cancel`` keeps the admin connected;
  ``cancel`` of an unknown room closes the admin's connection.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from swc_local.games import registry
from swc_local.games.plugin import CLASSIC
from swc_local.protocol import messages as msg
from swc_local.protocol.element import Element
from swc_local.server.xml.room import Status

if TYPE_CHECKING:
    from swc_local.server.xml.connection import Connection

log = logging.getLogger("swc.lobby")

PREPARE_CLOSES = frozenset({"game", "slots"})
"""The ``prepare`` refusals that close the admin's connection politely (the rest drop it)."""


class ClassicLobby:
    """The answers of the 2018/2019 requests, with the operations the shared ``Lobby`` (which
    keeps the rooms, reservations and admins of both dialects) offers."""

    def __init__(self, lobby) -> None:
        self.lobby = lobby

    def handle(self, connection: Connection, element: Element) -> None:
        """Process one 2018/2019 message from ``connection``; never raises for anything a
        client sends.  Admin requests of a client that is not an admin are ignored."""
        request = msg.decode_request(element)
        if isinstance(request, msg.ADMIN_REQUESTS) and not self.lobby.admit_admin(connection, type(request).__name__):
            return
        handler = getattr(self, "_on_" + type(request).__name__)
        handler(connection, request)

    # -- joining --------------------------------------------------------------------------------

    def _on_JoinPrepared(self, connection: Connection, request: msg.JoinPrepared) -> None:
        refused = self.lobby.join_prepared(connection, request.reservation_code or "", CLASSIC)
        if refused is not None:
            connection.close_politely(f"joinPrepared: {refused}")

    def _on_Join(self, connection: Connection, request: msg.Join) -> None:
        if self.lobby.seat_limit_reached(connection):
            return
        plugin = registry.get(request.game_type or "")
        if plugin is None:
            connection.close_politely(f"join: unknown game type {request.game_type or ''!r}")
            return
        self.lobby.join(connection, plugin, msg.SlotDescriptor(display_name="Unknown", can_timeout=True))

    # -- admin ----------------------------------------------------------------------------------

    def _on_Authenticate(self, connection: Connection, request: msg.Authenticate) -> None:
        verdict = self.lobby.check_passphrase(connection, request.passphrase)
        if verdict is None:
            connection.close_politely("authentication failed (not checked: passphrase rate limit)", logging.DEBUG)
        elif not verdict:
            connection.close_politely("authentication failed")

    def _on_Prepare(self, connection: Connection, request: msg.Prepare) -> None:
        self.lobby.answer_prepare(connection, request, closes=PREPARE_CLOSES)

    def _close_on_unknown_room(self, connection: Connection, what: str, room_id: str | None) -> Callable[[], None]:
        return lambda: connection.close_politely(f"{what}: unknown room {room_id!r}")

    def _on_Observe(self, connection: Connection, request: msg.Observe) -> None:
        missing = self._close_on_unknown_room(connection, "observe", request.room_id)
        self.lobby.room_request(connection, "observe", request.room_id, False, missing)

    def _on_Pause(self, connection: Connection, request: msg.Pause) -> None:
        def missing() -> None:
            log.info("%r: pause of unknown room %r ignored", connection, request.room_id)

        self.lobby.room_request(connection, "pause", request.room_id, request.pause, missing)

    def _on_Step(self, connection: Connection, request: msg.Step) -> None:
        missing = self._close_on_unknown_room(connection, "step", request.room_id)
        self.lobby.room_request(connection, "step", request.room_id, request.forced, missing)

    def _on_Cancel(self, connection: Connection, request: msg.Cancel) -> None:
        missing = self._close_on_unknown_room(connection, "cancel", request.room_id)
        self.lobby.room_request(connection, "cancel", request.room_id, False, missing)

    def _on_FreeReservation(self, connection: Connection, request: msg.FreeReservation) -> None:
        entry = self.lobby.reservations.pop(request.reservation or "", None)
        if entry is None:
            connection.drop("freeReservation: unknown reservation code")
            return
        room, seat = entry
        room.slots[seat].reservation = None
        log.info("room %s: reservation of %s freed", room.id, room.slots[seat].label)
        if room.status is Status.CREATED and room.slots[seat].is_open:
            self.lobby.mark_open(room)

    def _on_Timeout(self, connection: Connection, request: msg.Timeout) -> None:
        room = self.lobby.rooms.get(request.room_id or "")
        if room is None:
            connection.close_politely(f"timeout: unknown room {request.room_id!r}")
        elif request.slot in (0, 1):
            room.slots[request.slot].can_timeout = request.activate

    def _on_TestMode(self, connection: Connection, request: msg.TestMode) -> None:
        self.lobby.test_mode = request.test_mode
        connection.send(msg.testing(request.test_mode))

    def _on_ScoreForPlayer(self, connection: Connection, request: msg.ScoreForPlayer) -> None:
        scores = self.lobby.test_scores.get(request.display_name or "")
        if scores is None:
            connection.drop(f"scoreForPlayer: unknown name {request.display_name!r}")
            return
        connection.send(self._player_score(request.display_name or "", scores))

    def _player_score(self, name: str, scores) -> Element:
        """``playerScore`` of ``scores`` (the lobby's ``TestScores`` of ``name``)."""
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

    # -- players --------------------------------------------------------------------------------

    def _on_CloseConnection(self, connection: Connection, request: msg.CloseConnection) -> None:
        connection.drop("the client closed the connection")

    def _on_RoomPacket(self, connection: Connection, request: msg.RoomPacket) -> None:
        # a player's own room data went to its room in Lobby.receive: this is someone else's room
        connection.close_politely(f"data for room {request.room_id!r}, which is not the client's")

    def _on_UnknownMessage(self, connection: Connection, request: msg.UnknownMessage) -> None:
        connection.drop(f"unknown element <{request.tag}>")
