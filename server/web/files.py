"""Replays and logs opened without a game server: ``swc view FILE...`` and the start page's upload.

What kind a file is comes from its bytes, never from its name: gzip is unpacked (bounded), a
ReversiXT move log starts with ``Starting game with map``, a Robo Rally game log is JSON lines
whose first object says ``"game": "roborally"``, anything else is read as an XML replay with the
game ports' reader and limits. The name is only a label (shown escaped).
"""

from __future__ import annotations

import gzip
import io
import zlib

from .book import GameRecord
from .reversixt_games import read_move_log_file
from .roborally_games import read_game_log
from .xml_games import read_xml_replay

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


def open_bytes(data: bytes, source: str, *, max_message_bytes: int = 1 << 20, max_depth: int = 32,
               limit: int = MAX_UPLOAD_BYTES) -> GameRecord:
    """A finished record of any supported file; FileError with the reason otherwise."""
    if len(data) > limit:
        raise FileError(f"{source}: larger than {limit} bytes")
    if data[:2] == b"\x1f\x8b":
        data = _gunzip(data, limit, source)
    try:
        if data.startswith(b"Starting game with map "):
            return read_move_log_file(data.decode("utf-8", "replace"), source)
        if data.lstrip()[:1] == b"{":
            return read_game_log(data.decode("utf-8", "replace"), source)
        return read_xml_replay(data, source, max_message_bytes, max_depth)
    except FileError:
        raise
    except (ValueError, KeyError, TypeError, IndexError) as error:
        text = str(error)
        raise FileError(text if text.startswith(source) else f"{source}: cannot be shown ({text})") from None
