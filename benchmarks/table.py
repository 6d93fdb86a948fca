"""Rows of the result table and their markdown rendering.

Why a tiny row type rather than printing as we go: every benchmark returns rows, and the table is
printed once at the end, so a slow or failing benchmark never leaves a half-drawn table.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Row:
    metric: str
    measured: str
    target: str = ""
    ratio: str = ""


def meets(value: float, target: float, higher_is_better: bool = True) -> str:
    """``✓``/``✗`` for a numeric target."""
    ok = value >= target if higher_is_better else value <= target
    return "✓" if ok else "✗"


def render(rows: list[Row]) -> str:
    header = ("Benchmark", "Measured", "Target", "Ratio")
    cells = [header] + [(r.metric, r.measured, r.target, r.ratio) for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(4)]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(row, widths)) + " |" for row in cells]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)
