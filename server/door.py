"""The Door contract: what one wire family's listening port is to ``swc serve``.

A *door* is one port that speaks one protocol: the XML lobby (:class:`~swc_local.server.app.Server`),
ReversiXT (:class:`~swc_local.server.reversixt.door.ReversiDoor`) and Robo Rally
(:class:`~swc_local.server.roborally.door.RoboRallyDoor`). ``swc serve`` starts every enabled
door from one list (:data:`BESIDE_XML`, after the XML door that hosts them), and a shutdown
(SIGTERM/SIGINT, :mod:`swc_local.server.shutdown`) treats every door alike:

1. ``stop(reason)`` -- synchronous, returns at once: the door stops accepting, ends every running
   game the way its protocol ends one (its log or replay written and marked unfinished with
   ``reason``, no result), and starts closing every connection the way its protocol closes;
2. the shutdown waits (at most its grace period) until ``busy()`` of every door is 0: no
   connection left open and no game left to write;
3. whatever is left is cancelled.

Why a contract rather than three special cases in the shutdown: a fourth family then needs one
line in :data:`BESIDE_XML` and these four members, and nothing in the shutdown or the command.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import trio

if TYPE_CHECKING:
    from swc_local.server.app import Server


@runtime_checkable
class Door(Protocol):
    name: str
    """Short name for logs: ``xml``, ``reversixt``, ``roborally``."""

    port: int | None
    """The port it listens on, once started."""

    async def run(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        """Listen (the port is bound before ``task_status.started(self)``), then serve until cancelled."""

    async def handle(self, stream: trio.SocketStream) -> None:
        """One accepted connection, from its first byte to its close."""

    def stop(self, reason: str) -> None:
        """Begin the documented end (above); never raises for one game or connection that fails."""

    def busy(self) -> int:
        """Connections still open plus games still ending; 0 when the door has stopped."""


Starter = Callable[[trio.Nursery, "Server"], Awaitable[Door | None]]


async def start_reversixt(nursery: trio.Nursery, server: Server) -> Door | None:
    """The ReversiXT door (``reversixt=true``, the default); None when off or it cannot listen."""
    if not server.settings.reversixt_enabled:
        return None
    from swc_local.server.reversixt.config import run_door_for

    await nursery.start(run_door_for, server.settings, server)
    return server.reversixt_door


async def start_roborally(nursery: trio.Nursery, server: Server) -> Door | None:
    """The Robo Rally door (``roborally.port``, default 52020); None when off or it cannot listen."""
    from swc_local.server.roborally.config import start_beside

    server.roborally = await start_beside(nursery, server.settings)
    return server.roborally


BESIDE_XML: tuple[Starter, ...] = (start_reversixt, start_roborally)
"""Every door ``swc serve`` opens beside the XML door, in start order (one line per family)."""


async def start_doors(nursery: trio.Nursery, server: Server) -> list[Door]:
    """Start every enabled door beside ``server``; returns them all, the XML door first."""
    doors: list[Door] = [server]
    for start in BESIDE_XML:
        door = await start(nursery, server)
        if door is not None:
            doors.append(door)
    return doors
