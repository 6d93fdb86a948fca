"""A game room that speaks the modern (2022+) dialect: teams ONE/TWO, ``moveRequest``, the
2022 or 2025 result envelope, and the pause/step semantics of the 22.x+ servers.

It is :class:`~swc_local.server.xml.room.GameRoom`'s referee (seats, observers, the order of a
move's checks, the hard-timeout watcher, pause and step, recording and closing) with the 2022+
hooks: the welcome and the envelopes, what a paused room shows, the turn and rule faults, a
player leaving before the start, cancel, and the 2022/2025 results.  Which envelope a room uses comes from its plugin
(``plugin.envelope``, :data:`~swc_local.games.plugin.ENVELOPE_2022` by default).

Spec-conformance notes (ostseeschach_2022.md A.3-A.5, modern_dialect_2023plus.md §1-§4):

* Start: ``welcomeMessage`` to ONE then TWO; the turn-0 memento to observers, ONE, TWO; the
  move request.  A paused room sends the first memento to observers only.  After every move:
  memento to observers, ONE, TWO (observers only while paused), then the next request or the
  result to ONE, TWO, observers and ``left`` to ONE, TWO, observers.
* ``step`` on a paused running room without a pending request: memento to observers and both
  players, then the request.  Unpause: ``paused="false"`` to observers, then the same as a step
  when no request is pending.  Pause: ``paused="true"`` to observers; a pending move is still
  taken.  Pause to the state the room has, and step on a room that is not paused, are ignored.
* Faults: not on turn / not requested: error (with ``<originalMessage>``) to the offender only,
  RULE_VIOLATION.  Invalid move: error to the offender and observers.  An undecodable move or an
  unknown data class: the connection is closed without a word, LEFT (``MalformedMove.cause``).
  Room data that is a known non-move message, or no data at all (``<room roomId="R"/>``, the
  2020 Java simple client's empty move): an errorpacket (``RoomPacket(roomId=R, data=null)``),
  nothing else happens, the move request stays pending (golden/empty_move: 22.final, 23.0.3,
  24.2.5, 26.1.0; 25.x and 27.0.4 throw the same exception in ``Lobby.onRequest``, read from
  the backend, not run).
  Soft timeout: checked when the move arrives, the move is discarded.  Hard timeout: a timer.
* 2022 scores: the offender 0 with its cause, the other 2; hard timeouts are written with cause
  ``SOFT_TIMEOUT`` and no ``<winner>`` follows a timeout (both copied from 22.final).
* 2025 scores: no cause; the violator's parts all 0; ``<winner>`` always, ``regular="false"``
  with the violation text naming the violator (its display name, or its team when blank).  A
  game cancelled without a violator is scored as 25.x ``getResult`` does: the current leader by
  the ranking score parts gets 2 (a tie 1 each); its reason is the game's ``early_outcome()``
  or "" (the fragments' explanation texts are not in our contract).

Deliberate differences (README, "Differences from the official server"):

* Timeouts apply to ``<join/>`` players too (the contest's rule; 22.final never timed them
  out), unless the server's ``timeout`` key is false.
* A ``<join/>`` room whose only player leaves before an opponent came is closed, so the next
  ``<join/>`` gets a fresh room (22.final left a dead room behind).
* A forced step on a room with fewer than two players is ignored and the admin stays
  connected (2022 envelope; 22.final dropped the admin) or cancels the room (2025, as 25.x).
* A result is always sent, also when the game cannot compute a part (the game reports 0).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import ClassVar

from swc_local.games.plugin import ENVELOPE_2025, MODERN, InvalidMove, Outcome, ScoreFragment
from swc_local.protocol import modern as wire
from swc_local.protocol.element import Element
from swc_local.server.xml.room import GameRoom, PlayerSlot, Status

log = logging.getLogger("swc.room")

TEAMS = ("ONE", "TWO")
LEFT_2022 = "Der Spieler hat das Spiel verlassen: {cause}"
TIMEOUT_2022 = "Der Spieler hat innerhalb von {seconds} Sekunden nach Aufforderung keinen Zug gesendet"
SOFT_2025 = "{name} hat fuer die Antwort auf die Zugaufforderung laenger als {seconds} Sekunden gebraucht."
HARD_2025 = "{name} hat innerhalb von {seconds} Sekunden nach Aufforderung keinen Zug gesendet."
LEFT_2025 = "{name} hat das Spiel verlassen: {cause}"
RULE_2025 = "Regelverletzung von {name}: {reason}"
PROCESS_2025 = "Missachtung des Spielablaufs von {name}: {reason}"
TIE_2025 = "Beide Spieler sind gleichauf"


@dataclass(eq=False)
class ModernSlot(PlayerSlot):
    """A seat with a team and the fault the 2022+ result reports for it."""

    process_violation: bool = False  # the violation was a turn-order one (2025 wording)

    @property
    def team(self) -> str:
        return TEAMS[self.seat]

    @property
    def label(self) -> str:
        return self.team

    @property
    def name(self) -> str:
        """The display name as the official server had it: empty for ``<join/>`` players."""
        return self.descriptor.display_name or ""

    @property
    def shown_name(self) -> str:
        """What 2025 texts put for ``%s``: the display name, or the team when it is blank."""
        return self.name or self.team

    @property
    def at_fault(self) -> bool:
        return self.soft_timeout or self.hard_timeout or self.violation is not None or self.left


@dataclass(eq=False, repr=False)  # GameRoom's short repr, not a generated one with every field
class ModernRoom(GameRoom):
    """A 2022+ room: the referee of :class:`GameRoom` with the 2022+ hooks."""

    dialect: ClassVar[str] = MODERN
    slot_class: ClassVar[type[PlayerSlot]] = ModernSlot
    admins_see_join_before_start: ClassVar[bool] = False
    joined_on_reservation: ClassVar[bool] = True
    counts_test_scores: ClassVar[bool] = False
    cancelled: bool = False

    @property
    def envelope(self) -> str:  # type: ignore[override]
        return self.plugin.envelope

    @property
    def takes_joiners(self) -> bool:
        return not self.prepared  # a freed reservation of a prepared room is no join seat

    def join_notice(self, existing: bool) -> Element:
        return wire.joined_game_room(self.id, self.player_count)

    # -- start and sending ----------------------------------------------------------------------

    def greet(self) -> None:
        """``welcomeMessage`` to ONE, then TWO; a ``<join/>`` player that a join naming
        another game than ``defaultGame`` took along is told which game it became (``gameType``,
        an attribute the official clients ignore: XStream and xsdata skip unknown attributes)."""
        for slot in self.slots:
            welcome = wire.welcome(self.id, slot.team)
            if slot.announce_game:
                welcome.children[0].attrs["gameType"] = self.plugin.game_type
            slot.send(welcome)

    def envelope_memento(self, state: Element) -> Element:
        return wire.memento(self.id, state)

    def envelope_move_request(self) -> Element:
        return wire.move_request(self.id)

    def show_paused_state(self) -> None:
        self.to_observers(self._memento())

    # -- admin controls -----------------------------------------------------------------------

    def pause_notice(self, pause: bool) -> None:
        self.to_observers(wire.paused(self.id, pause).render(1).encode())

    def request_pending(self) -> bool:
        return self.pending is not None

    def step_ignored_while_pending(self) -> bool:
        """24.x (``plugin.step_repeats_request``): a step while a request is open sends the
        memento and a second request for the same turn (MQ 2024 spec §10 D4)."""
        return self.request_pending() and not self.plugin.step_repeats_request

    def forced_start(self) -> None:
        if self.envelope == ENVELOPE_2025:
            log.info("room %s: forced step with %d players cancels it", self.id, self.player_count)
            self.cancel()
        else:
            log.info("room %s: forced step with %d players ignored", self.id, self.player_count)

    def end_cancelled(self) -> None:
        """A result (nobody at fault; empty seats LEFT NOT_CONNECTED) and ``left``."""
        for slot in self.slots:
            if not slot.occupied:
                slot.left, slot.left_cause = True, "NOT_CONNECTED"
        self.cancelled = True
        self.finish()

    # -- player input -------------------------------------------------------------------------

    def not_a_move(self, slot: ModernSlot, request: Element) -> None:
        """Room data that is a known non-move message, or none at all (the empty move of the
        2020 Java simple client, ``<room roomId="R"/>``): an errorpacket, the game is untouched
        and the move request stays pending (golden/empty_move: 22.final to 26.1.0; 25.x and
        27.0.4 throw the same GameRoomException in ``Lobby.onRequest`` before the room sees it)."""
        data = request.find("data")
        message = wire.ROOM_EXCEPTION + "Received non-move packet: " + wire.data_text(self.id, data)
        log.info("room %s: %s sent %s, answered with an errorpacket", self.id, slot.label,
                 "an empty move" if data is None else f"room data of class {data.get('class')!r}")
        if slot.connection is not None:
            slot.connection.send(wire.errorpacket(message, request))

    def on_message(self, slot: PlayerSlot, message: Element) -> None:
        data = message.find("data")
        data_class = data.get("class") if data is not None else None
        if data is None or (data_class in wire.ROOM_DATA_CLASSES and data_class not in self.plugin.move_classes):
            self.not_a_move(slot, message)
        else:
            self.on_data(slot, data)

    def accepts(self, slot: PlayerSlot, data: Element | None) -> bool:
        data_class = data.get("class") if data is not None else None
        if data is None or data_class not in self.plugin.move_classes:
            cause = "PROTOCOL_ERROR" if self.envelope == ENVELOPE_2025 else "UNKNOWN"
            self._player_left(slot, f"unknown room data {data_class!r}", cause)
            return False
        if self.status is not Status.RUNNING:
            log.info("room %s: %s moved before the game started, ignored", self.id, slot.label)
            return False
        return True

    def requested(self, slot: PlayerSlot) -> bool:
        pending = self.pending
        return pending is not None and pending.slot is slot

    def turn_fault(self, slot: ModernSlot, current: ModernSlot, move: object | None, data: Element | None) -> None:
        if slot is not current:
            text = (
                f"It's not your turn yet; expected: {current.team}({current.name}), got {slot.team}({slot.name}) "
                f"(msg was {self.game.move_text(move)})."
            )
        else:
            text = f"Move from {slot.team}({slot.name}) has not been requested."
        log.info("room %s: %s: %s", self.id, slot.team, text)
        slot.send(wire.error(self.id, text, self.plugin.move_element(move)))
        slot.violation = text
        slot.process_violation = True
        self.finish()

    def rule_fault(self, slot: PlayerSlot, error: InvalidMove, move: object | None, data: Element | None) -> None:
        """The error to the offender and the observers; the connection stays open."""
        message = f"Ungueltiger Zug von '{slot.name}'.\n{error.detail}"
        rendered = wire.error(self.id, message, self.plugin.move_element(move)).render(1).encode()
        slot.send(rendered)
        self.to_observers(rendered)
        slot.violation = error.reason
        self.finish()

    def note_connection_lost(self, slot: PlayerSlot) -> None:
        connection = slot.connection
        if connection is not None and connection.protocol_error and self.envelope == ENVELOPE_2025:
            slot.left_cause = slot.left_cause or "PROTOCOL_ERROR"  # unparseable input (25.x)

    def left_before_start(self, slot: PlayerSlot) -> None:
        if not self.prepared:
            # a <join/> room left before it started: free the seat (22.final kept a dead room)
            slot.occupied = False
            slot.disconnected = False
            if self.player_count == 0:
                self._abandon()
        else:
            slot.left = True
            log.info("room %s: %s left before the start; the room ends", self.id, slot.team)
            self.cancel()

    # -- the end ------------------------------------------------------------------------------

    def final_result(self) -> wire.Result:
        outcome = self.game.outcome()
        if self.envelope == ENVELOPE_2025:
            if outcome is None and not any(slot.at_fault for slot in self.slots):
                outcome = self._current_winner()  # stopped early (cancel): as 25.x currentWinner()
            return self.result_2025(outcome)
        return self.result_2022(None if self.cancelled else outcome)

    def _current_winner(self) -> Outcome:
        """The 25.x ``currentWinner()`` of a game stopped before its end: the game's own
        ``early_outcome()`` if it has one, else the first ranking score part (after the win
        points) where one team is strictly ahead (reason "": the fragment's explanation text
        is not part of our plugin contract), else a tie."""
        early = self.game.early_outcome()
        if early is not None:
            return early
        parts = [self.game.score_parts(seat) for seat in (0, 1)]
        for index, fragment in enumerate(self.plugin.score_fragments[1:]):
            if not fragment.relevant_for_ranking or index >= len(parts[0]):
                continue
            try:
                one, two = float(parts[0][index]), float(parts[1][index])
            except ValueError:
                continue
            if one != two:
                return Outcome(0 if one > two else 1, "")
        return Outcome(None, TIE_2025)

    def _fragments(self) -> tuple[ScoreFragment, ...]:
        return tuple(self.plugin.score_fragments)

    def _points(self, slot: ModernSlot, outcome: Outcome | None) -> int:
        opponent = self.slots[1 - slot.seat]
        if slot.at_fault:
            return 0
        if opponent.at_fault:
            return 2
        if outcome is None:
            return 0  # stopped early (cancel): nobody has the win/draw points
        return 1 if outcome.winner is None else (2 if outcome.winner == slot.seat else 0)

    def _parts(self, slot: ModernSlot, points: int) -> tuple[str, ...]:
        return (str(points), *self.game.score_parts(slot.seat))

    def result_2022(self, outcome: Outcome | None) -> wire.Result:
        scores = []
        for slot in self.slots:
            cause, reason = "REGULAR", ""
            if slot.soft_timeout:
                cause, reason = "SOFT_TIMEOUT", TIMEOUT_2022.format(seconds=self.soft_timeout_ms // 1000)
            elif slot.hard_timeout:  # sic: 22.final wrote the hard timeout with cause SOFT_TIMEOUT
                cause, reason = "SOFT_TIMEOUT", TIMEOUT_2022.format(seconds=self.hard_timeout_ms // 1000)
            elif slot.violation is not None:
                cause, reason = "RULE_VIOLATION", slot.violation
            elif slot.left:
                cause, reason = "LEFT", LEFT_2022.format(cause=slot.left_cause or "LOST_CONNECTION")
            parts = self._parts(slot, self._points(slot, outcome))
            scores.append(wire.Score(slot.team, slot.name, parts, cause, reason))
        innocent = [s for s in self.slots if s.violation is None and not s.left]
        winner = None
        if len(innocent) == 1:
            winner = innocent[0].team
        elif len(innocent) == 2 and not any(s.at_fault for s in self.slots) and outcome is not None:
            winner = None if outcome.winner is None else TEAMS[outcome.winner]
        return wire.Result(self._fragments(), tuple(scores), wire.Winner(winner) if winner else None)

    def _violation_text(self, slot: ModernSlot) -> str:
        name = slot.shown_name
        if slot.soft_timeout:
            return SOFT_2025.format(name=name, seconds=self.soft_timeout_ms // 1000)
        if slot.hard_timeout:  # sic: the 25.x+ text names the soft limit
            return HARD_2025.format(name=name, seconds=self.soft_timeout_ms // 1000)
        if slot.violation is not None:
            template = PROCESS_2025 if slot.process_violation else RULE_2025
            return template.format(name=name, reason=slot.violation)
        return LEFT_2025.format(name=name, cause=slot.left_cause or "LOST_CONNECTION")

    def result_2025(self, outcome: Outcome | None) -> wire.Result:
        fragments = self._fragments()
        scores = []
        for slot in self.slots:
            if slot.at_fault:
                parts = tuple("0" for _ in fragments)  # ScoreDefinition.emptyScore
            else:
                parts = self._parts(slot, self._points(slot, outcome))
            scores.append(wire.Score(slot.team, slot.name, parts))
        violators = [s for s in self.slots if s.at_fault]
        if violators:
            violator = violators[0]
            other = self.slots[1 - violator.seat]
            team = None if other.at_fault else other.team
            winner = wire.Winner(team, regular=False, reason=self._violation_text(violator))
        else:
            assert outcome is not None
            team = None if outcome.winner is None else TEAMS[outcome.winner]
            winner = wire.Winner(team, regular=outcome.regular, reason=outcome.reason)
        return wire.Result(fragments, tuple(scores), winner)
