"""The live view while a tournament runs: on a terminal a progress bar and the standings, drawn
by rich; elsewhere (a CI log, output redirected to a file) one plain line per finished game pair
(per game in a multi-player game).

Both go to standard error, so standard output keeps just the final report, printed once. On a
terminal the view is redrawn twice a second and cleared at the end (``transient``); its
standings keep only the columns that fit the terminal's width, so it never wraps and the
terminal never keeps a stale copy. A plain line reads::

    pair 3 (6/40 games) r2/a~b: a 1.5-0.5 b | a vs b: 3 pairs [0 1 1 1 0], Elo +24.1 ± 80.2 * | LLR 0.31 [-2.94, 2.94]
"""

from __future__ import annotations

import sys

from rich.console import Console, Group
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from swc_local.tools.tournament.core import Tournament
from swc_local.tools.tournament.db import Stored
from swc_local.tools.tournament.report import standings_table, status_line
from swc_local.tools.tournament.standings import pair_score


class LiveView:
    def __init__(self, tournament: Tournament, console: Console | None = None, plain=None) -> None:
        self.tournament = tournament
        self.console = console or Console(stderr=True)
        self.plain = plain if plain is not None else sys.stderr  # where the plain lines go off a terminal
        self.progress = Progress(
            TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
            console=self.console,
        )
        self.task = self.progress.add_task("games", total=len(tournament.slots), completed=len(tournament.stored))
        self.live = Live(self, console=self.console, refresh_per_second=2, transient=True, vertical_overflow="crop")
        self._blocks: dict[str, list[Stored]] = {}
        self._stage_cache: tuple | None = None
        for item in tournament.stored:  # a resumed run: pairs already half played
            if len(item.result.seats) == 2:
                self._blocks.setdefault(item.block, []).append(item)
        self._blocks = {block: games for block, games in self._blocks.items() if len(games) == 1}

    def __rich__(self) -> Group:
        with self.tournament.lock:  # the tables are built from one consistent moment
            self.progress.update(self.task, completed=len(self.tournament.stored), total=len(self.tournament.slots))
            if self.tournament.plan is not None:  # the contest's formats: the stage in play, as the contest shows it
                return Group(self.progress, status_line(self.tournament), self._stage_table())
            return Group(self.progress, status_line(self.tournament),
                         standings_table(self.tournament.standings(), width=self.console.width))

    def _stage_table(self):
        """The newest stage's table, rebuilt only when a game arrived (a big league's plan takes
        a moment to judge)."""
        from swc_local.tools.tournament.league_report import league_tables

        if self._stage_cache is None or self._stage_cache[0] != len(self.tournament.stored):
            plan = self.tournament.league_view()
            self._stage_cache = (len(self.tournament.stored), league_tables(plan)[-1])
        return self._stage_cache[1]

    def __enter__(self) -> "LiveView":
        if self.console.is_terminal:
            self.live.__enter__()
        else:
            self.tournament.listeners.append(self.on_game)
        return self

    def __exit__(self, *exc) -> None:
        if self.console.is_terminal:
            self.live.__exit__(*exc)
        elif self.on_game in self.tournament.listeners:
            self.tournament.listeners.remove(self.on_game)

    def on_game(self, item: Stored, paired: bool) -> None:
        """One line per finished pair (two-player games) or game (multi-player ones)."""
        line = progress_line(self.tournament, item, self._blocks)
        if line is not None:
            print(line, file=self.plain, flush=True)
        finished = encounter_line(self.tournament, item)
        if finished is not None:
            print(finished, file=self.plain, flush=True)


def encounter_line(tournament: Tournament, item: Stored) -> str | None:
    """The contest's formats: one line when ``item`` finished its encounter, e.g.
    ``encounter A/d2/lions~owls: lions 4:2 owls, 2:0 points``."""
    plan = tournament.plan
    key = plan.encounter_of.get(item.key) if plan is not None else None
    if key is None:
        return None
    encounter = next(e for stage in plan.stages for e in stage.encounters if e.key == key)
    if not all(tournament.stored_key(game) for game in encounter.games):
        return None
    from swc_local.tools.tournament.league import outcome_of

    with tournament.lock:
        results = tournament.results_of(encounter.games)
    outcome = outcome_of(encounter, results, tournament.settings.seed, stage_is_knockout(plan, encounter))
    home, away = encounter.home, encounter.away
    text = f"encounter {key}: {home} {outcome.wins[home]}:{outcome.wins[away]} {away}"
    if outcome.decided_by in ("game points", "lot"):
        return f"{text}, {outcome.winner} wins by {outcome.decided_by}"
    return f"{text}, {outcome.points(home)}:{outcome.points(away)} points"


def stage_is_knockout(plan, encounter) -> bool:
    return any(stage.kind == "knockout" for stage in plan.stages if stage.key == encounter.stage)


def progress_line(tournament: Tournament, item: Stored, blocks: dict[str, list[Stored]]) -> str | None:
    done = f"{len(tournament.stored)}/{len(tournament.slots)} games"
    result = item.result
    if len(result.seats) != 2:
        ranks = ", ".join(f"{seat.rank}. {seat.name}" for seat in sorted(result.seats, key=lambda s: s.rank))
        return f"game {done} {item.key}: {ranks if result.ok else 'no result: ' + str(result.error)}"
    games = blocks.setdefault(item.block, [])
    games.append(item)
    if len(games) < 2:
        return None
    blocks.pop(item.block)
    names = tournament.settings.names
    first, second = sorted((seat.name for seat in result.seats), key=names.index)
    played = [g.result for g in games if g.result.ok]
    points = sum(pair_score(g.seat_of(first).rank, g.seat_of(second).rank) for g in played)
    parts = [f"pair {tournament.by_key[item.key].block} ({done}): {first} {points:g}-{len(played) - points:g} {second}"]
    standings = tournament.standings()
    head = standings.heads.get((first, second))
    if head is not None and head.pairs:
        estimate = head.elo()
        parts.append(f"{first} vs {second}: {head.pairs} pairs [{' '.join(map(str, head.pentanomial))}], "
                     f"Elo {estimate.text() if estimate else '-'}")
    if tournament.sprt is not None:
        lower, upper = tournament.sprt.bounds
        parts.append(f"LLR {tournament.llr:.2f} [{lower:.2f}, {upper:.2f}]")
    if tournament.verdict:
        parts.append(tournament.verdict)
    return " | ".join(parts)
