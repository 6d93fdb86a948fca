"""The tournament's tables: standings, head-to-head Elo, crosstable, causes; as text, JSON, CSV.

The text tables are rich tables (the live view shows a narrower standings table while the
tournament runs); ``--json`` holds everything the tables show plus every game, every pair and the
SPRT history (what the viewer's run page draws); ``--csv`` one of ``standings`` (the default),
``games``, ``pairs`` or ``sprt``, one line per bot, game, pair or finished pair.

An Elo without a finite value (a 0 % or 100 % score) is ``null`` in JSON (which has no infinity)
with ``elo_text`` ``+inf``/``-inf`` and its finite bound in ``elo_bound``; ``small_sample`` marks an
estimate from fewer than 30 game pairs (a ``*`` in the tables).
"""

from __future__ import annotations

import csv
import io
import math

from rich.console import Group
from rich.table import Table
from rich.text import Text

from swc_local.tools.tournament.core import Tournament
from swc_local.tools.tournament.elo import EloEstimate
from swc_local.tools.tournament.schedule import seating_note
from swc_local.tools.tournament.standings import Standings, is_mirror, pair_score

STANDING_COLUMNS = ("rank", "bot", "games", "wins", "draws", "losses", "points", "score", "elo", "elo95",
                    "elo_text", "small_sample", "rating_mu", "rating_sigma", "no_result", "causes",
                    "think_avg_ms", "think_max_ms", "moves")
GAME_COLUMNS = ("position", "key", "block", "opening", "seed", "bots", "seats", "ranks", "causes", "scores",
                "duration", "worker", "retries", "replay", "error")
PAIR_COLUMNS = ("block", "first", "second", "opening", "games", "first_points", "pentanomial_index", "mirror")
SPRT_COLUMNS = ("pair", "games", "pentanomial", "llr", "elo", "elo_low", "elo_high")
CSV_KINDS = ("standings", "games", "pairs", "sprt")
SMALL_NOTE = "* from fewer than 30 game pairs: a rough guide, not a measurement"


def elo_fields(estimate: EloEstimate | None) -> dict:
    if estimate is None:
        return {"elo": None, "elo95": None, "elo_text": None, "elo_bound": None, "small_sample": None}
    return {
        "elo": round(estimate.elo, 1) if estimate.finite else None,
        "elo95": round(estimate.elo95, 1) if estimate.finite else None,
        "elo_text": estimate.text(), "elo_bound": round(estimate.bound, 1) if estimate.bound is not None else None,
        "small_sample": estimate.small,
    }


def _ms(value: float | None) -> float | None:
    return round(value, 1) if value is not None else None


def standing_rows(standings: Standings) -> list[dict]:
    rows = []
    for rank, line in enumerate(standings.ranked(), start=1):
        rows.append({
            "rank": rank, "bot": line.name, "games": line.games, "wins": line.wins, "draws": line.draws,
            "losses": line.losses, "points": line.points, "score": round(line.score, 4), **elo_fields(line.elo),
            "rating_mu": round(line.mu, 2), "rating_sigma": round(line.sigma, 2),
            "no_result": line.no_result, "causes": dict(sorted(line.causes.items())),
            "think_avg_ms": _ms(line.think_avg_ms), "think_max_ms": _ms(line.think_max_ms), "moves": line.moves,
        })
    return rows


def standings_table(standings: Standings, width: int | None = None) -> Table:
    """The standings; with ``width`` (a terminal's) only the columns that fit into it, the Elo
    column always whole (the others are left out in this order, and the caption says which)."""
    table = Table(title="Standings", title_justify="left", caption_justify="left")
    columns = ["#", "bot", "games", "W", "D", "L", "no result", "points", "score", "Elo ± 95 %", "ms/move avg max",
               "rating μ ± σ", "not regular"]
    rows = []
    small = False
    for row in standing_rows(standings):
        small = small or bool(row["small_sample"])
        rows.append({
            "#": str(row["rank"]), "bot": row["bot"], "games": str(row["games"]), "W": str(row["wins"]),
            "D": str(row["draws"]), "L": str(row["losses"]), "no result": str(row["no_result"]),
            "points": str(row["points"]), "score": f"{row['score']:.1%}", "Elo ± 95 %": row["elo_text"] or "-",
            "ms/move avg max": (f"{row['think_avg_ms']:.0f} {row['think_max_ms']:.0f}" if row["moves"] else "-"),
            "rating μ ± σ": f"{row['rating_mu']:.1f} ± {row['rating_sigma']:.1f}",
            "not regular": ", ".join(f"{cause} {count}" for cause, count in row["causes"].items()) or "-",
        })
    left_out = []
    if width is not None:
        for dropped in ("rating μ ± σ", "no result", "not regular", "points", "D", "W", "L", "ms/move avg max"):
            if _width_of(columns, rows) <= width:
                break
            columns.remove(dropped)
            left_out.append(dropped)
    for column in columns:
        table.add_column(column, justify="left" if column in ("bot", "not regular") else "right",
                         no_wrap=column not in ("bot", "not regular"), overflow="fold")
    for cells in rows:
        table.add_row(*(cells[column] for column in columns))
    captions = [SMALL_NOTE] if small else []
    if left_out:
        captions.append(f"left out at this width: {', '.join(left_out)} (report --json has every column)")
    table.caption = "\n".join(captions) or None
    return table


def _width_of(columns: list[str], rows: list[dict]) -> int:
    """The table's width with these columns: the widest cell of each, its padding and borders."""
    return sum(max([len(column), *(len(row[column]) for row in rows)]) + 3 for column in columns) + 1


def heads_table(standings: Standings) -> Table:
    table = Table(title="Head to head (Elo of the first bot, from game pairs)", title_justify="left")
    for column in ("pairing", "pairs", "pentanomial", "L/D/W", "Elo ± 95 %", "LOS"):
        table.add_column(column, justify="left" if column == "pairing" else "right")
    for column in table.columns:
        column.no_wrap, column.overflow = True, "fold"
    small = False
    for head in standings.heads.values():
        estimate = head.elo()
        small = small or bool(estimate and estimate.small)
        table.add_row(
            f"{head.first} vs {head.second}", str(head.pairs), " ".join(map(str, head.pentanomial)),
            "/".join(map(str, head.trinomial)), estimate.text() if estimate else "-",
            f"{estimate.los:.1%}" if estimate else "-",
        )
    if small:
        table.caption, table.caption_justify = SMALL_NOTE, "left"
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


def notes(tournament: Tournament, standings: Standings) -> list[str]:
    """What a reader must know besides the numbers: mirrors, the seating, the book, retries."""
    said = []
    for head in standings.heads.values():
        if head.all_mirrors:
            said.append(f"every one of the {head.pairs} pairs of {head.first} vs {head.second} was a mirror (the second "
                        f"game repeated the first seat for seat): the bots play the same game whatever the seat; "
                        f"do they use {{seed}}?")
    settings = tournament.settings
    if settings.seats > 2:
        said.append(seating_note(settings.seats, settings.games_per_pairing))
    if settings.openings:
        said.append(f"openings: {len(settings.openings)} from {settings.book}, each a block with the seats swapped")
    if tournament.retried:
        said.append(f"{len(tournament.retried)} games were played again after a worker died: "
                    + ", ".join(f"{key} ({count}x)" for key, count in tournament.retried))
    if tournament.broken:
        said.append(f"stopped: {tournament.broken}")
    return said


def status_line(tournament: Tournament) -> Text:
    parts = [f"{len(tournament.stored)} of {len(tournament.slots)} games"]
    if tournament.plan is not None and not tournament.plan.complete:
        parts[0] += f" known so far (stage: {tournament.plan.stages[-1].title})"
    if tournament.sprt is not None:
        lower, upper = tournament.sprt.bounds
        parts.append(f"SPRT {tournament.sprt.describe()}: LLR {tournament.llr:.2f} [{lower:.2f}, {upper:.2f}], "
                     f"pairs {' '.join(map(str, tournament.pentanomial))}")
    if tournament.significance is not None:
        parts.append(f"significance {tournament.significance.level:g}: points {tournament.points[0]}-{tournament.points[1]}")
    if tournament.verdict:
        parts.append(tournament.verdict)
    return Text("\n".join(parts))


def text_report(tournament: Tournament, width: int | None = None) -> Group:
    """The final block; ``width``: the terminal's, the standings keep the columns that fit."""
    standings = tournament.standings()
    parts = [status_line(tournament), *(Text(note) for note in notes(tournament, standings))]
    plan = tournament.league_view()
    if plan is not None:  # the contest's formats: its tables first, then the games' standings
        from swc_local.tools.tournament.league_report import league_tables

        parts += league_tables(plan)
        parts.append(standings_table(standings, width=width))
        return Group(*parts)
    parts.append(standings_table(standings, width=width))
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
            **elo_fields(estimate), "los": estimate.los if estimate else None,
            "mirrors": head.mirrors, "all_mirrors": head.all_mirrors,
        })
    report = {
        "settings": settings, "games": len(tournament.stored), "scheduled": len(tournament.slots),
        "no_result": standings.no_result, "standings": standing_rows(standings), "head_to_head": heads,
        "crosstable": standings.crosstable, "verdict": tournament.verdict, "stopped": tournament.broken,
        "notes": notes(tournament, standings), "game_list": game_rows(tournament), "pairs": pair_rows(tournament),
        "history": tournament.db.history(),
        "retries": [{"game": key, "retries": count} for key, count in tournament.retried],
    }
    plan = tournament.league_view()
    if plan is not None:
        from swc_local.tools.tournament.league_report import league_json

        report["league"] = league_json(plan, tournament.settings.games_per_pairing)
    if tournament.sprt is not None:
        lower, upper = tournament.sprt.bounds
        report["sprt"] = {"llr": _number(tournament.llr), "lower_bound": lower, "upper_bound": upper,
                          "pentanomial": tournament.pentanomial}
    return report


def _number(value: float) -> float | None:
    return value if math.isfinite(value) else None


def game_rows(tournament: Tournament) -> list[dict]:
    """Every stored game in the order the games finished."""
    rows = []
    for item in tournament.stored:
        result, info = item.result, item.info
        slot = tournament.by_key.get(item.key)
        think = info.get("think") or {}
        rows.append({
            "position": slot.index if slot else result.index, "key": item.key, "block": item.block,
            "opening": info.get("opening"), "seed": result.seed, "bots": [seat.name for seat in result.seats],
            "seats": [{"bot": seat.name, "seat": seat.seat, "rank": seat.rank, "score": list(seat.score),
                       "cause": seat.cause, "reason": seat.reason,
                       "think_avg_ms": _ms(think[seat.name][1]) if seat.name in think else None,
                       "think_max_ms": _ms(think[seat.name][2]) if seat.name in think else None}
                      for seat in result.seats],
            "duration": round(result.duration, 3), "worker": info.get("worker"), "retries": info.get("retries", 0),
            "replay": result.replay, "error": result.error,
        })
    return rows


def pair_rows(tournament: Tournament) -> list[dict]:
    """Every complete game pair (two-player games), in the order the pairs finished."""
    blocks: dict[str, list] = {}
    rows = []
    names = tournament.settings.names
    for item in tournament.stored:
        if len(item.result.seats) != 2 or not item.result.ok:
            continue
        games = blocks.setdefault(item.block, [])
        games.append(item)
        if len(games) != 2:
            continue
        first, second = sorted((seat.name for seat in item.result.seats), key=names.index)
        points = sum(round(2 * pair_score(g.result.seat_of(first).rank, g.result.seat_of(second).rank)) for g in games)
        rows.append({"block": item.block, "first": first, "second": second, "opening": item.info.get("opening"),
                     "games": [g.key for g in games], "first_points": points, "pentanomial_index": points,
                     "mirror": is_mirror(games[0].result, games[1].result)})
    return rows


def csv_report(tournament: Tournament, kind: str = "standings") -> str:
    out = io.StringIO()
    columns = {"standings": STANDING_COLUMNS, "games": GAME_COLUMNS, "pairs": PAIR_COLUMNS, "sprt": SPRT_COLUMNS}[kind]
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n", extrasaction="ignore")
    writer.writeheader()
    if kind == "standings":
        for row in standing_rows(tournament.standings()):
            writer.writerow(row | {"causes": " ".join(f"{c}={n}" for c, n in row["causes"].items())})
    elif kind == "games":
        for row in game_rows(tournament):
            seats = row["seats"]
            writer.writerow(row | {
                "bots": " ".join(row["bots"]), "seats": " ".join(s["seat"] for s in seats),
                "ranks": " ".join(str(s["rank"]) for s in seats), "causes": " ".join(s["cause"] for s in seats),
                "scores": " | ".join(" ".join(s["score"]) for s in seats),
            })
    elif kind == "pairs":
        for row in pair_rows(tournament):
            writer.writerow(row | {"games": " ".join(row["games"])})
    else:
        for row in tournament.db.history():
            writer.writerow(row | {"pentanomial": " ".join(map(str, row["pentanomial"]))})
    return out.getvalue()
