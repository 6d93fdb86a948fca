"""ReversiXT move logs (``log_game.txt`` of the reference server, the door's and ``swc match``'s
logs): parsing them and replaying their events through the referee.

Pure (no I/O): ``swc replay`` prints and checks them, the web viewer shows them; both read the
same events, so what the viewer draws is what ``swc replay`` prints.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .mapfile import parse_map
from .referee import Referee

_MOVE = re.compile(r"^move (\d+): player (\d+) moved \((\d+),(\d+),(\d+)\)\. time left: (\d+) msecs$")
_DISQ = re.compile(r"^disqualified player (\d+) \((.*)\)$")
_GROUP = re.compile(r"^Player (\d+) is group (\d+)$")
_LIMITS = re.compile(r"^timelimit ([\d.]+), depthlimit (\d+)$")


class MoveLogError(ValueError):
    pass


@dataclass
class MoveLog:
    text: str
    map_name: str
    map_text: str
    groups: list[int]
    time_limit: float
    depth: int
    events: list[tuple] = field(default_factory=list)  # ("move", p, x, y, s, left) / ("disq", p, reason)


def read_move_log(text: str) -> MoveLog:
    lines = text.split("\n")
    if not lines[0].startswith("Starting game with map "):
        raise MoveLogError("not a ReversiXT move log")
    map_name = lines[0][len("Starting game with map ") :]
    try:
        start = 3
        end = lines.index("", start)
        map_text = "\n".join(lines[start:end]) + "\n"
        pos = end + 1
        groups = []
        while (m := _GROUP.match(lines[pos])) is not None:
            groups.append(int(m.group(2)))
            pos += 1
        limits = _LIMITS.match(lines[pos + 1])
        if limits is None:
            raise MoveLogError(f"line {pos + 2}: expected the time and depth limits")
    except (ValueError, IndexError):
        raise MoveLogError("the log's header is incomplete") from None
    log = MoveLog(text, map_name, map_text, groups, float(limits.group(1)), int(limits.group(2)))
    pos += 3
    while pos < len(lines):
        line = lines[pos]
        if m := _MOVE.match(line):
            log.events.append(("move",) + tuple(int(g) for g in m.groups()[1:]))
        elif m := _DISQ.match(line):
            log.events.append(("disq", int(m.group(1)), m.group(2)))
            pos = lines.index("", lines.index("", pos + 1) + 1)  # skip the "Current map" block
        pos += 1
    return log


def replay_log(log: MoveLog, on_move=None, *, complete: bool = True) -> Referee:
    """Feed the log's events to a fresh referee; MoveLogError where the rules disagree.

    ``complete=False`` accepts a log that stops mid-game (a game still being played).
    """
    referee = new_referee(log)
    apply_events(referee, log.events, on_move=on_move)
    if complete:
        finish(referee)
    return referee


def new_referee(log: MoveLog) -> Referee:
    """A referee at the start of the log's game (its map, groups and limits)."""
    game_map = parse_map(log.map_text.encode())
    limit_ms = int(round(log.time_limit * 1000))
    return Referee(game_map, log.groups, limit_ms, log.depth, log.map_name, 0, log.time_limit)


def apply_events(referee: Referee, events, first: int = 1, on_move=None) -> None:
    """Feed ``events`` (numbered from ``first``) to ``referee``: a game followed as its log grows
    needs only the new events."""
    for number, event in enumerate(events, first):
        kind, player = event[0], event[1]
        if kind == "disq" and event[2] == "send failed":
            referee.disqualify(player, event[2])
            continue
        while True:
            action, expected = referee.next_action()
            if action != "end_phase1":
                break
        if action != "request" or expected != player:
            raise MoveLogError(f"event {number}: player {player} acts, but the rules say {action} {expected}")
        referee.request(player)
        if kind == "disq":
            referee.fault(player, event[2])
        else:
            _, _, x, y, special, left = event
            elapsed = (referee.accounts[player] - left + 0.5) / 1000 if referee.timed else 0.0
            verdict = referee.answer(player, x, y, special, elapsed)
            if verdict.disqualified is not None:
                raise MoveLogError(f"event {number}: the rules refuse move ({x},{y},{special}) of player {player}")
            if on_move is not None:
                on_move(referee, player)


def finish(referee: Referee) -> None:
    """Run the rules to the end of a complete log; MoveLogError if they still want a move."""
    while not referee.finished:
        action, player = referee.next_action()
        if action == "request":
            raise MoveLogError(f"the log ends, but the rules still want a move of player {player}")
