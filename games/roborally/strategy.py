"""Robo Rally for the ladder's search rungs: a search over register programs by simulation.

Why not the minimax contract of games/strategy.py: every robot programs its five registers at
the same time from a hand the others cannot see, so there is no move order to search.  The
search rungs instead search the bot's own programs: a beam search over the cards of the hand,
register by register, each register simulated with the rules the greedy bot plans with
(:mod:`.plan`: card moves, walls, the antenna, pits, the board's edge, belts, push panels,
gears).  The budget (``SHORT_NODES``, ``LONG_NODES`` per programming phase) sets the beam's
width (one partial program per :data:`NODES_PER_BEAM`, up to :data:`BEAM_NODES`) and, beyond
that, how many simulated registers the look-ahead may spend; nodes are counted, not timed, so a
rung plays the same program for the same seed on any machine (only the bot's time guard, on an
overloaded machine, cuts the look-ahead short).

The evaluation of a program (also on docs/families/roborally.md, "The ladder's evaluation"),
where the greedy bot only looks at the distance to the next checkpoint after each register:

* every checkpoint reached in order counts 1,000, earlier registers a little more, and the
  program goes on toward the next checkpoint after it (the greedy bot stops there);
* falling into a pit or off the board costs 600 (a reboot: two Spam cards and the rest of the
  round lost);
* the distance to the next checkpoint around walls, pits and the antenna: 10 per square, and 4
  back when the robot ends facing a square closer to it (the next round's moves go that way);
* risk after each register: 3 for every side on which a pit or the edge is next to the robot
  (another robot's push drops it there), 4 for standing in a board laser's beam (a damage card);
* a damage card plays the deck's top card: 6, and the fall's 600 times the share of the deck's
  cards that would drop the robot from where it stands (a damage card next to a pit is a risk).

search-long looks a round ahead (what its budget leaves after :data:`BEAM_NODES`): the best
:data:`CANDIDATES` programs of the round are judged again by the best program of the next round
from where each leaves the robot, averaged over :data:`SAMPLES` hands drawn from the cards the
next hand comes from (the bot follows its draw pile), and it chooses its starting square by
sample games of two rounds from each free one (:func:`start_point`; search-short, by what its
budget buys: one sample game of one round, a cheaper and weaker guide).  Why: a wider beam alone found the same programs (the measured
search-long was not stronger than search-short, 6 of 16 and 7 of 16): one round's distance to the
checkpoint is a poor guide to a race.  On Dizzy Highway, a one-checkpoint course, the start
decides most games: the start point farthest from the checkpoint rides the fast belts to it a
round before the others.

Why 48 start samples (:data:`START_SAMPLES`, 41 with six points free at :data:`LONG_NODES`):
with 13 (20,000 nodes) search-long took (0, 3) instead of (1, 8) from 9 of 60 seeds and beat
search-short 372 of 600 (0.62, +85 Elo); with 41 it misses (1, 8) from 1 of 60 and beats it 393
of 600 (0.655, +111 Elo, about ±29 at 95 %; Dizzy Highway, seeds 0-99, 1000-1099 and 2000-2099,
seats swapped: ``python -m benchmarks.roborally_pairs --pair search-long,search-short``).  The
rest is the seat: choosing its start second, search-long wins about 36 of 100 from (0, 3), the
best reply to (1, 8), and a wider look-ahead does not change that (37).

Other robots and their lasers are left out: their programs are hidden.  Measured (docs page):
search-short beats greedy about 2 games in 3 on the four-checkpoint courses and on Dizzy Highway
(its start); search-long beats search-short (Dizzy Highway and Death Trap, docs page).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .board import DELTA, Board
from .cards import DAMAGE, PROGRAMMING_DECK, REGISTERS
from .plan import board_elements, distance_map, play_card

GREEDY_SHARES = (15, 35, 65)
"""The ladder's greedy-N rungs (client/ladder.py; the bot's decision is a round's program or a
reboot's direction, client/roborally_bot.py): greedy wins every game against random on Dizzy
Highway (40 of 40 in the calibration), so no number of games bounds that gap; these shares split
it into four steps.  Measured in process (``python -m benchmarks.roborally_pairs``: two
robots on Dizzy Highway, 40 rounds, no winner then: the robot with more checkpoints, else a draw;
seats swapped in pairs, seeds 2000-2199 and 5000-5199, 800 games a pair), the upper rung's score
against the lower: greedy-15 vs random 654.5 of 800 (0.818, +261 Elo, 163 draws: random never
reaches the checkpoint), greedy-35 vs greedy-15 596.5 (0.746, +187), greedy-65 vs greedy-35 601
(0.751, +192), greedy vs greedy-65 576 (0.720, +164); each about ±30 Elo (95 %).  The shares
10/25/50 gave +168, +158, +182, +267 (700, 600, 600, 700 games), less even; greedy-5 was only
+85 above random (100 games)."""

SHORT_NODES = 450
LONG_NODES = 60_000
"""The budgets.  search-short had 1,200 until 2026-12-03, when the calibration put search-long
only +99 ± 49 above it (the ladder wants neighbours 100 apart); at 450 its beam keeps 11 partial
programs instead of 30 and it chooses its start as before (one sample game of one round).  In
process on Dizzy Highway (``benchmarks.roborally_pairs``, seeds 0-99, seats swapped, 200 games a
row), search-long over search-short and search-short over greedy: at 300 136 and 135 of 200
(+131, +127 Elo), at 450 134 and 146 (+123, +173), at 600 133 and 156 (+119, +220).  A
calibration at 300 gave search-short only +100 ± 46 above greedy (search-long +134 ± 47 above
it); 450 keeps both steps clearer of 100."""
NODES_PER_BEAM = 40  # about the simulated registers one partial program per register costs
BEAM_NODES = 8_000  # the most the round's own beam takes; the rest of a budget looks a round ahead
LOOKAHEAD_MIN = 2_000  # less left than this: no look-ahead (search-short)
CANDIDATES, SAMPLES, NEXT_WIDTH = 12, 16, 3  # the look-ahead's programs, next hands, next beam
START_SAMPLES, START_WIDTH = 48, 3  # the most sample games a starting square gets, their beam
NODES_PER_START_ROUND = REGISTERS * START_WIDTH * 8  # such a round: about eight cards tried a register
HAND = 9
PROGRAMMING_DECK_CARDS = tuple(card for card, count in PROGRAMMING_DECK.items() for _ in range(count))

CHECKPOINT, EARLY, FALL, DISTANCE, FACING, EDGE, LASER, DAMAGE_CARD = 1000.0, 20.0, 600.0, 10.0, 4.0, 3.0, 4.0, 6.0

State = tuple[int, int, str]


def _laser_squares(board: Board) -> frozenset[tuple[int, int]]:
    """The squares the board's lasers shoot across (up to a wall, the antenna or the edge)."""
    covered = set()
    for (x, y), square in board.squares.items():
        if square.laser is None:
            continue
        direction = square.laser[0]
        dx, dy = DELTA[direction]
        cx, cy = x, y
        while True:
            covered.add((cx, cy))
            if board.wall_blocks(cx, cy, direction):
                break
            nxt = board.square(cx + dx, cy + dy)
            if nxt is None or nxt.antenna:
                break
            cx, cy = cx + dx, cy + dy
    return frozenset(covered)


def _edge_risk(board: Board, x: int, y: int) -> int:
    risky = 0
    for direction, (dx, dy) in DELTA.items():
        if board.wall_blocks(x, y, direction):
            continue
        square = board.square(x + dx, y + dy)
        if square is None or square.pit:
            risky += 1
    return risky


@dataclass
class Planner:
    """One programming phase's search: the course from ``reached`` checkpoints on, and the budget."""

    board: Board
    start: State
    hand: list[str]
    reached: int
    nodes_budget: int
    nodes: int = 0
    memo: dict = field(default_factory=dict)
    falls: dict = field(default_factory=dict)
    distances: dict = field(default_factory=dict)
    lasers: frozenset = frozenset()
    stop: object = None  # a callable: true when the bot must answer now (a time guard)

    def target(self, reached: int) -> tuple[int, int] | None:
        return self.board.checkpoints.get(reached + 1)

    def distance_to(self, reached: int) -> dict[tuple[int, int], int]:
        if reached not in self.distances:
            target = self.target(reached)
            self.distances[reached] = distance_map(self.board, target) if target is not None else {}
        return self.distances[reached]

    def simulate(self, state: State, card: str, previous: str | None, register: int) -> State | None:
        key = (state, card, previous if card == "Again" else None, register)
        if key not in self.memo:
            after = play_card(self.board, state, card, previous)
            self.memo[key] = None if after is None else board_elements(self.board, after, register)
        return self.memo[key]

    def fall_chance(self, state: State, register: int) -> float:
        """How likely a programming card drawn at random (the deck's mix) drops the robot."""
        key = (state, register)
        if key not in self.falls:
            falling = sum(count for card, count in PROGRAMMING_DECK.items() if card != "Again"
                          and self.simulate(state, card, None, register) is None)
            self.falls[key] = falling / sum(PROGRAMMING_DECK.values())
        return self.falls[key]

    def score(self, state: State | None, reached: int, gained: float, risk: float, damage: int,
              final: bool = False) -> float:
        """The value of a (partial) program ending in ``state`` with ``reached`` checkpoints; a
        ``final`` one also by where the belts carry the robot before the next round's cards."""
        base = CHECKPOINT * (reached - self.reached) + gained - risk - DAMAGE_CARD * damage
        if state is None:
            return base - FALL
        target = self.target(reached)
        if target is None:
            return base
        distances = self.distance_to(reached)
        x, y, facing = state
        here = distances.get((x, y), 2 * (abs(x - target[0]) + abs(y - target[1])) + 20)
        dx, dy = DELTA[facing]
        ahead = distances.get((x + dx, y + dy))
        facing_bonus = FACING if ahead is not None and ahead < here and not self.board.wall_blocks(x, y, facing) else 0.0
        value = base - DISTANCE * here + facing_bonus
        if final:
            drifted = board_elements(self.board, state, 1)
            if drifted is None:
                return value - FALL / 2
            if drifted != state:
                value -= DISTANCE / 2 * (distances.get((drifted[0], drifted[1]), here + 5) - here)
        return value

    def step(self, state: State, card: str, cards: list[str], reached: int, gained: float, risk: float,
             register: int) -> tuple[State | None, int, float, float]:
        """One register: the robot's state after it and the running tallies."""
        self.nodes += 1
        if card in DAMAGE:  # it plays the deck's top card: the chance that one drops the robot
            risk += FALL * self.fall_chance(state, register)
        after = self.simulate(state, card, cards[-1] if cards else None, register)
        if after is None:
            return None, reached, gained, risk
        target = self.target(reached)
        if target is not None and (after[0], after[1]) == target:
            reached += 1
            gained += EARLY * (REGISTERS - register)
        risk += EDGE * _edge_risk(self.board, after[0], after[1]) + (LASER if (after[0], after[1]) in self.lasers else 0.0)
        return after, reached, gained, risk

    def beam(self, start: State, reached: int, hand: list[str], width: int) -> list[tuple]:
        """A beam search over one round's five registers from ``start``: the final partial
        programs, best first, as (value, order, cards, cards left, state, reached, gained, risk)."""
        beams: list[tuple] = [(0.0, 0, [], hand, start, reached, 0.0, 0.0)]
        for register in range(1, REGISTERS + 1):
            children = []
            for _, _, cards, left, state, reached, gained, risk in beams:
                tried = set()
                damage = sum(1 for card in cards if card in DAMAGE)
                for index, card in enumerate(left):
                    if card in tried or (card == "Again" and register == 1):
                        continue
                    tried.add(card)
                    if state is None:  # fallen: the registers after it do not matter
                        after, new = None, (reached, gained, risk)
                    else:
                        after, *new = self.step(state, card, cards, reached, gained, risk, register)
                    value = self.score(after, *new, damage + (card in DAMAGE), final=register == REGISTERS)
                    children.append((value, len(children), cards + [card], left[:index] + left[index + 1:], after, *new))
                    if state is None:
                        break
            children.sort(key=lambda child: (-child[0], child[1]))
            beams = children[:width]
        return beams

    def search(self, rng: random.Random, pool: list[str] | None = None) -> list[str]:
        """A beam search over the registers, :data:`NODES_PER_BEAM` simulated registers buying
        one more partial program kept per register: a depth-first search spends a small budget on
        the last registers' variations only, a beam spreads it over all five.  What the budget
        leaves after :data:`BEAM_NODES` goes to the next round (:meth:`look_ahead`)."""
        hand = list(self.hand)
        rng.shuffle(hand)  # equal programs go to a seeded choice
        if not any(card != "Again" for card in hand):
            return hand[:REGISTERS]
        width = max(1, min(self.nodes_budget, BEAM_NODES) // NODES_PER_BEAM)
        finals = self.beam(self.start, self.reached, hand, width)
        if looks_ahead(self.nodes_budget):
            return self.look_ahead(finals, rng, pool)
        return finals[0][2]

    def look_ahead(self, finals: list[tuple], rng: random.Random, pool: list[str] | None) -> list[str]:
        """The next round, for the best :data:`CANDIDATES` programs: each is judged by the best
        program of the next round from where it leaves the robot, averaged over
        :data:`SAMPLES` hands drawn from ``pool`` (the cards the next hand comes from; the same
        hands for every program, so that they differ by their end only).  The distance after
        one round says little about a race: a robot two squares off but facing the wrong way,
        or beside a belt that carries it away, is further than one four squares off in line."""
        best = finals[0]
        if best[5] == len(self.board.checkpoints) or best[4] is None:
            return best[2]  # the last checkpoint this round (nothing after it), or every program falls
        hands = [self.next_hand(pool, rng) for _ in range(SAMPLES)]
        judged, seen = [], set()
        for final in finals:
            value, order, cards, _, state, reached, gained, risk = final
            if state is None or (state, reached) in seen:
                continue
            if len(judged) >= CANDIDATES or self.nodes >= self.nodes_budget or (judged and self.stop and self.stop()):
                break
            seen.add((state, reached))
            damage = sum(1 for card in cards if card in DAMAGE)
            now = gained - risk - DAMAGE_CARD * damage
            later = sum(self.beam(state, reached, hand, NEXT_WIDTH)[0][0] for hand in hands) / len(hands)
            judged.append((now + later, -value, order, cards))
        judged.sort(key=lambda item: (-item[0], item[1], item[2]))
        return judged[0][3]

    def next_hand(self, pool: list[str] | None, rng: random.Random) -> list[str]:
        """A hand the next round may deal: nine cards of ``pool`` (default: the deck without
        this hand, as after the first round of a shuffle), topped up from a fresh deck."""
        if pool is None:
            pool = list(PROGRAMMING_DECK_CARDS)
            for card in self.hand:
                if card in pool:
                    pool.remove(card)
        if len(pool) >= HAND:
            return rng.sample(pool, HAND)
        return list(pool) + rng.sample(PROGRAMMING_DECK_CARDS, HAND - len(pool))


_LASERS: dict[int, tuple[Board, frozenset]] = {}


def program(board: Board, state: State, hand: list[str], reached: int, rng: random.Random, nodes: int,
            pool: list[str] | None = None, stop=None) -> list[str]:
    """The five cards (register order) the search chooses from ``hand`` for a robot at ``state``
    that has reached ``reached`` checkpoints, within ``nodes`` simulated registers."""
    return Planner(board, state, hand, reached, nodes, lasers=_lasers(board), stop=stop).search(rng, pool)


def _lasers(board: Board) -> frozenset:
    cached = _LASERS.get(id(board))
    if cached is None or cached[0] is not board:
        cached = _LASERS[id(board)] = (board, _laser_squares(board))
    return cached[1]


def reboot_direction(board: Board, fell_from: tuple[int, int] | None, start: tuple[int, int] | None,
                     reached: int) -> str:
    """The direction a rebooted robot should face: toward the next checkpoint's nearest way.
    Where it comes back is the rules' (game.py ``_place``): its start point after a fall on the
    start board (or on a course without a restart point), else the restart point."""
    origin = board.square(*fell_from) if fell_from is not None else None
    if (origin is not None and origin.board == "Start A") or board.restart is None:
        square = start
    else:
        square = board.restart[:2]
    target = board.checkpoints.get(reached + 1)
    if square is None or target is None:
        return board.antenna[2]
    distances = distance_map(board, target)
    x, y = square
    best, best_distance = board.antenna[2], distances.get((x, y), 10_000)
    for direction, (dx, dy) in DELTA.items():
        ahead = distances.get((x + dx, y + dy))
        if ahead is not None and ahead < best_distance and not board.wall_blocks(x, y, direction):
            best, best_distance = direction, ahead
    return best


def looks_ahead(nodes: int) -> bool:
    """Whether a budget of ``nodes`` looks a round ahead (search-long) or plays this round only."""
    return nodes - BEAM_NODES >= LOOKAHEAD_MIN


def start_point(board: Board, free: list[tuple[int, int]], rng: random.Random, nodes: int,
                stop=None) -> tuple[int, int]:
    """The starting square to take among ``free``.  A budget that looks a round ahead
    (search-long) plays sample games of two rounds from every square (the same pairs of hands
    for every square, up to :data:`START_SAMPLES`, as many as the budget buys at
    :data:`NODES_PER_START_ROUND` simulated registers a round) and takes the square that reaches
    the first checkpoint in the fewest registers on average; a budget that plays one round
    (search-short) plays sample games of one round, as many as its budget buys (one at
    :data:`SHORT_NODES`).  Why: on a one-checkpoint course the start decides most of the race,
    and the distance to the checkpoint misjudges it (Dizzy Highway: the farthest start point
    rides the fast belts to the checkpoint a round before the nearest).  Why one round for
    search-short: it finds the best start point when it is free but misjudges the second best
    (with (1, 8) taken it mostly takes (1, 1), which one round's hand carries close but the
    next round leaves behind (0, 3)), so search-long's two rounds stay worth its budget; with
    search-long's start search search-short drew level with it (46 of 80).  ``stop()`` true ends the samples early (a time guard)."""
    if not free:
        return board.start_points[0]
    target = board.checkpoints.get(1)
    if target is None or len(free) < 2:
        return rng.choice(free)
    facing = board.antenna[2]
    distances = distance_map(board, target)
    rounds = 2 if looks_ahead(nodes) else 1
    samples = max(1, min(START_SAMPLES, nodes // (NODES_PER_START_ROUND * rounds * len(free))))
    planner = Planner(board, (*free[0], facing), [], 0, nodes, lasers=_lasers(board))
    deck = list(PROGRAMMING_DECK_CARDS)
    totals = {square: 0.0 for square in free}
    for sample in range(samples):
        if sample and stop is not None and stop():
            break
        rng.shuffle(deck)
        hands = (deck[:HAND], deck[HAND:2 * HAND])
        for square in free:
            totals[square] += _registers_to_checkpoint(planner, (*square, facing), hands[:rounds])
    return min(free, key=lambda square: (totals[square], distances.get(square, 10_000)))


def _registers_to_checkpoint(planner: Planner, state: State | None, hands: tuple) -> float:
    """The register (counted on over the rounds of ``hands``) in which the best program of
    each hand reaches the first checkpoint from ``state``; not reached: the registers played and
    the rest of the way at two squares a register.  The race to a checkpoint is what a start
    decides: the robot reaching it a register earlier wins on a one-checkpoint course."""
    played = 0
    for hand in hands:
        _, _, _, _, after, reached, gained, _ = planner.beam(state, 0, hand, START_WIDTH)[0]
        if reached:
            return played + REGISTERS - gained / EARLY
        played += REGISTERS
        if after is None:
            return played + REGISTERS + FALL / DISTANCE / 2  # a reboot: a round lost and the way from the start again
        state = after
    return played + planner.distance_to(0).get(state[:2], 30) / 2
