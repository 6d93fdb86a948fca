"""Robo Rally game logs (``*.jsonl``) followed round by round, as a client would follow the game.

Pure (no I/O): ``swc replay`` prints these rounds as text boards and the web viewer draws them,
from the same function, so both show the same positions. Only what the server sent counts:
start points, ``Movement``, ``PlayerTurning``, ``Reboot`` (facing ``top``), checkpoints, leavers.
A round is shown when the next programming phase begins (``ActivePhase`` 2) and at the end.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from .board import CLOCKWISE, COUNTERCLOCKWISE, Board, load_map
from .notation import register_notation


@dataclass(frozen=True)
class RoundView:
    """The board after one round: robots ``{client id: (x, y, facing)}`` and what happened."""

    board: Board
    robots: dict[int, tuple[int, int, str]]
    title: str
    round: int
    events: tuple[str, ...] = ()
    t: float = 0.0
    checkpoints: dict[int, int] = field(default_factory=dict)


def parse_log(text: str) -> tuple[dict, list[dict]]:
    """The header and the entries of a log; ValueError if it is not a Robo Rally game log."""
    try:
        lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    except json.JSONDecodeError as error:
        raise ValueError(f"not a Robo Rally game log: {error}") from None
    if not lines or not isinstance(lines[0], dict) or lines[0].get("game") != "roborally":
        raise ValueError("not a Robo Rally game log")
    if not all(isinstance(entry, dict) for entry in lines):
        raise ValueError("not a Robo Rally game log: a line is not an object")
    return lines[0], lines[1:]


def follow(map_name: str, messages: Iterable[tuple[str, dict, float]], *, live: bool = False) -> Iterator[RoundView]:
    """Rounds from the server's messages ``(messageType, messageBody, t)``, in order.

    With ``live`` the position after the last message is yielded too (a game still running).
    """
    board = load_map(map_name)
    robots: dict[int, tuple[int, int, str]] = {}
    checkpoints: dict[int, int] = {}
    events: list[str] = []
    round_number = 0
    register = 0  # the registers run in this round so far
    t = 0.0

    def view(title: str) -> RoundView:
        shown = RoundView(board, dict(robots), title, round_number, tuple(events), t, dict(checkpoints))
        events.clear()
        return shown

    finished = False
    for kind, body, t in messages:
        if not isinstance(body, dict):
            continue
        who = body.get("clientID")
        if kind == "StartingPointTaken":
            robots[who] = (body["x"], body["y"], board.antenna[2])
        elif kind == "Movement" and who in robots:
            robots[who] = (body["x"], body["y"], robots[who][2])
        elif kind == "PlayerTurning" and who in robots:
            x, y, facing = robots[who]
            robots[who] = (x, y, (CLOCKWISE if body.get("rotation") == "clockwise" else COUNTERCLOCKWISE)[facing])
        elif kind == "Reboot":
            events.append(f"robot {who} reboots")
            if who in robots:
                x, y, _ = robots[who]
                robots[who] = (x, y, "top")
        elif kind == "CheckPointReached":
            events.append(f"robot {who} reaches checkpoint {body.get('number')}")
            checkpoints[who] = body.get("number", 0)
        elif kind == "DrawDamage":
            events.append(f"robot {who} takes {', '.join(map(str, body.get('cards', ())))}")
        elif kind == "ConnectionUpdate":
            events.append(f"client {who} left")
            robots.pop(who, None)
        elif kind == "CurrentCards":
            register += 1
            events.append(register_notation(register, body.get("activeCards") or []))
        elif kind == "ActivePhase" and body.get("phase") == 2:
            yield view("setup" if round_number == 0 else f"after round {round_number}")
            round_number += 1
            register = 0
        elif kind == "GameFinished":
            events.append(f"robot {who} wins")
            finished = True
            yield view(f"end in round {round_number}")
    if live and not finished:
        yield view(f"round {round_number}, running")


def log_messages(entries: Iterable[dict]) -> Iterator[tuple[str, dict, float]]:
    """The server's messages (``"dir": "out"``) of a log's entries."""
    for entry in entries:
        if entry.get("dir") == "out":
            yield entry.get("messageType", ""), entry.get("messageBody"), entry.get("t", 0)
