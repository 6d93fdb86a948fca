"""Stopping the server on SIGTERM or SIGINT without losing anyone's records (issue 15).

``docker stop``, systemd and CI runners send SIGTERM; a person presses Ctrl-C.  Both now do the
same, in this order:

1. stop accepting connections (the listening sockets close);
2. every running game ends as an admin's ``cancel`` ends it: ``<left roomId="R"/>`` to players
   and observers, no result; with ``saveReplay`` its replay is written with the moves so far and
   the root attribute ``unfinished`` naming the signal; rooms still waiting are removed;
3. every connection gets the protocol's close sequence (``CloseConnection`` then ``</protocol>``)
   and is closed once that is flushed;
4. the process exits 0, at most ``GRACE_SECONDS`` after the signal (a client that does not read
   its last bytes is cut off then).

A second signal during these steps exits at once (status 128 + signal number, the shell's
convention).  The official server had no such sequence: it died on SIGTERM with whatever was
in flight, a deliberate difference listed in the README.
"""

from __future__ import annotations

import logging
import os
import signal

import trio

log = logging.getLogger("swc.server")

GRACE_SECONDS = 1.5
"""From the signal to the cancellation of whatever has not finished (well under 2 s)."""

SIGNALS = (signal.SIGINT, signal.SIGTERM)


def end_everything(server, why: str) -> None:
    """Steps 1-3 for ``server`` (an :class:`swc_local.server.app.Server`), synchronously."""
    server.stop_accepting()
    lobby = server.lobby
    if lobby is not None:
        for room in list(lobby.rooms.values()):
            try:
                room.stop(why)
            except Exception:  # one broken room must not keep the others from ending
                log.exception("room %s: error while stopping it", room.id)
    for connection in list(server.connections):
        connection.close_politely(why)


async def stop_gracefully(server, why: str) -> None:
    """End everything, then wait (at most the grace period) for the connections to flush."""
    end_everything(server, why)
    with trio.move_on_after(GRACE_SECONDS):
        while server.connections:
            await trio.sleep(0.01)
    if server.connections:
        log.warning("%d connections did not read their close in time; cut off", len(server.connections))
    server.stop()


async def serve_until_signalled(server) -> None:
    """Run ``server`` until SIGTERM or SIGINT, then stop it gracefully (trio's main thread only)."""
    with trio.open_signal_receiver(*SIGNALS) as signals:
        async with trio.open_nursery() as nursery:
            await nursery.start(server.run)
            nursery.start_soon(_watch_signals, signals, server, nursery)


async def _watch_signals(signals, server, nursery: trio.Nursery) -> None:
    """The first signal starts the graceful stop beside this loop; the second one exits."""
    stopping = False
    async for signum in signals:
        name = signal.Signals(signum).name
        if stopping:
            log.warning("%s again: exiting at once", name)
            logging.shutdown()
            os._exit(128 + signum)
        stopping = True
        log.info("%s received: ending every game and closing every connection", name)
        nursery.start_soon(_stop_then_cancel, server, f"server stopped ({name})", nursery.cancel_scope)


async def _stop_then_cancel(server, why: str, scope: trio.CancelScope) -> None:
    await stop_gracefully(server, why)
    scope.cancel()
