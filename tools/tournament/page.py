"""The run page's data source: a tournament database read for the viewer (``swc view course.db``).

The viewer's web layer does not read tournament databases (server/ never imports tools/); this
source does, and the viewer calls it for ``/api/tournaments/ID`` (see
:mod:`swc_local.server.web.tournament`). Each call opens the database read-only (a running
tournament keeps writing it: SQLite's write-ahead log lets both go on), builds exactly what
``swc tournament report DB --json`` prints, and opens every new game's replay in the viewer's
book, so the page links each game to its viewer page. The report is rebuilt only when the
database holds more games or pairs than at the last call.
"""

from __future__ import annotations

from pathlib import Path

SQLITE_HEADER = b"SQLite format 3\x00"


def is_database(path: Path) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(16) == SQLITE_HEADER
    except OSError:
        return False


class TournamentSource:
    def __init__(self, path: Path, book, add=None) -> None:
        """``add(record)`` puts a game into the book (from a worker thread: through trio)."""
        self.path = Path(path)
        self.book = book
        self.add = add
        self.viewer: dict[str, str] = {}
        self.title = self.path.name
        self._seen: tuple | None = None
        self._data: dict | None = None
        self.check()

    def check(self) -> None:
        """DatabaseError unless the file holds a tournament (for ``swc view``'s one-line errors)."""
        from swc_local.tools.tournament.db import DatabaseError

        with self._open() as db:
            if db.settings() is None:
                raise DatabaseError(f"{self.path}: holds no tournament")

    def _open(self):
        from swc_local.tools.tournament.db import ResultsDb

        return ResultsDb(self.path, create=False, readonly=True)

    def __call__(self) -> dict:
        from swc_local.tools.tournament.core import Settings, Tournament
        from swc_local.tools.tournament.report import json_report

        with self._open() as db:
            seen = db.counts()
            if seen != self._seen or self._data is None:
                tournament = Tournament(Settings.from_dict(db.settings()), db)
                report = json_report(tournament)
                finished = bool(report["verdict"] or report["stopped"] or (
                    report["games"] >= report["scheduled"] and report.get("league", {}).get("complete", True)))
                self._data, self._seen = {"report": report, "finished": finished}, seen
        self._open_replays(self._data["report"]["game_list"])
        return self._data | {"viewer": dict(self.viewer)}

    def _open_replays(self, games: list[dict]) -> None:
        from swc_local.server.families import record_readers
        from swc_local.server.web.files import MAX_UPLOAD_BYTES, FileError, open_bytes

        for game in games:
            replay = game.get("replay")
            if not replay or game["key"] in self.viewer:
                continue
            path = Path(replay)
            try:
                data = path.read_bytes()
                record = open_bytes(data, path.name, record_readers(), limit=max(MAX_UPLOAD_BYTES, len(data)))
            except (OSError, FileError, ValueError):
                continue  # not (yet) beside the database: the game is listed without a link
            (self.add or self.book.add)(record)
            self.viewer[game["key"]] = record.id

