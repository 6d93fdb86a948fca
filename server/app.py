"""The host of ``swc serve``: it starts every door of server/doors.py (the door of each family of
server/families.py, then the viewer) and stops them together. It knows no door: a caller that
needs one door's parts asks for it by name (``server.door("xml").port``, ``.lobby``).
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Collection, Mapping
from typing import Any

import trio

from swc_local.server.config import Settings
from swc_local.server.door import prepare_doors, start_doors
from swc_local.server.doors import all_doors
from swc_local.server.limits import start_process_budget

log = logging.getLogger("swc.server")


class Server:
    """The host of the doors of ``swc serve`` (server/door.py).

    ``await server.run(task_status=...)`` inside a nursery; :attr:`doors` lists every door it
    started, in start order; :meth:`door` finds one by name. The host knows no door: each
    family's ``prepare`` builds its door from the house's settings (its own section and the
    house's fields); ``prepared`` holds doors a caller built itself, by family name (tests and
    ``swc match``: an XML door whose rooms start from a given position), which their families
    then start instead of building their own.  ``families`` names the wire families whose doors
    open (None: every one); the viewer follows its own settings either way.  A caller that plays
    one family's games (``swc match`` of an XML game) opens only that family's door, so the
    other families' ports are never taken and the caller names no other family.

    ``opponents`` is how the viewer's tables get the reference bots: a value with
    ``rungs(entry)`` (the rungs a game offers) and ``command(entry, rung)`` (a bot's command
    line), given by whoever builds the server (``swc serve`` through tools/cli.py, the pytest
    fixture, tests: client/ladder.py is such a value).  The server may not import the client
    layer, so without one its tables offer no bot seats.
    """

    def __init__(self, settings: Settings, prepared: Mapping[str, Any] | None = None,
                 families: Collection[str] | None = None, opponents: Any = None) -> None:
        self.settings = settings
        self.opponents = opponents  # rungs(entry) and command(entry, rung), or None: no bot seats
        doors = all_doors()  # every family of this server, then the viewer (the viewer reads it)
        self.families = doors if families is None else tuple(
            door for door in doors if door.name in families or door is doors[-1])
        self._host: trio.Nursery | None = None
        self.doors: list = []  # every door of this server (server/door.py), in start order
        self.web_renderer = None  # tests may swap the SVG drawing of the viewer
        self.command_resolver = None  # how the viewer's tables read a command seat (server/web/table_host.py)
        given = dict(prepared or {})
        # each family's door as built before any listens: a setting it cannot use raises here
        self.prepared: dict = given | prepare_doors(self, tuple(f for f in self.families if f.name not in given))

    async def run(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        start_process_budget(log)  # one connection budget for every door (issue 21)
        async with trio.open_nursery() as nursery:
            self._host = nursery
            self.doors = await start_doors(nursery, self, self.families)  # every family's door, the viewer last
            task_status.started(self)

    def door(self, name: str):
        """The running door called ``name`` (``xml``, ``reversixt``, ``roborally``, ``web`` ...), or None."""
        return next((door for door in self.doors if door.name == name), None)

    def cancel(self) -> None:
        """End at once: every task of this server and of the doors it hosts is cancelled."""
        if self._host is not None:
            self._host.cancel_scope.cancel()

    async def shutdown(self, why: str = "server stopped") -> None:
        """End every game and connection the documented way, then stop (server/shutdown.py)."""
        from swc_local.server.shutdown import stop_gracefully

        await stop_gracefully(self, why)


async def serve(settings: Settings, *, opponents: Any = None, task_status=trio.TASK_STATUS_IGNORED) -> None:
    """Run a server until cancelled."""
    await Server(settings, opponents=opponents).run(task_status=task_status)


def run(settings: Settings, command_resolver=None, opponents: Any = None) -> int | None:
    """``trio.run`` the server until a stop signal (its number is returned: the command exits with
    128 + it), with plain exceptions for the command line.

    trio >= 0.25 raises errors from inside nurseries as exception groups; the command line
    wants a plain KeyboardInterrupt (stop quietly) or the first OSError (cannot listen).
    """
    # A long-running server allocates many short-lived objects per move; raising the first
    # GC threshold and freezing start-up objects cut server CPU per move by about 15% at 500
    # rooms (benchmarks/README.md). Only here, not for servers run inside a test process.
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
    from swc_local.server.shutdown import serve_until_signalled  # SIGTERM/SIGINT: a clean stop

    try:
        server = Server(settings, opponents=opponents)
        server.command_resolver = command_resolver  # lent by the swc command (tools/): archives at tables
        signum = trio.run(serve_until_signalled, server)
        log.info("stopped")
        return signum
    except BaseExceptionGroup as group:
        raise _first_leaf(group) from None


def _first_leaf(group: BaseExceptionGroup) -> BaseException:
    interrupts, rest = group.split(KeyboardInterrupt)
    chosen = interrupts if interrupts is not None else rest
    while isinstance(chosen, BaseExceptionGroup):
        chosen = chosen.exceptions[0]
    return chosen
