"""``swc replay GAME.jsonl``: a Robo Rally game log as a text board, round by round.

The log (``--log-dir`` of ``swc roborally``, ``roborally.logDir`` of ``swc serve``, ``--replays``
of ``swc match roborally``) is one JSON object per line: a header (map, seed, players, winner),
then every message in (``"dir": "in"``) and out (``"dir": "out"``) with its time in seconds since
the game started. The printer follows only what the server sent, exactly as a client would:
start points, ``Movement``, ``PlayerTurning``, ``Reboot`` (facing ``top``), checkpoints.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from swc_local.games.roborally.logview import follow, log_messages, parse_log
from swc_local.games.roborally.text import render


def read_log(path: Path) -> tuple[dict, list[dict]]:
    try:
        return parse_log(path.read_text(encoding="utf-8"))
    except ValueError:
        raise ValueError(f"{path} is not a Robo Rally game log") from None


def print_log(path: Path, out: TextIO) -> int:
    try:
        header, entries = read_log(path)
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=out)
        return 2
    print(f"Robo Rally on {header['map']}, players {header['players']}, seed {header['seed']}, winner {header['winner']}", file=out)
    for view in follow(header["map"], log_messages(entries)):
        print(f"\n== {view.title} (t={view.t} s)", file=out)
        for event in view.events:
            print("  " + event, file=out)
        print(render(view.board, view.robots), file=out)
    return 0


def main(path: Path, check: bool, out: TextIO) -> int:
    """``swc replay FILE.jsonl``: the game round by round (``--check`` is not offered for Robo
    Rally logs: they record messages, not moves that could be re-run)."""
    if check:
        print(f"swc replay --check: {path} is a Robo Rally game log; these can be printed, not checked", file=sys.stderr)
        return 2
    return print_log(path, out)
