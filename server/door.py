"""What one wire family is to ``swc serve``: the :class:`Door` contract and the :class:`ServerFamily` value.

A *door* is one port that speaks one protocol: the XML lobby (:class:`~swc_local.server.xml.door.XmlDoor`),
ReversiXT (:class:`~swc_local.server.reversixt.door.ReversiDoor`), Robo Rally
(:class:`~swc_local.server.roborally.door.RoboRallyDoor`) and the web viewer
(:class:`~swc_local.server.web.door.WebDoor`). ``swc serve`` starts every door of one tuple
(server/families.py's :data:`~swc_local.server.families.DOORS`: every family's, then the viewer,
which watches the others), and a shutdown (SIGTERM/SIGINT, :mod:`swc_local.server.shutdown`)
treats every door alike:

1. ``stop(reason)`` -- synchronous, returns at once: the door stops accepting, ends every running
   game the way its protocol ends one (its log or replay written and marked unfinished with
   ``reason``, no result), and starts closing every connection the way its protocol closes;
2. the shutdown waits (at most its grace period) until ``busy()`` of every door is 0: no
   connection left open and no game left to write;
3. whatever is left is cancelled.

Why a contract rather than special cases in the shutdown: a fourth family then needs a door with
these four members and one :class:`ServerFamily` value in server/families.py, and nothing in the
shutdown, the host, the command or this file.

A family's server part is one typed value, :class:`ServerFamily`, built in its subpackage
(``server/<family>/family.py``) from real imports:

* ``section``: its settings section (server/sections.py's ``Section``: its keys of
  ``server.properties``, its model, its ``swc serve`` flags and defaults);
* ``open_door(nursery, host) -> Door | None``: start the door in ``nursery`` for the host
  ``Server`` (its ``settings``, ``doors`` started so far, ``prepared``); None when the door is off,
  or raises :class:`CannotListen` when it cannot listen (the host stops: one policy for every door);
* its viewer hooks (a family without them is served but not shown by the web viewer):
  ``watch_for_viewer(door, book)``, called once for the family's started door (the door whose
  ``name`` is the family's name) when a viewer opens, gives each of its games a record (a
  ``GameRecord`` of server/web/book.py) in ``book``; ``read_record_file(data, source) ->
  GameRecord | None`` reads one of the family's replays or logs opened by ``swc view`` or
  uploaded, with the family's own limits, None when ``data`` is not the family's (ValueError when
  it is but cannot be read). Readers are asked in tuple order, except one whose family sets
  ``record_file_fallback`` (the XML family's: an XML replay has no fixed first bytes), asked last;
  ``read_upload(data, source, limit)``, optional, async: how the viewer reads an upload of the
  family's when a thread of the server will not do (the XML family's: in a child process), None
  when ``data`` is not the family's;
* its own ``swc`` commands (``add_commands(commands)``, e.g. the drop-in ``swc reversixt``) and
  the commands whose arguments another parser reads verbatim (``passthrough``: leading words ->
  ``main(rest)``);
* ``prepare(host)``, optional: what the family builds with the host, before any door listens,
  from the house's settings (the XML door, with its own settings, so a ``loadGameFile`` it cannot
  use raises when the host is built); the host keeps it in ``host.prepared[name]`` for
  ``open_door`` (a caller may hand the host one it built itself: ``Server(settings, prepared=)``);
* ``share_with_viewer(door, context)``, optional: what the family's started door lends the
  viewer besides records (server/web/app.py's ``WebContext``): the XML door its passphrase gate,
  "play from here", its persons' tables (registered with the viewer's table host,
  server/web/table_host.py) and its readers' limits;
* ``person_tables()``, optional: the family's persons' tables that start a door of their own
  (server/web/table_host.py's ``FamilyTables``; ReversiXT, Robo Rally), registered with the
  viewer's table host whether or not the family's own door runs; a function, so the viewer's
  parts load only with it.

The viewer is below the families: a family's hooks import the viewer's parts (its records module
``server/<family>/records.py`` on ``server/web/book.py``, its tables on
``server/web/table_host.py``), only when called, so a server without a viewer never imports them;
the viewer imports no family and gets them from the host (``host.families``).
tests/packaging/test_layers.py checks that direction, lazy imports included.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import trio

from swc_local.server.sections import Section


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

    # Optional: ``games_finished() -> int``, the games the door ended since it opened, and
    # ``recent_games()``, the last of them one line each (server/finished_games.py); a stopped
    # ``swc serve`` prints both (server/shutdown.py). The viewer has none of its own.

    def stop(self, reason: str) -> None:
        """Begin the documented end (above); never raises for one game or connection that fails."""

    def busy(self) -> int:
        """Connections still open plus games still ending; 0 when the door has stopped."""


@dataclass(frozen=True)
class ServerFamily:
    """One family's part of ``swc serve`` (the module docstring says what each member is)."""

    name: str  # xml, reversixt, roborally; the viewer's door is "web"
    section: Section
    open_door: Callable[[trio.Nursery, Any], Awaitable[Door | None]]
    watch_for_viewer: Callable[[Any, Any], None] | None = None
    read_record_file: Callable[..., Any] | None = None
    record_file_fallback: bool = False
    add_commands: Callable[[Any], None] | None = None
    passthrough: Mapping[tuple[str, ...], Callable[[list[str]], int]] = field(default_factory=dict)
    prepare: Callable[[Any], Any] | None = None
    share_with_viewer: Callable[[Any, Any], None] | None = None
    person_tables: Callable[[], Any] | None = None
    read_upload: Callable[..., Awaitable[Any]] | None = None


class CannotListen(Exception):
    """A door's port cannot be opened (taken, or not allowed): ``swc serve`` stops, whichever door
    it is, with this one line naming the port and the flag that moves the door (and the one that
    turns it off, for every door but the XML one).  One policy for every door, because a server
    that quietly runs without a door its user asked for is found out only when a bot cannot
    connect."""


def cannot_listen(raised: BaseException, what: str, host: str, port: int, move: str, off: str | None = None,
                  key: str | None = None) -> CannotListen:
    """The :class:`CannotListen` for a bind failure ``raised`` (an OSError, alone or wrapped by the
    door's own nursery); anything else is raised again as it is.  ``move`` is the flag and ``key``
    the server.properties key that set the port: the line names both, as the port may come from
    either."""
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
    where = f" (server.properties: {key})" if key else ""
    how = f"{move} PORT{where} moves it" + (f", {off} turns it off" if off else "")
    return CannotListen(f"cannot listen on {host}:{port} for the {what} ({error.strerror or error}); {how}")


def prepare_doors(host, families: tuple[ServerFamily, ...]) -> dict[str, Any]:
    """What each family with a ``prepare`` hook builds when the host is built (before any door
    listens), by family name: its :meth:`prepare` raises at once for a setting it cannot use."""
    return {family.name: family.prepare(host) for family in families if family.prepare is not None}


async def start_doors(nursery: trio.Nursery, host, families: tuple[ServerFamily, ...]) -> list[Door]:
    """Start the door of every family of ``families``, in order; returns those that opened, in
    that order; a port that any door cannot open stops the host (:class:`CannotListen`)."""
    doors: list[Door] = []
    for family in families:
        host.doors = doors  # what each door may look at: the doors started before it
        door = await family.open_door(nursery, host)
        if door is not None:
            doors.append(door)
    return doors
