"""The 2021 hybrid dialect (Blokus 2021, backend 21.4.0): a room and the lobby's answers.

21.x sat between the two dialects the other modules speak (spec blokus_2021.md §8.1): the
2018/2019 envelope -- ``sc.framework.plugins.protocol.MoveRequest``, results with
``<score cause reason><part>`` and ``<winner displayName><color class="team">``, a connection
closed on every error -- with the 2022 team names (``ONE``/``TWO``), ``welcomeMessage
color="ONE"``, ``class="state"`` and the 2022 admin requests (``password``, ``reserved``,
``pause``, ``joinedGameRoom playerCount``).  :class:`Season2021Room` is
:class:`~swc_local.server.xml.room.GameRoom`'s referee with the 2021 hooks;
:class:`Season2021Lobby` answers the lobby requests; server/xml/dialects.py routes to both by the
plugin's dialect (``SEASON_2021``).

Spec-conformance notes (§7, §8, §13; the captures in golden/blokus_2021 show the bytes):

* Start: ``joined`` at once (also for ``joinPrepared``); when full ``welcomeMessage`` to ONE and
  TWO, the memento to observers and players (observers only while paused), the MoveRequest.  The
  admins' ``joinedGameRoom playerCount`` comes after a ``<join>`` was handled (§8.3).
* Unpause: the memento to observers and players, the MoveRequest, then ``paused`` to the
  observers (``G/admin_prepared``).  A step on a running room is ignored.
* Invalid move: the error (``Ungueltiger Zug von 'NAME'.\\n<exception toString>`` with
  ``<originalMessage>``) to the offender and the observers, result and ``left`` to everyone, then
  to the offender ``errorpacket`` (GameLogicException) + ``<sc.protocol.CloseConnection/>`` +
  ``</protocol>`` (§8.5).  Not your turn: the error and the NotYourTurnException errorpacket to
  the offender, its connection closed, scored LEFT (§13.4).
* Malformed moves and unknown data classes drop the sender without a byte, LEFT (§13.6).
* An empty move (``<room roomId="R"/>``): the Lobby's ``GameRoomException: Received non-move
  packet: RoomPacket(roomId=R, data=null)`` errorpacket with ``<originalRequest class="room"
  roomId="R"/>``, CloseConnection, ``</protocol>``; the other player wins by LEFT
  (golden/empty_move, ``official_2021.txt``).
* Scores (§7.2): ``Gewinner`` 2/1/0 at a regular end, 2 for the innocent side of a violation,
  a departure or a timeout; the second part the team's real points, also for a violator.  A hard
  timeout is written ``SOFT_TIMEOUT`` with the 10-second text (§13.2).  Winners (§7.4, a defect
  copied as the contract decides, §13.1): the players who neither violated nor left when someone
  did, otherwise **by points alone** -- also after a timeout or a cancel, even naming the player
  who timed out; a tie names both.
* ``<join>`` players never time out (§13.3): a silent client holds its room until it leaves or
  an admin cancels it.  Prepared slots time out when ``canTimeout="true"``.
* A forced step on a prepared room that lacks a player greets the seated players and drops the
  admin without a word (§13.7); the room keeps waiting.
* Choices where the spec is silent: data from the player on turn before its first request (a
  paused room not yet stepped) is taken as a move, as 2018/2019 did; a known non-move data class
  from a player drops it (LEFT) like an unknown one; ``prepare`` of an unknown game type is
  answered like ``join``'s (UnknownGameTypeException errorpacket, closed), with too many or no
  slots it drops the admin; an unauthenticated admin request other than ``prepare`` gets the same
  UnauthenticatedException errorpacket and close as ``prepare``; unknown rooms in ``pause``,
  ``step`` and ``cancel`` are answered as in ``observe``; the ``available`` list of an unknown
  game type names this dialect's games; a ``<join>`` room left by its only player before the
  start is removed (as in 2018/2019 here).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from swc_local.games import registry
from swc_local.games.plugin import SEASON_2021, InvalidMove
from swc_local.protocol import messages as msg
from swc_local.protocol import modern as wire
from swc_local.protocol.element import Element
from swc_local.protocol.messages import ROOM_REQUESTS
from swc_local.server.xml.classic_lobby import ClassicLobby
from swc_local.server.xml.modern_room import ModernSlot
from swc_local.server.xml.room import LEFT_REASON, GameRoom, PlayerSlot, Status, timeout_reason

if TYPE_CHECKING:
    from swc_local.server.xml.connection import Connection

log = logging.getLogger("swc.room")

TEAM_TEXT = ("Team 1", "Team 2")  # Team.toString, as the not-your-turn texts show it
GAME_LOGIC = "sc.api.plugins.exceptions.GameLogicException: "
UNKNOWN_GAME = "sc.server.plugins.UnknownGameTypeException: Unknown GameType UUID: {game} (available: {known})"
ADMIN_TAGS = ROOM_REQUESTS | {"prepare", "testMode", "scoreForPlayer", "freeReservation", "timeout"}
CLASSIC_ANSWERED = {"testMode", "scoreForPlayer", "freeReservation", "timeout"}
"""The 2018/2019 admin requests 21.x still had: answered as :class:`ClassicLobby` answers them."""
CLOSE_REQUEST = "sc.protocol.CloseConnection"


def close_with(connection: Connection, message: str, request: Element | None, why: str) -> None:
    """``<errorpacket>``, ``<sc.protocol.CloseConnection/>``, ``</protocol>``, closed (§8.2)."""
    log.info("%r: %s", connection, message)
    connection.send(wire.errorpacket(message, request))
    connection.close_politely(why)


def season_game_types() -> list[str]:
    return [plugin.game_type for plugin in registry.all_plugins() if plugin.dialect == SEASON_2021]


@dataclass(eq=False, repr=False)  # GameRoom's short repr
class Season2021Room(GameRoom):
    """A 2021 room: the referee of :class:`GameRoom` with the 2021 hooks."""

    dialect: ClassVar[str] = SEASON_2021
    slot_class: ClassVar[type[PlayerSlot]] = ModernSlot
    admins_see_join_before_start: ClassVar[bool] = False
    joined_on_reservation: ClassVar[bool] = True
    cancelled: bool = False

    @property
    def takes_joiners(self) -> bool:
        return not self.prepared

    def join_notice(self, existing: bool) -> Element:
        return wire.joined_game_room(self.id, self.player_count)

    def greet(self) -> None:
        for slot in self.slots:
            slot.send(wire.welcome(self.id, slot.label))

    def show_paused_state(self) -> None:
        self.to_observers(self._memento())

    def request_pending(self) -> bool:
        return self.pending is not None

    def pause_notice(self, pause: bool) -> None:
        """Unpausing sends the state and the request first, then ``paused`` (``G/admin_prepared``)."""
        if not pause and self.status is Status.RUNNING and not self.request_pending():
            self.broadcast_state()
            self.request_move()
        self.to_observers(wire.paused(self.id, pause).render(1).encode())

    def forced_start(self) -> None:
        log.info("room %s: forced step with %d players ignored", self.id, self.player_count)

    def end_cancelled(self) -> None:
        self.cancelled = True
        self.finish()

    def accepts(self, slot: PlayerSlot, data: Element | None) -> bool:
        if data is None:
            self._empty_move(slot)
            return False
        data_class = data.get("class")
        if data_class not in self.plugin.move_classes:
            self._player_left(slot, f"room data of class {data_class!r}, not a move")
            return False
        return super().accepts(slot, data)

    def _empty_move(self, slot: PlayerSlot) -> None:
        """``<room roomId="R"/>`` (golden/empty_move, 21.4.0): the Lobby's GameRoomException
        errorpacket echoing the room, CloseConnection, ``</protocol>``; the game goes on without
        the sender, who is scored LEFT (before the start: its seat is given up)."""
        connection = slot.connection
        if connection is not None:
            message = f"{wire.ROOM_EXCEPTION}Received non-move packet: {wire.data_text(self.id, None)}"
            close_with(connection, message, Element("room", {"roomId": self.id}), f"room {self.id}: an empty move")
        self.on_disconnect(slot)

    def _echo(self, move: object) -> Element:
        """The room packet as the server re-serialized it for ``<originalRequest>``."""
        return Element("originalRequest", {"class": "room", "roomId": self.id}, [self.plugin.move_element(move)])

    def turn_fault(self, slot: ModernSlot, current: ModernSlot, move: object | None, data: Element | None) -> None:
        expected, got = f"{TEAM_TEXT[current.seat]}({current.name})", f"{TEAM_TEXT[slot.seat]}({slot.name})"
        move_text = self.game.move_text(move)
        text = f"It's not your turn yet; expected: {expected}, got {got} (msg was {move_text})."
        slot.send(wire.error(self.id, text, self.plugin.move_element(move)))
        connection = slot.connection
        if connection is not None:
            detail = f"NotYourTurnException(expected={expected}, actual={got}, data={move_text})"
            connection.send(Element("errorpacket", {"message": detail}, [self._echo(move)]))
            connection.close_politely(f"room {self.id}: {text}")
        self.on_disconnect(slot)

    def rule_fault(self, slot: PlayerSlot, error: InvalidMove, move: object | None, data: Element | None) -> None:
        rendered = wire.error(self.id, f"Ungueltiger Zug von '{slot.name}'.\n{error.detail}",
                              self.plugin.move_element(move)).render(1).encode()
        slot.send(rendered)
        self.to_observers(rendered)
        slot.violation = error.reason
        connection = slot.connection
        self.finish()
        if connection is not None:
            connection.send(Element("errorpacket", {"message": GAME_LOGIC + error.detail}, [self._echo(move)]))
            connection.close_politely(f"room {self.id}: rule violation")

    def final_result(self) -> msg.GameResult:
        outcome = None if self.cancelled else self.game.outcome()
        scores = []
        for slot in self.slots:
            opponent = self.slots[1 - slot.seat]
            points = 0
            if outcome is not None:
                points = 1 if outcome.winner is None else (2 if outcome.winner == slot.seat else 0)
            if (
                (opponent.violation is not None and slot.violation is None)
                or (opponent.left and not slot.left)
                or opponent.soft_timeout or opponent.hard_timeout
            ):
                points = 2
            cause, reason = "REGULAR", ""
            if slot.soft_timeout:
                cause, reason = "SOFT_TIMEOUT", timeout_reason(self.soft_timeout_ms)
            elif slot.hard_timeout:  # sic: 21.4.0 writes the hard timeout as SOFT_TIMEOUT (§13.2)
                cause, reason = "SOFT_TIMEOUT", timeout_reason(self.hard_timeout_ms)
            elif slot.violation is not None:
                cause, reason = "RULE_VIOLATION", slot.violation
            elif slot.left:
                cause, reason = "LEFT", LEFT_REASON
            scores.append(msg.PlayerScore(cause=cause, reason=reason,
                                          parts=(str(points), *self.game.score_parts(slot.seat))))
        return msg.GameResult(definition=tuple(self.plugin.score_fragments), scores=tuple(scores),
                              winners=tuple(self.game.winner_element(seat) for seat in self._winners()))

    def _winners(self) -> list[int]:
        """§7.4: the innocent when someone violated or left, else by the points part alone."""
        if any(slot.violation is not None or slot.left for slot in self.slots):
            return [slot.seat for slot in self.slots if slot.violation is None and not slot.left]
        one, two = (float(self.game.score_parts(seat)[0]) for seat in (0, 1))
        return [0, 1] if one == two else [0 if one > two else 1]


class Season2021Lobby:
    """The answers of the 2021 lobby requests, with the shared ``Lobby``'s operations."""

    def __init__(self, lobby) -> None:
        self.lobby = lobby
        self.classic = ClassicLobby(lobby)

    def handle(self, connection: Connection, element: Element) -> None:
        connection.dialect = connection.dialect or SEASON_2021
        tag = element.tag
        if tag in ADMIN_TAGS and not self.lobby.admit_admin(connection, f"<{tag}>"):
            close_with(connection, wire.unauthenticated(element), element, f"<{tag}> without authentication")
            return
        if tag in CLASSIC_ANSWERED:
            self.classic.handle(connection, element)
            return
        if tag in ROOM_REQUESTS:
            self._room_request(connection, element)
            return
        if tag == CLOSE_REQUEST:
            connection.close_stream("the client closed the connection")
            return
        handler = getattr(self, "_on_" + tag, None) if tag.isidentifier() else None
        if handler is None:
            connection.drop(f"unknown element <{tag}>")
            return
        handler(connection, element)

    # -- joining --------------------------------------------------------------------------------

    def _unknown_game(self, connection: Connection, element: Element, game_type: str) -> None:
        message = UNKNOWN_GAME.format(game=game_type, known=", ".join(season_game_types()))
        close_with(connection, message, element, f"{element.tag}: unknown game type {game_type!r}")

    def _on_join(self, connection: Connection, element: Element) -> None:
        game_type = element.get("gameType")
        if game_type is None:  # a non-null Kotlin field: XStream fails, the client is dropped
            connection.drop("join without gameType")
            return
        plugin = registry.get(game_type)
        if plugin is None or plugin.dialect != SEASON_2021:
            self._unknown_game(connection, element, game_type)
            return
        if self.lobby.seat_limit_reached(connection):
            return
        self.lobby.join(connection, plugin, msg.SlotDescriptor(display_name="", can_timeout=False))

    def _on_joinPrepared(self, connection: Connection, element: Element) -> None:
        if self.lobby.join_prepared(connection, element.get("reservationCode") or "", SEASON_2021) is not None:
            close_with(connection, wire.UNKNOWN_RESERVATION, element, "joinPrepared: unknown reservation code")

    def _on_joinRoom(self, connection: Connection, element: Element) -> None:
        room_id = element.get("roomId")
        room = self.lobby.rooms.get(room_id or "")
        if room is None or room.dialect != SEASON_2021:
            close_with(connection, wire.room_not_found(room_id), element, "joinRoom: unknown room")
            return
        slot = next((slot for slot in room.slots if slot.is_open), None)
        if slot is None or room.status is not Status.CREATED:
            close_with(connection, f"{wire.ROOM_EXCEPTION}Room {room_id} is already full!", element, "joinRoom: full")
            return
        if not self.lobby.seat_limit_reached(connection):
            self.lobby.seat(connection, room, slot)

    # -- admin ----------------------------------------------------------------------------------

    def _on_authenticate(self, connection: Connection, element: Element) -> None:
        if not self.lobby.check_passphrase(connection, element.get("password")):
            close_with(connection, wire.AUTHENTICATION_FAILED, element, "authentication failed")

    def _on_prepare(self, connection: Connection, element: Element) -> None:
        request = wire.decode_prepare(element)
        plugin = registry.get(request.game_type or "")
        if plugin is None or plugin.dialect != SEASON_2021:
            self._unknown_game(connection, element, request.game_type or "null")
            return
        self.lobby.answer_prepare(connection, request, closes=frozenset())

    def _room_request(self, connection: Connection, element: Element) -> None:
        tag, room_id = element.tag, element.get("roomId")
        room = self.lobby.rooms.get(room_id or "")
        if room is None:
            close_with(connection, wire.room_not_found(room_id), element, f"{tag}: unknown room")
            return
        forced = wire.java_bool(element.get("forced"))
        if tag == "step" and forced and room.status is Status.CREATED and not room.full:
            room.greet()  # 21.4.0 greets who is there, then fails on the empty seat (§13.7)
            connection.drop(f"room {room.id}: forced step with {room.player_count} players")
            return
        flag = wire.java_bool(element.get("pause")) if tag == "pause" else forced
        self.lobby.room_request(connection, tag, room_id, flag, lambda: None)

    # -- players --------------------------------------------------------------------------------

    def _on_room(self, connection: Connection, element: Element) -> None:
        """Room data of a client that does not play in that room (its own went to its room)."""
        room_id = element.get("roomId")
        room = self.lobby.rooms.get(room_id or "")
        if room is None:
            message = wire.room_not_found(room_id)
        else:
            message = f"{wire.ROOM_EXCEPTION}Client is not a member of game {room.id}"
        close_with(connection, message, element, f"data for room {room_id!r}, which is not the client's")
