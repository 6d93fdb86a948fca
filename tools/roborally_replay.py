"""``swc replay GAME.jsonl``: a Robo Rally game log as a text board, round by round.

The log (``--log-dir`` of ``swc roborally``, ``roborally.logDir`` of ``swc serve``, ``--replays``
of ``swc match roborally``) is one JSON object per line: a header (map, seed, players, winner),
then every message in (``"dir": "in"``) and out (``"dir": "out"``) with its time in seconds since
the game started. The printer follows only what the server sent, exactly as a client would:
start points, ``Movement``, ``PlayerTurning``, ``Reboot`` (facing ``top``), checkpoints; the
follower is the one the SVG view draws from (:class:`swc_local.games.roborally.view.Follower`),
so the viewer's pictures and these boards always show the same step.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TextIO

from swc_local.games.roborally.board import load_map
from swc_local.games.roborally.text import render
from swc_local.games.roborally.view import Follower, Snapshot


def read_log(path: Path) -> tuple[dict, list[dict]]:
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not lines or lines[0].get("game") != "roborally":
        raise ValueError(f"{path} is not a Robo Rally game log")
    return lines[0], lines[1:]


def print_log(path: Path, out: TextIO) -> int:
    try:
        header, entries = read_log(path)
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=out)
        return 2
    board = load_map(header["map"])
    print(f"Robo Rally on {header['map']}, players {header['players']}, seed {header['seed']}, winner {header['winner']}", file=out)
    follower = Follower(board, header.get("players") or ())
    for entry in entries:
        if entry.get("dir") != "out":
            continue
        snapshot = follower.feed(entry["messageType"], entry["messageBody"])
        if snapshot is not None:
            print(f"\n== {snapshot.title} (t={entry.get('t', 0)} s)", file=out)
            for event in snapshot.events:
                print("  " + event, file=out)
            print(render(board, snapshot.robots), file=out)
    return 0


def snapshots(path: Path) -> list[Snapshot]:
    """Every step of a game log as the viewer draws it (the boards :func:`print_log` prints)."""
    header, entries = read_log(path)
    follower = Follower(load_map(header["map"]), header.get("players") or ())
    found = [follower.feed(e["messageType"], e["messageBody"]) for e in entries if e.get("dir") == "out"]
    return [snapshot for snapshot in found if snapshot is not None]
