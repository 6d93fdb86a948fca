"""The web viewer's records of Robo Rally games: states from the door's game events, round by
round. The door module (server/roborally/door.py) hands them to the viewer.

The door's room hands every message it sends to its watchers (the same messages its game log
records as ``"dir": "out"``); a log file is read the same way, and both are followed by
:func:`swc_local.games.roborally.logview.follow`, the function ``swc replay`` prints with.

Conformance notes: a step is a round (the position when the next programming phase begins), as
in ``swc replay``; a running game shows the position after the newest message as its last step.
Ranks: the winner first, every other robot second, with its checkpoints reached as its score.
"""

from __future__ import annotations

from swc_local.games.roborally.logview import follow, log_messages, parse_log
from swc_local.games.roborally.text import render

from swc_local.server.web.book import GameRecord, SeatRow, Step


class RoboRecord(GameRecord):
    family = "roborally"

    def __init__(self, source: str, map_name: str, names: dict[int, str], finished: bool,
                 messages: list[tuple[str, dict, float]] | None = None, winner: int | None = None) -> None:
        super().__init__("roborally", "Robo Rally", source)
        self.map_name = map_name
        self.names = names
        self.messages = messages if messages is not None else []
        self.winner = winner
        self.left: set[int] = set()
        self._finished = finished
        self._seen = -1
        self._steps: list[Step] = []

    # the door's side: one call per message sent (cheap)
    def sent(self, message_type: str, body: dict, t: float) -> None:
        self.messages.append((message_type, body, t))
        self.note(message_type, body)
        self.touch()

    def note(self, message_type: str, body: object) -> None:
        """The winner and who left, from one message. A player leaves only before
        ``GameFinished``: the disconnects after it are the game's normal end (every client
        closes once it has its result), so the winner is never shown as LEFT."""
        if not isinstance(body, dict):
            return
        if message_type == "GameFinished":
            self.winner = body.get("clientID")
        elif message_type == "ConnectionUpdate" and self.winner is None:
            self.left.add(body.get("clientID"))

    def finish(self) -> None:
        self._finished = True
        self._seen = -1
        if self.book is not None:
            self.book.finished(self)

    def steps(self) -> list[Step]:
        if self._seen != len(self.messages):
            self._seen = len(self.messages)
            self._steps = [Step(view, None, view.title, None, "; ".join(view.events))
                           for view in follow(self.map_name, list(self.messages), live=not self._finished)]
        return self._steps

    def text_of(self, step: Step) -> str:
        return render(step.state.board, step.state.robots)

    def status(self) -> str:
        return "finished" if self._finished else "running"

    def players_key(self) -> object:
        return tuple(self.names.items())

    def players(self) -> list[SeatRow]:
        return [SeatRow(name or f"client {pid}", str(pid)) for pid, name in sorted(self.names.items())]

    def result(self) -> list[SeatRow] | None:
        if not self._finished:
            return None
        steps = self.steps()
        reached = steps[-1].state.checkpoints if steps else {}
        rows = []
        for row in self.players():
            pid = int(row.seat)
            won = pid == self.winner
            cause = "REGULAR" if pid not in self.left else "LEFT"
            rows.append(SeatRow(row.name, row.seat, 1 if won else 2, cause, "wins" if won else None,
                                (str(reached.get(pid, 0)),)))
        return rows


def read_game_log(text: str, source: str) -> RoboRecord:
    header, entries = parse_log(text)
    names = {int(pid): f"client {pid}" for pid in header.get("players", [])}
    record = RoboRecord(source, str(header.get("map")), names, True, list(log_messages(entries)))
    for kind, body, _ in record.messages:
        record.note(kind, body)
    if record.winner is None:
        record.winner = header.get("winner")
    record.steps()
    return record


def watch_door(door, book) -> None:
    """Give every game of the Robo Rally door (its ``Switchboard``, server/roborally/lobby.py) a record fed by its room."""

    def started(room) -> None:
        names = {pid: (peer.player_name or f"client {pid}") for pid, peer in room.peers.items()}
        record = RoboRecord("live", room.lobby.map, names, False)
        room.watchers.append(record.sent)
        room.closers.append(lambda _room: record.finish())
        book.add(record)

    door.room_listeners.append(started)
