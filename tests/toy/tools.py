"""The toy family's tools part: its seat adapter (``swc match``, the tournament) and its replay reader."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

import trio

from swc_local.tools.seats import Outcome, SeatOutcome, ToolFamily

from tests.toy_family import ToyDoor

from .games import replayed

OPTIONS: tuple[str, ...] = ()


def check_options(game: str, options: dict) -> str | None:
    return None


class Family:
    """One in-process toy door per game (the runner seats each game at a table of its own)."""

    def __init__(self, nursery: trio.Nursery) -> None:
        self.nursery = nursery

    @contextlib.asynccontextmanager
    async def table(self, spec):
        door = ToyDoor("127.0.0.1", 0, 10)
        async with trio.open_nursery() as tasks:
            await tasks.start(door.run)
            try:
                yield ToyTable(door, spec)
            finally:
                tasks.cancel_scope.cancel()


class ToyTable:
    ordered = True  # the first to join counts first

    def __init__(self, door: ToyDoor, spec) -> None:
        self.door, self.spec = door, spec
        self.labels = ["first", "second"]

    def values(self, seat: int) -> dict:
        return dict(host="127.0.0.1", port=self.door.port, player=self.labels[seat], color=self.labels[seat])

    async def wait_joined(self, seat: int) -> None:
        while len(self.door.transport.connections) < seat + 1 and not self.door.logs:
            await trio.sleep(0.005)
        while seat == 0 and self.door._waiting is None and not self.door._tables and not self.door.logs:  # noqa: SLF001
            await trio.sleep(0.005)

    async def fill(self, seats: list[int]) -> None:
        raise NotImplementedError("the toy family has no stand-ins")

    async def finish(self) -> Outcome:
        while not self.door.logs:
            await trio.sleep(0.005)
        log = self.door.logs[-1]
        winner = log.splitlines()[-1].removeprefix("winner ")
        seats = [SeatOutcome(1 if label == winner else 2, ("1" if label == winner else "0",)) for label in self.labels]
        replay = None
        if self.spec.replays is not None:
            os.makedirs(self.spec.replays, exist_ok=True)
            replay = os.path.join(self.spec.replays, f"game{self.spec.index + 1:03d}.toy")
            Path(replay).write_text(log)
        return Outcome(seats, replay=replay, raw=log, score_names=("won",))


def read_replay(path: Path, check: bool, out=None) -> int:
    """``swc replay GAME.toy``: each count; ``--check`` re-counts with the rules (exit 1 when they disagree)."""
    out = out or sys.stdout
    text = Path(path).read_text()
    try:
        game = replayed(text)
    except ValueError as error:
        print(f"{path}: {error}", file=out)
        return 1
    if check:
        print(f"{path}: {len(game.moves)} counts agree with the rules; winner {game.winner}", file=out)
    else:
        for move in game.moves:
            print(move, file=out)
    return 0


FAMILY = ToolFamily("toy", sys.modules[__name__], read_replay, (".toy",))
