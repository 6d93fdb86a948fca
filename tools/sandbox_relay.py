"""The runner's side of one sandboxed seat: the relay's unix socket and the keeper's status pipe.

The sandbox (:mod:`swc_local.tools.sandbox`) has no network; its keeper forwards the bot's
connections to a unix socket in a folder bound into the sandbox.  :class:`SandboxedSeat` serves
that socket here, in the runner's trio loop, forwarding each connection to the game's
``host:port`` (the server sees the runner's own loopback connection, as for an unsandboxed bot),
and reads the keeper's status line once the bot has ended (:meth:`SandboxedSeat.limit`).
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
from pathlib import Path

import trio

from swc_local.tools.sandbox import Limits, read_status, wrap

SOCKET_NAME = "game.sock"


class SandboxedSeat:
    """One seat's sandbox in one game (``wrap`` it, ``serve`` it, read ``limit``, ``close``)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.folder = Path(tempfile.mkdtemp(prefix="swc-sandbox-"))
        os.chmod(self.folder, 0o755)  # run by root, the keeper is nobody: it must reach the socket
        self.socket_path = self.folder / SOCKET_NAME
        self.status_read, self.status_write = os.pipe()
        os.set_blocking(self.status_read, False)
        self.ready = False

    def wrap(self, argv: list[str], port: int) -> list[str]:
        return wrap(argv, port=port, relay=self.socket_path, status_fd=self.status_write, limits=self.limits)

    async def serve(self, host: str, port: int, task_status=trio.TASK_STATUS_IGNORED) -> None:
        """Forward every connection to the relay's socket to ``host:port`` until cancelled."""
        listener = trio.socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        await listener.bind(str(self.socket_path))
        os.chmod(self.socket_path, 0o777)
        listener.listen(64)
        self.ready = True
        task_status.started()

        async def forward(inside: trio.SocketStream) -> None:
            async with inside:
                try:
                    server = await trio.open_tcp_stream(host, port)
                except OSError:
                    return
                async with server:
                    async with trio.open_nursery() as both:
                        both.start_soon(_pump, inside, server)
                        both.start_soon(_pump, server, inside)

        await trio.serve_listeners(forward, [trio.SocketListener(listener)])

    def started(self) -> None:
        """The bot's process has the status pipe's writing end: ours is closed (EOF at its end)."""
        if self.status_write >= 0:
            os.close(self.status_write)
            self.status_write = -1

    def limit(self) -> tuple[str, str] | None:
        """The limit that ended the bot (cause, reason), read once it has exited; None if none did."""
        self.started()
        chunks = []
        while True:
            try:
                chunk = os.read(self.status_read, 4096)
            except BlockingIOError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        return read_status(b"".join(chunks))

    def close(self) -> None:
        self.started()
        if self.status_read >= 0:
            os.close(self.status_read)
            self.status_read = -1
        shutil.rmtree(self.folder, ignore_errors=True)


async def _pump(source: trio.SocketStream, sink: trio.SocketStream) -> None:
    try:
        async for chunk in source:
            await sink.send_all(chunk)
        await sink.send_eof()
    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
        pass
