"""The games the viewer knows, and the steps (states) of each.

A record keeps only what its source already produced (observer bytes, a door's referee or its
message list); steps are built from it when a page or an API client asks, so a game nobody
watches costs one list append and a counter per state. Waiting readers are woken through one
event per record that exists only while someone waits: the newest state wins, nothing queues.
"""

from __future__ import annotations

import itertools
import json
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field

import trio

from swc_local.games.plugin import client_name, shown_name

FINISHED_KEPT = 100
"""Finished live games kept for the start page (the oldest are forgotten first)."""
UPLOADS_KEPT = 50
"""Files opened from the start page kept (the oldest are forgotten first): uploads cannot grow
the server's memory without bound (``viewerUploadsKept``)."""
UPLOADS_KEPT_BYTES = 32 << 20
"""The same by the uploads' total size in bytes (``viewerUploadsKeptBytes``); the newest upload
is always kept."""


@dataclass(frozen=True)
class Step:
    """One state of a game as the viewer shows it."""

    state: object  # what the game's ``view.render_svg`` and its text board take
    last_move: object | None = None
    label: str = ""  # "turn 12", "move 5", "after round 2"
    to_move: str | None = None  # name of the player whose turn it is (None at the end)
    note: str = ""  # the move or the events that led here, as text
    text: str = field(default="", compare=False)  # the text board ``swc replay`` prints


@dataclass
class SeatRow:
    name: str
    seat: str
    rank: int | None = None
    cause: str = ""
    reason: str | None = None
    score: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        """``shown``: the one text for the player (:func:`shown_name`); ``named``: whether a
        client sent that name (the result table's name column is empty otherwise)."""
        return {"name": self.name, "seat": self.seat, "rank": self.rank, "cause": self.cause,
                "reason": self.reason, "score": list(self.score),
                "shown": shown_name(self.name, self.seat), "named": client_name(self.name, self.seat) is not None}


_ids = itertools.count(1)


class Versioned:
    """A version number that moves on every change, and a way to wait for the next one."""

    def __init__(self) -> None:
        self.version = 0
        self._changed: trio.Event | None = None

    def _bump(self) -> None:
        self.version += 1
        if self._changed is not None:
            self._changed.set()
            self._changed = None

    async def wait_changed(self, version: int) -> None:
        while self.version == version:
            if self._changed is None:
                self._changed = trio.Event()
            await self._changed.wait()


class GameRecord(Versioned):
    """Base of every family's record; subclasses fill :meth:`steps`, :meth:`players`, ..."""

    family = ""
    can_play_from = False

    def __init__(self, game_type: str, title: str, source: str) -> None:
        super().__init__()
        self.id = f"g{next(_ids)}"
        self.game_type = game_type
        self.title = title
        self.source = source  # "live" or the file name
        self.created = time.time()
        self.book: GameBook | None = None
        self._summary: list | None = None  # [stamp, summary, its JSON or None, the players' JSON]
        self._static: tuple[dict, str] | None = None  # the summary's unchanging head (see _head)
        self._players: tuple | None = None  # (players_key, rows, their JSON)
        self.summaries_built = 0  # how often the summary was built again (tests count them)
        self.players_built = 0
        self.end_listeners: list = []  # called when a live game ended (its live feed, server/web/live.py)

    # -- what subclasses provide -----------------------------------------------------------------

    def wire_state(self, index: int) -> str | None:
        """Step ``index``'s state as its protocol writes it (shown beside the board), or None."""
        return None

    def steps(self) -> list[Step]:
        raise NotImplementedError

    def count(self) -> int:
        """How many steps there are (a record may know it without building them)."""
        return len(self.steps())

    def step(self, index: int) -> Step:
        return self.steps()[index]

    def stable(self, index: int, count: int) -> bool:
        """Whether step ``index`` (of ``count``) is final, so its drawing may be kept: every step
        but a running game's newest, unless a family knows better."""
        return index < count - 1 or self.status() == "finished"

    def players(self) -> list[SeatRow]:
        raise NotImplementedError

    def status(self) -> str:
        """``waiting``, ``running``, ``paused`` (a live XML room an admin paused) or ``finished``."""
        raise NotImplementedError

    def result(self) -> list[SeatRow] | None:
        return None

    def controls(self) -> list[str]:
        """What an admin may do to this game's live room now (``pause``, ``unpause``, ``step``,
        ``start``, ``cancel``): none for a file or a finished game, or a family without rooms
        an admin steers."""
        return []

    def control(self, action: str) -> None:
        """Do ``action`` (one of :meth:`controls`) to the live room; ValueError when it cannot."""
        raise ValueError(f"{action}: this game has no room an admin can steer")

    def text_of(self, step: Step) -> str:
        """The text board of a step, as ``swc replay`` prints it."""
        return step.text

    def progress(self) -> str:
        """Turn or round of the newest state, cheap enough for the start page."""
        steps = self.steps()
        return steps[-1].label if steps else ""

    # -- change notification -------------------------------------------------------------------------

    def touch(self) -> None:
        """A new state or a new status: wake whoever waits (nothing when nobody does). Every move
        of every live room comes here, so the record's and the book's bumps are written out."""
        self.version += 1
        if self._changed is not None:
            self._changed.set()
            self._changed = None
        book = self.book
        if book is not None:
            book.version += 1
            if book._changed is not None:
                book._changed.set()
                book._changed = None

    def stamp(self) -> tuple:
        """What the summary depends on beyond the states (cheap): it is rebuilt when this moves."""
        return (self.version, self.status())

    def players_key(self) -> object:
        """What the players shown depend on (cheap): they are built again only when it moves.
        Families know better (names, seats); this default rebuilds them on every change."""
        return self.stamp()

    def _players_cached(self) -> tuple:
        key = self.players_key()
        cached = self._players
        if cached is None or cached[0] != key:
            self.players_built += 1
            rows = [row.to_dict() for row in self.players()]
            cached = self._players = (key, rows, json.dumps(rows))
        return cached

    def _head(self) -> tuple[dict, str]:
        """The parts of the summary that never change (id, game, title, ...), and their JSON
        without the closing brace, so every summary's JSON starts with the same string."""
        if self._static is None:
            head = {"id": self.id, "game": self.game_type, "title": self.title, "family": self.family,
                    "source": self.source}
            self._static = (head, json.dumps(head)[:-1])
        return self._static

    def _cached_summary(self) -> list:
        stamp = self.stamp()
        cached = self._summary
        if cached is None or cached[0] != stamp:
            cached = self._summary = [stamp, *self._summary_now()]
        return cached

    def summary(self) -> dict:
        """What the start page shows of this game (built again only when its stamp moved)."""
        return dict(self._cached_summary()[1])

    def summary_json(self) -> str:
        """The summary as JSON, encoded once per change (the start page's list joins these): the
        cached head and players joined with what moved (state, turn, result, version)."""
        cached = self._cached_summary()
        if cached[2] is None:
            data = cached[1]
            result = data["result"]
            cached[2] = (f'{self._head()[1]}, "status": {json.dumps(data["status"])}, "players": {cached[3]}, '
                         f'"progress": {json.dumps(data["progress"])}, '
                         f'"result": {"null" if result is None else json.dumps(result)}, '
                         f'"version": {data["version"]}, "can_play_from": {"true" if data["can_play_from"] else "false"}}}')
        return cached[2]

    def _summary_now(self) -> tuple[dict, None, str]:
        """The summary, its JSON still to encode, the players' JSON. Only what moved is built
        again: the head once, the players when their key moved."""
        self.summaries_built += 1
        _, players, players_json = self._players_cached()
        result = self.result()
        data = dict(self._head()[0])
        data.update(status=self.status(), players=players, progress=self.progress(),
                    result=[row.to_dict() for row in result] if result is not None else None,
                    version=self.version, can_play_from=self.can_play_from)
        return data, None, players_json


class GameBook(Versioned):
    """Every record the web door serves: live games (until forgotten) and opened files."""

    def __init__(self, finished_kept: int = FINISHED_KEPT) -> None:
        super().__init__()
        self.records: OrderedDict[str, GameRecord] = OrderedDict()
        self.finished_kept = finished_kept
        self._finished_live: deque[str] = deque()  # live games that ended, oldest first
        self._uploads: deque[tuple[str, int]] = deque()  # (id, bytes), oldest first
        self._upload_bytes = 0
        self.uploads_kept: int | None = None  # None: UPLOADS_KEPT (the viewer sets its settings')
        self.uploads_kept_bytes: int | None = None
        self.end_listeners: list = []  # called when a live game ended (the list's feeds: its result goes out at once)

    def add(self, record: GameRecord, *, uploaded: bool = False, size: int = 0) -> GameRecord:
        """``record`` shown; an upload (of ``size`` bytes) makes the oldest uploads forgotten
        beyond the kept number or total size."""
        record.book = self
        self.records[record.id] = record
        if uploaded:
            self._uploads.append((record.id, size))
            self._upload_bytes += size
            kept = UPLOADS_KEPT if self.uploads_kept is None else self.uploads_kept
            kept_bytes = UPLOADS_KEPT_BYTES if self.uploads_kept_bytes is None else self.uploads_kept_bytes
            while len(self._uploads) > 1 and (len(self._uploads) > kept or self._upload_bytes > kept_bytes):
                forgotten, forgotten_size = self._uploads.popleft()
                self._upload_bytes -= forgotten_size
                self.records.pop(forgotten, None)
        self.touch()
        return record

    def get(self, record_id: str) -> GameRecord | None:
        return self.records.get(record_id)

    def touch(self) -> None:
        self._bump()

    def finished(self, record: GameRecord) -> None:
        """A live game ended: it stays listed among the newest ``finished_kept`` finished ones."""
        record.touch()
        for listener in (*record.end_listeners, *self.end_listeners):
            listener()
        self._finished_live.append(record.id)
        while len(self._finished_live) > self.finished_kept:
            self.records.pop(self._finished_live.popleft(), None)
