"""The Door contract: what one wire family's listening port is to ``swc serve``.

A *door* is one port that speaks one protocol: the XML lobby (:class:`~swc_local.server.xml.door.XmlDoor`),
ReversiXT (:class:`~swc_local.server.reversixt.door.ReversiDoor`), Robo Rally
(:class:`~swc_local.server.roborally.door.RoboRallyDoor`) and the web viewer
(:class:`~swc_local.server.web.door.WebDoor`). ``swc serve`` starts every enabled door from one
list (:func:`door_modules`: the door of every family of ``games/registry.py``, then the viewer,
which watches the others), and a shutdown (SIGTERM/SIGINT, :mod:`swc_local.server.shutdown`)
treats every door alike:

1. ``stop(reason)`` -- synchronous, returns at once: the door stops accepting, ends every running
   game the way its protocol ends one (its log or replay written and marked unfinished with
   ``reason``, no result), and starts closing every connection the way its protocol closes;
2. the shutdown waits (at most its grace period) until ``busy()`` of every door is 0: no
   connection left open and no game left to write;
3. whatever is left is cancelled.

Why a contract rather than special cases in the shutdown: a fourth family then needs a door
module with these four members, its settings section and one ``Family`` line in the registry,
and nothing in the shutdown, the command or this file.

A door module (named by ``Family.door``) offers two names:

* ``SECTION``: its settings section (server/settings.py's ``Section``: its keys of
  ``server.properties``, its model, its ``swc serve`` flags and defaults);
* ``async open_door(nursery, host) -> Door | None``: start the door in ``nursery`` for the host
  ``Server`` (its ``settings``, ``doors`` started so far, ``lobby``); None when the door is off
  or raises :class:`CannotListen` when it cannot listen (the host stops: one policy for every door).

and, when the family's games are to be shown by the web viewer (server/web/), its viewer hooks
(found through :func:`family_doors`; a family without them is served but not shown):

* ``watch_for_viewer(door, book)``: called once for the family's started door (the door whose
  ``name`` is the family's name) when a viewer opens; gives each of its games a record (a
  ``GameRecord`` of server/web/book.py) in ``book`` as the game starts;
* ``read_record_file(data, source, *, max_message_bytes, max_depth) -> GameRecord | None``: one
  of the family's replays or logs opened by ``swc view`` or uploaded, None when ``data`` is not
  the family's (raises ValueError when it is but cannot be read). Readers are asked in registry
  order, except that one whose module sets ``RECORD_FILE_FALLBACK = True`` (the XML family's:
  an XML replay has no fixed first bytes) is asked last.

Both import the family's records module (``server/<family>/records.py``) only when called, so a
server without a viewer never imports the viewer's parts.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import trio

if TYPE_CHECKING:
    from swc_local.server.app import Server


@runtime_checkable
class Door(Protocol):
    name: str
    """Short name for logs and ``Server.door(name)``: ``xml``, ``reversixt``, ``roborally``, ``web``."""

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


VIEWER = "swc_local.server.web.door"
"""The one door that is no family's: it shows the games of all the others, so it starts last."""


def door_modules() -> list[str]:
    """Every door of ``swc serve`` in start order: each family's (the registry), then the viewer."""
    from swc_local.games import registry

    return [family.door for family in registry.FAMILIES if family.door] + [VIEWER]


def family_doors() -> list[tuple[str, ModuleType]]:
    """``(family name, its door module)`` for every family of the registry that has a door, in
    registry order: where the viewer looks for the optional hooks above."""
    from swc_local.games import registry

    return [(family.name, importlib.import_module(family.door)) for family in registry.FAMILIES if family.door]


class CannotListen(Exception):
    """A door's port cannot be opened (taken, or not allowed): ``swc serve`` stops, whichever door
    it is, with this one line naming the port and the flag that moves the door (and the one that
    turns it off, for every door but the XML one).  One policy for every door, because a server
    that quietly runs without a door its user asked for is found out only when a bot cannot
    connect."""


def cannot_listen(raised: BaseException, what: str, host: str, port: int, move: str, off: str | None = None) -> CannotListen:
    """The :class:`CannotListen` for a bind failure ``raised`` (an OSError, alone or wrapped by the
    door's own nursery); anything else is raised again as it is."""
    error = raised
    if isinstance(raised, BaseExceptionGroup):
        bind_errors, rest = raised.split(OSError)
        if bind_errors is None or rest is not None:
            raise raised
        error = bind_errors
        while isinstance(error, BaseExceptionGroup):
            error = error.exceptions[0]
    elif not isinstance(raised, OSError):
        raise raised
    how = f"{move} PORT moves it" + (f", {off} turns it off" if off else "")
    return CannotListen(f"cannot listen on {host}:{port} for the {what} ({error.strerror or error}); {how}")


async def start_doors(nursery: trio.Nursery, host: Server) -> list[Door]:
    """Start every enabled door of the one list, in order; returns those that opened (the XML
    door first); a port that any door cannot open stops the host (:class:`CannotListen`)."""
    doors: list[Door] = []
    for module in door_modules():
        host.doors = doors  # what each door may look at: the doors started before it
        door = await importlib.import_module(module).open_door(nursery, host)
        if door is not None:
            doors.append(door)
    return doors
