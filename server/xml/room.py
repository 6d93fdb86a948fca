"""A game room: two player slots, observers, the game, the referee's message order and timeouts.

All methods are synchronous and called from the trio thread (connection tasks and timer tasks),
so a room never needs a lock: one event is processed to the end before the next one starts.

Spec-conformance notes (classic lobby spec §4-§8):

* Message order: states go to observers, then red, then blue; results and ``left`` go to red,
  blue, then observers.  A paused room sends nothing after a move until ``step``/unpause.
* Turn checks come first ("It's not your turn yet." / "We didn't request a data from you yet.",
  both with ``originalRequest``, scored LEFT), then the soft timeout (strictly more than the limit
  since the move request; the move is discarded), then "NAME hat kein Zug-Objekt gesendet." for a
  known non-move payload, then the rules.  As on the official server, once a first move request
  was sent the "requested" flag is never cleared, so in a paused room the side to move may move
  unrequested.
* An empty move (``<room roomId="R"/>``, no ``<data>``: the 2020 Java simple client without a
  legal move) is a non-move like any other: XStream made it ``RoomPacket(data=null)``, the room
  handed ``null`` to the game after the turn checks and the plugins' ``if (!(data instanceof
  Move))`` refused it ("NAME hat kein Zug-Objekt gesendet.", RULE_VIOLATION, no
  ``originalRequest``).  Captured on 20.final (golden/empty_move); 2018/2019 read from the
  season's plugins and ``GameRoom.onEvent`` in the backend, not run.
* Score computation follows §8: a win condition that holds at the end counts for both players;
  the innocent player of a fault gets 2 points and no reason; the offender's own fault wins
  (soft timeout, hard timeout, rule violation, left).
* Differences (operator-only bugs not copied): a second ``step`` or an unpause while a request is
  pending restarts that request's timer instead of leaving a stale timer that fires a spurious
  HARD_TIMEOUT; ``cancel`` does not drop the admin that sent it.
* A ``join`` room whose only player disconnected while waiting is removed without a message (a
  difference: officially the next joiner was paired with the dead player and lost at once).
* A player that disconnected before its prepared game started keeps its slot (official behaviour) and is
  scored HARD_TIMEOUT when its first move request times out; if its slot cannot time out, it is
  scored LEFT at that point instead of hanging the room for ever (a difference).
"""

from __future__ import annotations

import enum
import functools
import logging
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

import trio

from swc_local.games.plugin import CLASSIC, GamePlugin, InvalidMove, MalformedMove, Outcome
from swc_local.protocol import messages as msg
from swc_local.protocol.element import Element

if TYPE_CHECKING:
    from swc_local.server.xml.connection import Connection

log = logging.getLogger("swc.room")

COLORS = ("RED", "BLUE")
LEFT_REASON = "Der Spieler hat das Spiel verlassen"
NOT_YOUR_TURN = "It's not your turn yet."
NOT_REQUESTED = "We didn't request a data from you yet."


def timeout_reason(milliseconds: int) -> str:
    return (
        f"Der Spieler hat innerhalb von {milliseconds // 1000} Sekunden nach Aufforderung "
        "keinen Zug gesendet"
    )


def guarded(method: Callable[..., None]) -> Callable[..., None]:
    """Run a room entry point so that an unexpected error ends the room, never the server.

    The error is logged with the room id and the room ends with a result (:meth:`abort`); when
    the entry point was a player's data, that player is blamed (dropped, LEFT), which is what the
    official server did for any exception in a player's handler.
    """

    @functools.wraps(method)
    def wrapper(self: GameRoom, *args: object) -> None:
        try:
            method(self, *args)
        except Exception:
            log.exception("room %s: unexpected error in %s", self.id, method.__name__)
            blame = args[0] if args and isinstance(args[0], PlayerSlot) else None
            self.abort(blame)

    return wrapper


class Status(enum.Enum):
    CREATED = "created"
    RUNNING = "running"
    OVER = "over"


@dataclass(eq=False)
class PlayerSlot:
    """One seat of a room, and everything the referee remembers about its player."""

    room: GameRoom
    seat: int
    descriptor: msg.SlotDescriptor
    reservation: str | None = None
    connection: Connection | None = None
    occupied: bool = False
    disconnected: bool = False
    can_timeout: bool = True
    soft_timeout: bool = False
    hard_timeout: bool = False
    violation: str | None = None
    left: bool = False
    announce_game: bool = False  # its welcome names the game: a <join/> without gameType that got another than defaultGame
    left_cause: str | None = None  # why it left, as 2022+ results name it (UNKNOWN, PROTOCOL_ERROR, NOT_CONNECTED; None: LOST_CONNECTION)

    @property
    def display_name(self) -> str:
        return self.descriptor.display_name or "Unknown"

    @property
    def name(self) -> str:
        """The name the game and the texts use (the 2022+ seat leaves a missing one empty)."""
        return self.display_name

    @property
    def color(self) -> str:
        return COLORS[self.seat]

    @property
    def label(self) -> str:
        """The seat as the dialect names it (RED/BLUE; ONE/TWO in 2022+ rooms)."""
        return self.color

    @property
    def is_open(self) -> bool:
        """Free for a ``join``: not taken and not reserved."""
        return not self.occupied and self.reservation is None

    def send(self, message: Element | bytes | str) -> None:
        if self.connection is not None:
            self.connection.send(message)


@dataclass(eq=False)
class PendingRequest:
    slot: PlayerSlot
    sent_at: float


def original_request(plugin: GamePlugin, move: object | None, data: Element | None) -> Element | None:
    """The classic ``<originalRequest>`` echo of the offending data (the move as re-encoded);
    none for an empty ``<room>`` (XStream omits a null field)."""
    if data is None and move is None:
        return None
    if move is not None:
        element = plugin.move_element(move)
        return Element("originalRequest", element.attrs, element.children)
    return Element("originalRequest", data.attrs, data.children, data.text)


@dataclass(eq=False)
class GameRoom:
    """One game between two slots, watched by any number of observers.

    The referee's flow (joining, sending, the move's checks in their order, the clock, pause
    and step, the end) is written once here; what differs between the wire dialects is a hook
    whose default is the 2018/2019 behaviour and which
    :class:`~swc_local.server.xml.modern_room.ModernRoom` overrides (:attr:`HOOKS`).
    """

    HOOKS: ClassVar[frozenset[str]] = frozenset({
        "dialect", "envelope", "slot_class", "admins_see_join_before_start", "joined_on_reservation",
        "counts_test_scores", "takes_joiners", "join_notice", "greet", "envelope_memento",
        "envelope_move_request", "show_paused_state", "pause_notice", "request_pending", "step_ignored_while_pending", "forced_start",
        "end_cancelled", "on_message", "accepts", "requested", "turn_fault", "rule_fault",
        "note_connection_lost", "left_before_start", "final_result",
    })
    """What a dialect's room may override (tests/xml/test_xml_dialects.py keeps it so)."""

    dialect: ClassVar[str] = CLASSIC
    envelope: ClassVar[str | None] = None
    """The 2022+ result envelope (``plugin.envelope``); None: the 2018/2019 result."""
    slot_class: ClassVar[type[PlayerSlot]] = PlayerSlot
    admins_see_join_before_start: ClassVar[bool] = True
    """``joinedGameRoom`` goes to the admins before the game-start messages (2022+: after)."""
    joined_on_reservation: ClassVar[bool] = False
    """A reserved seat taken is answered with ``joined`` at once (2018/2019: when the game
    starts; a ``join`` always hears it at once)."""
    counts_test_scores: ClassVar[bool] = True
    """Its results count for ``testMode``/``scoreForPlayer`` (a 2018/2019 admin request)."""

    id: str
    plugin: GamePlugin
    rng_seed: int
    descriptors: tuple[msg.SlotDescriptor, msg.SlotDescriptor]
    prepared: bool
    paused: bool
    spawn: Callable[..., object]
    on_over: Callable[[GameRoom], None]
    on_pause: Callable[[bool], None] | None = None  # the viewer's record hears (un)pause here
    soft_timeout_ms: int = 2000
    hard_timeout_ms: int = 10000
    initial_game: object | None = None
    slots: list[PlayerSlot] = field(default_factory=list)
    observers: list[Connection] = field(default_factory=list)
    status: Status = Status.CREATED
    requested_once: bool = False
    pending: PendingRequest | None = None
    _watch: trio.CancelScope | None = None  # the hard-timeout watcher's scope; its deadline moves
    _deadline: float = math.inf  # the pending request's hard-timeout deadline (_set_deadline)
    history: list[bytes] = field(default_factory=list)
    recording: bool = False
    last_result: object | None = None  # the result the room ended with (the dialect's type)
    result_summary: str | None = None  # that result in one short line (the log's, the stop's summary)
    abandoned: bool = False  # a join room whose only player left before the game began
    superseded: bool = False  # a <join/> room that became a room of another game under its id (Lobby._regame)
    unfinished: str | None = None  # why a running game was stopped without a result (shutdown)
    cancel_reason: str | None = None  # who cancelled it, when an admin did (the viewer's replay header, result rows)
    _memento_frame: tuple[str, str] | None = None  # the memento's text around its <state>
    _move_request: bytes | None = None  # rendered once per room: it never changes

    def __post_init__(self) -> None:
        self.game = self.initial_game or self.plugin.new_game(random.Random(self.rng_seed))
        self.slots = [self.slot_class(self, seat, d, can_timeout=d.can_timeout) for seat, d in enumerate(self.descriptors)]

    def __repr__(self) -> str:
        return f"<room {self.id} {self.plugin.game_type} {self.status.value}>"

    # -- joining ------------------------------------------------------------------------------

    @property
    def full(self) -> bool:
        return all(slot.occupied for slot in self.slots)

    @property
    def player_count(self) -> int:
        return sum(1 for slot in self.slots if slot.occupied)

    @property
    def takes_joiners(self) -> bool:
        """A ``join`` may take a free seat (2022+: only in rooms that ``join`` created)."""
        return True

    def join_notice(self, existing: bool) -> Element:
        """What the admins hear when a ``join`` took a seat here."""
        return msg.joined_game_room(self.id, existing)

    def occupy(self, slot: PlayerSlot, connection: Connection | None) -> None:
        slot.occupied = True
        slot.reservation = None
        slot.connection = connection
        if connection is not None:
            connection.slots.append(slot)
            connection.engaged = True

    @guarded
    def start(self) -> None:
        """Both seats are taken (or a forced step filled them): the game begins (spec §4)."""
        self.status = Status.RUNNING
        self.game.set_display_names(tuple(slot.name for slot in self.slots))
        log.info(
            "room %s started: %s, %r vs %r, seed %s%s",
            self.id,
            self.plugin.game_type,
            self.slots[0].name,
            self.slots[1].name,
            self.rng_seed,
            ", paused" if self.paused else "",
        )
        self.greet()
        if self.paused:
            self.show_paused_state()
            return
        self.broadcast_state()
        if self.game.outcome() is not None:  # a loaded position that is already over (MQ 2024 §5)
            self.finish()
            return
        self.request_move()

    def greet(self) -> None:
        """Hook: the first messages of a game (``joined`` again for prepared seats, welcome)."""
        if self.prepared:
            for slot in self.slots:
                slot.send(msg.joined(self.id))
        for slot in self.slots:
            slot.send(msg.welcome(self.id, slot.color.lower()))

    # -- sending ------------------------------------------------------------------------------

    def to_observers(self, rendered: bytes) -> None:
        for observer in self.observers:
            observer.send(rendered)
        if self.recording:
            self.history.append(rendered)

    def _to_all(self, rendered: bytes) -> None:
        """Players, then observers (results and ``left``)."""
        for slot in self.slots:
            slot.send(rendered)
        self.to_observers(rendered)

    def envelope_memento(self, state: Element) -> Element:
        """Hook: ``<room><data class="memento">`` around ``state``."""
        return msg.memento(self.id, state)

    def envelope_move_request(self) -> Element:
        """Hook: the move request of this dialect."""
        return msg.move_request(self.id)

    def _memento(self) -> bytes:
        """The memento of the current state, rendered at depth 1.

        A game that can write its state straight to text (``state_text(depth)``) is put into
        the room's envelope, rendered once per room; the bytes are the same as rendering
        ``envelope_memento(state_element())``.
        """
        frame = self._memento_frame
        if frame is None:
            game = self.game
            if getattr(type(game), "state_text", None) is None:  # a wrapper's __getattr__ does not count
                return self.envelope_memento(game.state_element()).render(1).encode()
            marker = Element("state")
            head, tail = self.envelope_memento(marker).render(1).split(marker.render(3))
            self._memento_frame = frame = (head, tail)
        return (frame[0] + self.game.state_text(3) + frame[1]).encode()

    def _move_request_bytes(self) -> bytes:
        rendered = self._move_request
        if rendered is None:
            rendered = self._move_request = self.envelope_move_request().render(1).encode()
        return rendered

    def broadcast_state(self) -> None:
        rendered = self._memento()
        self.to_observers(rendered)
        for slot in self.slots:
            slot.send(rendered)

    def show_paused_state(self) -> None:
        """Hook: the state of a paused room after a move (2018/2019: nobody sees it)."""

    def request_move(self) -> None:
        slot = self.slots[self.game.current_seat]
        now = trio.current_time()
        self.pending = PendingRequest(slot, now)
        self.requested_once = True
        if slot.disconnected and not slot.can_timeout:
            slot.left = True
            self.finish()
            return
        self._set_deadline(now + self.hard_timeout_ms / 1000 if slot.can_timeout else math.inf)
        slot.send(self._move_request_bytes())

    def _set_deadline(self, deadline: float) -> None:
        """Move the hard-timeout deadline; a new request replaces the old one's timer.

        The watcher's cancel scope is only moved when the new deadline is *earlier*: a later one
        (every move's request) is just remembered, and the watcher, woken at the old deadline,
        sleeps on until the new one.  Moving a trio deadline costs a few microseconds, the
        remembered float nothing, and a room wakes its watcher once per hard-timeout period
        instead of rescheduling it on every move.
        """
        self._deadline = deadline
        if self._watch is None:
            self._watch = trio.CancelScope(deadline=deadline)
            self.spawn(self._watch_hard_timeout, self._watch)
        elif deadline < self._watch.deadline:
            self._watch.deadline = deadline

    async def _watch_hard_timeout(self, scope: trio.CancelScope) -> None:
        """One task per room for all its move requests: cheaper than a task per request."""
        while self.status is Status.RUNNING:
            with scope:
                await trio.sleep_forever()
            request = self.pending
            if self.status is not Status.RUNNING:
                return
            if request is not None and trio.current_time() >= self._deadline:
                log.info("room %s: %s did not move within %d ms", self.id, request.slot.label, self.hard_timeout_ms)
                request.slot.hard_timeout = True
                self.hard_timeout_reached()
                return
            scope = self._watch = trio.CancelScope(deadline=self._deadline)

    # -- admin controls -----------------------------------------------------------------------

    def add_observer(self, connection: Connection) -> None:
        if connection not in self.observers:
            self.observers.append(connection)

    @guarded
    def set_paused(self, pause: bool) -> None:
        if pause == self.paused:
            log.info("room %s: pause=%s is already the case, ignored", self.id, pause)
            return
        self.paused = pause
        self.pause_notice(pause)
        if self.on_pause is not None:
            self.on_pause(pause)
        if not pause and self.status is Status.RUNNING and not self.request_pending():
            self.broadcast_state()
            self.request_move()

    def pause_notice(self, pause: bool) -> None:
        """Hook: tell the observers that the room was (un)paused (2018/2019: nothing)."""

    def request_pending(self) -> bool:
        """Hook: a move request is still open, so a step or an unpause sends no new one.

        2018/2019: never -- they send it again and its timer restarts (a difference: the
        official server left the old timer running)."""
        return False

    def step_ignored_while_pending(self) -> bool:
        """Hook: a step while a move request is open sends nothing (default: as an unpause)."""
        return self.request_pending()

    @guarded
    def step(self, forced: bool) -> None:
        if self.status is Status.CREATED:
            if forced:
                self.forced_start()
            else:
                log.info("room %s: step on a room that has not started, ignored", self.id)
            return
        if self.status is not Status.RUNNING or not self.paused or self.step_ignored_while_pending():
            log.info("room %s: step on a room that is not paused or waits for a move, ignored", self.id)
            return
        self.broadcast_state()
        self.request_move()

    def forced_start(self) -> None:
        """Hook: a forced step before both players came; empty seats get dummies that swallow
        everything and the game starts."""
        for slot in self.slots:
            if not slot.occupied:
                self.occupy(slot, None)
        self.start()

    @guarded
    def cancel(self) -> None:
        log.info("room %s cancelled", self.id)
        self.end_cancelled()

    def end_cancelled(self) -> None:
        """Hook: how a cancelled game ends (2018/2019: ``left`` to everyone, no result)."""
        self._end_without_result()

    def _end_without_result(self) -> None:
        self._to_all(msg.left(self.id).render(1).encode())
        self._close_room()

    def stop(self, why: str) -> None:
        """The server is stopping: a running game ends as ``cancel`` ends it (its replay marked
        unfinished); a room still waiting is removed without a word."""
        if self.status is Status.RUNNING:
            self.unfinished = why
            self.cancel()
        elif self.status is Status.CREATED:
            self.abandoned = True
            self._close_room()

    # -- player input -------------------------------------------------------------------------

    def on_message(self, slot: PlayerSlot, message: Element) -> None:
        """Hook: a ``<room>`` message of ``slot``'s player (2018/2019: all of it is data)."""
        self.on_data(slot, message.find("data"))

    @guarded
    def on_data(self, slot: PlayerSlot, data: Element | None) -> None:
        """A ``<room><data>`` from ``slot``'s connection: the checks in the referee's order.

        ``data`` None is an empty ``<room roomId="R"/>`` that :meth:`accepts` let through: the
        move the 2018-2020 servers handed to the game as ``null``, refused there as a non-move."""
        if not self.accepts(slot, data):
            return
        move: object | None = None
        if data is not None and data.get("class") in self.plugin.move_classes:
            try:
                move = self.game.decode_move(data)
            except MalformedMove as error:
                return self._player_left(slot, f"undecodable move: {error}", error.cause)
        current = self.slots[self.game.current_seat]
        if slot is not current or not self.requested(slot):
            return self.turn_fault(slot, current, move, data)
        pending = self.pending
        if pending is not None and pending.slot is slot:
            # the hard-timeout deadline is moved once below (next request, or none while paused);
            # every path that ends the game in between closes the watcher
            elapsed_ms = (trio.current_time() - pending.sent_at) * 1000
            if slot.can_timeout and elapsed_ms > self.soft_timeout_ms:
                log.info("room %s: %s moved after %.0f ms", self.id, slot.label, elapsed_ms)
                slot.soft_timeout = True
                return self.finish()
        self.pending = None
        try:
            if move is None:  # a known payload that is not a move (2018/2019 only get here)
                raise InvalidMove(f"{slot.display_name} hat kein Zug-Objekt gesendet.")
            self.game.apply(slot.seat, move)
        except MalformedMove as error:  # the official rule code crashed on it: dropped, LEFT
            return self._player_left(slot, f"move the rules cannot handle: {error}", error.cause)
        except InvalidMove as error:
            log.info("room %s: %s broke a rule: %s", self.id, slot.label, error.reason)
            return self.rule_fault(slot, error, move, data)
        if self.paused:
            self.show_paused_state()
        else:
            self.broadcast_state()
        if self.game.outcome() is not None:
            return self.finish()
        if not self.paused:
            self.request_move()
        else:
            self._set_deadline(math.inf)

    def accepts(self, slot: PlayerSlot, data: Element | None) -> bool:
        """Hook: False when ``data`` ends here, before the turn checks (already answered).

        2018/2019: data before the start drops the connection; a ``<data>`` without a class,
        or of a class neither the protocol nor the game knows, is LEFT.  No ``<data>`` at all
        (the empty move of the 2020 Java simple client) goes on: XStream made it a RoomPacket
        with ``data=null``, the room handed it to the game after the turn checks, and the game
        refused it as a non-move ("NAME hat kein Zug-Objekt gesendet.", RULE_VIOLATION), as
        the 20.final capture golden/empty_move shows and the 2018/2019 plugins' ``if (!(data
        instanceof Move))`` does alike."""
        if self.status is not Status.RUNNING:
            assert slot.connection is not None
            slot.connection.drop(f"room {self.id}: data before the game started")
            return False
        if data is None:
            log.info("room %s: %s sent a <room> without data (an empty move)", self.id, slot.label)
            return True
        data_class = data.get("class")
        if data_class is None:
            self._player_left(slot, "a <room> without a <data class=...>")
            return False
        plugin = self.plugin
        if (
            data_class not in plugin.move_classes
            and data_class not in msg.PROTOCOL_DATA_CLASSES
            and data_class not in plugin.data_classes
        ):
            self._player_left(slot, f"unknown data class {data_class!r}")
            return False
        return True

    def requested(self, slot: PlayerSlot) -> bool:
        """Hook: ``slot`` may move now (2018/2019: once any move was requested, see above)."""
        return self.requested_once

    def turn_fault(self, slot: PlayerSlot, current: PlayerSlot, move: object | None, data: Element | None) -> None:
        """Hook: data out of turn or unrequested; 2018/2019: the error with the request, a
        polite close, and LEFT."""
        message = NOT_YOUR_TURN if slot is not current else NOT_REQUESTED
        slot.send(msg.error(self.id, message, original_request(self.plugin, move, data)))
        self._player_left(slot, message, polite=True)

    def rule_fault(self, slot: PlayerSlot, error: InvalidMove, move: object | None, data: Element | None) -> None:
        """Hook: a move the rules refuse; 2018/2019: the error to the player (with the move
        when the game echoes it), the bare reason to the observers, a polite close."""
        echo = original_request(self.plugin, move, data) if self.plugin.error_echoes_move else None
        slot.send(msg.error(self.id, f"Ungueltiger Zug von '{slot.display_name}'.\n{error.reason}", echo))
        self.to_observers(msg.error(self.id, error.reason, echo).render(1).encode())
        slot.violation = error.reason
        if slot.connection is not None:
            slot.connection.close_politely(f"room {self.id}: rule violation")
        self._detach(slot)
        self.finish()

    def _player_left(self, slot: PlayerSlot, why: str, cause: str = "UNKNOWN", polite: bool = False) -> None:
        slot.left_cause = cause
        connection = slot.connection
        if connection is not None:
            if polite:
                connection.close_politely(f"room {self.id}: {why}")
            else:
                connection.drop(f"room {self.id}: {why}")
        self.on_disconnect(slot)

    @guarded
    def on_disconnect(self, slot: PlayerSlot) -> None:
        """The slot's connection is gone (or is being closed for a fault)."""
        self.note_connection_lost(slot)
        self._detach(slot)
        if self.status is Status.RUNNING:
            slot.left = True
            self.finish()
        elif self.status is Status.CREATED:
            self.left_before_start(slot)

    def note_connection_lost(self, slot: PlayerSlot) -> None:
        """Hook: what the lost connection tells about the cause (before it is detached)."""

    def left_before_start(self, slot: PlayerSlot) -> None:
        """Hook: a player left a room that has not started.

        2018/2019: it keeps its seat (spec §6, last row); a ``join`` room left by its only
        player is removed (a deliberate difference: the next joiner would be paired with the
        dead player and lose at once)."""
        slot.disconnected = True
        if not self.prepared and not any(s.occupied and not s.disconnected for s in self.slots):
            self._abandon()

    def _abandon(self) -> None:
        log.info("room %s removed: its only player left before an opponent joined", self.id)
        self.abandoned = True
        self._close_room()

    def _detach(self, slot: PlayerSlot) -> None:
        if slot.connection is not None:
            if slot in slot.connection.slots:
                slot.connection.slots.remove(slot)
            slot.connection = None
            slot.disconnected = True

    # -- the end ------------------------------------------------------------------------------

    @guarded
    def hard_timeout_reached(self) -> None:
        self.finish()

    def abort(self, blame: PlayerSlot | None = None) -> None:
        """End the room after an internal error: a result if one can be computed, else ``left``.

        Spec-conformance note: without a player to blame the scores are computed as for any
        other end (usually 1:1, no win condition); the official server had no such path.
        """
        if self.status is Status.OVER:
            return
        if blame is not None:
            if blame.connection is not None:
                blame.connection.drop(f"room {self.id}: internal error")
            self._detach(blame)
            blame.left, blame.left_cause = True, "UNKNOWN"
        try:
            self.finish()
        except Exception:
            log.exception("room %s: no result could be computed; sending left only", self.id)
            self._end_without_result()

    def finish(self) -> None:
        """Send the result and ``left`` (spec §4, §8) and close the room."""
        if self.status is Status.OVER:
            return
        result = self.final_result()
        self.result_summary = ", ".join(
            f"{s.label} {score.cause or ''} {score.parts[0]}".replace("  ", " ") for s, score in zip(self.slots, result.scores))
        log.info("room %s ended: %s", self.id, self.result_summary)
        rendered_result = msg.room(self.id, result.to_element()).render(1).encode()
        self._to_all(rendered_result)
        self._to_all(msg.left(self.id).render(1).encode())
        self.last_result = result
        self._close_room()

    def final_result(self) -> msg.GameResult:
        """Hook: the result the game ends with (2018/2019: spec §8)."""
        return classic_result(self, self.game.outcome())

    def _close_room(self) -> None:
        self.status = Status.OVER
        if self._watch is not None:
            self._watch.cancel()
        self.pending = None
        for slot in self.slots:
            if slot.connection is not None and slot in slot.connection.slots:
                slot.connection.slots.remove(slot)
        self.on_over(self)


def classic_result(room: GameRoom, outcome: Outcome | None) -> msg.GameResult:
    """The 2018/2019 result (spec §8)."""
    scores = [_classic_score(room, slot, outcome) for slot in room.slots]
    if outcome is not None:
        winners = [] if outcome.winner is None else [outcome.winner]
    else:
        winners = [slot.seat for slot, score in zip(room.slots, scores) if score.parts[0] == "2"][:1]
    return msg.GameResult(
        definition=tuple(room.plugin.score_fragments),
        scores=tuple(scores),
        winners=tuple(room.game.winner_element(seat) for seat in winners),
    )


def _classic_score(room: GameRoom, slot: PlayerSlot, outcome: Outcome | None) -> msg.PlayerScore:
    opponent = room.slots[1 - slot.seat]
    points, reason, cause = 1, None, "REGULAR"
    if outcome is not None:
        points = 1 if outcome.winner is None else (2 if outcome.winner == slot.seat else 0)
        reason = outcome.reason
    if opponent.soft_timeout or opponent.hard_timeout or opponent.violation is not None:
        points = 2
    elif opponent.left and not slot.left:
        points = 2
    if slot.soft_timeout:
        cause, points, reason = "SOFT_TIMEOUT", 0, timeout_reason(room.soft_timeout_ms)
    elif slot.hard_timeout:
        cause, points, reason = "HARD_TIMEOUT", 0, timeout_reason(room.hard_timeout_ms)
    elif slot.violation is not None:
        cause, points, reason = "RULE_VIOLATION", 0, slot.violation
    elif slot.left:
        cause, points, reason = "LEFT", 0, LEFT_REASON
    return msg.PlayerScore(cause=cause, reason=reason, parts=(str(points), *room.game.score_parts(slot.seat)))
