"""What ``swc match`` shows: a progress display while it runs, one table at the end, and the
per-game records as JSON lines or CSV.  Drawn with rich, the same for every game.

Per player: wins (rank 1 alone), draws (rank 1 shared), losses, the causes seen, the average
rank, the average of each score part (the game's own parts: "Gewinner" points and fragments in
the XML games, stones in ReversiXT, checkpoints/reboots in Robo Rally) and, where the family
measures it, the time per move (the observer's, see :mod:`swc_local.tools.xml_match`).
Every game that did not end regularly gets a line that says why: each irregular seat's cause
and reason (the rule text, the command's last output lines), where its output and the
replay are.
"""

from __future__ import annotations

import csv
import json
import sys
from collections import Counter
from typing import TextIO

from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress as RichProgress, TextColumn, TimeElapsedColumn
from rich.table import Table

from swc_local.tools.players import command_text
from swc_local.tools.results import GameResult


def game_line(record: GameResult) -> str:
    """``player1 (red) REGULAR 2/5, player2 (blue) REGULAR 0/3`` (players in their order, each
    with its seat) or why there is no result."""
    if record.error is not None:
        return f"no result ({record.error})"
    seats = sorted(record.seats, key=lambda s: (len(s.name), s.name))
    return ", ".join(f"{s.name} ({s.seat}) {s.cause} {'/'.join(s.score)}".rstrip() for s in seats)


class Progress:
    """A rich progress bar on a terminal; one line per game otherwise (logs, CI, pipes)."""

    def __init__(self, total: int, out: TextIO | None = None) -> None:
        self.out = out if out is not None else sys.stderr  # looked up now: sys.stderr may be swapped
        self.total, self.done = total, 0
        self.tally: Counter = Counter()
        self.console = Console(file=self.out)
        self.bar = None
        if self.console.is_terminal:
            self.bar = RichProgress(TextColumn("swc match"), BarColumn(), MofNCompleteColumn(),
                                    TextColumn("{task.description}"), TimeElapsedColumn(), console=self.console)
            self.task = self.bar.add_task("", total=total)
            self.bar.start()

    def __call__(self, record: GameResult) -> None:
        self.done += 1
        if self.bar is not None:
            self.tally.update(s.name for s in record.seats if record.error is None and _won(record, s))
            wins = "  ".join(f"{name} {n}W" for name, n in sorted(self.tally.items()))
            self.bar.update(self.task, advance=1, description=wins)
        else:
            self.out.write(f"[{self.done}/{self.total}] game {record.index + 1}: {game_line(record)}\n")
            self.out.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


def _won(record: GameResult, seat) -> bool:
    return seat.rank == 1 and sum(s.rank == 1 for s in record.seats) == 1


def _verdict(record: GameResult, seat) -> str:
    if seat.rank != 1:
        return "loss"
    return "win" if _won(record, seat) else "draw"


def results_table(records: list[GameResult], *, game: str, seed: int, seconds: float, commands: list,
                  total: int | None = None, logs: str | None = None, width: int | None = None,
                  stopped: str | None = None) -> str:
    """The whole report as text: header, the table, the irregular games, the verdict line.

    The verdict line never claims more than happened: a match ``stopped`` (Ctrl-C, a command
    that cannot play) says so and why instead of "every game ended with a result"."""
    console = Console(file=_Text(), width=width or 200, color_system=None, force_terminal=False,
                      record=True, soft_wrap=True)
    names = [f"player{k + 1}" for k in range(len(commands))]
    played = sorted(records, key=lambda r: r.index)
    with_result = [r for r in played if r.error is None]
    interrupted = total is not None and len(played) < total
    console.print(f"{len(played)} games of {game}, seed {seed} (repeat with --seed {seed}), {seconds:.1f} s"
                  + (f" -- stopped after {len(played)} of {total} games" if interrupted else ""))
    for name, command in zip(names, commands):
        console.print(f"{name}: {command_text(command)}", markup=False, highlight=False)
    if logs:
        console.print(f"bot output: {logs}", markup=False, highlight=False)
    console.print()
    parts = max((len(s.score) for r in with_result for s in r.seats), default=0)
    part_names = next((r.score_names for r in with_result if r.score_names), ())
    part_names = [part_names[i] if i < len(part_names) else f"part {i + 1}" for i in range(parts)]
    timed = any(r.move_times for r in played)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for column in ("player", "wins", "draws", "losses", "causes", "avg rank", *(f"avg {name}" for name in part_names),
                   *(["ms/move", "max ms"] if timed else [])):
        table.add_column(column, no_wrap=True)
    for name in names:
        seats = [(r, r.seat_of(name)) for r in with_result if any(s.name == name for s in r.seats)]
        verdicts = Counter(_verdict(r, s) for r, s in seats)
        causes = Counter(s.cause for _, s in seats)
        row = [name, str(verdicts["win"]), str(verdicts["draw"]), str(verdicts["loss"]),
               ", ".join(f"{c} {n}" for c, n in causes.most_common()) or "-",
               f"{sum(s.rank for _, s in seats) / len(seats):.2f}" if seats else "-"]
        row += [_average([s.score[i] for _, s in seats if len(s.score) > i]) for i in range(parts)]
        if timed:
            times = [t for r in played for t in r.move_times.get(name, ())]
            row += [f"{1000 * sum(times) / len(times):.1f}" if times else "-", f"{1000 * max(times):.0f}" if times else "-"]
        table.add_row(*row)
    console.print(table)
    notes = []
    for record in played:
        if record.regular:
            continue
        codes = ", ".join(f"{s.name} exit {s.exit_code}" for s in record.seats if s.exit_code not in (None, 0))
        notes.append(f"  game {record.index + 1}: {game_line(record)}" + (f" ({codes})" if codes else ""))
        for seat in record.seats:
            if seat.regular and seat.exit_code in (None, 0):
                continue
            why = seat.reason or ""
            notes.append(f"    {seat.name} ({seat.seat}) {seat.cause}" + (f": {why}" if why else ""))
            if seat.log:
                notes.append(f"      output: {seat.log}")
        if record.replay:
            notes.append(f"    replay: {record.replay}")
    if notes:
        console.print()
        console.print("games not ended regularly:")
        for line in notes:
            console.print(line, markup=False, highlight=False)
    console.print()
    missing = sum(r.error is not None for r in played)
    if stopped:
        if played:  # which games count: a stopped match is read for what it finished
            console.print("finished before the stop:")
            for record in played:
                console.print(f"  game {record.index + 1}: {game_line(record)}", markup=False, highlight=False)
        console.print(f"stopped after {len(played)} of {total if total is not None else len(played)} games: {stopped}",
                      markup=False, highlight=False)
    else:
        console.print(f"{missing} game(s) without a result" if missing else "every game ended with a result")
    return "\n".join(line.rstrip() for line in console.export_text().splitlines()).rstrip("\n")


def _average(values: list[str]) -> str:
    numbers = []
    for value in values:
        try:
            numbers.append(float(value))
        except ValueError:
            return "-"
    return f"{sum(numbers) / len(numbers):.2f}" if numbers else "-"


class _Text:
    """A sink: the console is only recorded (``export_text``), never written."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


class RecordWriter:
    """Writes each game's record as it ends: one JSON object per line, and/or one CSV row."""

    def __init__(self, json_path=None, csv_path=None, seats: int = 2) -> None:
        self.json = open(json_path, "w") if json_path else None
        self.csv = open(csv_path, "w", newline="") if csv_path else None
        self.seats = seats
        if self.csv is not None:
            self.rows = csv.writer(self.csv)
            header = ["game", "index", "seed", "duration", "replay", "error"]
            for k in range(1, seats + 1):
                header += [f"seat{k}_{f}" for f in ("name", "label", "rank", "score", "cause", "reason", "exit_code", "log")]
            self.rows.writerow(header)

    def __call__(self, record: GameResult) -> None:
        if self.json is not None:
            self.json.write(json.dumps(record.to_dict()) + "\n")
            self.json.flush()
        if self.csv is not None:
            row = [record.game, record.index, record.seed, f"{record.duration:.3f}", record.replay or "", record.error or ""]
            for seat in record.seats:
                row += [seat.name, seat.seat, seat.rank, "/".join(seat.score), seat.cause, seat.reason or "",
                        "" if seat.exit_code is None else seat.exit_code, seat.log or ""]
            self.rows.writerow(row)
            self.csv.flush()

    def close(self) -> None:
        for handle in (self.json, self.csv):
            if handle is not None:
                handle.close()


def irregular_line(records: list[GameResult], player: str | None) -> str | None:
    """``--fail-on-irregular``: ``player1 ended 2 of 4 games other than REGULAR (SOFT_TIMEOUT 1,
    CRASHED 1)``, or None when every game of the chosen player (None: of every player) ended
    REGULAR.  A game without a result counts for every player in it (cause ``no result``)."""
    names = sorted({s.name for r in records for s in r.seats}, key=lambda n: (len(n), n))
    lines = []
    for name in names if player is None else [player]:
        causes: Counter = Counter()
        games = [r for r in records if any(s.name == name for s in r.seats)]
        for record in games:
            cause = "no result" if record.error is not None else record.seat_of(name).cause
            if cause != "REGULAR":
                causes[cause] += 1
        if causes:
            counts = ", ".join(f"{c} {n}" for c, n in causes.most_common())
            lines.append(f"{name} ended {sum(causes.values())} of {len(games)} games other than REGULAR ({counts})")
    return "; ".join(lines) or None
