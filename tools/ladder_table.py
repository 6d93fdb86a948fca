"""The ladder's Elo table of every calibrated game: what ``swc rate`` rates against, in
``tools/ladder_elo.json``; written by the calibration (``python -m benchmarks.ladder --game G``),
which also writes the same table into the game's docs page between :data:`START` and :data:`END`.

Why one JSON file in the tools layer: the numbers are measurements, not knowledge of a game
(the games layer) nor of how a rung plays (client/ladder.py), and only the tools read them
(``swc rate``, its docs); one file keyed by game type is rewritten by the benchmark without
touching code, ships as package data (pyproject's ``"*.json"``), and its diff in a commit shows
exactly which game was recalibrated.  A game missing from it is *not calibrated*: ``swc rate``
says so rather than inventing numbers.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path

from swc_local.tools.rating import Rating

DEFAULT_FILE = Path(__file__).with_name("ladder_elo.json")
START = "<!-- ladder-elo:start -->"
END = "<!-- ladder-elo:end -->"
MIN_GAP = 100.0  # issue 45: neighbouring rungs at least this far apart
MAX_GAP_HALF_WIDTH = 50.0  # issue 45: each gap between neighbours known to this (95 %) or better


class LadderError(Exception):
    """No usable table (one line for the CLI)."""


@dataclass(frozen=True)
class RungElo:
    rung: str
    elo: float
    low: float
    high: float


@dataclass
class Ladder:
    """One game's calibrated rungs (weakest first) and how they were measured."""

    game: str
    rungs: list[RungElo]
    games: int = 0  # games of the calibration with a result
    scheduled: int = 0  # games its schedule has (more than ``games``: a run stopped early, fitted as it was)
    games_per_pairing: int = 0
    seed: int | None = None
    measured: str = ""  # date and commit
    command: str = ""  # the command that reproduces it
    one_sided: list[str] = field(default_factory=list)  # "a beat b in every game" notes
    pairs: dict[str, str] = field(default_factory=dict)  # "a~b" -> "7.5-2.5" (a's points, b's)
    gap95: dict[str, float] = field(default_factory=dict)  # "a~b" (neighbours) -> half the 95 % interval of b - a

    def elo_of(self, rung: str) -> float:
        return next(r.elo for r in self.rungs if r.rung == rung)

    def neighbours(self, elo: float) -> tuple[RungElo | None, RungElo | None]:
        """The rungs directly below and above ``elo`` (None at either end of the ladder)."""
        below = [r for r in self.rungs if r.elo <= elo]
        above = [r for r in self.rungs if r.elo > elo]
        return (max(below, key=lambda r: r.elo) if below else None,
                min(above, key=lambda r: r.elo) if above else None)

    def gaps(self) -> list[tuple[str, str, float]]:
        """(lower, upper, Elo between them) of each neighbouring pair, by Elo."""
        ordered = sorted(self.rungs, key=lambda r: r.elo)
        return [(a.rung, b.rung, b.elo - a.elo) for a, b in zip(ordered, ordered[1:])]

    def to_dict(self) -> dict:
        data = asdict(self)
        data.pop("game")
        return data

    @classmethod
    def from_dict(cls, game: str, data: dict) -> "Ladder":
        rungs = [RungElo(**rung) for rung in data["rungs"]]
        rest = {k: v for k, v in data.items() if k in cls.__dataclass_fields__ and k not in ("rungs", "game")}
        return cls(game=game, rungs=rungs, **rest)

    @classmethod
    def from_fit(cls, game: str, order: list[str], fitted: dict[str, Rating], **info) -> "Ladder":
        return cls(game, [RungElo(name, round(fitted[name].elo, 1), round(fitted[name].low, 1),
                                  round(fitted[name].high, 1)) for name in order if name in fitted], **info)


def read_all(path: Path = DEFAULT_FILE) -> dict[str, dict]:
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise LadderError(f"{path}: not a ladder table ({error})") from None
    if not isinstance(data, dict) or not isinstance(data.get("games", {}), dict):
        raise LadderError(f"{path}: not a ladder table (expected {{\"games\": {{GAME: ...}}}})")
    return data.get("games", {})


def load(game: str, path: Path = DEFAULT_FILE) -> Ladder | None:
    """The calibrated ladder of the game type ``game``, or None when it is not calibrated."""
    found = read_all(path).get(game)
    if found is None:
        return None
    try:
        ladder = Ladder.from_dict(game, found)
    except (KeyError, TypeError) as error:
        raise LadderError(f"{path}: the entry of {game} is not a ladder ({error})") from None
    if not ladder.rungs:
        return None
    return ladder


def save(ladder: Ladder, path: Path = DEFAULT_FILE) -> None:
    """Write ``ladder`` into the table at ``path``, the other games' entries kept."""
    games = read_all(path)
    games[ladder.game] = ladder.to_dict()
    text = json.dumps({"games": dict(sorted(games.items()))}, indent=1, ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")


def markdown(ladder: Ladder) -> str:
    """The docs table (between the markers): each rung's Elo, interval and gap to the one below."""
    lines = ["| rung | Elo (random = 0) | 95 % interval | above the rung below (95 %) |", "|---|---|---|---|"]
    below: RungElo | None = None
    for rung in sorted(ladder.rungs, key=lambda r: r.elo):
        interval = "the anchor of the scale" if rung.rung == "random" else f"{rung.low:+.0f} .. {rung.high:+.0f}"
        gap = ""
        if below is not None:
            step = rung.elo - below.elo
            half_gap = ladder.gap95.get(f"{below.rung}~{rung.rung}")
            gap = f"{step:+.0f}{f' ± {half_gap:.0f}' if half_gap is not None else ''} " \
                  f"{'✓' if step >= MIN_GAP else '✗ (under ' + str(int(MIN_GAP)) + ')'}"
        lines.append(f"| {rung.rung} | {rung.elo:+.0f} | {interval} | {gap} |")
        below = rung
    half = max((r.high - r.low) / 2 for r in ladder.rungs if r.rung != "random") if len(ladder.rungs) > 1 else math.nan
    size = f"{ladder.games} games" if ladder.games >= ladder.scheduled else \
        f"{ladder.games} of the {ladder.scheduled} games scheduled: a run stopped early, whose pairs stay " \
        "balanced as it plays block by block"
    scores = "; ".join(f"{pair.replace('~', ' vs ')} {score}" for pair, score in ladder.pairs.items())
    widest_gap = max(ladder.gap95.values(), default=math.nan)
    if widest_gap <= MAX_GAP_HALF_WIDTH:
        rerun = f"Every gap between neighbours is known to ±{MAX_GAP_HALF_WIDTH:.0f} Elo or better (95 %). Rerun"
    else:
        rerun = f"Rerun, larger for narrower intervals (the widest gap between neighbours is ±{widest_gap:.0f}; " \
                f"the ladder wants ±{MAX_GAP_HALF_WIDTH:.0f} or better)"
    how = "a round robin of the rungs, then runs of two neighbouring rungs at a time (--until)" \
        if " --until " in ladder.command else "a round robin of the rungs"
    lines += ["", f"Measured {ladder.measured}: {how} ({size}, seats swapped in pairs), all "
                  f"pairs fitted jointly (tools/rating.py); the widest interval is ±{half:.0f} Elo. Scores: {scores}. "
                  f"{rerun}: `{ladder.command}`"
                  + (" (benchmarks/README.md says which runs filled the --also databases)." if "--also" in ladder.command
                     else ".")]
    if ladder.one_sided:
        lines += ["", "Pairs that went all one way (their gap in the fit comes from the prior of one virtual draw, "
                      "so the true gap is likely larger): " + "; ".join(ladder.one_sided) + "."]
    return "\n".join(lines)


def write_page(page: Path, ladder: Ladder) -> None:
    """Put the table between the markers of ``page`` (a section at its end the first time; a page
    that does not exist yet, such as ``benchmarks.ladder --page`` of a calibration kept apart, is
    made with the section alone)."""
    text = page.read_text(encoding="utf-8") if page.exists() else ""
    block = f"{START}\n{markdown(ladder)}\n{END}"
    if START in text and END in text:
        head, rest = text.split(START, 1)
        text = head + block + rest.split(END, 1)[1]
    else:
        head = text.rstrip("\n") + "\n\n" if text.strip() else ""
        text = head + "## The ladder's Elo\n\nThe rungs of `swc rate`'s ladder in this game " \
               "(docs/manual/rate.md says how to read them).\n\n" + block + "\n"
    page.write_text(text, encoding="utf-8")
