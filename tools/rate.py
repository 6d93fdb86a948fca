"""``swc rate``'s games: a bot against its game's calibrated ladder, adaptively, through the
one match runner (tools/runner.py), and its Elo on the ladder's scale (tools/rating.py).

How the games are chosen (the *adaptive* part): the games come in rounds of
:data:`ROUND_PAIRS` game pairs (one board, seats swapped).  Before each round the bot's Elo is
estimated from the games so far and the round plays one pair against the rung directly below
the estimate and one against the rung directly above it: the opponents whose results tell the
most (a game against a rung far stronger or weaker is nearly a certain result and says little).
At either end of the ladder both pairs go to the last rung.

Why a *steering* estimate with a prior: before the first game, and while a bot has won (or lost)
everything, the maximum-likelihood Elo is undefined or infinite; the choice uses the maximum
likelihood with one virtual draw against the middle of the ladder added, so it starts in the
middle and climbs (or falls) a rung or so per round.  The reported Elo has no prior.

Determinism: the rounds' size does not depend on ``--parallel``, the boards and every seat's
``{seed}`` come from ``--seed``, and a round is chosen only from finished rounds; so with bots
that are deterministic from their seeds the same ``--seed`` plays the same games and gives the
same number, at any ``--parallel`` (up to a round's games run at once).

Resuming (the archives page's Resume, tools/archive_rating.py): a :class:`Session` given the
games a stopped rating played (``played``) and its seed walks the same rounds again, each chosen
from the games of the rounds before it, and plays only the games missing; so a bot that is
deterministic from its seeds gets the same games, in the same seats against the same rungs on
the same boards, as a rating that was never stopped.  A game cut off mid-play left no result and
is played again from its start, with its own seeds.

:func:`calibrated_ladder` is the one check that a game can be rated (``swc rate`` and the
archives page, tools/archive_rating.py, say the same line when it cannot).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from swc_local.tools import ladder_table, runner
from swc_local.tools.ladder_table import Ladder
from swc_local.tools.rating import Rating, Result, rate
from swc_local.tools.results import GameResult
from swc_local.tools.tournament.standings import pair_score

ROUND_PAIRS = 2
BOT = "bot"  # the rated bot's name in the games (the rungs play under their own names)


class NotRatable(Exception):
    """The game has no usable ladder to rate on (one line)."""


def calibrated_ladder(entry, path=None) -> tuple[Ladder, dict[str, list[str]]]:
    """The calibrated ladder of the registry ``entry``'s game from the table at ``path`` (None:
    tools/ladder_elo.json) and each rung's command; :class:`NotRatable` with one line when the
    game is not calibrated, the table is broken or names a rung the game does not offer."""
    from swc_local.client import ladder as rungs_of

    try:
        found = ladder_table.load(entry.game_type, path or ladder_table.DEFAULT_FILE)
    except ladder_table.LadderError as error:
        raise NotRatable(str(error)) from None
    if found is None:
        raise NotRatable(f"the ladder of {entry.title or entry.name} is not calibrated yet, so there is no scale to "
                         f"rate on (python -m benchmarks.ladder --game {entry.name} calibrates it)")
    offered = rungs_of.rungs(entry)
    missing = [rung.rung for rung in found.rungs if rung.rung not in offered]
    if missing:
        raise NotRatable(f"the ladder table names {', '.join(missing)}, which {entry.name} does not offer "
                         f"({', '.join(offered)})")
    return found, {rung.rung: rungs_of.command(entry, rung.rung) for rung in found.rungs}


@dataclass(frozen=True)
class Played:
    """One game of the bot: against ``rung``, in ``seat`` (0 or 1); ``score`` None when the game
    ended without a result; ``cause``/``reason`` the bot's seat's (a crash, a timeout...)."""

    index: int
    rung: str
    seat: int
    score: float | None
    cause: str
    reason: str | None = None
    replay: str | None = None


def steering_elo(ladder: Ladder, played: list[Played]) -> float:
    """The estimate the next round is chosen from (see the module's notes)."""
    elos = [rung.elo for rung in ladder.rungs]
    middle = (min(elos) + max(elos)) / 2
    results = [Result(middle, 0.5)] + [Result(ladder.elo_of(p.rung), p.score) for p in played if p.score is not None]
    return rate(results).elo


def next_round(ladder: Ladder, played: list[Played]) -> list[str]:
    """The rungs of the next round's pairs: the one directly below and the one directly above the
    steering estimate (the same rung twice at an end of the ladder)."""
    below, above = ladder.neighbours(steering_elo(ladder, played))
    if below is None or above is None:
        only = (below or above).rung
        return [only] * ROUND_PAIRS
    return [below.rung, above.rung]


def board_seed(seed: int, pair: int) -> int:
    return random.Random(f"swc-rate/{seed}/board/{pair}").getrandbits(31)


def player_seed(seed: int, who: str, game: int) -> int:
    return random.Random(f"swc-rate/{seed}/{who}/{game}").getrandbits(31)


@dataclass
class Session:
    """One rating run: the settings, the ladder, the games played so far."""

    game: str  # game type
    command: str | list[str]
    ladder: Ladder
    rung_commands: dict[str, list[str]]
    games: int
    seed: int
    parallel: int = 1
    start_timeout: float = 15.0
    game_timeout: float = 900.0
    replays: object = None  # a Path, or None
    logs: object = None
    sandboxed: dict = field(default_factory=dict)  # BOT -> its sandbox's Limits, when the bot runs sandboxed
    played: list[Played] = field(default_factory=list)  # the games so far (a resumed rating: those it had)

    def rating(self) -> Rating | None:
        results = [Result(self.ladder.elo_of(p.rung), p.score) for p in self.played if p.score is not None]
        return rate(results) if results else None

    def specs(self, first_pair: int, rungs: list[str]) -> list[runner.GameSpec]:
        specs = []
        for offset, rung in enumerate(rungs):
            pair = first_pair + offset
            for seat in (0, 1):
                index = 2 * pair + seat
                if index >= self.games:
                    break
                players = [(BOT, self.command), (rung, self.rung_commands[rung])]
                if seat:
                    players.reverse()
                seeds = {BOT: player_seed(self.seed, BOT, index), rung: player_seed(self.seed, rung, index)}
                specs.append(runner.GameSpec(
                    game=self.game, index=index, seed=board_seed(self.seed, pair), players=players,
                    replays=self.replays, logs=self.logs, start_timeout=self.start_timeout,
                    game_timeout=self.game_timeout, seat_seeds=tuple(seeds[name] for name, _ in players),
                    sandboxed=dict(self.sandboxed)))
        return specs

    def record(self, result: GameResult) -> Played:
        names = [seat.name for seat in result.seats]
        seat = names.index(BOT)
        mine, theirs = result.seats[seat], result.seats[1 - seat]
        played = Played(result.index, theirs.name, seat,
                        pair_score(mine.rank, theirs.rank) if result.ok else None,
                        mine.cause if result.ok else "NO_RESULT",
                        mine.reason if result.ok else result.error, result.replay)
        self.played.append(played)
        return played

    async def run(self, on_game: Callable[[Played], None] | None = None,
                  on_round: Callable[[list[runner.GameSpec]], None] | None = None) -> None:
        """Play every round (a command that cannot play raises runner.CommandError);
        ``on_round`` sees each round's games before they start (the page shows whom it plays).
        Games already in ``played`` are not played again (see the module's notes on resuming)."""
        pair = 0
        while 2 * pair < self.games:
            before = [p for p in self.played if p.index < 2 * pair]  # the rounds before: all of played, unless resumed
            rungs = next_round(self.ladder, before)
            done = {p.index for p in self.played}
            specs = [spec for spec in self.specs(pair, rungs) if spec.index not in done]
            pair += len(rungs)
            if not specs:
                continue
            if on_round is not None:
                on_round(specs)

            def on_result(result: GameResult) -> None:
                played = self.record(result)
                if on_game is not None:
                    on_game(played)

            await runner.play_games(specs, parallel=max(1, min(self.parallel, len(specs))), on_result=on_result)
            self.played.sort(key=lambda p: p.index)  # the next round sees the same list at any --parallel
