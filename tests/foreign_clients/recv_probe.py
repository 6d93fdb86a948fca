"""Run a socha bot script with a probe on its socket: how often, and how long, the client sat in
``recv`` while a complete message was already waiting in its own buffer.

Usage (with the python of a socha venv)::

    SWC_RECV_PROBE=stats.json python recv_probe.py BOT_SCRIPT [bot arguments ...]

socha's ``NetworkSocket`` (3.x, 4.x and 5.x alike) keeps what it received in ``self.buffer``,
calls ``self.socket.recv`` (0.1 s timeout) on every ``receive()`` and returns at most one
complete message per call.  The probe replaces ``self.socket`` after ``connect`` with a thin
wrapper that times each ``recv`` and looks at ``self.buffer`` just before it: a ``recv`` entered
with a complete message in the buffer is a *stall* (the client waits for bytes it does not
need).  The bot itself is unchanged and runs as ``__main__``; at exit the counts are written
as one JSON object to ``$SWC_RECV_PROBE``:

``reads`` (recv calls that returned bytes), ``timeouts`` (recv calls that timed out), ``stalls``
(recv calls entered with a complete message buffered), ``stall_timeouts`` (of those, the ones
that timed out), ``stall_seconds`` (time spent in those calls), ``recv_seconds`` (time in all
recv calls), ``move_requests`` (move requests received), ``joint_reads`` (reads that completed
more than one message), ``first_read`` and ``last_read`` (wall-clock times of the first and
the last read that returned bytes, to time a game without the interpreter's start-up).
"""

import atexit
import json
import os
import runpy
import socket
import sys
import time

from socha.api.networking.network_socket import NetworkSocket

ENVELOPES = (b"room", b"errorpacket", b"prepared")
STATS = dict(reads=0, timeouts=0, stalls=0, stall_timeouts=0, stall_seconds=0.0, recv_seconds=0.0,
             move_requests=0, joint_reads=0)


def complete_messages(buffer: bytes) -> int:
    """How many complete top-level messages ``buffer`` holds (the ``<protocol>`` opening and the
    whitespace between messages are skipped; ``room``, ``errorpacket`` and ``prepared`` end with
    their end tag, everything else is one self-closing tag)."""
    count, position = 0, 0
    while True:
        start = buffer.find(b"<", position)
        if start < 0:
            return count
        if buffer.startswith(b"<protocol>", start):
            position = start + len(b"<protocol>")
            continue
        name_end = start + 1
        while name_end < len(buffer) and buffer[name_end:name_end + 1] not in b" />\n\t\r":
            name_end += 1
        tag = buffer[start + 1:name_end]
        if tag in ENVELOPES:
            end = buffer.find(b"</" + tag + b">", name_end)
            if end < 0:
                return count
            position = end + len(tag) + 3
        else:
            end = buffer.find(b"/>", name_end)
            if end < 0 or b"<" in buffer[name_end:end]:
                return count
            position = end + 2
        count += 1


class ProbedSocket:
    """The client's socket, with ``recv`` timed against the owner's buffer."""

    def __init__(self, real: socket.socket, owner: NetworkSocket) -> None:
        self._real, self._owner = real, owner

    def __getattr__(self, name):
        return getattr(self._real, name)

    def recv(self, size: int, *flags) -> bytes:
        before = self._owner.buffer
        stalled = complete_messages(before) > 0
        started = time.perf_counter()
        timed_out = False
        try:
            data = self._real.recv(size, *flags)
        except socket.timeout:
            timed_out = True
            raise
        finally:
            spent = time.perf_counter() - started
            STATS["recv_seconds"] += spent
            STATS["timeouts"] += timed_out
            if stalled:
                STATS["stalls"] += 1
                STATS["stall_timeouts"] += timed_out
                STATS["stall_seconds"] += spent
        if data:
            STATS.setdefault("first_read", time.time())
            STATS["last_read"] = time.time()
            STATS["reads"] += 1
            STATS["move_requests"] += data.count(b'class="moveRequest"')
            if complete_messages(before + data) - complete_messages(before) > 1:
                STATS["joint_reads"] += 1
        return data


_connect = NetworkSocket.connect


def _probed_connect(self) -> None:
    _connect(self)
    self.socket = ProbedSocket(self.socket, self)


def _write_stats() -> None:
    target = os.environ.get("SWC_RECV_PROBE")
    if target:
        with open(target, "w") as out:
            json.dump(STATS, out)


if __name__ == "__main__":
    NetworkSocket.connect = _probed_connect
    atexit.register(_write_stats)
    bot = os.path.abspath(sys.argv[1])
    sys.argv = [bot, *sys.argv[2:]]
    sys.path.insert(0, os.path.dirname(bot))
    runpy.run_path(bot, run_name="__main__")
