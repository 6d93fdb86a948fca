"""The 2020 season's variant of the classic dialect (Hive, ``spec/hive_2020.md`` §8-§10).

The 2020 server is the 2019 one with the 2020 SDK's changes; what the room and the lobby do
differently is here, as overrides of the classic :class:`~swc_local.server.xml.room.GameRoom`
hooks and of :class:`~swc_local.server.xml.classic_lobby.ClassicLobby`; everything else (framing,
welcome, move request, pause and step, timeouts, lobby errors) is the classic code unchanged.
:mod:`~swc_local.server.xml.dialects` picks the room for a classic game of season 2020, and the
lobby when the server emulates a 2020 server (``lobbyDialect=2020``).

Spec-conformance notes:

* §8 invalid move: the offender gets the error with ``<originalRequest>`` (none for a skip or a
  non-move, whose exception names no move), then the result and ``left`` like everyone, then
  CloseConnection and ``</protocol>``; observers get the bare text with ``originalRequest``
  before the result.
* §8 move out of turn (or unrequested): the error with ``originalRequest``, CloseConnection,
  ``</protocol>``; **the game goes on** (defect 1, kept: it is what the season's clients saw).
  The dropped player is asked for its moves as before and scored HARD_TIMEOUT when the hard
  timeout passes; where its seat cannot time out, the classic room's rule ends the game with
  LEFT at that request instead of hanging for ever (a difference, as for 2019 rooms).
* §6.3/§6.4: every score has a ``reason``, ``""`` when there is none.
* An empty move (``<room roomId="R"/>``, what the season's own Java simple client sends without
  a legal move) is the non-move of E: the error, the result and ``left`` to both, CloseConnection
  (golden/empty_move, ``official_2020.txt``).
* §10 lobby (only with ``lobbyDialect=2020``; a mixed server answers ``password=`` as 2022+ and
  ``<join/>`` as the newest season, which every other season's clients need): ``<authenticate
  password>`` is the admin login and ``passphrase=`` is refused like a wrong password (L3);
  ``<join/>`` without gameType and without an open room closes the connection (L13).
* Kept from the classic code, not copied from the official server (spec §12 defect 6):
  ``cancel`` keeps the admin connected.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from swc_local.games import registry
from swc_local.games.plugin import InvalidMove
from swc_local.protocol import messages as msg
from swc_local.protocol.element import Element
from swc_local.server.xml.classic_lobby import ClassicLobby
from swc_local.server.xml.room import NOT_REQUESTED, NOT_YOUR_TURN, GameRoom, PlayerSlot, classic_result, original_request

if TYPE_CHECKING:
    from swc_local.server.xml.connection import Connection

log = logging.getLogger("swc.room")

SEASON = 2020
LOBBY_DIALECT = "2020"
"""The ``lobbyDialect`` value that answers ambiguous lobby requests as the 2020 server did."""


class Season2020Room(GameRoom):
    """A classic room with the 2020 SDK's fault handling and result."""

    def _echo(self, move: object | None, data: Element | None) -> Element | None:
        if move is None or not self.game.echoes_move(move):
            return None
        return original_request(self.plugin, move, data)

    def turn_fault(self, slot: PlayerSlot, current: PlayerSlot, move: object | None, data: Element | None) -> None:
        message = NOT_YOUR_TURN if slot is not current else NOT_REQUESTED
        slot.send(msg.error(self.id, message, original_request(self.plugin, move, data)))
        log.info("room %s: %s sent data out of turn; dropped, the game goes on", self.id, slot.label)
        connection = slot.connection
        self._detach(slot)  # before the close: its end must not count as leaving the game
        if connection is not None:
            connection.close_politely(f"room {self.id}: {message}")

    def rule_fault(self, slot: PlayerSlot, error: InvalidMove, move: object | None, data: Element | None) -> None:
        echo = self._echo(move, data)
        slot.send(msg.error(self.id, f"Ungueltiger Zug von '{slot.display_name}'.\n{error.reason}", echo))
        self.to_observers(msg.error(self.id, error.reason, echo).render(1).encode())
        slot.violation = error.reason
        connection = slot.connection
        self.finish()  # the offender hears the result and left too
        if connection is not None:
            connection.close_politely(f"room {self.id}: rule violation")

    def final_result(self) -> msg.GameResult:
        result = classic_result(self, self.game.outcome())
        scores = tuple(s if s.reason is not None else s.model_copy(update={"reason": ""}) for s in result.scores)
        return result.model_copy(update={"scores": scores})


class Season2020Lobby(ClassicLobby):
    """The 2020 server's lobby: the classic answers with ``password=`` and no ``<join/>``."""

    def handle(self, connection: Connection, element: Element) -> None:
        if element.tag == "authenticate":
            self._on_Authenticate(connection, msg.Authenticate(passphrase=element.get("password")))
            return
        if element.tag == "join" and element.get("gameType") is None:
            self._join_open_room(connection)
            return
        super().handle(connection, element)

    def _join_open_room(self, connection: Connection) -> None:
        """``<join/>``: a seat in an open room of any game, else the close (L13)."""
        for game_type, rooms in self.lobby.open_rooms.items():
            if rooms and (plugin := registry.get(game_type)) is not None:
                self._on_Join(connection, msg.Join(game_type=plugin.game_type))
                return
        connection.close_politely("join without gameType and no open room")
