"""``swc replay`` for ReversiXT move logs (``log_game.txt``, the door's and ``swc match``'s logs).

Printing shows the board after every move (text board of :mod:`swc_local.games.reversixt.text`).
``--check`` re-plays the log through our referee and compares the log it writes with the file
line by line (apart from the port), so a log of the reference server checks our rules, and a
log of ours is shown to be self-consistent.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from swc_local.games.reversixt.mapfile import MapError, parse_map
from swc_local.games.reversixt.referee import Referee
from swc_local.games.reversixt.text import board_text

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


def is_move_log(path: Path) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(23) == b"Starting game with map "
    except OSError:
        return False


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


def replay_log(log: MoveLog, on_move=None) -> Referee:
    """Feed the log's events to a fresh referee; MoveLogError where the rules disagree."""
    game_map = parse_map(log.map_text.encode())
    limit_ms = int(round(log.time_limit * 1000))
    referee = Referee(game_map, log.groups, limit_ms, log.depth, log.map_name, 0, log.time_limit)
    for number, event in enumerate(log.events, 1):
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
    while not referee.finished:
        action, player = referee.next_action()
        if action == "request":
            raise MoveLogError(f"the log ends, but the rules still want a move of player {player}")
    return referee


def _normalise(text: str) -> list[str]:
    return [re.sub(r"listening on port \d+", "listening on port P", line) for line in text.split("\n")]


def check(log: MoveLog) -> tuple[bool, str]:
    try:
        referee = replay_log(log)
    except (MoveLogError, MapError) as error:
        return False, str(error)
    ours, theirs = _normalise("".join(referee.log)), _normalise(log.text)
    for number, (a, b) in enumerate(zip(ours, theirs), 1):
        if a != b:
            return False, f"line {number}: the log says {b!r}, the rules give {a!r}"
    if len(ours) != len(theirs):
        return False, f"the log has {len(theirs)} lines, the rules give {len(ours)}"
    return True, f"{sum(1 for e in log.events if e[0] == 'move')} moves and the scores agree with the rules"


def main(path: Path, check_only: bool, out=None) -> int:
    out = out or sys.stdout
    try:
        log = read_move_log(path.read_text())
    except (OSError, MoveLogError) as error:
        print(f"{path}: {error}", file=sys.stderr)
        return 2
    if check_only:
        ok, message = check(log)
        print(("ok: " if ok else "disagreement: ") + message, file=out)
        return 0 if ok else 1

    def show(referee: Referee, player: int) -> None:
        _, x, y, special = referee.moves[-1]
        print(f"move {referee.move_number - 1}: player {player} -> ({x},{y},{special})", file=out)
        print(board_text(referee.state), file=out)

    try:
        referee = replay_log(log, on_move=show)
    except (MoveLogError, MapError) as error:
        print(f"{path}: {error}", file=sys.stderr)
        return 1
    for rank, player, points in referee.ranking():
        status = "disqualified" if player in referee.state.disqualified else f"{points} stones"
        print(f"{rank}. player {player} (group {log.groups[player - 1]}): {status}", file=out)
    return 0
