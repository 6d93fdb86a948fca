"""The contest's formats as the contest shows them: standings, match days, encounters, the bracket.

:func:`league_json` is the ``league`` part of ``swc tournament report --json`` (and so of the
viewer's run page); :func:`league_tables` the terminal's tables. The standings are the contest's
ranking ("Rangliste"): rank, team, points (2 per encounter won, 1 per draw), victory points,
encounters won/drawn/lost; a place decided by the seeded lot is marked.
"""

from __future__ import annotations

from rich.table import Table

from swc_local.tools.tournament.league import Outcome, Plan, Stage

LOT_NOTE = "* equal in points and victory points: the place was drawn by lot (seeded: a rerun draws the same)"


def league_json(plan: Plan, games_per_encounter: int) -> dict:
    return {"games_per_encounter": games_per_encounter, "complete": plan.complete,
            "stages": [stage_json(stage) for stage in plan.stages]}


def stage_json(stage: Stage) -> dict:
    days = []
    for number, encounters in enumerate(stage.days, start=1):
        bye = stage.byes[number - 1] if number - 1 < len(stage.byes) else None
        days.append({"day": number, "sits_out": bye,
                     "encounters": [encounter_json(stage.outcomes[e.key]) for e in encounters]})
    return {
        "key": stage.key, "title": stage.title, "kind": stage.kind, "teams": stage.teams, "complete": stage.complete,
        "standings": [{
            "rank": line.rank, "team": line.team, "points": line.points, "victory_points": line.victory,
            "won": line.won, "drawn": line.drawn, "lost": line.lost, "games": line.games, "games_won": line.games_won,
            "sat_out": line.sat_out, "lot": line.lot,
        } for line in stage.table],
        "days": days,
        "places": [{"place": place, "team": team} for place, team in stage.places],
    }


def encounter_json(outcome: Outcome) -> dict:
    encounter = outcome.encounter
    teams = (encounter.home, encounter.away)
    return {
        "key": encounter.key, "title": encounter.title, "day": encounter.day, "home": encounter.home,
        "away": encounter.away, "wins": [outcome.wins[t] for t in teams], "draws": outcome.draws,
        "victory_points": [outcome.victory[t] for t in teams],
        "game_points": [round(outcome.game_points[t], 3) for t in teams],
        "played": outcome.played, "no_result": outcome.no_result, "complete": outcome.complete,
        "winner": outcome.winner, "decided_by": outcome.decided_by,
        "points": [outcome.points(t) for t in teams] if outcome.complete else None,
        "games": list(encounter.games),
    }


def league_tables(plan: Plan) -> list[Table]:
    tables = []
    for stage in plan.stages:
        tables.append(standings_table(stage) if stage.kind == "league" else bracket_table(stage))
    return tables


def standings_table(stage: Stage) -> Table:
    done = sum(all(stage.outcomes[e.key].complete for e in day) for day in stage.days)
    table = Table(title=f"{stage.title}: standings after {done} of {len(stage.days)} match days",
                  title_justify="left", caption_justify="left")
    for column in ("#", "team", "points", "victory points", "won", "drawn", "lost", "games"):
        table.add_column(column, justify="left" if column == "team" else "right", no_wrap=True)
    drawn = False
    for line in stage.table:
        drawn = drawn or line.lot
        table.add_row(f"{line.rank}{'*' if line.lot else ''}", line.team, str(line.points), str(line.victory),
                      str(line.won), str(line.drawn), str(line.lost), str(line.games))
    if drawn:
        table.caption = LOT_NOTE
    return table


def bracket_table(stage: Stage) -> Table:
    table = Table(title=f"{stage.title}: knockout", title_justify="left", caption_justify="left")
    for column in ("encounter", "home", "away", "games won", "points at the end", "winner"):
        table.add_column(column, justify="right" if column in ("games won", "points at the end") else "left",
                         no_wrap=True)
    for day in stage.days:
        for encounter in day:
            outcome = stage.outcomes[encounter.key]
            teams = (encounter.home, encounter.away)
            winner = "-"
            if outcome.winner is not None:
                winner = outcome.winner + ("" if outcome.decided_by == "wins" else f" (by {outcome.decided_by})")
            elif not outcome.complete:
                winner = f"{outcome.played}/{len(encounter.games)} games"
            table.add_row(encounter.title, encounter.home, encounter.away,
                          ":".join(str(outcome.wins[t]) for t in teams),
                          ":".join(f"{outcome.game_points[t]:g}" for t in teams), winner)
    if stage.places:
        table.caption = "places: " + ", ".join(f"{place}. {team}" for place, team in stage.places)
    return table
