"""Scripted Piranhas players that answer every move request at once with a legal move.

Why not the reference bot (:mod:`swc_local.client.bot`): it parses every memento into Elements with expat
and rebuilds the game from it, which costs more CPU than the server spends on the move, so the
load generator would be measured instead of the server.  These players instead

* cut the server's stream into messages by its XStream layout (every message starts with
  ``\\n  <`` at depth 1; a ``<room>`` ends with ``\\n  </room>``), with ``bytes.find`` only;
* parse a memento fully (``protocol.element.parse`` + ``plugin.game_from_state``) only once per
  game, for the first board, and afterwards keep their copy in sync by applying the
  ``<lastMove>`` of each memento, read with one regular expression;
* answer with ``rng.choice(plugin.legal_moves(game))``, so every move is legal and the server's
  referee path is the one exercised.

Move round trip (the latency reported): from just before the mover's ``send_all`` of its move to
the moment the opponent's connection has received the move request of the next turn.  It covers
the client-to-server hop, parsing, validation and application of the move, rendering and writing
the memento and the move request, the server-to-client hop and the client's event-loop wake-up.
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field

import trio

from swc_local.games import registry
from swc_local.protocol.element import Element, parse

GAME_TYPE = "swc_2019_piranhas"
MOVE_REQUEST = b"sc.framework.plugins.protocol.MoveRequest"
_ROOM_ID = re.compile(rb'roomId="([^"]+)"')
_CLASS = re.compile(rb'<data class="([^"]+)"')
_COLOR = re.compile(rb'color="(\w+)"')
_LAST_MOVE = re.compile(rb'<lastMove class="move" x="(-?\d+)" y="(-?\d+)" direction="(\w+)"')
_CAUSE = re.compile(rb'cause="(\w+)"')


@dataclass
class LoadStats:
    """Counters shared by all players of one run (one trio thread, so no locks)."""

    moves: int = 0  # moves applied by the server (counted by the mover, on its memento)
    games_started: int = 0
    games_finished: int = 0
    errors: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)  # seconds, only while recording
    recording: bool = False
    stalled: int = 0  # players that stopped answering on purpose (memory benchmark)
    sent_at: dict[bytes, float] = field(default_factory=dict)
    stopping: bool = False

    def error(self, text: str) -> None:
        if not self.stopping:
            self.errors.append(text)


def split_messages(buffer: bytearray) -> list[bytes]:
    """Remove and return every complete depth-1 message at the front of ``buffer``."""
    out: list[bytes] = []
    pos = 0
    while True:
        start = buffer.find(b"\n  <", pos)
        if start < 0:
            break
        head_end = buffer.find(b">", start)
        if head_end < 0:
            break
        if buffer[head_end - 1] == 0x2F:  # "/>": a one-line message
            end = head_end + 1
        else:
            tag = bytes(buffer[start + 4 : head_end]).split(b" ", 1)[0]
            closing = b"</" + tag + b">"
            end = buffer.find(closing, head_end)
            if end < 0:
                break
            end += len(closing)
        out.append(bytes(buffer[start + 3 : end]))
        pos = end
    del buffer[:pos]
    return out


class Player:
    """One connection playing games back to back (or one game, with a reservation code)."""

    def __init__(self, stats: LoadStats, port: int, seed: int, *, reservation: str | None = None,
                 think: tuple[float, float] | None = None, stall_at_turn: int | None = None) -> None:
        self.stats, self.port, self.rng = stats, port, random.Random(seed)
        self.reservation, self.think, self.stall_at_turn = reservation, think, stall_at_turn
        self.plugin = registry.get(GAME_TYPE)
        self.game = None
        self.red = False
        self.moved_in: bytes | None = None  # room of our last unconfirmed move

    def join_request(self) -> bytes:
        if self.reservation is not None:
            return f'<joinPrepared reservationCode="{self.reservation}"/>'.encode()
        return f'<join gameType="{GAME_TYPE}"/>'.encode()

    async def run(self) -> None:
        """Connect, join, play; reconnect when the server hangs up, until the run is cancelled."""
        while not self.stats.stopping:
            try:
                stream = await trio.open_tcp_stream("127.0.0.1", self.port)
                async with stream:
                    await stream.send_all(b"<protocol>" + self.join_request())
                    if not await self._play(stream) or self.reservation is not None:
                        return
            except (OSError, trio.BrokenResourceError) as error:
                self.stats.error(f"connection failed: {error!r}")
                await trio.sleep(0.1)

    async def _play(self, stream: trio.SocketStream) -> bool:
        """Play until the connection ends; True when a game ended and we should join again."""
        buffer = bytearray()
        while True:
            try:
                data = await stream.receive_some(65536)
            except trio.BrokenResourceError:
                data = b""
            if not data:
                self.stats.error("server closed the connection")
                return True
            now = time.perf_counter()
            buffer += data
            replies = []
            for message in split_messages(buffer):
                reply = self._handle(message, now)
                if reply == b"left":
                    if self.reservation is not None:
                        return False
                    replies.append(self.join_request())
                elif reply:
                    replies.append(reply)
            if replies:
                if self.think is not None:
                    await trio.sleep(self.rng.uniform(*self.think))
                self._stamp_moves(replies)
                await stream.send_all(b"".join(replies))
            if b"\n</protocol>" in buffer:
                self.stats.error("server ended the stream")
                return True

    def _stamp_moves(self, replies: list[bytes]) -> None:
        if self.moved_in is not None and replies[-1].startswith(b"<room"):
            self.stats.sent_at[self.moved_in] = time.perf_counter()

    def _handle(self, message: bytes, now: float) -> bytes | None:
        stats = self.stats
        if message.startswith(b"<room"):
            room_id = _ROOM_ID.search(message)[1]
            kind = _CLASS.search(message)[1]
            if kind == b"memento":
                self._on_memento(room_id, message)
            elif kind == MOVE_REQUEST:
                return self._on_move_request(room_id, now)
            elif kind == b"welcomeMessage":
                self.red = _COLOR.search(message)[1] == b"red"
                self.game = None
                if self.red:
                    stats.games_started += 1
            elif kind == b"result":
                causes = _CAUSE.findall(message)
                if self.red:
                    stats.games_finished += 1
                    if any(cause != b"REGULAR" for cause in causes):
                        stats.error("game ended with " + b"/".join(causes).decode())
            elif kind == b"error":
                stats.error("error message: " + message.decode(errors="replace")[:200])
        elif message.startswith(b"<left"):
            stats.sent_at.pop(_ROOM_ID.search(message)[1], None)
            return b"left"
        elif message.startswith(b"<sc.protocol.responses.CloseConnection"):
            stats.error("server closed the connection politely")
        return None

    def _on_memento(self, room_id: bytes, message: bytes) -> None:
        last = _LAST_MOVE.search(message)
        if self.game is None or last is None:
            state = parse(message).find("data").find("state")
            self.game = self.plugin.game_from_state(state)
        else:
            x, y, direction = last.groups()
            data = Element("data", {"class": "move", "x": x.decode(), "y": y.decode(), "direction": direction.decode()})
            self.game.apply(self.game.current_seat, self.game.decode_move(data))
        if self.moved_in == room_id and last is not None:
            self.moved_in = None
            self.stats.moves += 1

    def _on_move_request(self, room_id: bytes, now: float) -> bytes | None:
        stats = self.stats
        sent = stats.sent_at.pop(room_id, None)
        if sent is not None and stats.recording:
            stats.latencies.append(now - sent)
        if self.stall_at_turn is not None and self.game.turn >= self.stall_at_turn:
            stats.stalled += 1
            return None
        moves = self.plugin.legal_moves(self.game)
        if not moves:
            stats.error("no legal move")
            return None
        move = self.rng.choice(moves)
        self.moved_in = room_id
        data = self.plugin.move_element(move)
        return Element("room", {"roomId": room_id.decode()}, [data]).render(0).encode()
