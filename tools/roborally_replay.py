"""``swc replay GAME.jsonl``: a Robo Rally game log as a text board, round by round.

The log (``--log-dir`` of ``swc roborally``, ``roborally.logDir`` of ``swc serve``, ``--replays``
of ``swc match roborally``) is one JSON object per line: a header (map, seed, players, winner),
then every message in (``"dir": "in"``) and out (``"dir": "out"``) with its time in seconds since
the game started. The printer follows only what the server sent, exactly as a client would:
start points, ``Movement``, ``PlayerTurning``, ``Reboot`` (facing ``top``), checkpoints.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TextIO

from swc_local.games.roborally.board import CLOCKWISE, COUNTERCLOCKWISE, load_map
from swc_local.games.roborally.text import render


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
    robots: dict[int, tuple[int, int, str]] = {}
    events: list[str] = []
    round_number = 0

    def show(title: str) -> None:
        print(f"\n== {title} (t={entry.get('t', 0)} s)", file=out)
        for event in events:
            print("  " + event, file=out)
        events.clear()
        print(render(board, robots), file=out)

    entry: dict = {}
    for entry in entries:
        if entry.get("dir") != "out":
            continue
        kind, body = entry["messageType"], entry["messageBody"]
        if kind == "StartingPointTaken":
            robots[body["clientID"]] = (body["x"], body["y"], board.antenna[2])
        elif kind == "Movement" and body["clientID"] in robots:
            robots[body["clientID"]] = (body["x"], body["y"], robots[body["clientID"]][2])
        elif kind == "PlayerTurning" and body["clientID"] in robots:
            x, y, facing = robots[body["clientID"]]
            robots[body["clientID"]] = (x, y, (CLOCKWISE if body["rotation"] == "clockwise" else COUNTERCLOCKWISE)[facing])
        elif kind == "Reboot":
            events.append(f"robot {body['clientID']} reboots")
            if body["clientID"] in robots:
                x, y, _ = robots[body["clientID"]]
                robots[body["clientID"]] = (x, y, "top")
        elif kind == "CheckPointReached":
            events.append(f"robot {body['clientID']} reaches checkpoint {body['number']}")
        elif kind == "DrawDamage":
            events.append(f"robot {body['clientID']} takes {', '.join(body['cards'])}")
        elif kind == "ConnectionUpdate":
            events.append(f"client {body['clientID']} left")
            robots.pop(body["clientID"], None)
        elif kind == "ActivePhase" and body["phase"] == 2:
            show("setup" if round_number == 0 else f"after round {round_number}")
            round_number += 1
        elif kind == "GameFinished":
            events.append(f"robot {body['clientID']} wins")
            show(f"end in round {round_number}")
    return 0


def main(path: Path, check: bool, out: TextIO) -> int:
    """``swc replay FILE.jsonl``: the game round by round (``--check`` is not offered for Robo
    Rally logs: they record messages, not moves that could be re-run)."""
    if check:
        print(f"swc replay --check: {path} is a Robo Rally game log; these can be printed, not checked", file=sys.stderr)
        return 2
    return print_log(path, out)
