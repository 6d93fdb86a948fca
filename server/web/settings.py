"""The viewer's settings section: its port and the bounds that keep one client from costing the
server memory, file descriptors or the games' time (issue 34).

Keys (``server.properties``; ``server.properties.example`` comments each):

* ``viewerPort`` (flag ``--viewer-port``): as before, -1 off, 13080 for ``swc serve``;
* ``viewerMaxBodyBytes``: largest body of a form or JSON request (``/login``, play-from); read in
  chunks, a larger one is refused with 413 as soon as it is known to be larger;
* ``viewerMaxUploadBytes``: largest uploaded file (and what a gzip may unpack to), 413 beyond;
* ``viewerUploadsKept`` / ``viewerUploadsKeptBytes``: uploads kept at once, by number and by
  their total size; the oldest are forgotten first;
* ``viewerMaxStreams`` / ``viewerMaxStreamsPerPeer``: event streams open at once, in all and
  per peer address; beyond either, 503;
* ``viewerMaxConnectionsPerPeer``: connections open at once per peer address; one beyond is
  closed as it is accepted, before a byte of it is read (server/web/accept.py), so a client
  holding thousands of connections costs the server an accept and a close each, not a request;
* ``viewerRequestTimeout``: seconds a client may take for a whole request body (408 beyond); a
  connection without a whole request head (idle, or sending it slowly) is closed after
  ``KEEP_ALIVE_SECONDS``: slow and idle clients do not hold connections. (Not hypercorn's
  ``read_timeout``: it applies to every read, and would close every page's event stream,
  whose browser sends nothing.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from swc_local.server.sections import ConfigError, PortSection, PortSettings, number, whole

DEFAULT_PORT = 13080
KEEP_ALIVE_SECONDS = 5.0
"""An idle keep-alive connection (no request since the last answer) is closed after this long."""
LISTEN_BACKLOG = 4096
"""Connections the kernel queues before they are accepted: the game doors' depth (trio's default)."""


class WebSettings(PortSettings):
    max_body_bytes: int = 16384
    max_upload_bytes: int = 8 << 20
    uploads_kept: int = 50
    uploads_kept_bytes: int = 32 << 20
    max_streams: int = 500
    max_streams_per_peer: int = 16
    max_connections_per_peer: int = 64
    request_timeout: float = 10.0


_WHOLE = {
    "viewerMaxBodyBytes": "max_body_bytes",
    "viewerMaxUploadBytes": "max_upload_bytes",
    "viewerUploadsKept": "uploads_kept",
    "viewerUploadsKeptBytes": "uploads_kept_bytes",
    "viewerMaxStreams": "max_streams",
    "viewerMaxStreamsPerPeer": "max_streams_per_peer",
    "viewerMaxConnectionsPerPeer": "max_connections_per_peer",
}


class ViewerSection(PortSection):
    name = "web"
    title = "web viewer"
    key = "viewerPort"
    flag = "--viewer-port"
    default_port = DEFAULT_PORT  # on by default for swc serve (issue 25)
    what = "web viewer"
    model = WebSettings

    @property
    def keys(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.key, *_WHOLE, "viewerRequestTimeout")

    def read(self, props: Mapping[str, str], sources: Mapping[str, str]) -> dict[str, Any]:
        fields = super().read(props, sources)
        for key, field in _WHOLE.items():
            if key in props:
                value = whole(key, props[key])
                if value < 1:
                    raise ConfigError(f"{key} must be at least 1, not {props[key]!r}")
                fields[field] = value
        if "viewerRequestTimeout" in props:
            seconds = number("viewerRequestTimeout", props["viewerRequestTimeout"])
            if not seconds > 0:
                raise ConfigError(f"viewerRequestTimeout must be a number of seconds above 0, not {props['viewerRequestTimeout']!r}")
            fields["request_timeout"] = seconds
        return fields


SECTION = ViewerSection()
