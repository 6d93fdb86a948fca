"""The contest system's test of a client before it may be activated, here: ``swc check``.

:func:`run_check` plays a short series (``games``, seats swapped game by game) of the client
against the game's reference bot through the one runner, the client started through
tools/measure.py, and returns one :class:`CheckRow` per game: did it join, move legally, keep its
time, end regularly, and its peak memory (RSS of its process tree) and CPU time.  The check
passes when every row passes.  ``swc check`` prints the rows as one table (or ``--json``); the
archives page (tools/archive_page.py) shows the same rows.

Conformance notes: the contest system's test plays its client against a simple opponent and
reports whether it ended regularly; what it measures besides is not documented, so the criteria
here are the causes the server gives (a timeout cause fails "kept its time", a rule violation
"moved legally"; a seat whose command never joined fails all four).
"""

from __future__ import annotations

import json
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from swc_local.client import ladder
from swc_local.games import registry
from swc_local.tools.archive import resolve
from swc_local.tools.players import command_text
from swc_local.tools.results import ABSENT_CAUSES, REGULAR, GameResult
from swc_local.tools.runner import GameSpec, play_games, require_commands, seat_seed

DEFAULT_GAMES = 2
TIME_CAUSES = ("SOFT_TIMEOUT", "HARD_TIMEOUT", "TIME_LIMIT")
RULE_CAUSES = ("RULE_VIOLATION", "DISQUALIFIED")
NAME = "client"


@dataclass
class CheckRow:
    game: int  # 1-based
    seat: str
    cause: str
    joined: bool
    moved_legally: bool
    kept_time: bool
    ended_regularly: bool
    peak_rss: int | None  # bytes; None when nothing was measured
    cpu_seconds: float | None
    reason: str | None = None

    @property
    def passed(self) -> bool:
        return self.joined and self.moved_legally and self.kept_time and self.ended_regularly


@dataclass
class CheckReport:
    spec: str
    game: str
    seed: int
    rows: list[CheckRow]
    command: str = ""  # what the client was started as (an archive: its resolved command)
    error: str | None = None  # the client could not be started at all

    @property
    def passed(self) -> bool:
        return self.error is None and bool(self.rows) and all(row.passed for row in self.rows)

    def to_dict(self) -> dict:
        return {"archive": self.spec, "game": self.game, "seed": self.seed, "passed": self.passed,
                "command": self.command, "error": self.error, "games": [asdict(row) | {"passed": row.passed} for row in self.rows]}


def measured(command: list[str], into: Path) -> list[str]:
    """``command`` started through tools/measure.py, its figures in ``into/{seed}.json``."""
    return [sys.executable, "-m", "swc_local.tools.measure", str(into / "{seed}.json"), "--", *command]


async def run_check(spec: str, game: str, *, games: int = DEFAULT_GAMES, seed: int = 1,
                    start_timeout: float = 15.0, game_timeout: float = 300.0, logs: Path | None = None,
                    options: dict | None = None) -> CheckReport:
    """The check of ``spec`` (an archive spec or a command) in ``game``; ArchiveError when the
    archive is broken, CommandError (tools/runner.py) when its command cannot start."""
    entry = registry.entry(game)
    if entry is None:
        raise ValueError(registry.unknown_game_message(game))
    client = resolve(spec).command
    reference = ladder.command(entry)
    require_commands([(NAME, client)])
    with tempfile.TemporaryDirectory(prefix="swc-check-") as folder:
        figures = Path(folder)
        players = [(NAME, measured(client, figures)), ("reference", reference)]
        specs = [GameSpec(game=entry.game_type, index=i, seed=seed + i, players=players if i % 2 == 0 else players[::-1],
                          logs=logs, start_timeout=start_timeout, game_timeout=game_timeout, options=dict(options or {}))
                 for i in range(games)]
        records = await play_games(specs, give_up_after=None)
        rows = [_row(record, spec_, figures) for record, spec_ in zip(records, specs)]
    return CheckReport(spec=spec, game=entry.game_type, seed=seed, rows=rows, command=command_text(client))


def _row(record: GameResult, spec: GameSpec, figures: Path) -> CheckRow:
    k = next(i for i, (name, _) in enumerate(spec.players) if name == NAME)
    seat = record.seats[k]
    taken = _figures(figures / f"{seat_seed(spec.seed, k)}.json")
    joined = seat.cause not in ABSENT_CAUSES
    return CheckRow(
        game=record.index + 1, seat=seat.seat, cause=seat.cause, joined=joined,
        moved_legally=joined and seat.cause not in RULE_CAUSES,
        kept_time=joined and seat.cause not in TIME_CAUSES,
        ended_regularly=joined and seat.cause == REGULAR and record.error is None,
        peak_rss=taken.get("peak_rss"), cpu_seconds=taken.get("cpu_seconds"),
        reason=seat.reason or record.error,
    )


def _figures(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def table_lines(report: CheckReport) -> list[str]:
    """The report as plain text: one row per game, then the verdict."""
    head = ("game", "seat", "joined", "moved legally", "kept its time", "ended regularly", "peak memory", "CPU", "cause")
    rows = [head] + [(str(r.game), r.seat, _yes(r.joined), _yes(r.moved_legally), _yes(r.kept_time),
                      _yes(r.ended_regularly), _mib(r.peak_rss), _seconds(r.cpu_seconds), r.cause)
                     for r in report.rows]
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = [f"check of {report.spec} in {report.game}: {len(report.rows)} games against the reference bot, "
             f"seats swapped, seed {report.seed}", f"client: {report.command}", ""]
    lines += ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]
    lines.append("")
    for row in report.rows:
        if not row.passed and row.reason:
            lines.append(f"game {row.game}: {row.cause}: {row.reason}")
    failed = [name for name, attr in (("joined", "joined"), ("moved legally", "moved_legally"),
                                      ("kept its time", "kept_time"), ("ended regularly", "ended_regularly"))
              if not all(getattr(r, attr) for r in report.rows)]
    lines.append("PASSED: every game joined, legal, in time and regular" if report.passed
                 else f"FAILED: {', '.join(failed) or report.error or 'no game played'}")
    return lines


def _yes(value: bool) -> str:
    return "yes" if value else "NO"


def _mib(value: int | None) -> str:
    return "-" if not value else f"{value / (1024 * 1024):.1f} MiB"


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f} s"
