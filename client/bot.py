"""The XML seasons' reference bot, written on the client library (:mod:`swc_local.client.client`).

It works for every XML season: on each move request it rebuilds the game from the last memento
(``plugin.game_from_state``) and answers with the move of its rung on the game's ladder
(client/ladder.py: by default a uniformly random legal move) drawn from its own
``random.Random(seed)``, so a seeded bot on a seeded board plays the same game again.

It runs as ``swc bot GAME`` and as ``python -m swc_local.client.bot GAME`` (:func:`main`, the
command client/ladder.py gives every XML season's reference bot): the client layer names no
tools module, and a bot process imports neither the tools nor the server.
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
from dataclasses import dataclass

from swc_local.games.plugin import GamePlugin
from swc_local.protocol.element import Element
from swc_local.client.client import Client, WrongGame
from swc_local.client.mixed_rungs import unmixed
from swc_local.client.messages import Closed, Error, Joined, Memento, MoveRequest, Result, Welcome, seat_of

log = logging.getLogger("swc.bot")

def choose_move(plugin: GamePlugin, game, rng: random.Random, strategy: str = "random"):
    """The bot's answer to a move request on the ladder's rung ``strategy`` (client/ladder.py):
    ``plugin.random_move``; greedy: ``plugin.greedy_move`` where the season has its own, else one
    ply on its strategy's evaluation; greedy-N: one or the other (``mixed_rungs.unmixed``);
    search-short and search-long: client/search.py with the season's strategy module and the
    rung's node budget."""
    strategy = unmixed(strategy, rng)
    if strategy == "random":
        return plugin.random_move(game, rng)
    if strategy == "greedy" and hasattr(plugin, "greedy_move"):
        return plugin.greedy_move(game, rng)
    from swc_local.client import ladder
    return ladder.choose(plugin.entry.strategy, strategy, game, rng)


@dataclass
class BotReport:
    """What one game looked like from the bot's seat."""

    room_id: str | None = None
    color: str | None = None
    moves: int = 0  # the game's moves, both players' (as swc replay counts them)
    own_moves: int = 0  # the bot's own
    result: Element | None = None  # the <data class="result"> element
    outcome: Result | None = None  # the same, typed
    error: str | None = None
    stuck: object | None = None  # the game as the bot saw it when it had no legal move (error "no legal move")


async def play_game(
    plugin: GamePlugin,
    host: str = "localhost",
    port: int = 13050,
    reservation: str | None = None,
    seed: int | None = None,
    strategy: str = "random",
) -> BotReport:
    """Join (or joinPrepared) one game, play it with ``strategy``'s moves, and return what happened."""
    rng = random.Random(seed)
    report = BotReport()
    async with await Client.connect(host, port, plugin) as client:
        if reservation:
            await client.join_prepared(reservation)
        else:
            await client.join()
        try:
            await _play(client, plugin, rng, report, reservation, strategy)
        except WrongGame as error:
            report.error = str(error)
    return report


async def _play(client: Client, plugin: GamePlugin, rng: random.Random, report: BotReport, reservation: str | None,
                strategy: str = "random") -> None:
    """The bot's half of one game: answer move requests until the result (fills ``report``).

    ``report.moves`` counts the moves of the game, both players', as ``swc replay`` counts them:
    every state after the first is one move (``own_moves`` are the bot's)."""
    states = 0
    async for message in client:
        if isinstance(message, (Joined, Welcome)):
            report.room_id = message.room_id
            report.color = client.color
        elif isinstance(message, Memento):
            states += 1
            report.moves = states - 1
        elif isinstance(message, MoveRequest) and client.memento is not None:
            move = choose_move(plugin, client.memento.game, rng, strategy)
            if move is None:  # the rules allow it: Hase und Igel 2025 when both hares are stuck (spec §4.7)
                report.error, report.stuck = "no legal move", client.memento.game
                log.info("no legal move in room %s; leaving", report.room_id)
                return
            report.own_moves += 1
            await client.send_move(move, message.room_id)
        elif isinstance(message, Result):
            report.outcome, report.result = message, message.element.find("data")
        elif isinstance(message, Error):
            report.error = message.message
            if report.room_id is None:  # a 2022+ server refused the join and keeps the line open
                return
        elif isinstance(message, Closed) and report.room_id is None:
            report.error = refusal(reservation)
    if report.outcome is None and report.error is None:
        report.error = "the server closed the connection"


def refusal(reservation: str | None) -> str:
    """Why the server closed on a bot before seating it.

    The classic server says only ``CloseConnection`` (its log has the reason); what was asked
    tells which refusal it was."""
    if reservation:
        return f"the server closed the connection: unknown or already used reservation code {reservation!r}"
    return "the server refused the join and closed the connection (see its log)"


def summary(report: BotReport) -> str:
    """``won as red after 61 moves in room R (31 its own): regular end (scores 2/8 against 0/8)``."""
    outcome = report.outcome
    own = seat_of(report.color or "red")
    verdict = "draw" if outcome.winner_seat is None else ("won" if outcome.winner_seat == own else "lost")
    scores = list(outcome.scores)
    why = "regular end"
    for seat, score in enumerate(scores):
        if score.cause != "REGULAR":
            why = f"{'own' if seat == own else 'opponent'} {score.cause}"
            break
    reason = next((score.reason for score in scores if score.reason), None)
    if reason:
        why += f": {reason}"
    if len(scores) == 2:
        why += f" (scores {'/'.join(scores[own].parts)} against {'/'.join(scores[1 - own].parts)})"
    return (f"{verdict} as {report.color} after {report.moves} moves in room {report.room_id} "
            f"({report.own_moves} its own): {why}")


def add_arguments(bot) -> None:
    """The arguments of ``swc bot GAME`` (and of ``python -m swc_local.client.bot GAME``)."""
    from swc_local.client.connection import port_argument
    from swc_local.games import registry

    bot.add_argument("game", help="game type or short name: " + ", ".join(registry.game_names()))
    bot.add_argument("--host", default="localhost")
    bot.add_argument("--port", type=port_argument, help="the server's port (default: the game's, 13050 for the XML games)")
    bot.add_argument("--reservation", help="reservation code of a prepared game (joinPrepared)")
    bot.add_argument("--seed", type=int, help="seed for the bot's random choices")
    bot.add_argument("--strategy", metavar="RUNG",
                     help="the bot's rung on the game's ladder: random, greedy, search-short, search-long (each "
                          "game offers those it has; an unknown one is an error naming them); default: the game's "
                          "reference bot")


def add_commands(commands) -> None:
    """``swc bot GAME`` (every game) and each client family's own commands (client/bots.py)."""
    from swc_local.client import bots
    from swc_local.games import registry

    bot = commands.add_parser("bot", help=f"play one game with the game's reference bot (any of the {len(registry.entries())} games)")
    add_arguments(bot)
    bot.set_defaults(run=_bot)
    for family in bots.FAMILIES:
        if family.add_commands is not None:
            family.add_commands(commands)


def _usage_error(message: str) -> int:
    """One plain line, as every ``swc`` command's errors read (server/cli.py ``usage_error``, which
    client/ may not import); exit status 2."""
    print(f"swc bot: error: {message}; see swc bot --help", file=sys.stderr, flush=True)
    return 2


def _bot(args) -> int:
    import trio

    from swc_local.client import bots, ladder
    from swc_local.games import registry

    game = registry.entry(args.game)
    if game is None:
        return _usage_error(registry.unknown_game_message(args.game))
    family = bots.family(game.family)
    if args.strategy is not None and args.strategy not in ladder.rungs(game):
        return _usage_error(f"--strategy {args.strategy!r}: the reference bot of {game.name} plays "
                            f"{', '.join(ladder.rungs(game))}")
    if family is not None:  # a game of another family: its own reference bot (client/bots.py)
        argv = [*family.rung_flags(args.strategy or family.default_rung), "--host", args.host]
        argv += ["--port", str(args.port)] if args.port is not None else []
        argv += ["--seed", str(args.seed)] if args.seed is not None else []
        return family.bot_main(argv)
    plugin = registry.get(game.game_type)
    args.port = 13050 if args.port is None else args.port
    report = None
    try:
        report = trio.run(play_game, plugin, args.host, args.port, args.reservation, args.seed, args.strategy or "random")
    except* OSError as errors:
        log.error("cannot connect to %s:%d: %s", args.host, args.port, errors.exceptions[0])
    except* KeyboardInterrupt:
        log.info("interrupted")
    if report is None:
        return 1
    if report.result is None or report.outcome is None:
        print(f"swc bot: no result: {report.error}", file=sys.stderr)
        return 1
    print(summary(report), flush=True)
    return 0


class _OneLineParser(argparse.ArgumentParser):
    """A usage error is one line and exit 2, as ``swc bot``'s (server/cli.py's parser, which
    client/ may not import)."""

    def error(self, message: str):
        self.exit(2, f"swc bot: error: {message}; see swc bot --help\n")


def main(argv: list[str] | None = None) -> int:
    """``python -m swc_local.client.bot GAME [--host H] [--port P] [--reservation R] [--seed S]
    [--strategy RUNG]``: ``swc bot GAME`` without the tools, the reference bot's command of every
    XML season (client/ladder.py ``XML_BOT``), so the client layer names no tools module."""
    parser = _OneLineParser(prog="swc bot", description="play one game with the game's reference bot")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debugging detail")
    add_arguments(parser)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    return _bot(args)


if __name__ == "__main__":
    sys.exit(main())
