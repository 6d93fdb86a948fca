"""Writing one Robo Rally game log (JSON lines, ``roborally.logDir`` / ``--replays``).

A room keeps its game's lines (bounded by ``log_max_bytes``, server/roborally/room.py); the door
writes them here once the game ends, in a worker thread, so a slow disk never stalls a game.
"""

from __future__ import annotations

import logging
import os

log = logging.getLogger("swc.roborally")


def write_log_file(path: str, data: bytes) -> str | None:
    """Write one game log; a failure (disk full, no descriptors, bad folder) is logged and costs
    only this file, never the game, the door or the server."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(data)
    except (OSError, ValueError) as error:
        log.error("Robo Rally game log %s not written: %s", path, error)
        return None
    return path
