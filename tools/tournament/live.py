"""The live view while a tournament runs: a progress bar and the standings, drawn by rich.

Shown on a terminal only (on standard error, so standard output keeps just the final report);
redrawn twice a second from the tournament's current numbers.
"""

from __future__ import annotations

from rich.console import Console, Group
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from swc_local.tools.tournament.core import Tournament
from swc_local.tools.tournament.report import standings_table, status_line


class LiveView:
    def __init__(self, tournament: Tournament, console: Console | None = None) -> None:
        self.tournament = tournament
        self.console = console or Console(stderr=True)
        self.progress = Progress(
            TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
            console=self.console,
        )
        self.task = self.progress.add_task("games", total=len(tournament.slots), completed=len(tournament.stored))
        self.live = Live(self, console=self.console, refresh_per_second=2, transient=True)

    def __rich__(self) -> Group:
        with self.tournament.lock:  # the tables are built from one consistent moment
            self.progress.update(self.task, completed=len(self.tournament.stored))
            return Group(self.progress, status_line(self.tournament), standings_table(self.tournament.standings()))

    def __enter__(self) -> "LiveView":
        if self.console.is_terminal:
            self.live.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self.console.is_terminal:
            self.live.__exit__(*exc)
