"""What ``swc rate`` shows: the live progress while it plays (standard error) and the rating at
the end (text, or ``--json``).

On a terminal the progress is a rich bar with the current estimate, redrawn in place and
cleared at the end; elsewhere (a CI log) one plain line per game, e.g.::

    game 6/20 vs search-short (bot second): lost | Elo +310 (95 %: +80 .. +560)
"""

from __future__ import annotations

import math
import sys

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeElapsedColumn

from swc_local.tools.rate import Played, Session
from swc_local.tools.rating import Rating
from swc_local.tools.results import REGULAR

OUTCOME = {1.0: "won", 0.5: "draw", 0.0: "lost"}


class Progress:
    def __init__(self, session: Session, console: Console | None = None, plain=None) -> None:
        self.session = session
        self.console = console or Console(stderr=True)
        self.plain = plain if plain is not None else sys.stderr
        self.bar = Bar(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                       TextColumn("{task.description}"), console=self.console, transient=True)
        self.task = self.bar.add_task("", total=session.games)

    def __enter__(self) -> "Progress":
        if self.console.is_terminal:
            self.bar.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self.console.is_terminal:
            self.bar.__exit__(*exc)

    def on_game(self, played: Played) -> None:
        rating = self.session.rating()
        estimate = f"Elo {rating.text()}" if rating is not None else "Elo: no result yet"
        if self.console.is_terminal:
            self.bar.update(self.task, completed=len(self.session.played), description=estimate)
            return
        print(f"game {len(self.session.played)}/{self.session.games} {game_words(played)} | {estimate}",
              file=self.plain, flush=True)


def game_words(played: Played) -> str:
    """``vs greedy (bot first): won``, with the cause when the bot's game did not end by the rules."""
    outcome = "no result" if played.score is None else OUTCOME.get(played.score, f"{played.score:g}")
    words = f"vs {played.rung} (bot {'first' if played.seat == 0 else 'second'}): {outcome}"
    if played.cause != REGULAR:
        words += f" ({played.cause}{': ' + first_line(played.reason) if played.reason else ''})"
    return words


def first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text and text.strip() else ""


def per_rung(session: Session) -> list[dict]:
    rows = []
    for rung in session.ladder.rungs:
        games = [p for p in session.played if p.rung == rung.rung and p.score is not None]
        if games:
            rows.append({"rung": rung.rung, "elo": rung.elo, "games": len(games),
                         "points": sum(p.score for p in games)})
    return rows


def bracket(session: Session, rating: Rating):
    """The rungs directly below and above the bot, and which of them it has not met.

    Around its Elo; but a bot that won (lost) every game has no Elo, only a bound, and its place
    is known from its games: above the strongest rung it beat (below the weakest rung it lost
    to).  The ladder's next rung beyond that one is named as not met yet (a short rating may
    not have reached it), never guessed from the bound."""
    if not rating.one_sided:
        return (*session.ladder.neighbours(rating.elo), None)
    ordered = sorted(session.ladder.rungs, key=lambda r: r.elo)
    met = [r for r in ordered if any(p.rung == r.rung and p.score is not None for p in session.played)]
    if rating.elo > 0:
        beaten = met[-1]
        beyond = next((r for r in ordered if r.elo > beaten.elo), None)
        return beaten, beyond, beyond
    lost_to = met[0]
    beyond = next((r for r in reversed(ordered) if r.elo < lost_to.elo), None)
    return beyond, lost_to, beyond


def _number(value: float) -> float | None:
    return round(value, 1) if math.isfinite(value) else None


def report_json(session: Session, signalled: str | None = None) -> dict:
    rating = session.rating()
    below, above, unmet = bracket(session, rating) if rating is not None else (None, None, None)
    return {
        "game": session.game, "bot": session.command if isinstance(session.command, str) else list(session.command),
        "seed": session.seed, "games": session.games, "played": len(session.played),
        "rated": rating.games if rating else 0,
        "elo": _number(rating.elo) if rating else None,
        "low": _number(rating.low) if rating else None,
        "high": _number(rating.high) if rating else None,
        "one_sided": ("won every game" if rating.elo > 0 else "lost every game") if rating and rating.one_sided else None,
        "below": {"rung": below.rung, "elo": below.elo} if below else None,
        "above": {"rung": above.rung, "elo": above.elo} if above else None,
        "not_met": unmet.rung if unmet else None,
        "against": per_rung(session),
        "irregular": [{"game": p.index, "rung": p.rung, "cause": p.cause, "reason": p.reason}
                      for p in session.played if p.cause != REGULAR],
        "ladder": {"measured": session.ladder.measured, "games": session.ladder.games,
                   "rungs": [{"rung": r.rung, "elo": r.elo, "low": r.low, "high": r.high} for r in session.ladder.rungs]},
        "stopped": signalled,
    }


def _rung_words(rung, ladder) -> str:
    if rung.rung == "random":
        return "random (0, the scale's anchor)"
    return f"{rung.rung} ({rung.elo:+.0f}, 95 %: {rung.low:+.0f} .. {rung.high:+.0f})"


def report_text(session: Session, signalled: str | None = None) -> str:
    rating: Rating | None = session.rating()
    ladder = session.ladder
    lines = [f"swc rate: {session.game}, {len(session.played)} of {session.games} games, seed {session.seed}"]
    if rating is None:
        lines.append("no game ended with a result: no rating")
    else:
        lines.append(f"Elo {rating.text()} on the ladder's scale (random = 0), from {rating.games} games")
        below, above, unmet = bracket(session, rating)
        not_met = ", not met yet: more games tell" if unmet is not None else ""
        if below is not None:
            lines.append(f"  the rung below: {_rung_words(below, ladder)}{not_met if below is unmet else ''}")
        if above is not None:
            lines.append(f"  the rung above: {_rung_words(above, ladder)}{not_met if above is unmet else ''}")
        if above is None:
            lines.append("  above the ladder's top rung: the ladder cannot tell how much stronger")
        elif below is None:
            lines.append("  below the ladder's lowest rung")
    for row in per_rung(session):
        lines.append(f"  vs {row['rung']}: {row['points']:g} of {row['games']} points")
    irregular = [p for p in session.played if p.cause != REGULAR]
    if irregular:
        lines.append("games that did not end regularly for the bot:")
        lines += [f"  game {p.index + 1} {game_words(p)}" for p in irregular]
    lines.append(f"the ladder: calibrated {ladder.measured} from {ladder.games} games; "
                 "the rungs' own intervals come on top of the bot's")
    if signalled:
        lines.append(f"stopped by {signalled} after {len(session.played)} games")
    return "\n".join(lines)
