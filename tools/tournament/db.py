"""The results database: one SQLite file per tournament, one row per finished game.

A game is written in its own transaction the moment its result arrives, so a Ctrl-C, a crash or
a killed machine loses at most the games being played. The ``games`` table holds one row per
game (key, position in the schedule, pair/rotation block, game type, seed, bots in seat order,
duration, replay path, error, the whole result record as JSON); ``seats`` one row per seat (bot,
seat label, rank, score parts, cause, reason, exit code) for queries with plain SQL. ``meta``
keeps the tournament's settings, so ``--resume`` plays the same schedule and ``report`` needs
nothing but the file.

The game's schedule key is the primary key: a result that arrives twice (a task retried after
its worker died, a resumed run) is stored and counted once.

Conformance note: the file uses SQLite's write-ahead log, so ``swc tournament report`` can read
it while a tournament is writing; ``synchronous=FULL`` makes every finished game durable.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from swc_local.tools.results import GameResult

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    key TEXT PRIMARY KEY, position INTEGER NOT NULL, block TEXT NOT NULL, game TEXT NOT NULL,
    seed INTEGER NOT NULL, bots TEXT NOT NULL, duration REAL NOT NULL, replay TEXT, error TEXT,
    finished_at REAL NOT NULL, record TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    game_key TEXT NOT NULL REFERENCES games(key), seat_index INTEGER NOT NULL, bot TEXT NOT NULL,
    seat TEXT NOT NULL, rank INTEGER NOT NULL, score TEXT NOT NULL, cause TEXT NOT NULL,
    reason TEXT, exit_code INTEGER, PRIMARY KEY (game_key, seat_index)
);
"""


class DatabaseError(Exception):
    """A file that is not a tournament database, or one of another tournament."""


@dataclass(frozen=True)
class Stored:
    key: str
    block: str
    result: GameResult


class ResultsDb:
    def __init__(self, path: Path | str, *, create: bool = True) -> None:
        path = Path(path)
        if not create and not path.is_file():
            raise DatabaseError(f"{path}: no such tournament database")
        if not path.parent.is_dir():
            raise DatabaseError(f"--db {path}: the directory {path.parent} does not exist")
        try:
            self.connection = sqlite3.connect(path, isolation_level=None)
            self.connection.execute("PRAGMA journal_mode=WAL")
            self.connection.execute("PRAGMA synchronous=FULL")
            self.connection.executescript(SCHEMA)
        except sqlite3.DatabaseError as error:
            raise DatabaseError(f"{path}: not a tournament database ({error})") from None
        self.path = path

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> "ResultsDb":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def settings(self) -> dict | None:
        row = self.connection.execute("SELECT value FROM meta WHERE key = 'settings'").fetchone()
        return json.loads(row[0]) if row else None

    def save_settings(self, settings: dict) -> None:
        self.connection.execute("INSERT OR REPLACE INTO meta VALUES ('settings', ?)", (json.dumps(settings),))

    def keys(self) -> set[str]:
        return {key for (key,) in self.connection.execute("SELECT key FROM games")}

    def record(self, key: str, position: int, block: str, result: GameResult) -> bool:
        """Store one finished game; False (and nothing written) if ``key`` is already stored."""
        data = result.to_dict()
        with self.connection:  # one transaction: the game and its seats, or nothing
            self.connection.execute("BEGIN IMMEDIATE")
            inserted = self.connection.execute(
                "INSERT OR IGNORE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (key, position, block, result.game, result.seed, ",".join(s.name for s in result.seats),
                 result.duration, result.replay, result.error, time.time(), json.dumps(data)),
            ).rowcount
            if inserted:
                self.connection.executemany(
                    "INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(key, i, s.name, s.seat, s.rank, json.dumps(list(s.score)), s.cause, s.reason, s.exit_code)
                     for i, s in enumerate(result.seats)],
                )
        return bool(inserted)

    def stored(self) -> list[Stored]:
        """Every stored game in the order the games finished."""
        rows = self.connection.execute("SELECT key, block, record FROM games ORDER BY rowid")
        return [Stored(key, block, GameResult.from_dict(json.loads(record))) for key, block, record in rows]
