"""The progress bar and the results table of ``swc match`` (plain text, no dependency).

Wins, draws and losses come from each player's first score part ("Gewinner": 2, 1, 0).  The
other score parts are averaged over the games that have a result, as the fragment's
``AVERAGE`` aggregation suggests.  Time per move is the observer's measure (see
:mod:`swc_local.tools.match`): mean and maximum in milliseconds.
"""

from __future__ import annotations

import re
import shlex
import sys
from collections import Counter
from typing import TextIO

from swc_local.tools.match import NAMES, GameRecord, MatchReport


class Progress:
    """``[#####.....] 7/20`` on a terminal (redrawn in place), one line per game otherwise."""

    def __init__(self, total: int, out: TextIO | None = None, width: int = 30) -> None:
        out = out if out is not None else sys.stderr  # looked up now: sys.stderr may be swapped
        self.total, self.out, self.width = total, out, width
        self.done = 0
        self.tally = [Counter(), Counter()]
        self.tty = hasattr(out, "isatty") and out.isatty()

    def __call__(self, record: GameRecord) -> None:
        self.done += 1
        for player in (0, 1):
            score = record.score(player)
            self.tally[player][_verdict(score.points) if score else "none"] += 1
        if self.tty:
            filled = self.width * self.done // max(self.total, 1)
            line = f"\r[{'#' * filled}{'.' * (self.width - filled)}] {self.done}/{self.total}  {self._score()}"
            self.out.write(line + ("\n" if self.done == self.total else ""))
        else:
            self.out.write(f"[{self.done}/{self.total}] game {record.index + 1}: {game_line(record)}\n")
        self.out.flush()

    def _score(self) -> str:
        t = self.tally[0]
        return f"player1 {t['win']}W {t['draw']}D {t['loss']}L"


def _verdict(points: int) -> str:
    return {2: "win", 1: "draw"}.get(points, "loss")


def game_line(record: GameRecord) -> str:
    if record.result is None:
        return f"no result ({record.error})"
    parts = []
    for player in (0, 1):
        score = record.score(player)
        parts.append(f"{NAMES[player]} ({record.label(player)}) {score.cause} {'/'.join(score.parts)}")
    return ", ".join(parts)


def results_table(report: MatchReport) -> str:
    records = report.records
    with_result = [r for r in records if r.result is not None]
    fragments = list(with_result[0].result.fragments[1:]) if with_result else []
    header = ["player", "wins", "draws", "losses", "causes", *(f"avg {f}" for f in fragments), "ms/move", "max ms"]
    rows = [header]
    for player in (0, 1):
        scores = [r.score(player) for r in with_result]
        verdicts = Counter(_verdict(s.points) for s in scores)
        causes = Counter(r.score(player).cause for r in with_result)
        averages = []
        for i in range(len(fragments)):
            values = [float(s.parts[i + 1]) for s in scores if len(s.parts) > i + 1]
            averages.append(f"{sum(values) / len(values):.2f}" if values else "-")
        times = [t for r in records for t in r.move_times[player]]
        rows.append([
            NAMES[player], str(verdicts["win"]), str(verdicts["draw"]), str(verdicts["loss"]),
            ", ".join(f"{c} {n}" for c, n in causes.most_common()) or "-",
            *averages,
            f"{1000 * sum(times) / len(times):.1f}" if times else "-",
            f"{1000 * max(times):.0f}" if times else "-",
        ])
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    config = report.config
    intro = [
        f"{len(records)} games of {config.plugin.game_type}, seed {report.seed} "
        f"(repeat with --seed {report.seed}), {report.seconds:.1f} s",
        *(f"{NAMES[p]}: {_command_text(config.command(p))}" for p in (0, 1)),
        "",
    ]
    notes = []
    for record in records:
        irregular = record.result is None or any(
            s.cause != "REGULAR" for s in record.result.scores
        )
        if irregular:
            codes = ", ".join(f"{NAMES[p]} exit {c}" for p, c in enumerate(record.exit_codes) if c not in (None, 0))
            notes.append(f"  game {record.index + 1}: {game_line(record)}" + (f" ({codes})" if codes else ""))
        if record.replay is not None and irregular:
            notes.append(f"    replay: {record.replay}")
    missing = sum(r.result is None for r in records)
    tail = ["", "games not ended by the rules:", *notes] if notes else []
    tail.append("")
    tail.append(f"{missing} game(s) without a result" if missing else "every game ended with a result")
    return "\n".join(intro + lines + tail)


def _command_text(command: str | list[str]) -> str:
    if isinstance(command, str):
        return command
    return " ".join(a if _PLAIN.fullmatch(a) else shlex.quote(a) for a in command)


_PLAIN = re.compile(r"[\w@%+=:,./{}-]+")  # placeholders like {port} need no quotes
