"""Every door of ``swc serve`` in start order: each family's (server/families.py), then the viewer.

The viewer (server/web/) is the one door that is no family's: it shows the games of all the
others, so it starts last; it imports none of them, the host hands it this tuple
(``Server.families``). The host (server/app.py) starts these and knows no door; the settings
(server/config.py) and ``swc serve``'s flags (server/cli.py) read their sections.
"""

from __future__ import annotations

from swc_local.server import families
from swc_local.server.door import ServerFamily
from swc_local.server.web.door import VIEWER


def all_doors() -> tuple[ServerFamily, ...]:
    """The families' tuple as it is now (a test may add a family to it), then the viewer."""
    return (*families.FAMILIES, VIEWER)
