"""The Blokus rows of ``python -m benchmarks`` for both seasons (2021 and 2027) in one short run:
``python -m benchmarks.blokus_seasons``.  Why its own entry point: the whole benchmark takes many
minutes and its load rows need an idle machine; the two seasons' engine rows measured side by
side give the ratio of 2021 to 2027 even on a busy one."""

from __future__ import annotations

from benchmarks import engine
from benchmarks.run import FULL, blokus_rows, server_game_rows
from benchmarks.table import Row, render

SEASONS = ("swc_2027_blokus", "swc_2021_blokus")


def rows() -> list[Row]:
    found = []
    for game_type in SEASONS:
        result = engine.measure_game(game_type, FULL.engine_budget)
        found.append(Row(f"{game_type}: legal-move generations/s",
                         f"{result.generations_per_second:,.0f} ({result.moves_per_generation:.1f} moves each)"))
        found.append(Row(f"{game_type}: random playouts/s",
                         f"{result.playouts_per_second:,.0f} ({result.plies_per_playout:.0f} plies each)"))
    found += blokus_rows(FULL)
    found += [row for row in server_game_rows(FULL) if any(season in row.metric for season in SEASONS)]
    return found


if __name__ == "__main__":
    print(render(rows()))
