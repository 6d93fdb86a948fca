"""``swc replay`` for ReversiXT move logs (``log_game.txt``, the door's and ``swc match``'s logs).

Printing shows the board after every move (text board of :mod:`swc_local.games.reversixt.text`).
``--check`` re-plays the log through our referee and compares the log it writes with the file
line by line (apart from the port), so a log of the reference server checks our rules, and a
log of ours is shown to be self-consistent.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from swc_local.games.reversixt.mapfile import MapError
from swc_local.games.reversixt.movelog import (
    MoveLog, MoveLogError, apply_events, finish, new_referee, read_move_log, replay_log,
)
from swc_local.games.reversixt.notation import move_notation
from swc_local.games.reversixt.referee import Referee
from swc_local.games.reversixt.rules import State
from swc_local.games.reversixt.text import board_text

__all__ = ["MoveLog", "MoveLogError", "check", "is_move_log", "main", "read_move_log", "replay_log"]


def is_move_log(path: Path) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(23) == b"Starting game with map "
    except OSError:
        return False


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

    before: list[State] = []  # the position the next move is made in

    def show(referee: Referee, player: int) -> None:
        _, x, y, special = referee.moves[-1]
        text = move_notation((player, x, y, special), before[0] if before else None, bomb=referee.phase == 2)
        print(f"move {referee.move_number - 1}: {text}", file=out)
        print(board_text(referee.state), file=out)
        before[:] = [referee.state.copy()]

    try:
        referee = new_referee(log)
        before.append(referee.state.copy())
        apply_events(referee, log.events, on_move=show)
        finish(referee)
    except (MoveLogError, MapError) as error:
        print(f"{path}: {error}", file=sys.stderr)
        return 1
    for rank, player, points in referee.ranking():
        status = "disqualified" if player in referee.state.disqualified else f"{points} stones"
        print(f"{rank}. player {player} (group {log.groups[player - 1]}): {status}", file=out)
    return 0
