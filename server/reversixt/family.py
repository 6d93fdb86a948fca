"""ReversiXT's part of ``swc serve``: its door, settings section, viewer hooks and the drop-in ``swc reversixt``."""

from __future__ import annotations

from swc_local.server.door import ServerFamily
from swc_local.server.reversixt.door import open_door, read_record_file, watch_for_viewer
from swc_local.server.reversixt.dropin import PASSTHROUGH, add_commands
from swc_local.server.reversixt.settings import SECTION


def person_tables():
    """The viewer's persons' tables of ReversiXT (server/reversixt/seats.py), imported only when a
    viewer runs."""
    from swc_local.server.reversixt.seats import TABLES

    return TABLES


FAMILY = ServerFamily("reversixt", SECTION, open_door, watch_for_viewer, read_record_file,
                      add_commands=add_commands, person_tables=person_tables, passthrough=PASSTHROUGH)
