"""The tournament's tables: standings, head-to-head Elo, crosstable, causes; as text, JSON, CSV.

The text tables are rich tables (the live view shows the same ones while the tournament runs);
``--json`` holds everything the tables show, ``--csv`` the standings, one line per bot.
"""

from __future__ import annotations

import csv
import io

from rich.console import Group
from rich.table import Table
from rich.text import Text

from swc_local.tools.tournament.core import Tournament
from swc_local.tools.tournament.standings import Standings

STANDING_COLUMNS = ("rank", "bot", "games", "wins", "draws", "losses", "points", "score", "elo", "elo95",
                    "rating_mu", "rating_sigma", "no_result", "causes")


def standing_rows(standings: Standings) -> list[dict]:
    rows = []
    for rank, line in enumerate(standings.ranked(), start=1):
        rows.append({
            "rank": rank, "bot": line.name, "games": line.games, "wins": line.wins, "draws": line.draws,
            "losses": line.losses, "points": line.points, "score": round(line.score, 4),
            "elo": round(line.elo.elo, 1) if line.elo else None,
            "elo95": round(line.elo.elo95, 1) if line.elo else None,
            "rating_mu": round(line.mu, 2), "rating_sigma": round(line.sigma, 2),
            "no_result": line.no_result, "causes": dict(sorted(line.causes.items())),
        })
    return rows


def standings_table(standings: Standings) -> Table:
    table = Table(title="Standings", title_justify="left")
    for column in ("#", "bot", "games", "W", "D", "L", "no result", "points", "score", "Elo ± 95 %", "rating μ ± σ", "not regular"):
        table.add_column(column, justify="left" if column in ("bot", "not regular") else "right")
    for row in standing_rows(standings):
        elo = f"{row['elo']:+.1f} ± {row['elo95']:.1f}" if row["elo"] is not None else "-"
        causes = ", ".join(f"{cause} {count}" for cause, count in row["causes"].items()) or "-"
        table.add_row(
            str(row["rank"]), row["bot"], str(row["games"]), str(row["wins"]), str(row["draws"]), str(row["losses"]),
            str(row["no_result"]), str(row["points"]), f"{row['score']:.1%}", elo, f"{row['rating_mu']:.1f} ± {row['rating_sigma']:.1f}", causes,
        )
    return table


def heads_table(standings: Standings) -> Table:
    table = Table(title="Head to head (Elo of the first bot, from game pairs)", title_justify="left")
    for column in ("pairing", "pairs", "pentanomial LL..WW", "games L/D/W", "Elo ± 95 %", "LOS"):
        table.add_column(column, justify="left" if column == "pairing" else "right")
    for head in standings.heads.values():
        estimate = head.elo()
        table.add_row(
            f"{head.first} vs {head.second}", str(head.pairs), " ".join(map(str, head.pentanomial)),
            "/".join(map(str, head.trinomial)),
            f"{estimate.elo:+.1f} ± {estimate.elo95:.1f}" if estimate else "-",
            f"{estimate.los:.1%}" if estimate else "-",
        )
    return table


def crosstable(standings: Standings, names: list[str]) -> Table:
    table = Table(min_width=60, title="Crosstable: points of the row against the column / games", title_justify="left")
    table.add_column("bot")
    for name in names:
        table.add_column(name, justify="right")
    for row in names:
        cells = []
        for column in names:
            points, games = standings.crosstable.get(row, {}).get(column, [0, 0])
            cells.append("" if row == column else f"{points}/{games}" if games else "-")
        table.add_row(row, *cells)
    return table


def status_line(tournament: Tournament) -> Text:
    parts = [f"{len(tournament.stored)} of {len(tournament.slots)} games"]
    if tournament.sprt is not None:
        lower, upper = tournament.sprt.bounds
        parts.append(f"SPRT {tournament.sprt.describe()}: LLR {tournament.llr:.2f} [{lower:.2f}, {upper:.2f}], "
                     f"pairs {' '.join(map(str, tournament.pentanomial))}")
    if tournament.significance is not None:
        parts.append(f"significance {tournament.significance.level:g}: points {tournament.points[0]}-{tournament.points[1]}")
    if tournament.verdict:
        parts.append(tournament.verdict)
    return Text("\n".join(parts))


def text_report(tournament: Tournament) -> Group:
    standings = tournament.standings()
    parts = [status_line(tournament), standings_table(standings)]
    if standings.heads:
        parts.append(heads_table(standings))
    parts.append(crosstable(standings, tournament.settings.names))
    return Group(*parts)


def json_report(tournament: Tournament) -> dict:
    standings = tournament.standings()
    settings = tournament.settings.to_dict()
    heads = []
    for head in standings.heads.values():
        estimate = head.elo()
        heads.append({
            "first": head.first, "second": head.second, "pentanomial": head.pentanomial, "trinomial": head.trinomial,
            "elo": estimate.elo if estimate else None, "elo95": estimate.elo95 if estimate else None,
            "los": estimate.los if estimate else None,
        })
    report = {
        "settings": settings, "games": len(tournament.stored), "scheduled": len(tournament.slots),
        "no_result": standings.no_result, "standings": standing_rows(standings), "head_to_head": heads,
        "crosstable": standings.crosstable, "verdict": tournament.verdict,
    }
    if tournament.sprt is not None:
        lower, upper = tournament.sprt.bounds
        report["sprt"] = {"llr": tournament.llr, "lower_bound": lower, "upper_bound": upper,
                          "pentanomial": tournament.pentanomial}
    return report


def csv_report(tournament: Tournament) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=STANDING_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in standing_rows(tournament.standings()):
        writer.writerow(row | {"causes": " ".join(f"{c}={n}" for c, n in row["causes"].items())})
    return out.getvalue()
