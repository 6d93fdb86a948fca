"""Reference Robo Rally clients that speak only the wire protocol (spec roborally.md §3).

``python -m swc_local.client.roborally_bot --host H --port P [--strategy RUNG] [--seed N]`` (or
``swc roborally-bot``) plays one game against any course-protocol server and exits after
``GameFinished``. The rungs of the ladder (client/ladder.py): the random bot makes a valid random
choice at every step; the greedy bot (``--greedy`` is its old name) programs the five registers
that bring its robot closest to its next checkpoint
(:func:`~swc_local.games.roborally.plan.best_program`); ``search-short`` and ``search-long``
search the hand's programs by simulation within a budget of simulated registers
(:func:`~swc_local.games.roborally.strategy.program`); search-long also looks a round ahead with
hands drawn from its draw pile (which the bot follows); both choose their start point by sample
games (:func:`~swc_local.games.roborally.strategy.start_point`: search-short one of one round,
search-long up to 48 of two rounds; random and greedy take a random free point); ``greedy-N``
(the shares the strategy names in ``GREEDY_SHARES``) plays greedy's decision on N % of its
decisions and random's on the others, one draw of the bot's seeded generator a decision.  What a
*decision* (the XML games' move) is here: a round's program (the five registers are chosen at
once, from one hand, so they are one choice) and a reboot's direction, the two choices in which
greedy and random differ; the start point is random for both, the damage picks are the same.
Every rung answers ``Alive``, sends ``PlayCard`` on its ``CurrentPlayer`` in the activation
phase, picks damage piles and a reboot direction.
The bots import nothing from the server: they read and write through the codec
(``protocol/roborally.py``, the same message models the server checks) and plan with the pure
rules of ``games/roborally/``. A line from the server that the codec cannot read is logged and
skipped.
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

import trio

from swc_local.games.roborally.board import CLOCKWISE, COUNTERCLOCKWISE, board_from_game_map
from swc_local.games.roborally.cards import PROGRAMMING_DECK
from swc_local.games.roborally import strategy as search_strategy
from swc_local.games.roborally.plan import best_program
from swc_local.client.mixed_rungs import greedy_share
from swc_local.protocol.roborally import (
    DIRECTIONS, MAP_NAMES, PROTOCOL_VERSION, Incoming, LineDecoder, decode_server_line, encode_client,
)

log = logging.getLogger("swc.roborally.bot")

RUNGS = ("random", *(f"greedy-{share}" for share in search_strategy.GREEDY_SHARES), "greedy", "search-short",
         "search-long")
"""client/ladder.py's rungs of this game, spelt out: the ladder imports this module (through
client/bots.py), so this module cannot import the ladder (tests/ladder checks they agree).  The
greedy-N rungs are the ones the strategy names in ``GREEDY_SHARES``, as the ladder lists them."""
SEARCH_RUNGS = {"search-short": "SHORT_NODES", "search-long": "LONG_NODES"}  # the ladder's
GUARD_SECONDS = 1.5
"""The most a search rung thinks before it stops looking ahead (wall clock): the bot reads no
message while it thinks, and the server drops a client that leaves an ``Alive`` unanswered for
5 s (spec §7.1).  Unloaded a decision takes a fraction of this, so the guard only acts on an
overloaded machine, where it costs look-ahead, never the connection."""


@dataclass
class BotReport:
    client_id: int = 0
    winner: int | None = None
    errors: list[str] = field(default_factory=list)
    rounds: int = 0
    checkpoints: int = 0
    reboots: int = 0
    finished: bool = False


class RoboRallyBot:
    def __init__(self, greedy: bool = False, seed: int | None = None, name: str | None = None, is_ai: bool = True,
                 map_name: str | None = None, play_cards: bool = True, strategy: str | None = None) -> None:
        """``strategy`` is the rung (client/ladder.py); None: ``greedy`` or random, as before."""
        self.strategy = strategy or ("greedy" if greedy else "random")
        self.share = greedy_share(self.strategy)  # greedy-N: N / 100; None for the other rungs
        self.greedy = self.strategy != "random"  # every rung above random plans; random stays random
        self.rng = random.Random(seed)
        default_names = {"random": "RandomBot", "greedy": "GreedyBot"}
        self.name = name or default_names.get(self.strategy, "SearchBot" if self.share is None else "MixedBot")
        self.is_ai = is_ai
        self.map_name = map_name
        self.play_cards = play_cards
        self.report = BotReport()
        self.me = 0
        self.taken_figures: set[int] = set()
        self.figure: int | None = None
        self.board = None
        self.phase = -1
        self.positions: dict[int, tuple[int, int]] = {}
        self.state: tuple[int, int, str] | None = None
        self.start: tuple[int, int] | None = None  # the robot's starting point (a reboot may return there)
        self.reboot_answers = 0  # RebootDirection messages sent this round
        self.late_reboot_answers = 0  # of the last round's, those that may still meet "No reboot pending"
        self.my_cards: dict[int, str] = {}
        self.player_set = False
        self.out: list[dict] = []
        self.damage_picks: Iterator[list[str]] = iter(())
        self.draw_pile: Counter = Counter(PROGRAMMING_DECK)  # what the next hand is dealt from, as far as known

    def send(self, message_type: str, body: dict) -> None:
        self.out.append({"messageType": message_type, "messageBody": body})

    # ------------------------------------------------------------------ reactions

    def on_message(self, message_type: str, body: dict) -> None:
        handler = getattr(self, "on_" + message_type, None)
        if handler is not None:
            handler(body)

    def on_HelloClient(self, body: dict) -> None:
        self.send("HelloServer", {"group": "swc-local", "isAI": self.is_ai, "protocol": PROTOCOL_VERSION})

    def on_Welcome(self, body: dict) -> None:
        self.me = self.report.client_id = body["clientID"]

    def on_Alive(self, body: dict) -> None:
        self.send("Alive", {})

    def _offer_values(self) -> None:
        # start from the client ID, so that bots joining at the same moment rarely collide
        free = [f % 7 for f in range(self.me, self.me + 7) if f % 7 not in self.taken_figures]
        if free:
            self.figure = free[0]
            self.taken_figures.add(self.figure)
            self.send("PlayerValues", {"name": self.name, "figure": self.figure})

    def on_PlayerAdded(self, body: dict) -> None:
        self.taken_figures.add(body["figure"])
        if body["clientID"] == self.me:
            self.player_set = True
            self.send("SetStatus", {"ready": True})

    def on_Error(self, body: dict) -> None:
        text = body["error"]
        if self.report.finished:
            return  # the answer to a message that crossed GameFinished on the wire
        if text == "No reboot pending" and self.late_reboot_answers:
            self.late_reboot_answers -= 1  # a second RebootDirection that crossed the round's end
            log.debug("bot %d: a RebootDirection crossed the end of the round", self.me)
            return
        self.report.errors.append(text)
        log.info("bot %d: Error %s", self.me, text)
        if text.startswith("Figure") and not self.player_set:
            self._offer_values()
        if text == "Invalid damage selection":
            self._next_damage_pick()

    def on_SelectMap(self, body: dict) -> None:
        choice = self.map_name if self.map_name in body["availableMaps"] else self.rng.choice(body["availableMaps"])
        self.send("MapSelected", {"map": choice})

    def on_GameStarted(self, body: dict) -> None:
        self.board = board_from_game_map("?", body["gameMap"])

    def on_ActivePhase(self, body: dict) -> None:
        self.phase = body["phase"]
        if self.phase == 2:
            self.report.rounds += 1
            # Every Reboot is answered, since the server may have taken the first answer before a
            # second fall; when it took the first after both, the round can end before the second
            # answer arrives, which then gets "No reboot pending" (roborally.md §5.8): expected.
            self.late_reboot_answers = max(0, self.reboot_answers - 1)
            self.reboot_answers = 0

    def on_CurrentPlayer(self, body: dict) -> None:
        if body["clientID"] != self.me:
            return
        if self.phase == 0 and self.board is not None:
            free = [p for p in self.board.start_points if p not in self.positions.values()]
            if self.strategy in SEARCH_RUNGS and free:
                x, y = search_strategy.start_point(self.board, free, self.rng, self._budget(), stop=self._guard())
            else:
                x, y = self.rng.choice(free) if free else self.board.start_points[0]
            self.send("SetStartingPoint", {"x": x, "y": y})
        elif self.phase == 3 and self.play_cards and self.me in self.my_cards:
            self.send("PlayCard", {"card": self.my_cards[self.me]})

    def on_StartingPointTaken(self, body: dict) -> None:
        self.positions[body["clientID"]] = (body["x"], body["y"])
        if body["clientID"] == self.me and self.board is not None:
            self.state = (body["x"], body["y"], self.board.antenna[2])
            self.start = (body["x"], body["y"])

    def on_Movement(self, body: dict) -> None:
        self.positions[body["clientID"]] = (body["x"], body["y"])
        if body["clientID"] == self.me and self.state is not None:
            self.state = (body["x"], body["y"], self.state[2])

    def on_PlayerTurning(self, body: dict) -> None:
        if body["clientID"] == self.me and self.state is not None:
            turn = CLOCKWISE if body["rotation"] == "clockwise" else COUNTERCLOCKWISE
            self.state = (self.state[0], self.state[1], turn[self.state[2]])

    def on_Reboot(self, body: dict) -> None:
        self.positions.pop(body["clientID"], None)
        if body["clientID"] == self.me:
            self.report.reboots += 1
            if self.state is not None:
                self.state = (self.state[0], self.state[1], "top")
            greedy = self._plays_greedy()
            direction = self.rng.choice(DIRECTIONS)
            if greedy and self.board is not None:
                direction = self.board.antenna[2]
            if self.strategy in SEARCH_RUNGS and self.board is not None:
                fell_from = None if self.state is None else self.state[:2]
                direction = search_strategy.reboot_direction(self.board, fell_from, self.start, self.report.checkpoints)
            self.send("RebootDirection", {"direction": direction})
            self.reboot_answers += 1

    def on_CurrentCards(self, body: dict) -> None:
        self.my_cards = {entry["clientID"]: entry["card"] for entry in body["activeCards"]}

    def on_YourCards(self, body: dict) -> None:
        hand = list(body["cardsInHand"])
        self._count_dealt(hand)
        program = self._program(hand)
        for register, card in enumerate(program, start=1):
            self.send("SelectedCard", {"card": card, "register": register})

    def _plays_greedy(self) -> bool:
        """Whether this decision plans (every rung above random), or is random's.  A greedy-N
        rung draws it here, one draw of the seeded generator a decision, before the decision's
        own draws (so the other rungs draw exactly what they drew before there were mixed rungs)."""
        if self.share is None:
            return self.greedy
        return self.rng.random() < self.share

    def _program(self, hand: list[str]) -> list[str]:
        if self._plays_greedy() and self.board is not None and self.state is not None:
            target = self.board.checkpoints.get(self.report.checkpoints + 1)
            if target is not None and self.strategy in SEARCH_RUNGS:
                return search_strategy.program(self.board, self.state, hand, self.report.checkpoints, self.rng,
                                               self._budget(), pool=list(self.draw_pile.elements()), stop=self._guard())
            if target is not None:
                return best_program(self.board, self.state, hand, target)
        cards = list(hand)
        self.rng.shuffle(cards)
        first = next((c for c in cards if c != "Again"), None)
        if first is None:
            return []
        cards.remove(first)
        return [first] + cards[:4]

    def _budget(self) -> int:
        return getattr(search_strategy, SEARCH_RUNGS[self.strategy])

    def _guard(self):
        deadline = time.monotonic() + GUARD_SECONDS
        return lambda: time.monotonic() > deadline

    def _count_dealt(self, hand: list[str]) -> None:
        """Keep :attr:`draw_pile` (the programming cards not dealt since the deck's last
        shuffle): a hand that the pile cannot hold came partly from the reshuffled discard
        (rules: the whole deck but the pile's rest).  Damage cards and the cards a damage card
        draws are not followed: the pile is an estimate for the look-ahead, never a rule."""
        dealt = Counter(card for card in hand if card in PROGRAMMING_DECK)
        if dealt - self.draw_pile:  # the pile ran out and the discard was shuffled in
            rest = self.draw_pile
            self.draw_pile = Counter(PROGRAMMING_DECK) - rest - (dealt - rest)
        else:
            self.draw_pile = self.draw_pile - dealt

    def on_PickDamage(self, body: dict) -> None:
        """One card from each pile in turn; the piles' sizes are not on the wire, so a pick the
        server refuses (a pile holds fewer) is followed by the next possible one."""
        piles, count = list(body["availablePiles"]), body["count"]
        first = [piles[i % len(piles)] for i in range(count)] if piles else []
        others = [list(pick) for pick in itertools.combinations_with_replacement(piles, count)
                  if sorted(pick) != sorted(first)]
        self.damage_picks = iter([first] + others)
        self._next_damage_pick()

    def _next_damage_pick(self) -> None:
        pick = next(self.damage_picks, None)
        if pick is not None:
            self.send("SelectedDamage", {"cards": pick})

    def on_CheckPointReached(self, body: dict) -> None:
        if body["clientID"] == self.me:
            self.report.checkpoints = body["number"]

    def on_GameFinished(self, body: dict) -> None:
        self.report.winner = body["clientID"]
        self.report.finished = True

    # ------------------------------------------------------------------ the connection

    async def play(self, host: str, port: int) -> BotReport:
        stream = await trio.open_tcp_stream(host, port)
        decoder = LineDecoder(decode=decode_server_line)
        sent_values = False
        async with stream:
            while not self.report.finished:
                try:
                    data = await stream.receive_some(65536)
                except trio.BrokenResourceError:
                    data = b""
                if not data:
                    break
                for event in decoder.feed(data):
                    if isinstance(event, Incoming):
                        self.on_message(event.type, event.body)
                    else:
                        log.warning("bot %d: unreadable line from the server (%s)", self.me, event.error)
                if self.me and not sent_values:
                    # after Welcome and its catch-up (the figures already taken), choose a figure
                    sent_values = True
                    self._offer_values()
                if self.out:
                    data = b"".join(encode_client(m["messageType"], m["messageBody"]) for m in self.out)
                    self.out.clear()
                    try:
                        await stream.send_all(data)
                    except (trio.BrokenResourceError, trio.ClosedResourceError):
                        break
        return self.report


async def play_bot(host: str, port: int, greedy: bool = False, seed: int | None = None, **options) -> BotReport:
    return await RoboRallyBot(greedy=greedy, seed=seed, **options).play(host, port)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The bot's options (here and as ``swc roborally-bot``)."""
    from swc_local.client.connection import port_argument

    parser.add_argument("--host", default="localhost")
    parser.add_argument("--port", type=port_argument, default=52020)
    parser.add_argument("--strategy", choices=RUNGS, help="the ladder's rung (default: random, or greedy with --greedy)")
    parser.add_argument("--greedy", action="store_true", help="the greedy rung: program towards the next checkpoint")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--name")
    parser.add_argument("--human", action="store_true", help="say isAI=false (then the bot chooses the map)")
    parser.add_argument("--map", choices=MAP_NAMES, help="the map to choose when asked")


def run(args: argparse.Namespace) -> int:
    """Play one game; print the report as JSON; 0 if the game finished."""
    report = trio.run(lambda: play_bot(args.host, args.port, args.greedy, args.seed, name=args.name,
                                       is_ai=not args.human, map_name=args.map, strategy=args.strategy))
    print(json.dumps(report.__dict__))
    return 0 if report.finished else 1


class _OneLineParser(argparse.ArgumentParser):
    """A usage error is one line and exit 2, as every ``swc`` command's (server/cli.py's parser,
    which client/ may not import): ``swc bot roborally`` hands its arguments on to :func:`main`."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message}; see {self.prog} --help\n")


def main(argv: list[str] | None = None) -> int:
    parser = _OneLineParser(prog="roborally-bot", description="A reference Robo Rally client.")
    add_arguments(parser)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
