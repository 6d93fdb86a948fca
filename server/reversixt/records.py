"""The web viewer's records of ReversiXT games: states from the door's own move log
(``log_game.txt`` format). The door module (server/reversixt/door.py) hands them to the viewer.

A live game's referee writes its log as it plays; the door tells the viewer when a game starts
and after every turn, and the viewer replays that log through a fresh referee when a page asks,
exactly as ``swc replay`` replays a file. So a live game, our logs and the reference server's
``log_game.txt`` are all read by one function (:mod:`swc_local.games.reversixt.movelog`).

Conformance notes: a step is shown after every move, and once more when players were
disqualified without a move of their own (a failed send, the end); the player to move is not shown (the log does not say it
before the move arrives).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from swc_local.games.reversixt.mapfile import MapError
from swc_local.games.reversixt.movelog import MoveLog, MoveLogError, apply_events, finish, new_referee, read_move_log
from swc_local.games.reversixt.notation import move_notation
from swc_local.games.reversixt.referee import Referee
from swc_local.games.reversixt.text import board_text

from swc_local.server.web.book import GameRecord, SeatRow, Step

log = logging.getLogger("swc.web")


class ReversiRecord(GameRecord):
    """One ReversiXT game, live (a referee) or from a move log's text."""

    family = "reversixt"

    def __init__(self, source: str, text: Callable[[], tuple[int, str]], finished: bool,
                 key: Callable[[], int] | None = None) -> None:
        super().__init__("reversixt", "ReversiXT", source)
        self._text = text  # () -> (a key that changes with the log, the log's text)
        self._key_now = key  # () -> that key alone, so an unchanged log is not joined again
        self._finished = finished
        self._key: int | None = None
        self._log: MoveLog | None = None
        self._referee: Referee | None = None  # the record's own, fed the log's events as they come
        self._consumed = 0  # events of the log fed to it so far
        self._steps: list[Step] = []
        self.error: str | None = None

    def _sync(self) -> None:
        """Read the log again and feed only its new events to the record's own referee."""
        if self._key_now is not None and self._key_now() == self._key:
            return
        key, text = self._text()
        if key == self._key:
            return
        self._key = key
        try:
            move_log = read_move_log(text)
        except (MoveLogError, ValueError, IndexError) as error:
            if self.source != "live":
                raise ValueError(f"{self.source}: {error}") from None
            return  # a live log whose header is still being written
        steps = self._steps

        def on_move(referee: Referee, player: int) -> None:
            _, x, y, special = referee.moves[-1]
            move = (player, x, y, special)  # in its notation, made in the position of the step before
            text = move_notation(move, steps[-1].state if steps else None, bomb=referee.phase == 2)
            steps.append(Step(referee.state.copy(), move, f"move {referee.move_number - 1}", None, text))

        try:
            if self._referee is None:
                self._referee = new_referee(move_log)
                steps.append(Step(self._referee.state.copy(), None, "start", None, ""))
            apply_events(self._referee, move_log.events[self._consumed:], self._consumed + 1, on_move)
            self._consumed = len(move_log.events)
            if self._finished and self.source != "live":
                finish(self._referee)
        except (MoveLogError, MapError, ValueError) as error:
            if self.source != "live":
                raise ValueError(f"{self.source}: {error}") from None
            self.error = str(error)
            return
        self._log = move_log
        disqualified = self._referee.state.disqualified
        if disqualified != steps[-1].state.disqualified:  # a player left without a move of its own
            steps.append(Step(self._referee.state.copy(), None, "disqualified", None, "disqualified: " + ", ".join(
                f"player {p}" for p in sorted(disqualified))))

    def steps(self) -> list[Step]:
        self._sync()
        return self._steps

    def text_of(self, step: Step) -> str:
        return board_text(step.state)

    def stable(self, index: int, count: int) -> bool:
        return True  # steps are only ever appended

    def finish(self) -> None:
        self._finished = True
        if self.book is not None:
            self.book.finished(self)

    def status(self) -> str:
        return "finished" if self._finished else "running"

    def players_key(self) -> object:
        self._sync()
        return tuple(self._log.groups) if self._log is not None else ()  # from the log's header

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
        record = ReversiRecord("live", lambda: (len(referee.log), "".join(referee.log)), finished=False,
                               key=lambda: len(referee.log))
        live[game_id] = record
        book.add(record)
        return lambda _referee: record.touch()

    def finished(game) -> None:
        record = live.pop(game.game_id, None)
        if record is not None:
            record.finish()

    door.game_listeners.append(started)
    door.on_finished.append(finished)
