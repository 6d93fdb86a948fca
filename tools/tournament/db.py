"""The results database: one SQLite file per tournament, one row per finished game.

A game is written in its own transaction the moment its result arrives, so a Ctrl-C, a crash or
a killed machine loses at most the games being played. The ``games`` table holds one row per
game (key, position in the schedule, pair/rotation block, game type, seed, bots in seat order,
duration, replay path, error, the whole result record as JSON); ``seats`` one row per seat (bot,
seat label, rank, score parts, cause, reason, exit code) for queries with plain SQL. ``meta``
keeps the tournament's settings, so ``--resume`` plays the same schedule and ``report`` needs
nothing but the file.

Book runs keep each game's opening (``games.opening``); Dask runs the worker that played it and
how often the scheduler had to run it again because a worker died (``games.worker``,
``games.retries``); ``seats`` keeps each bot's moves and think times (average and maximum ms, where
the game's moves are timed). ``sprt`` holds one row per finished game pair of the first two bots:
the pentanomial counts, the LLR (with ``--sprt``) and the Elo estimate with its 95 % interval
after that pair, so the run page and ``report`` can draw their history later. A database of an
older version gets the new columns and table when it is opened (empty for its old games).

The game's schedule key is the primary key: a result that arrives twice (a task retried after
its worker died, a resumed run) is stored and counted once.

Conformance note: the file uses SQLite's write-ahead log, so ``swc tournament report`` can read
it while a tournament is writing; ``synchronous=FULL`` makes every finished game durable.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass, field
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
CREATE TABLE IF NOT EXISTS sprt (
    pair INTEGER PRIMARY KEY, games INTEGER NOT NULL, pentanomial TEXT NOT NULL, llr REAL,
    elo REAL, elo_low REAL, elo_high REAL, finished_at REAL NOT NULL
);
"""
ADDED_COLUMNS = {  # (table, column, type): what databases of older versions lack
    ("games", "opening", "TEXT"), ("games", "worker", "TEXT"), ("games", "retries", "INTEGER NOT NULL DEFAULT 0"),
    ("seats", "moves", "INTEGER"), ("seats", "think_avg_ms", "REAL"), ("seats", "think_max_ms", "REAL"),
}


class DatabaseError(Exception):
    """A file that is not a tournament database, or one of another tournament."""


@dataclass(frozen=True)
class Stored:
    key: str
    block: str
    result: GameResult
    info: dict = field(default_factory=dict, compare=False)  # opening, worker, retries, think


def think_of(result: GameResult) -> dict[str, list[float]]:
    """Per bot ``[moves, average ms, maximum ms]`` of a game whose moves were timed."""
    return {name: [len(times), 1000 * sum(times) / len(times), 1000 * max(times)]
            for name, times in result.move_times.items() if times}


class ResultsDb:
    def __init__(self, path: Path | str, *, create: bool = True, readonly: bool = False) -> None:
        """``readonly``: for readers beside a running tournament (the viewer): nothing is written,
        not even the tables a database of an older version lacks."""
        path = Path(path)
        if not create and not path.is_file():
            raise DatabaseError(f"{path}: no such tournament database")
        if not path.parent.is_dir():
            raise DatabaseError(f"--db {path}: the directory {path.parent} does not exist")
        try:
            if readonly:
                self.connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
                self.connection.execute("SELECT COUNT(*) FROM games")
            else:
                self.connection = sqlite3.connect(path, isolation_level=None)
                self.connection.execute("PRAGMA journal_mode=WAL")
                self.connection.execute("PRAGMA synchronous=FULL")
                self.connection.executescript(SCHEMA)
                self._add_columns()
        except sqlite3.DatabaseError as error:
            raise DatabaseError(f"{path}: not a tournament database ({error})") from None
        self.path = path

    def _add_columns(self) -> None:
        for table, column, kind in sorted(ADDED_COLUMNS):
            present = {row[1] for row in self.connection.execute(f"PRAGMA table_info({table})")}
            if column not in present:
                self.connection.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")

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

    def record(self, key: str, position: int, block: str, result: GameResult, info: dict | None = None) -> bool:
        """Store one finished game; False (and nothing written) if ``key`` is already stored.

        ``info``: ``opening``, ``worker``, ``retries`` and ``think`` (:func:`think_of`), kept in
        their columns and in the record."""
        info = dict(info or {})
        data = result.to_dict() | {"info": info}
        think = info.get("think", {})
        with self.connection:  # one transaction: the game and its seats, or nothing
            self.connection.execute("BEGIN IMMEDIATE")
            inserted = self.connection.execute(
                "INSERT OR IGNORE INTO games (key, position, block, game, seed, bots, duration, replay, error, "
                "finished_at, record, opening, worker, retries) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (key, position, block, result.game, result.seed, ",".join(s.name for s in result.seats),
                 result.duration, result.replay, result.error, time.time(), json.dumps(data),
                 info.get("opening"), info.get("worker"), info.get("retries", 0)),
            ).rowcount
            if inserted:
                self.connection.executemany(
                    "INSERT INTO seats (game_key, seat_index, bot, seat, rank, score, cause, reason, exit_code, "
                    "moves, think_avg_ms, think_max_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(key, i, s.name, s.seat, s.rank, json.dumps(list(s.score)), s.cause, s.reason, s.exit_code,
                      *(think.get(s.name) or (None, None, None)))
                     for i, s in enumerate(result.seats)],
                )
        return bool(inserted)

    def stored(self) -> list[Stored]:
        """Every stored game in the order the games finished."""
        rows = self.connection.execute("SELECT key, block, record FROM games ORDER BY rowid")
        stored = []
        for key, block, record in rows:
            data = json.loads(record)
            stored.append(Stored(key, block, GameResult.from_dict(data), data.get("info") or {}))
        return stored

    def record_pair(self, pair: int, games: int, pentanomial: list[int], llr: float | None, elo) -> None:
        """One row of the ``sprt`` history (``elo``: an EloEstimate with ``low``/``high``, or None)."""
        self.connection.execute(
            "INSERT OR REPLACE INTO sprt VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (pair, games, json.dumps(pentanomial), None if llr is None or llr != llr else llr,
             _finite(elo.elo) if elo else None, _finite(elo.low) if elo else None,
             _finite(elo.high) if elo else None, time.time()),
        )

    def counts(self) -> tuple[int, int]:
        """(games, history rows): what changed since a reader last looked."""
        games = self.connection.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        try:
            pairs = self.connection.execute("SELECT COUNT(*) FROM sprt").fetchone()[0]
        except sqlite3.OperationalError:  # a database of an older version, opened read-only
            pairs = 0
        return games, pairs

    def history(self) -> list[dict]:
        try:
            rows = self.connection.execute(
                "SELECT pair, games, pentanomial, llr, elo, elo_low, elo_high FROM sprt ORDER BY pair").fetchall()
        except sqlite3.OperationalError:  # a database of an older version, opened read-only
            return []
        return [{"pair": pair, "games": games, "pentanomial": json.loads(counts), "llr": llr, "elo": elo,
                 "elo_low": low, "elo_high": high} for pair, games, counts, llr, elo, low, high in rows]


def _finite(value: float) -> float | None:
    """SQLite and JSON keep no infinity: an Elo without a finite value is stored as NULL."""
    return value if value == value and abs(value) != float("inf") else None
