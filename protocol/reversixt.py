"""Sans-I/O codec for the ReversiXT binary protocol (type byte, big-endian uint32 length, payload).

No sockets, no game: bytes in, frames out, and frames to bytes. The server side of the reference
(``server_nogl``) checks a frame's header before it reads the payload: an unknown type or a
length other than the type's fixed length is refused at once, without waiting for (or
buffering) the payload. :class:`FrameReader` does the same, so a client announcing a 2 GB frame
costs five bytes of memory, never more.

Conformance notes (see ``shared/spec/reversixt.md`` B):
- Only the types a client may send are accepted by the server-side reader: GROUP (1, length 1)
  and MOVE (5, length 5). Every other *known* type (2..4, 6..9) with its own fixed length is read
  in full and handed on, so the caller can say "wrong msgtype" as the reference does; an unknown
  type or a wrong length is a :class:`FrameError` (``invalid hdr.type or invalid hdr.len``).
- MAP's length field is the file size modulo 65536 and only that many leading bytes are sent
  (``rules_map_over_64k``): :func:`encode_map` reproduces this on purpose.
- MOVE coordinates are unsigned 16-bit on the wire (x = -1 arrives as 65535).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

GROUP, MAP, PLAYER, REQUEST, MOVE, MOVED, DISQ, END_PHASE1, END_GAME = range(1, 10)

NAMES = {
    GROUP: "GROUP",
    MAP: "MAP",
    PLAYER: "PLAYER",
    REQUEST: "REQUEST",
    MOVE: "MOVE",
    MOVED: "MOVED",
    DISQ: "DISQ",
    END_PHASE1: "END_PHASE1",
    END_GAME: "END_GAME",
}

#: fixed payload length of every type the reference checks on reading (MAP is variable)
FIXED_LENGTH = {GROUP: 1, PLAYER: 1, REQUEST: 5, MOVE: 5, MOVED: 6, DISQ: 1, END_PHASE1: 0, END_GAME: 0}

HEADER = struct.Struct(">BI")
HEADER_SIZE = HEADER.size

#: a client-side reader never accepts a frame bigger than this (a MAP of a 1000x1000 board fits)
DEFAULT_MAX_PAYLOAD = 1 << 16


class FrameError(ValueError):
    """The bytes cannot be a valid frame here (unknown type, wrong or too big a length)."""

    def __init__(self, message: str, frame_type: int | None = None, length: int | None = None):
        super().__init__(message)
        self.frame_type = frame_type
        self.length = length


@dataclass(frozen=True)
class Frame:
    type: int
    payload: bytes = b""

    @property
    def name(self) -> str:
        return NAMES.get(self.type, f"TYPE{self.type}")

    def to_bytes(self) -> bytes:
        return HEADER.pack(self.type, len(self.payload)) + self.payload


@dataclass(frozen=True)
class Move:
    x: int
    y: int
    special: int


def encode(frame_type: int, payload: bytes = b"") -> bytes:
    return HEADER.pack(frame_type, len(payload)) + payload


def encode_group(group: int) -> bytes:
    return encode(GROUP, bytes([group & 0xFF]))


def encode_map(map_bytes: bytes) -> bytes:
    """The reference's MAP: length = size mod 65536, and only that many leading bytes."""
    length = len(map_bytes) % 65536
    return encode(MAP, map_bytes[:length])


def encode_player(number: int) -> bytes:
    return encode(PLAYER, bytes([number]))


def encode_request(time_ms: int, depth: int) -> bytes:
    return encode(REQUEST, struct.pack(">IB", time_ms & 0xFFFFFFFF, depth & 0xFF))


def encode_move(x: int, y: int, special: int) -> bytes:
    return encode(MOVE, struct.pack(">HHB", x & 0xFFFF, y & 0xFFFF, special & 0xFF))


def encode_moved(x: int, y: int, special: int, player: int) -> bytes:
    return encode(MOVED, struct.pack(">HHBB", x & 0xFFFF, y & 0xFFFF, special & 0xFF, player))


def encode_disq(player: int) -> bytes:
    return encode(DISQ, bytes([player]))


def encode_end_phase1() -> bytes:
    return encode(END_PHASE1)


def encode_end_game() -> bytes:
    return encode(END_GAME)


def decode_move(payload: bytes) -> Move:
    x, y, special = struct.unpack(">HHB", payload)
    return Move(x, y, special)


def decode_moved(payload: bytes) -> tuple[Move, int]:
    x, y, special, player = struct.unpack(">HHBB", payload)
    return Move(x, y, special), player


def decode_request(payload: bytes) -> tuple[int, int]:
    time_ms, depth = struct.unpack(">IB", payload)
    return time_ms, depth


class FrameReader:
    """Collects bytes and yields complete frames.

    ``server_side=True`` checks headers like the reference server (fixed lengths, MAP refused);
    ``server_side=False`` (for clients) also accepts MAP frames up to ``max_payload`` bytes.
    After a :class:`FrameError` the reader is broken: the stream has no frame boundary any more.
    """

    def __init__(self, *, server_side: bool = True, max_payload: int = DEFAULT_MAX_PAYLOAD):
        self._buffer = bytearray()
        self._server_side = server_side
        self._max_payload = max_payload
        self._header: tuple[int, int] | None = None
        self.error: FrameError | None = None

    def feed(self, data: bytes) -> None:
        if self.error is None:
            self._buffer += data

    @property
    def pending(self) -> int:
        """Bytes received but not yet part of a complete frame (a started frame, for instance)."""
        return len(self._buffer) + (HEADER_SIZE if self._header is not None else 0)

    def _check_header(self, frame_type: int, length: int) -> None:
        if frame_type in FIXED_LENGTH:
            ok = FIXED_LENGTH[frame_type] == length
        elif frame_type == MAP and not self._server_side:
            ok = length <= self._max_payload
        else:
            ok = False
        if not ok:
            self.error = FrameError(
                f"invalid hdr.type or invalid hdr.len for this hdr.type! (type={frame_type}, len={length})",
                frame_type,
                length,
            )
            raise self.error

    def next_frame(self) -> Frame | None:
        """The next complete frame, None when more bytes are needed; FrameError on a bad header."""
        if self.error is not None:
            raise self.error
        if self._header is None:
            if len(self._buffer) < HEADER_SIZE:
                return None
            frame_type, length = HEADER.unpack_from(self._buffer)
            del self._buffer[:HEADER_SIZE]
            self._header = (frame_type, length)
            self._check_header(frame_type, length)
        frame_type, length = self._header
        if len(self._buffer) < length:
            return None
        payload = bytes(self._buffer[:length])
        del self._buffer[:length]
        self._header = None
        return Frame(frame_type, payload)

    def frames(self) -> list[Frame]:
        out = []
        while (frame := self.next_frame()) is not None:
            out.append(frame)
        return out


def split_frames(data: bytes) -> tuple[list[Frame], bytes]:
    """Cut a captured byte stream into frames without checks; returns the frames and any rest."""
    frames = []
    pos = 0
    while pos + HEADER_SIZE <= len(data):
        frame_type, length = HEADER.unpack_from(data, pos)
        end = pos + HEADER_SIZE + length
        if end > len(data):
            break
        frames.append(Frame(frame_type, bytes(data[pos + HEADER_SIZE : end])))
        pos = end
    return frames, bytes(data[pos:])
