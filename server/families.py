"""Every wire family of ``swc serve``, one :class:`~swc_local.server.door.ServerFamily` each, in
start order: the tuple that the settings (server/config.py), the commands (server/cli.py) and the
host (server/app.py, which hands it to the viewer: server/web/ imports no family) iterate. Nothing outside this tuple and the families' own subpackages names
a family.

A fourth family is its subpackage ``server/<family>/`` (door, settings section, ``family.py``
with its ``FAMILY``) and one entry here (ARCHITECTURE.md, "Where new things go"). The doors that
``swc serve`` starts are these and then the viewer (server/doors.py), which shows the others.
"""

from __future__ import annotations

from swc_local.server.door import ServerFamily
from swc_local.server.reversixt.family import FAMILY as REVERSIXT
from swc_local.server.roborally.family import FAMILY as ROBORALLY
from swc_local.server.xml.family import FAMILY as XML

FAMILIES: tuple[ServerFamily, ...] = (XML, REVERSIXT, ROBORALLY)


def record_readers() -> list:
    """Every family's reader of replays and logs, the fallback (XML's) last: what ``swc view``,
    the tournament page and tests hand server/web/files.py's ``open_bytes`` (the viewer itself
    gets the families from the host and imports none of them)."""
    from swc_local.server.web.files import family_readers

    return list(family_readers(FAMILIES).values())
