"""The Software-Challenge family's part of ``swc serve``: its door, settings section and viewer hooks."""

from __future__ import annotations

from swc_local.server.door import ServerFamily
from swc_local.server.xml.door import open_door, prepare, read_record_file, read_upload, share_with_viewer, watch_for_viewer
from swc_local.server.xml.settings import SECTION

FAMILY = ServerFamily(
    "xml", SECTION, open_door, watch_for_viewer, read_record_file,
    # an XML replay has no fixed first bytes (ours start with <protocol, official ones may not):
    # the XML reader takes what no other family's reader recognized, so it is asked last
    record_file_fallback=True,
    read_upload=read_upload,  # an uploaded replay is read in a child process (server/xml/read_apart.py)
    prepare=prepare,
    share_with_viewer=share_with_viewer,
)
