"""How many bytes a loopback peer has read from its socket so far (Linux ``sock_diag``).

Why the server wants to know: the official ``socha`` clients (3.x, 4.x, 5.x) read with one
``recv`` per call of ``NetworkSocket.receive`` (0.1 s socket timeout) and hand back at most one
complete message per call.  Two messages that land in one read cost the client a full 0.1 s
timeout before it looks at the second one (``../shared/golden/socha_timing/``).  The server
therefore sends a 2022+ client its next message only once the client has read the previous
one; on loopback, where bots and the server usually share a machine, the kernel tells us that
exactly: the peer's own socket is in our network namespace, and ``sock_diag`` reports its
receive queue (``idiag_rqueue``, what ``ss`` shows as Recv-Q) and its ``tcp_info``.

What is asked is how many bytes the client has *consumed*: its ``tcpi_bytes_received`` minus its
receive queue.  The receive queue alone is not enough: bytes we sent may still be on their way
through the loopback device's backlog (softirq work deferred on a busy machine), and an empty
queue would then wrongly say "read".  The caller compares the count with what it has sent.

One ``NETLINK_SOCK_DIAG`` socket per process answers every query synchronously (the kernel
replies inside ``send``), so a query is two system calls and no await.  Where the peer's socket
cannot be seen (another host, another namespace, no netlink), :func:`observe` returns None and
the caller falls back to a fixed gap.
"""

from __future__ import annotations

import logging
import socket
import struct
import sys

log = logging.getLogger("swc.connection")

NETLINK_SOCK_DIAG = 4
SOCK_DIAG_BY_FAMILY = 20
NLM_F_REQUEST = 1
NLMSG_ERROR = 2
NO_COOKIE = 0xFFFFFFFF
_HEADER = struct.Struct("=IHHII")  # nlmsghdr: len, type, flags, seq, pid
_REQUEST = struct.Struct("=BBBBI")  # inet_diag_req_v2: family, protocol, ext, pad, states
_TAIL = struct.Struct("=III")  # inet_diag_sockid: interface, cookie[2]
_QUEUES = struct.Struct("=II")  # inet_diag_msg: rqueue, wqueue
_QUEUES_AT = _HEADER.size + 4 + 48 + 4  # after family..retrans, the sockid and expires
_ATTRIBUTES_AT = _HEADER.size + 72  # the attributes follow the inet_diag_msg
_ATTRIBUTE = struct.Struct("=HH")  # rtattr: len, type
INET_DIAG_INFO = 2  # attribute: struct tcp_info
WANT_INFO = 1 << (INET_DIAG_INFO - 1)
_BYTES_RECEIVED_AT = 128  # tcp_info.tcpi_bytes_received (u64, Linux 4.1+)
_U64 = struct.Struct("=Q")

_netlink: socket.socket | None = None
_unavailable = sys.platform != "linux" or not hasattr(socket, "AF_NETLINK")
_seq = 0


def _channel() -> socket.socket | None:
    global _netlink, _unavailable
    if _netlink is None and not _unavailable:
        try:
            _netlink = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_SOCK_DIAG)
        except OSError as error:
            log.info("peer read pacing falls back to a fixed gap: no sock_diag (%s)", error)
            _unavailable = True
    return _netlink


def _address(family: int, host: str) -> bytes:
    packed = socket.inet_pton(family, host)
    return packed + bytes(16 - len(packed))


class PeerQueue:
    """The receive queue of the peer of one accepted TCP socket, looked up by its 4-tuple."""

    __slots__ = ("_message",)

    def __init__(self, message: bytes) -> None:
        self._message = message

    def consumed(self) -> int | None:
        """Bytes the peer's program has read from its socket so far; None once it is gone."""
        global _seq
        channel = _netlink
        if channel is None:
            return None
        _seq = (_seq + 1) & 0xFFFFFFFF
        message = self._message
        try:
            channel.send(message[:8] + _seq.to_bytes(4, sys.byteorder) + message[12:])
            while True:
                reply = channel.recv(1024, socket.MSG_DONTWAIT)
                if int.from_bytes(reply[8:12], sys.byteorder) == _seq:
                    break  # an answer left over from an interrupted query is skipped
        except OSError:
            return None
        if int.from_bytes(reply[4:6], sys.byteorder) == NLMSG_ERROR:  # no such socket (any more)
            return None
        unread = _QUEUES.unpack_from(reply, _QUEUES_AT)[0]
        position, end = _ATTRIBUTES_AT, len(reply)
        while position + 4 <= end:
            length, kind = _ATTRIBUTE.unpack_from(reply, position)
            if length < 4:
                break
            if kind == INET_DIAG_INFO:
                if length - 4 < _BYTES_RECEIVED_AT + 8:
                    return None  # a kernel older than 4.1
                return _U64.unpack_from(reply, position + 4 + _BYTES_RECEIVED_AT)[0] - unread
            position += (length + 3) & ~3
        return None


def observe(sock: socket.socket) -> PeerQueue | None:
    """A :class:`PeerQueue` for the peer of ``sock`` if its socket is visible here, else None."""
    if _channel() is None:
        return None
    try:
        local = sock.getsockname()
        peer = sock.getpeername()
    except OSError:
        return None
    family = sock.family
    if family == socket.AF_INET6 and peer[0].startswith("::ffff:") and local[0].startswith("::ffff:"):
        family, peer, local = socket.AF_INET, (peer[0][7:], peer[1]), (local[0][7:], local[1])
    if family not in (socket.AF_INET, socket.AF_INET6):
        return None
    # The peer's socket has the peer's address as its source and ours as its destination.
    body = (
        _REQUEST.pack(family, socket.IPPROTO_TCP, WANT_INFO, 0, 0xFFFFFFFF)
        + struct.pack("!HH", peer[1], local[1])
        + _address(family, peer[0])
        + _address(family, local[0])
        + _TAIL.pack(0, NO_COOKIE, NO_COOKIE)
    )
    queue = PeerQueue(_HEADER.pack(_HEADER.size + len(body), SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, 0, 0) + body)
    return queue if queue.consumed() is not None else None
