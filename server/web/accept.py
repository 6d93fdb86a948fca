"""Hypercorn's trio worker on the viewer's own accept loop: connections are capped per peer
address when they are accepted, before hypercorn parses a byte of them (issue 34).

Why not ``hypercorn.trio.serve``: it accepts every connection with ``trio.serve_listeners`` and
starts a whole HTTP connection for each, so a client holding thousands of connections made the
server parse thousands of requests only to refuse them (the per-peer event stream cap answers
503 after the request), and the other pages and the games waited for that work: 3,000 streams
from one address made another page wait over 5 s for its stream and ``GET /api/games`` take 16 s.
Here :func:`serve` is hypercorn's ``worker_serve`` (0.18: its lifespan, its ``WorkerContext``,
one ``TCPServer`` per connection, the same graceful stop) with the accept loop the game doors
use (server/limits.py's ``accept_retrying``); a connection from an address that already holds
``viewerMaxConnectionsPerPeer`` open connections is closed at once, without a byte, and the
refusals are logged once per burst with the address.

Conformance note: a browser opens at most six connections per host under HTTP/1.1 (and a tab's
event stream holds one of them), so a person with several tabs stays far below the default; a
refused connection sees the close of a server at its limit, as the game doors' refusals do.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING

import trio

from swc_local.server.limits import BurstLog, accept_retrying

if TYPE_CHECKING:
    from hypercorn.config import Config

if sys.version_info < (3, 11):  # pragma: no cover - the project needs 3.11, as hypercorn's own guard
    from exceptiongroup import BaseExceptionGroup

log = logging.getLogger("swc.web")


class PeerConnections:
    """Open connections per peer address, at most ``per_peer`` each (a refusal noted per burst)."""

    def __init__(self, per_peer: int, logger: logging.Logger = log) -> None:
        self.per_peer = per_peer
        self.open: dict[str, int] = {}
        self.refused = 0
        self._burst = BurstLog(logger)

    def admit(self, peer: str) -> bool:
        held = self.open.get(peer, 0)
        if held >= self.per_peer:
            self.refused += 1
            self._burst.note("viewer: connection from %s refused: %d connections of it open (viewerMaxConnectionsPerPeer)",
                             peer, held)
            return False
        self.open[peer] = held + 1
        return True

    def release(self, peer: str) -> None:
        held = self.open.get(peer, 0) - 1
        if held > 0:
            self.open[peer] = held
        else:
            self.open.pop(peer, None)


def _address(stream: trio.SocketStream) -> str:
    try:
        return str(stream.socket.getpeername()[0])
    except (OSError, IndexError):
        return "?"


async def _accept_loop(listener: trio.SocketListener, handler: Callable[[trio.SocketStream], object],
                       peers: PeerConnections, handlers: trio.Nursery) -> None:
    trouble = BurstLog(log)
    async with listener:
        while True:
            stream = await accept_retrying(listener, trouble, "viewer: ")
            peer = _address(stream)
            if not peers.admit(peer):
                stream.socket.close()  # at once: no task, no checkpoint per refused connection
                continue
            handlers.start_soon(_serve_one, handler, stream, peers, peer)


async def _serve_one(handler, stream: trio.SocketStream, peers: PeerConnections, peer: str) -> None:
    try:
        await handler(stream)
    finally:
        peers.release(peer)
        await trio.aclose_forcefully(stream)  # as trio.serve_listeners does: hypercorn may leave it open when cancelled


async def serve(app, config: Config, peers: PeerConnections, *,
                shutdown_trigger: Callable[..., Awaitable[None]],
                task_status: trio.TaskStatus[list[str]] = trio.TASK_STATUS_IGNORED) -> None:
    """``hypercorn.trio.serve`` (plain HTTP, the viewer's case) with the accept loop above."""
    from hypercorn.trio.lifespan import Lifespan
    from hypercorn.trio.statsd import StatsdLogger
    from hypercorn.trio.tcp_server import TCPServer
    from hypercorn.trio.worker_context import WorkerContext
    from hypercorn.typing import ConnectionState
    from hypercorn.utils import ShutdownError, raise_shutdown, repr_socket_addr, wrap_app

    app = wrap_app(app, config.wsgi_max_body_size, None)
    config.set_statsd_logger_class(StatsdLogger)
    lifespan_state: dict = {}
    lifespan = Lifespan(app, config, lifespan_state)
    context = WorkerContext(None)
    async with trio.open_nursery() as lifespan_nursery:
        await lifespan_nursery.start(lifespan.handle_lifespan)
        await lifespan.wait_for_startup()
        async with trio.open_nursery() as handlers:
            listeners, binds = [], []
            for sock in config.create_sockets().insecure_sockets:
                sock.listen(config.backlog)
                listeners.append(trio.SocketListener(trio.socket.from_stdlib_socket(sock)))
                binds.append(f"http://{repr_socket_addr(sock.family, sock.getsockname())}")
            task_status.started(binds)
            handler = partial(TCPServer, app, config, context, ConnectionState(lifespan_state.copy()))
            try:
                async with trio.open_nursery(strict_exception_groups=True) as nursery:
                    nursery.start_soon(raise_shutdown, shutdown_trigger)
                    nursery.start_soon(raise_shutdown, context.terminate.wait)
                    for listener in listeners:
                        nursery.start_soon(_accept_loop, listener, handler, peers, handlers)
                    await trio.sleep_forever()
            except BaseExceptionGroup as error:
                _, other_errors = error.split((ShutdownError, KeyboardInterrupt))
                if other_errors is not None:
                    raise other_errors
            finally:
                await context.terminated.set()
                handlers.cancel_scope.deadline = trio.current_time() + config.graceful_timeout
        await lifespan.wait_for_shutdown()
        lifespan_nursery.cancel_scope.cancel()
