"""The Software-Challenge contest's formats: groups in match days, a Champions League, a Final Eight.

Pure data, no I/O: :func:`plan` turns the tournament's teams, settings and the games stored so
far into every game known at this point (:class:`~swc_local.tools.tournament.schedule.Slot`)
and the stages as the contest shows them (standings, match days, encounters, the bracket). A
stage's games are known once the stage before it is complete, so a league is deterministic from
its seed *and* its results: ``--resume`` rebuilds the same plan from the database, and a game
key never changes once it is known.

The formats (``--format``):

- ``league``: the championship ("Meisterschaft"): groups of about ``group_size`` teams (one group
  when there are no more), each a round robin of match days made by the circle method; on each
  match day every team plays one encounter ("Begegnung") against another, and with an odd number
  of teams one team sits out;
- ``champions``: the championship, then the Champions League of the best ``advance`` teams of
  each group, played "after the same scheme as a championship";
- ``final-eight``: a knockout of the teams in the order given (the order is the seeding):
  quarter-finals, semi-finals, the match for third place ("Kleines Finale") and the final
  (4 teams: from the semi-finals);
- ``contest``: the whole path, championship -> Champions League -> Final Eight of its best eight.

Conformance notes (docs.software-challenge.de, "Wettkampfmodalitäten"/"Ablauf des Wettkampfs",
and "Das Wettkampfsystem"; every choice is in docs/differences.md):

- an encounter is six games with the right of the first move alternating (the contest's
  "sechs Spiele, wobei das Recht des ersten Zuges abwechselt"): ``--games-per-encounter``
  defaults to 6 and must be even; games 2k and 2k+1 are one board with the seats swapped;
- an encounter is won by the team with more games won, drawn when both won as many; it counts
  2 points, a draw 1, a loss 0; the ranking's only secondary criterion is the victory points
  ("Siegpunkte") of the games so far: 2 for a game won, 1 for a game drawn, 0 for a game lost,
  as the official server hands them out in a two-player game (we count them from the ranks, so
  a seat that crashed or never joined gets 0 as a rule-breaker does there); a game without a
  result counts for nobody;
- teams still equal after that: "the lot decides". Ours is a seeded lot (from the tournament
  seed, the stage and the team's name), so a rerun draws the same; the standings mark a place
  decided by lot;
- the Final Eight has no drawn encounter: equal wins are decided by "the points reached at the
  end of the games" (the game's own points: the score part after the victory points in the
  Software-Challenge games, e.g. fish or swarm size; a game without such a part, its first score
  part), then by lot. (The victory points cannot decide it: with equal wins and two seats they
  are always equal.)
- the group draw, the circle method's team order and who starts an encounter are ours (the
  contest does not publish how it draws): a shuffle seeded by the tournament seed; groups differ
  in size by one at most; the Final Eight pairs seed 1-8, 4-5, 2-7, 3-6 so the two best can
  meet only in the final; the Champions League takes each group's best in rank order.
- standings count finished encounters only, so a table never shows an encounter half played.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from swc_local.tools.results import GameResult
from swc_local.tools.tournament.schedule import ScheduleError, Slot, bot_seed

LEAGUE_FORMATS = ("league", "champions", "final-eight", "contest")
GAMES_PER_ENCOUNTER = 6  # the contest's "sechs Spiele"
GROUP_SIZE = 20  # the contest's "Gruppen mit je ca. 20 Teams"
ADVANCE = 8  # "die besten acht Teams einer jeden Gruppe"
FINALISTS = 8  # "die ersten acht Mannschaften der Rangliste aus der Champions League"
VICTORY_PART_NAMES = ("Siegpunkte", "Gewinner")  # the XML results' first part: victory points
KNOCKOUT_ROUNDS = {8: ("quarter-finals", "semi-finals", "finals"), 4: ("semi-finals", "finals")}


@dataclass(frozen=True)
class Encounter:
    key: str  # "A/d3/alpha~beta"
    stage: str
    day: int  # match day (1-based); in the knockout its round
    home: str  # takes the first seat in the first game
    away: str
    games: tuple[str, ...]  # the slot keys
    title: str = ""  # knockout: "quarter-final 1", "final", "third place"


@dataclass
class Outcome:
    """An encounter's games so far and who won it."""

    encounter: Encounter
    wins: dict[str, int]
    draws: int = 0
    victory: dict[str, int] = field(default_factory=dict)
    game_points: dict[str, float] = field(default_factory=dict)
    played: int = 0  # games stored
    no_result: int = 0
    winner: str | None = None  # set when complete and not drawn
    decided_by: str | None = None  # "wins", "game points" or "lot"

    @property
    def complete(self) -> bool:
        return self.played == len(self.encounter.games)

    @property
    def loser(self) -> str | None:
        if self.winner is None:
            return None
        return self.encounter.away if self.winner == self.encounter.home else self.encounter.home

    def points(self, team: str) -> int:
        """2 for an encounter won, 1 for a draw, 0 for a loss (a complete encounter)."""
        if self.winner is None:
            return 1
        return 2 if self.winner == team else 0


@dataclass
class TeamLine:
    team: str
    points: int = 0
    victory: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    games: int = 0
    games_won: int = 0
    sat_out: int = 0
    rank: int = 0
    lot: bool = False  # its place against an equal team was drawn


@dataclass
class Stage:
    key: str  # "A", "B", ... (groups), "CL", "KO"
    title: str
    kind: str  # "league" or "knockout"
    teams: list[str]
    days: list[list[Encounter]]  # match days (knockout: rounds)
    byes: list[str | None] = field(default_factory=list)  # who sits out on each match day
    outcomes: dict[str, Outcome] = field(default_factory=dict)
    table: list[TeamLine] = field(default_factory=list)
    places: list[tuple[int, str]] = field(default_factory=list)  # knockout: (place, team) once known

    @property
    def encounters(self) -> list[Encounter]:
        return [encounter for day in self.days for encounter in day]

    @property
    def complete(self) -> bool:
        return bool(self.days) and all(self.outcomes[e.key].complete for e in self.encounters) and (
            self.kind != "knockout" or len(self.days) == len(KNOCKOUT_ROUNDS[len(self.teams)]))

    def ranking(self) -> list[str]:
        return [line.team for line in self.table] if self.kind == "league" else [team for _, team in self.places]


@dataclass
class Plan:
    stages: list[Stage]
    slots: list[Slot]
    complete: bool
    encounter_of: dict[str, str]  # game key -> encounter key


def check(names: list[str], fmt: str, games: int, seats: int, group_size: int, advance: int) -> None:
    """ScheduleError naming what cannot make this league (one line each)."""
    if fmt not in LEAGUE_FORMATS:
        raise ScheduleError(f"--format {fmt!r}: accepted are roundrobin, gauntlet, {', '.join(LEAGUE_FORMATS)}")
    if len(set(names)) != len(names):
        raise ScheduleError(f"--bot names must differ: {', '.join(names)}")
    if seats != 2:
        raise ScheduleError(f"--format {fmt}: the contest's formats are for two-player games; this game has {seats} seats")
    if games < 2 or games % 2:
        raise ScheduleError(f"--games-per-encounter {games}: must be a positive even number (the seats swap), "
                            f"e.g. {GAMES_PER_ENCOUNTER} as the contest plays")
    if group_size < 2:
        raise ScheduleError(f"--group-size {group_size}: must be 2 or more (the contest: about {GROUP_SIZE})")
    if advance < 2:
        raise ScheduleError(f"--advance {advance}: must be 2 or more (the contest: {ADVANCE})")
    if fmt == "final-eight" and len(names) not in KNOCKOUT_ROUNDS:
        raise ScheduleError(f"--format final-eight needs 8 teams (or 4: semi-finals on), got {len(names)}; "
                            f"the order of --bot is the seeding")
    if fmt == "contest" and len(names) < FINALISTS:
        raise ScheduleError(f"--format contest needs at least {FINALISTS} teams for its Final Eight, got {len(names)}")
    if len(names) < 2:
        raise ScheduleError(f"a tournament needs at least 2 bots, got {len(names)}")
    if fmt == "contest" and _champions_size(len(names), group_size, advance) < FINALISTS:
        raise ScheduleError(f"--advance {advance}: the Champions League would have fewer than {FINALISTS} teams "
                            f"for the Final Eight")


def _rng(seed: int, *parts) -> random.Random:
    return random.Random("swc-league/" + "/".join(map(str, (seed, *parts))))


def draw_groups(names: list[str], group_size: int, seed: int) -> list[list[str]]:
    """Groups of about ``group_size`` (sizes differ by one at most), drawn with the seed."""
    teams = list(names)
    _rng(seed, "groups").shuffle(teams)
    count = max(1, math.ceil(len(teams) / group_size))
    return [teams[i::count] for i in range(count)]


def _champions_size(teams: int, group_size: int, advance: int) -> int:
    count = max(1, math.ceil(teams / group_size))
    sizes = [len(range(i, teams, count)) for i in range(count)]
    return sum(min(size, advance) for size in sizes)


def match_days(teams: list[str], seed: int, stage: str) -> tuple[list[list[tuple[str, str]]], list[str | None]]:
    """The circle method: (each match day's pairs (home, away), who sits out each day).

    Every pair meets once over the ``n - 1`` days (``n`` the teams, one more when odd: the
    "team" that sits out); the first team of the shuffled order stays, the others turn. Home
    alternates for the fixed team by day and for the others by their place in the circle, so
    each team starts about half of its encounters.
    """
    order = list(teams)
    _rng(seed, stage, "order").shuffle(order)
    circle: list[str | None] = order + ([None] if len(order) % 2 else [])
    n = len(circle)
    days, byes = [], []
    for day in range(n - 1):
        pairs, bye = [], None
        for i in range(n // 2):
            a, b = circle[i], circle[n - 1 - i]
            if a is None or b is None:
                bye = a if b is None else b
                continue
            if (i == 0 and day % 2) or (i > 0 and i % 2):
                a, b = b, a
            pairs.append((a, b))
        days.append(pairs)
        byes.append(bye)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return days, byes


def victory_points(result: GameResult, team: str) -> int:
    """The game's victory points of ``team``: 2 won, 1 drawn, 0 lost or without a result."""
    if not result.ok:
        return 0
    mine = result.seat_of(team)
    others = [seat.rank for seat in result.seats if seat is not mine]
    if all(mine.rank < rank for rank in others):
        return 2
    return 1 if all(mine.rank <= rank for rank in others) else 0


def game_points(result: GameResult, team: str) -> float:
    """The points ``team`` reached at the end of the game (see the conformance notes)."""
    if not result.ok:
        return 0.0
    score = result.seat_of(team).score
    part = 1 if result.score_names and result.score_names[0] in VICTORY_PART_NAMES else 0
    try:
        return float(score[part])
    except (IndexError, ValueError):
        return 0.0


def outcome_of(encounter: Encounter, results: dict[str, GameResult], seed: int, knockout: bool) -> Outcome:
    teams = (encounter.home, encounter.away)
    found = Outcome(encounter, wins={t: 0 for t in teams}, victory={t: 0 for t in teams},
                    game_points={t: 0.0 for t in teams})
    for key in encounter.games:
        result = results.get(key)
        if result is None:
            continue
        found.played += 1
        if not result.ok:
            found.no_result += 1
            continue
        for team in teams:
            points = victory_points(result, team)
            found.victory[team] += points
            found.game_points[team] += game_points(result, team)
            if points == 2:
                found.wins[team] += 1
        if all(victory_points(result, team) == 1 for team in teams):
            found.draws += 1
    if not found.complete:
        return found
    home, away = (found.wins[t] for t in teams)
    if home != away:
        found.winner, found.decided_by = (encounter.home if home > away else encounter.away), "wins"
    elif knockout:
        a, b = (found.game_points[t] for t in teams)
        if a != b:
            found.winner, found.decided_by = (encounter.home if a > b else encounter.away), "game points"
        else:
            found.winner, found.decided_by = _rng(seed, encounter.key, "lot").choice(teams), "lot"
    return found


def table(stage: Stage, seed: int) -> list[TeamLine]:
    """The standings of a league stage: points, then victory points, then the seeded lot."""
    lines = {team: TeamLine(team) for team in stage.teams}
    for bye in stage.byes[:_days_done(stage)]:
        if bye is not None:
            lines[bye].sat_out += 1
    for encounter in stage.encounters:
        outcome = stage.outcomes[encounter.key]
        if not outcome.complete:
            continue
        for team in (encounter.home, encounter.away):
            line = lines[team]
            line.points += outcome.points(team)
            line.victory += outcome.victory[team]
            line.games += outcome.played - outcome.no_result
            line.games_won += outcome.wins[team]
            if outcome.winner is None:
                line.drawn += 1
            elif outcome.winner == team:
                line.won += 1
            else:
                line.lost += 1
    lot = {team: _rng(seed, stage.key, "lot", team).random() for team in stage.teams}
    ordered = sorted(lines.values(), key=lambda line: (-line.points, -line.victory, lot[line.team]))
    for rank, line in enumerate(ordered, start=1):
        line.rank = rank
    for before, after in zip(ordered, ordered[1:]):
        if (before.points, before.victory) == (after.points, after.victory):
            before.lot = after.lot = True
    return ordered


def _days_done(stage: Stage) -> int:
    """Match days whose encounters are all complete (a sit-out counts once its day is played)."""
    done = 0
    for day in stage.days:
        if all(stage.outcomes[e.key].complete for e in day):
            done += 1
    return done


class _Builder:
    """Makes the slots of each stage in order; indices follow the order the stages are known."""

    def __init__(self, games: int, seed: int, results: dict[str, GameResult]) -> None:
        self.games, self.seed, self.results = games, seed, results
        self.slots: list[Slot] = []
        self.encounter_of: dict[str, str] = {}
        self.boards: dict[tuple, int] = {}

    def board(self, stage: str, day: int, pair: int) -> int:
        """Board ``pair`` of a match day: the same for every encounter of that day."""
        key = (stage, day, pair)
        if key not in self.boards:
            self.boards[key] = _rng(self.seed, stage, day, "board", pair).getrandbits(31)
        return self.boards[key]

    def encounter(self, stage: str, day: int, home: str, away: str, title: str = "") -> Encounter:
        key = f"{stage}/d{day}/{home}~{away}"
        keys = []
        for game in range(self.games):
            pair = game // 2
            seating = (home, away) if game % 2 == 0 else (away, home)
            slot_key = f"{key}/{game}"
            board = self.board(stage, day, pair)
            self.slots.append(Slot(
                key=slot_key, index=len(self.slots), block=f"{key}/p{pair}", pairing=(home, away), seating=seating,
                seed=board, bot_seeds=tuple(bot_seed(self.seed, name, slot_key) for name in seating)))
            self.encounter_of[slot_key] = key
            keys.append(slot_key)
        return Encounter(key, stage, day, home, away, tuple(keys), title)

    def league(self, key: str, title: str, teams: list[str]) -> Stage:
        days, byes = match_days(teams, self.seed, key)
        stage = Stage(key, title, "league", list(teams), [], byes)
        for number, pairs in enumerate(days, start=1):
            stage.days.append([self.encounter(key, number, home, away) for home, away in pairs])
        self._judge(stage)
        stage.table = table(stage, self.seed)
        return stage

    def knockout(self, seeds: list[str]) -> Stage:
        stage = Stage("KO", "Final Eight" if len(seeds) == 8 else "Final Four", "knockout", list(seeds), [])
        if len(seeds) == 8:
            pairs = [(seeds[0], seeds[7]), (seeds[3], seeds[4]), (seeds[1], seeds[6]), (seeds[2], seeds[5])]
        else:
            pairs = [(seeds[0], seeds[3]), (seeds[1], seeds[2])]
        rounds = KNOCKOUT_ROUNDS[len(seeds)]
        out: list[tuple[int, str]] = []
        for number, name in enumerate(rounds, start=1):
            if name == "finals":
                (a, b) = pairs
                titled = [self.encounter("KO", number, *b, title="third place"),
                          self.encounter("KO", number, *a, title="final")]
            else:
                single = name[:-1]
                titled = [self.encounter("KO", number, home, away, title=f"{single} {i}")
                          for i, (home, away) in enumerate(pairs, start=1)]
            stage.days.append(titled)
            self._judge(stage)
            outcomes = [stage.outcomes[e.key] for e in titled]
            if not all(o.complete for o in outcomes):
                break
            if name == "finals":
                third, final = outcomes
                stage.places = [(1, final.winner), (2, final.loser), (3, third.winner), (4, third.loser), *out]
                break
            if name == "quarter-finals":  # their losers share 5th place; the semi-finals' play for 3rd
                out = [(5, o.loser) for o in outcomes]
            winners, losers = [o.winner for o in outcomes], [o.loser for o in outcomes]
            pairs = ([(winners[0], winners[1]), (winners[2], winners[3])] if len(winners) == 4
                     else [tuple(winners), tuple(losers)])
        return stage

    def _judge(self, stage: Stage) -> None:
        for encounter in stage.encounters:
            if encounter.key not in stage.outcomes or not stage.outcomes[encounter.key].complete:
                stage.outcomes[encounter.key] = outcome_of(encounter, self.results, self.seed, stage.kind == "knockout")


def plan(names: list[str], fmt: str, games: int, seed: int, results: dict[str, GameResult], *,
         group_size: int = GROUP_SIZE, advance: int = ADVANCE) -> Plan:
    """Every stage and game known from ``results`` (game key -> result of the games stored)."""
    build = _Builder(games, seed, results)
    stages: list[Stage] = []

    def finish(complete: bool) -> Plan:
        return Plan(stages, build.slots, complete, build.encounter_of)

    if fmt == "final-eight":
        stages.append(build.knockout(list(names)))
        return finish(stages[-1].complete)
    groups = draw_groups(names, group_size, seed)
    for number, teams in enumerate(groups):
        letter = chr(ord("A") + number) if number < 26 else f"G{number + 1}"
        stages.append(build.league(letter, f"Group {letter}" if len(groups) > 1 else "Championship", teams))
    if fmt == "league" or not all(stage.complete for stage in stages):
        return finish(fmt == "league" and all(stage.complete for stage in stages))
    best = [team for _, _, team in sorted((line.rank, i, line.team) for i, stage in enumerate(stages)
                                          for line in stage.table if line.rank <= advance)]
    champions = build.league("CL", "Champions League", best)
    stages.append(champions)
    if fmt == "champions" or not champions.complete:
        return finish(fmt == "champions" and champions.complete)
    stages.append(build.knockout(champions.ranking()[:FINALISTS]))
    return finish(stages[-1].complete)
