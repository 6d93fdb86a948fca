"""ReversiXT games: states from the door's own move log (``log_game.txt`` format).

A live game's referee writes its log as it plays; the door tells the viewer when a game starts
and after every turn, and the viewer replays that log through a fresh referee when a page asks,
exactly as ``swc replay`` replays a file. So a live game, our logs and the reference server's
``log_game.txt`` are all read by one function (:mod:`swc_local.games.reversixt.movelog`).

Conformance notes: a step is shown after every move, and once more at the end when players
were disqualified after the last move; the player to move is not shown (the log does not say it
before the move arrives).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from swc_local.games.reversixt.mapfile import MapError
from swc_local.games.reversixt.movelog import MoveLog, MoveLogError, read_move_log, replay_log
from swc_local.games.reversixt.referee import Referee
from swc_local.games.reversixt.text import board_text

from .book import GameRecord, SeatRow, Step

log = logging.getLogger("swc.web")


class ReversiRecord(GameRecord):
    """One ReversiXT game, live (a referee) or from a move log's text."""

    family = "reversixt"

    def __init__(self, source: str, text: Callable[[], tuple[int, str]], finished: bool) -> None:
        super().__init__("reversixt", "ReversiXT", source)
        self._text = text  # () -> (a key that changes with the log, the log's text)
        self._finished = finished
        self._key: int | None = None
        self._log: MoveLog | None = None
        self._referee: Referee | None = None
        self._steps: list[Step] = []
        self.error: str | None = None

    def _sync(self) -> None:
        key, text = self._text()
        if key == self._key:
            return
        self._key = key
        steps: list[Step] = []
        try:
            move_log = read_move_log(text)
        except (MoveLogError, ValueError, IndexError) as error:
            if self.source != "live":
                raise ValueError(f"{self.source}: {error}") from None
            return  # a live log whose header is still being written
        from swc_local.games.reversixt.mapfile import parse_map
        from swc_local.games.reversixt.rules import State

        try:
            start = State.initial(parse_map(move_log.map_text.encode()))
        except MapError as error:
            raise ValueError(f"{self.source}: {error}") from None
        steps.append(Step(start, None, "start", None, ""))

        def on_move(referee: Referee, player: int) -> None:
            _, x, y, special = referee.moves[-1]
            steps.append(Step(referee.state.copy(), (player, x, y, special), f"move {referee.move_number - 1}",
                              None, f"player {player} -> ({x},{y},{special})"))

        try:
            referee = replay_log(move_log, on_move, complete=self._finished and self.source != "live")
        except (MoveLogError, MapError, ValueError) as error:
            if self.source != "live":
                raise ValueError(f"{self.source}: {error}") from None
            self.error = str(error)
            return
        if referee.state.disqualified != steps[-1].state.disqualified:
            steps.append(Step(referee.state.copy(), None, "end", None, "disqualified: " + ", ".join(
                f"player {p}" for p in sorted(referee.state.disqualified))))
        self._log, self._referee, self._steps = move_log, referee, steps

    def steps(self) -> list[Step]:
        self._sync()
        return self._steps

    def text_of(self, step: Step) -> str:
        return board_text(step.state)

    def finish(self) -> None:
        self._finished = True
        if self.book is not None:
            self.book.finished(self)

    def status(self) -> str:
        return "finished" if self._finished else "running"

    def players(self) -> list[SeatRow]:
        self._sync()
        groups = self._log.groups if self._log is not None else []
        return [SeatRow(f"player {k} (group {g})", str(k)) for k, g in enumerate(groups, 1)]

    def result(self) -> list[SeatRow] | None:
        self._sync()
        if not self._finished or self._referee is None:
            return None
        reasons = {event[1]: event[2] for event in self._log.events if event[0] == "disq"} if self._log else {}
        names = {int(row.seat): row.name for row in self.players()}
        rows = []
        for rank, player, points in self._referee.ranking():
            disqualified = player in self._referee.state.disqualified
            rows.append(SeatRow(names.get(player, str(player)), str(player), rank,
                                "DISQUALIFIED" if disqualified else "REGULAR", reasons.get(player), (str(points),)))
        return rows


def read_move_log_file(text: str, source: str) -> ReversiRecord:
    record = ReversiRecord(source, lambda: (0, text), finished=True)
    record.steps()
    return record


def watch_door(door, book) -> None:
    """Give every game of the ReversiXT ``door`` a record, told of each turn as it happens."""
    live: dict[str, ReversiRecord] = {}

    def started(game_id: str, referee: Referee):
        record = ReversiRecord("live", lambda: (len(referee.log), "".join(referee.log)), finished=False)
        live[game_id] = record
        book.add(record)
        return lambda _referee: record.touch()

    def finished(game) -> None:
        record = live.pop(game.game_id, None)
        if record is not None:
            record.finish()

    door.game_listeners.append(started)
    door.on_finished.append(finished)
