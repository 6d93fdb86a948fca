"""Replays and logs opened without a game server: ``swc view FILE...`` and the start page's upload.

What kind a file is comes from its bytes, never from its name: gzip is unpacked (bounded), then
each family's reader (``read_record_file`` of its ServerFamily, server/door.py; the caller hands
them over, :func:`family_readers`: the viewer imports no family) says whether the bytes are its own: a ReversiXT move log starts with ``Starting game with map``, a Robo Rally game
log is JSON lines whose first object says ``"game": "roborally"``, and anything else is read as
an XML replay with the game ports' reader and limits (the XML reader is the fallback, asked
last). The name is only a label (shown escaped). A family may also say how an upload of its own
is read when a thread of the server will not do (``read_upload``: the XML family reads one in a
child process, server/xml/read_apart.py).
"""

from __future__ import annotations

import gzip
import io
import zlib
from collections.abc import Callable

from .book import GameRecord

MAX_UPLOAD_BYTES = 8 << 20
"""Largest file the start page takes (and the largest a gzip may unpack to)."""


class FileError(ValueError):
    """The file cannot be shown; the message names the file and why."""


def _gunzip(data: bytes, limit: int, source: str) -> bytes:
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as unpacked:
            out = unpacked.read(limit + 1)
    except (OSError, EOFError, zlib.error) as error:
        raise FileError(f"{source}: broken gzip file ({error})") from None
    if len(out) > limit:
        raise FileError(f"{source}: unpacks to more than {limit} bytes")
    return out


def open_bytes(data: bytes, source: str, readers, *, limit: int = MAX_UPLOAD_BYTES) -> GameRecord:
    """A finished record of a file that one of ``readers`` (``read(data, source) -> record | None``,
    asked in order) reads; FileError with the reason otherwise."""
    if len(data) > limit:
        raise FileError(f"{source}: larger than {limit} bytes")
    if data[:2] == b"\x1f\x8b":
        data = _gunzip(data, limit, source)
    try:
        for read in readers:
            record = read(data, source)
            if record is not None:
                return record
    except FileError:
        raise
    except (ValueError, KeyError, TypeError, IndexError) as error:
        text = str(error)
        raise FileError(text if text.startswith(source) else f"{source}: cannot be shown ({text})") from None
    raise FileError(f"{source}: not a replay or log of a known game")


def family_readers(families) -> dict[str, Callable]:
    """Every family's ``read_record_file`` (server/door.py's ServerFamily) by name, in the tuple's
    order with the fallback (XML's) last."""
    readable = [family for family in families if family.read_record_file is not None]
    readable.sort(key=lambda family: family.record_file_fallback)  # stable: the tuple's order
    return {family.name: family.read_record_file for family in readable}


def upload_readers(families) -> dict[str, Callable]:
    """The families' own ways of reading an upload (``read_upload(data, source, limit)``, async,
    None when the file is not theirs), by name; every other upload is read in a thread."""
    return {family.name: family.read_upload for family in families if family.read_upload is not None}
