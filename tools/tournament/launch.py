"""The viewer's tournament starter (``swc view --leagues DIR``): a league started from the page.

The page (server/web/tournament_start.py) hands :meth:`Launcher.start` what a teacher chose;
the request becomes the arguments of ``swc tournament`` and is checked by the command's own
parser and checks (the same one-line errors as on the command line) before anything runs; then
``swc tournament`` runs as a process of its own, writing ``DIR/league-ID.db`` (and its replays
beside it), and the run page follows that database as ``swc view course.db`` does. So a league
started from the page is an ordinary tournament: ``swc tournament --resume --db DIR/league-ID.db``
continues it after the viewer stopped, and ``report`` prints it.

Ids come from :mod:`uuid` (uuid4): the run page's address names nothing a client chose. The
viewer ends every tournament it started when it stops (SIGTERM to each process group: the
tournament keeps its finished games, ``--resume`` plays the rest).
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

from swc_local.tools.tournament import league

log = logging.getLogger("swc.view")

STARTED_WITHIN = 30.0  # seconds until the database holds the tournament's settings
MAX_TEAMS = 400


class Launcher:
    def __init__(self, folder: Path, sources: dict, make_source) -> None:
        """``sources``: the viewer's run pages (id -> source); ``make_source(path)`` a run page's
        source of a database."""
        self.folder = Path(folder)
        self.sources = sources
        self.make_source = make_source
        self.processes: list[subprocess.Popen] = []

    def options(self) -> dict:
        from swc_local.games import registry

        games = [entry.name for entry in registry.GAMES if entry.seats[0] <= 2 <= entry.seats[1]]
        return {"games": games, "formats": list(league.LEAGUE_FORMATS),
                "defaults": {"format": "contest", "games_per_encounter": league.GAMES_PER_ENCOUNTER,
                             "group_size": league.GROUP_SIZE, "advance": league.ADVANCE}}

    def arguments(self, request: dict, db: Path) -> list[str]:
        """``swc tournament``'s arguments for ``request``; ValueError naming what is wrong."""
        teams = request.get("teams")
        if not isinstance(teams, list) or not all(isinstance(team, str) for team in teams):
            raise ValueError("teams: a list of NAME=COMMAND lines")
        if len(teams) > MAX_TEAMS:
            raise ValueError(f"teams: at most {MAX_TEAMS}, got {len(teams)}")
        arguments = [_text(request, "game")]
        for key, flag in (("format", "--format"), ("games_per_encounter", "--games-per-encounter"),
                          ("group_size", "--group-size"), ("advance", "--advance"), ("seed", "--seed")):
            value = request.get(key)
            if value is None:
                continue
            if key != "format" and (not isinstance(value, int) or isinstance(value, bool)):
                raise ValueError(f"{key}: a whole number, not {value!r}")
            arguments += [flag, str(value)]
        if request.get("format") not in league.LEAGUE_FORMATS:
            raise ValueError(f"format {request.get('format')!r}: accepted are {', '.join(league.LEAGUE_FORMATS)}")
        return arguments + [f"--bot={team}" for team in teams] + ["--db", str(db)]

    def check(self, arguments: list[str]) -> None:
        """The command line's own parsing and checks: ValueError with its one line."""
        from swc_local.server.cli import new_parser
        from swc_local.tools.tournament import cli
        from swc_local.tools.tournament.arguments import UsageError, check_commands, settings_from
        from swc_local.tools.tournament.core import check_schedule
        from swc_local.tools.tournament.schedule import ScheduleError

        parser, commands = new_parser()
        cli.add_commands(commands)
        try:
            args = parser.parse_args(["tournament", *arguments])
        except SystemExit:
            raise ValueError("the request does not make swc tournament arguments") from None
        try:
            settings = settings_from(args)
            check_schedule(settings)
            check_commands(settings)
        except (UsageError, ScheduleError) as error:
            raise ValueError(str(error)) from None

    def start(self, request: dict) -> str:
        """Start the tournament; its run page's id (ValueError: one line, nothing started)."""
        tid = f"league-{uuid.uuid4().hex[:12]}"
        db = self.folder / f"{tid}.db"
        arguments = self.arguments(request, db)
        self.check(arguments)
        log_file = open(self.folder / f"{tid}.log", "wb")
        command = [sys.executable, "-m", "swc_local.tools.cli", "tournament", *arguments]
        process = subprocess.Popen(command, stdout=log_file, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   start_new_session=True)
        log_file.close()
        self.processes.append(process)
        deadline = time.monotonic() + STARTED_WITHIN
        while not _holds_settings(db):
            if process.poll() is not None or time.monotonic() > deadline:
                last = (self.folder / f"{tid}.log").read_text(errors="replace").strip().splitlines()
                raise ValueError(last[-1] if last else f"swc tournament ended at once (exit status {process.returncode})")
            time.sleep(0.05)
        self.sources[tid] = self.make_source(db)
        log.info("tournament %s started: %s", tid, " ".join(command[3:]))
        return tid

    def close(self, grace: float = 1.0) -> None:
        """Stop every tournament this viewer started (SIGTERM, then SIGKILL after ``grace``)."""
        running = [p for p in self.processes if p.poll() is None]
        for process in running:
            _signal_group(process, signal.SIGTERM)
        deadline = time.monotonic() + grace
        for process in running:
            try:
                process.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                _signal_group(process, signal.SIGKILL)
                process.wait()


def _text(request: dict, key: str) -> str:
    value = request.get(key)
    if not isinstance(value, str) or not value:
        raise ValueError(f"{key}: missing")
    return value


def _holds_settings(db: Path) -> bool:
    from swc_local.tools.tournament.db import DatabaseError, ResultsDb

    if not db.is_file():
        return False
    try:
        with ResultsDb(db, create=False, readonly=True) as results:
            return results.settings() is not None
    except (DatabaseError, OSError):
        return False


def _signal_group(process: subprocess.Popen, number: int) -> None:
    try:
        os.killpg(process.pid, number)
    except ProcessLookupError:
        pass
