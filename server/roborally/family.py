"""Robo Rally's part of ``swc serve``: its door, settings section, viewer hooks and the drop-in ``swc roborally``."""

from __future__ import annotations

from swc_local.server.door import ServerFamily
from swc_local.server.roborally.cli import add_commands
from swc_local.server.roborally.door import open_door, read_record_file, watch_for_viewer
from swc_local.server.roborally.settings import SECTION


def person_tables():
    """The viewer's persons' tables of Robo Rally (server/roborally/seats.py), imported only when a
    viewer runs."""
    from swc_local.server.roborally.seats import TABLES

    return TABLES


FAMILY = ServerFamily("roborally", SECTION, open_door, watch_for_viewer, read_record_file, add_commands=add_commands, person_tables=person_tables)
