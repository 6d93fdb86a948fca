"""Plays one ReversiXT game over trio streams: the glue between sockets and the pure referee.

Used by the drop-in (``swc reversixt``, one game then exit) and by the ``swc serve`` door (many
games at once). A player's connection is read only on its own turn, as the reference does:
whatever a client sends early waits in the socket (bounded by the kernel's buffer) and is read
as its next answer (``fault_move_before_request``, ``fault_two_moves``); a connection closed
while waiting is noticed at its turn (``fault_disconnect_waiting``) or when a send to it fails
(``fault_disconnect_waiting_closed``).

Every wait goes through :class:`Timing`, so tests run the reference's 1 s start pause, 100 ms
turn pause and time limits scaled down (``scale``) with the same verdicts and bytes.

Conformance notes:
- a frame is sent as two writes, header then payload, as the reference does: a peer that has
  fully closed answers the first with a reset, so the second fails and the player is
  disqualified for a failed send right after that message, as in the capture;
- after a fault the offender gets the DISQ, then the server stops sending and closes; unread
  bytes are drained first (bounded) so the close is a clean FIN and the DISQ arrives whole (the
  reference resets such a connection, so its client may lose part of the DISQ: a deliberate
  difference);
- ``dt`` counts from the REQUEST written to the last byte of the answer read, in whole ms.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

import trio

from swc_local.games.reversixt.referee import Referee, Verdict
from swc_local.protocol import reversixt as wire
from swc_local.server import transport

log = logging.getLogger("swc.reversixt")

RECEIVE_CHUNK = 4096


def verdict_frame(verdict: Verdict) -> bytes:
    """The frame everyone is sent for a verdict: MOVED, or DISQ of the player who is out."""
    if verdict.disqualified is not None:
        return wire.encode_disq(verdict.disqualified)
    assert verdict.moved is not None
    return wire.encode_moved(*verdict.moved)


@dataclass
class Timing:
    """The reference's pauses (seconds). ``scale`` shrinks every wait and the clock in tests."""

    start_delay: float = 1.0
    turn_delay: float = 0.1
    scale: float = 1.0

    async def sleep(self, seconds: float) -> None:
        if seconds > 0:
            await trio.sleep(seconds * self.scale)

    def now(self) -> float:
        """Logical seconds (real seconds / scale)."""
        return trio.current_time() / self.scale


class Seat(transport.Connection):
    """A player's connection on the shared transport, used the reference's way: its game awaits
    every write (:meth:`~swc_local.server.transport.Connection.send_now`, within
    ``write_timeout``) and reads it only on its turn (:func:`read_frame`)."""

    def __init__(self, player: int, stream: trio.abc.Stream, write_timeout: float = 0.0, peer: str = "?") -> None:
        super().__init__(stream, peer)
        self.player = player
        self.reader = wire.FrameReader()
        self.write_timeout = write_timeout  # seconds a send may wait for the client to take its bytes (0: for ever)


class ReceiveFault(Exception):
    def __init__(self, reason: str, detail: str):
        super().__init__(detail)
        self.reason = reason


async def send_frame(seat: Seat, data: bytes) -> bool:
    """Header and payload as two writes (see the conformance notes); False when it failed, or
    when the client took no bytes for ``seat.write_timeout`` (then ``seat.timed_out``)."""
    return await seat.send_now(data[: wire.HEADER_SIZE], data[wire.HEADER_SIZE :])


TOOK_NO_DATA = "timeout during move"
"""The verdict for a client that does not take its bytes: it cannot answer either (issue 21)."""


async def read_frame(seat: Seat) -> wire.Frame:
    """The next complete frame of this seat; ReceiveFault when there is none to be had."""
    while True:
        try:
            frame = seat.reader.next_frame()
        except wire.FrameError as error:
            raise ReceiveFault("receive failed", f"receive_msg(): read {error}") from None
        if frame is not None:
            return frame
        if seat.eof:
            detail = "failed to read any message at all" if seat.reader.pending == 0 else "failed to read payload data"
            raise ReceiveFault("receive failed", detail)
        try:
            data = await seat.receive_some(RECEIVE_CHUNK)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as error:
            raise ReceiveFault("receive failed", f"receive error: {error!r}") from None
        if not data:
            seat.eof = True
        seat.reader.feed(data)


@dataclass
class GameRunner:
    referee: Referee
    seats: dict[int, Seat]
    timing: Timing = field(default_factory=Timing)
    on_progress: Callable[[Referee], None] | None = None
    label: str = "reversixt"
    on_request: Callable[[Referee, int], None] | None = None
    unreachable: list[int] = field(default_factory=list)  # players whose MAP or PLAYER could not be sent

    def _progress(self) -> None:
        if self.on_progress is not None:
            self.on_progress(self.referee)

    async def _broadcast(self, data: bytes, recipients: list[int]) -> list[int]:
        failed = []
        for player in recipients:
            if not await send_frame(self.seats[player], data):
                failed.append(player)
        return failed

    async def _handle_send_failures(self, failed: list[int]) -> None:
        while failed:
            player = failed.pop(0)
            if player in self.referee.state.disqualified:
                continue
            seat = self.seats[player]
            reason = TOOK_NO_DATA if seat.timed_out else "send failed"
            if seat.timed_out:
                log.info("%s: player %d disqualified (took no data for %g s)", self.label, player, seat.write_timeout)
            else:
                log.info("%s: player %d disqualified (send failed)", self.label, player)
            verdict = self.referee.disqualify(player, reason)
            await self.seats[player].close_now()
            failed += await self._broadcast(verdict_frame(verdict), self.referee.state.in_game())

    async def _apply(self, player: int, verdict: Verdict) -> None:
        in_game = self.referee.state.in_game()
        if verdict.disqualified is None:
            failed = await self._broadcast(verdict_frame(verdict), in_game)
            await self._handle_send_failures(failed)
            return
        log.info("%s: player %d disqualified (%s)", self.label, player, verdict.reason)
        failed = await self._broadcast(verdict_frame(verdict), sorted(in_game + [player]))
        await self.seats[player].close_now()
        await self._handle_send_failures([p for p in failed if p != player])

    async def _turn(self, player: int) -> None:
        referee = self.referee
        seat = self.seats[player]
        if self.on_request is not None:
            self.on_request(referee, player)
        request = wire.encode_request(*referee.request(player))
        self._progress()
        if not await send_frame(seat, request) and seat.timed_out:
            # it takes no data, so it cannot answer: disqualified as one that does not answer
            log.info("%s: player %d took no data for %g s", self.label, player, seat.write_timeout)
            await self._apply(player, referee.fault(player, TOOK_NO_DATA))
            self._progress()
            return
        # a send that failed otherwise: the reference reads anyway; a dead socket then fails to read
        started = self.timing.now()
        deadline_ms = referee.deadline_ms(player)
        frame = None
        fault = None
        with trio.move_on_after(float("inf") if deadline_ms is None else deadline_ms / 1000 * self.timing.scale):
            try:
                frame = await read_frame(seat)
            except ReceiveFault as error:
                fault = error
        elapsed = self.timing.now() - started
        if fault is not None:
            log.info("%s: player %d: %s", self.label, player, fault)
            verdict = referee.fault(player, fault.reason)
        elif frame is None:
            verdict = referee.fault(player, "timeout during move")
        elif frame.type != wire.MOVE:
            log.info("%s: player %d: Received wrong msgtype (should have been move, was %d)", self.label, player, frame.type)
            verdict = referee.fault(player, "invalid message")
        else:
            move = wire.decode_move(frame.payload)
            verdict = referee.answer(player, move.x, move.y, move.special, elapsed)
        await self._apply(player, verdict)
        self._progress()

    async def run(self) -> Referee:
        """Play until END_GAME; every connection is closed afterwards."""
        referee = self.referee
        pause = self.timing.start_delay
        try:
            if self.unreachable:
                await self._handle_send_failures(list(self.unreachable))
            while True:
                if len(referee.state.in_game()) <= 1:
                    pause = 0.0
                await self.timing.sleep(pause)
                action, player = referee.next_action()
                if action == "end_phase1":
                    failed = await self._broadcast(wire.encode_end_phase1(), referee.state.in_game())
                    await self._handle_send_failures(failed)
                    self._progress()
                    pause = 0.0
                    continue
                if action == "end_game":
                    await self._broadcast(wire.encode_end_game(), referee.state.in_game())
                    self._progress()
                    return referee
                await self._turn(player)
                pause = self.timing.turn_delay
        finally:
            for seat in self.seats.values():
                await seat.close_now()
