"""The toy family's server part: tests/toy_family.py's door and section, and its viewer hooks."""

from __future__ import annotations

import re

from swc_local.server.door import ServerFamily
from swc_local.server.web.book import GameRecord, SeatRow, Step

from tests.toy_family import SECTION, add_commands, open_door

from .games import CountToThree, replayed


class ToyRecord(GameRecord):
    """A toy game as the viewer shows it: one step per count."""

    family = "toy"

    def __init__(self, source: str, log: str) -> None:
        super().__init__("count_to_three", "Count to three", source)
        self.game = replayed(log)

    def steps(self) -> list[Step]:
        steps, game = [], CountToThree(list(self.game.players))
        for n, move in enumerate(self.game.moves, 1):
            game.play(move.split()[0])
            steps.append(Step(CountToThree(list(game.players), game.count, list(game.moves)), move, f"count {n}", text=move))
        return steps

    def players(self) -> list[SeatRow]:
        return []

    def status(self) -> str:
        return "finished"


def read_record_file(data: bytes, source: str):
    """A toy log (``swc match --replays`` writes ``gameNNN.toy``: ``name 1`` first); None for any
    other file (known by its bytes, as every family's reader: the name is only a label)."""
    if re.match(rb"[^\s<{]+ 1\n", data) is None:
        return None
    return ToyRecord(source, data.decode("utf-8", "replace"))


FAMILY = ServerFamily("toy", SECTION, open_door, read_record_file=read_record_file, add_commands=add_commands)
