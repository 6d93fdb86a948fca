"""ReversiXT for the ladder's search rungs (the contract: games/strategy.py), 2 to 8 players.

A position is a :class:`Position`: the rules' :class:`~.rules.State`, the phase, and the player
on turn.  Turn order is the referee's (``referee.Referee.next_action``): after a turn the next
player still in who can place (phase 1), else phase 2 from the next player still in with a bomb,
while a square is left to bomb; the game ends when nobody can act or one player is left.  With
more than two players client/search.py searches *paranoid* in phase 1 (every other player
minimises the searching player's value) and *max-n* in the bomb phase (every player maximises its
own value; client/reversixt_bot.py chooses): there each bomb is aimed at one rival, and paranoid
search, which sees every other player throw at the searching one whatever it does, finds no
reason to hit the leader.

Evaluation (also on docs/families/reversixt.md, "The ladder's evaluation"), for player ``p``
against the strongest other player still in (the one that takes the win from ``p``):

* stones: the difference in stones, weighted more as the board fills (early stones are flipped
  back; at the end they are the score);
* stable squares: a square that no line can run through (every one of its four lines ends at a
  hole or the edge without transition on one side) can never be flipped; owning one is worth 8
  stones, and the squares next to a free one cost 3 (they give it away);
* frontier: 1 per stone of ``p`` next to a free square against the rival's (the stones others
  can enclose; the classic Othello frontier, a cheap stand-in for mobility, which costs a move
  generation per player and halved the search's speed);
* stock: an overwrite stone 4, a bomb 3/4 of its reach in squares with two players, 5 times its
  reach with more (:data:`MANY_PLAYERS_BOMB`: there the player with the most bombs throws the
  last ones unanswered and usually wins: of 12 games on ``trio_3p``, 10 had one such player, who
  won 7 and shared 2; the bombs destroyed about two thirds of the stones of phase 1).

At the end: WIN for the most stones alone, 0 for a shared first place, -WIN otherwise, plus the
stone margin over the best other player.  Disqualified players score nothing, as the referee.

Moves: phase 1 every legal placement (a choice square once per colour to swap with, a bonus
square with a bomb or an overwrite stone), placements on empty squares first by the static square
value, overwrite moves last; phase 2 only the :data:`BOMB_CANDIDATES` targets that destroy the
most of the others' stones net of ``p``'s own (all of them are legal, the rest are never
searched: hundreds of equal targets would spend the budget on one ply).
"""

from __future__ import annotations

from dataclasses import dataclass

from swc_local.games.reversixt.mapfile import BONUS, CHOICE, HOLE
from swc_local.games.reversixt.rules import EMPTY_KINDS, SPECIAL_BOMB, SPECIAL_OVERWRITE, State
from swc_local.games.strategy import WIN

SHORT_NODES = 20
LONG_NODES = 60
"""The budgets, sized so that each search rung's gap to the rung below is one games can measure
(benchmarks.ladder wants each to ±50 Elo).  At 100 and 600 positions (before 2026-12-03) the
two-player gaps went nearly one way: search-short won 59 of 60 in-process games against greedy on
``classic_2p`` (seeds from 1000, seats swapped) and search-long 9 of 10 against search-short in
the calibration.  The search gains most between 10 and 150 positions; at 20 and 60 the series
gave search-short 47.5 of 60 against greedy (45.5 at 10) and search-long 46 of 60 against
search-short (55.5 at 150, 54 at 300), about 230 and 210 Elo.  With more players (benchmarks'
``reversixt_seats``, docs/families/reversixt.md): on ``trio_3p`` search-long took 0.47 of 120
games against two search-short players (0.53 at 100/600) and search-short 0.66 of 360 against two
greedy ones (0.83 at 100); on ``quad_weak_bombs_4p`` 0.36 and 0.64 of 40 (0.35 and 0.67), even
shares 0.33 and 0.25.  A move takes milliseconds: far inside any time the REQUEST gives."""
BOMB_CANDIDATES = 8

STABLE, NEXT_TO_STABLE, FRONTIER, OVERWRITE, BOMB = 8.0, 3.0, 1.0, 4.0, 3.0
MANY_PLAYERS_BOMB = 5.0
"""A bomb's worth in stones per square of its reach on a map of three or more players: the bombs
in hand decide there (the player with the most bombs throws the last ones, unanswered, at
whoever leads), so one more bomb outweighs a stone lead of phase 1.  Measured on ``trio_3p``
(docs/families/reversixt.md): search-long's share against two search-short players rose with
this weight per square from 0.46 at 0.75 (two players' weight) and 2.25 to 0.62 at 5, and stayed
there at 10 and 25 (seeds 101-120); seeds 201-220, played afterwards, gave 0.44 at 5 (0.35
before the change).  Two players keep ``BOMB`` / 4 (the two-player calibration,
tools/ladder_elo.json, was measured with it)."""
_FREE = bytes(code in EMPTY_KINDS for code in range(256))


@dataclass(slots=True)
class Position:
    state: State
    phase: int
    player: int  # on turn; 0 once the game is over


def position(game) -> Position:
    """The bot's view (client/reversixt_bot.py ``ClientGame``: ``state``, ``phase``, ``me``),
    asked to move."""
    return Position(game.state.copy(), game.phase, game.me)


def seat(position: Position) -> int:
    return position.player


def over(position: Position) -> bool:
    return position.player == 0


def _after(state: State, player: int, wanted) -> int:
    n = state.players
    for step in range(1, n + 1):
        candidate = (player - 1 + step) % n + 1
        if candidate not in state.disqualified and wanted(candidate):
            return candidate
    return 0


def next_turn(state: State, phase: int, last: int) -> tuple[int, int]:
    """(phase, player on turn) after ``last``'s turn, as the referee orders turns; player 0:
    the game is over."""
    if len(state.in_game()) <= 1:
        return phase, 0
    if phase == 1:
        following = _after(state, last, state.can_place)
        if following:
            return 1, following
        phase = 2
    if not state.has_bomb_target():
        return 2, 0
    return 2, _after(state, last, lambda p: state.bombs[p] > 0)


def play(position: Position, move: tuple[int, int, int]) -> Position:
    state, player = position.state.copy(), position.player
    x, y, special = move
    if position.phase == 1:
        state.place(player, x, y, special, state.enclosed(y * state.game_map.width + x, player))
    else:
        state.bomb(player, x, y)
    phase, following = next_turn(state, position.phase, player)
    return Position(state, phase, following)


# ---- the map's static facts (computed once per map) --------------------------------------------

_STATIC: dict[int, tuple] = {}


def _static(state: State) -> tuple[list[float], list[int], list[list[int]]]:
    """(square weights for ordering, stable squares, the neighbours of each stable square)."""
    game_map = state.game_map
    key = id(game_map)
    cached = _STATIC.get(key)
    if cached is not None and cached[0] is game_map:
        return cached[1]
    steps, squares = state.steps, game_map.squares
    size = len(squares)
    stable = []
    for i in range(size):
        if squares[i] == HOLE:
            continue
        if all(steps[i * 8 + d] < 0 or steps[i * 8 + d + 4] < 0 for d in range(4)):
            stable.append(i)
    neighbours = [[steps[i * 8 + d] >> 3 for d in range(8) if steps[i * 8 + d] >= 0] for i in stable]
    weights = [0.0] * size
    for i, around in zip(stable, neighbours):
        weights[i] += STABLE
        for j in around:
            weights[j] -= NEXT_TO_STABLE
    facts = (weights, stable, neighbours)
    _STATIC[key] = (game_map, facts)
    return facts


# ---- moves -----------------------------------------------------------------------------------

def _specials(state: State, square: int) -> tuple[int, ...]:
    code = state.squares[square]
    if code == CHOICE:
        return tuple(range(1, state.players + 1))
    if code == BONUS:
        return (SPECIAL_BOMB, SPECIAL_OVERWRITE)
    return (0,)


def _blast(state: State, square: int) -> set[int]:
    """The squares a bomb on ``square`` turns into holes (the rules' walk, without the change)."""
    squares, steps = state.squares, state.steps
    reached, frontier = {square}, [square]
    for _ in range(state.game_map.strength):
        following = []
        for current in frontier:
            base = current * 8
            for d in range(8):
                step = steps[base + d]
                if step >= 0:
                    target = step >> 3
                    if target not in reached and squares[target] != HOLE:
                        reached.add(target)
                        following.append(target)
        frontier = following
        if not frontier:
            break
    return reached


def moves(position: Position) -> list[tuple[int, int, int]]:
    if position.player == 0:
        return []
    state, player = position.state, position.player
    width, squares = state.game_map.width, state.squares
    if position.phase == 2:
        others = {p for p in state.in_game() if p != player}
        scored = []
        for square in range(len(squares)):
            if squares[square] == HOLE:
                continue
            gain = 0
            for hit in _blast(state, square):
                code = squares[hit]
                gain += 1 if code in others else -1 if code == player else 0
            scored.append((-gain, square))
        scored.sort()
        return [(square % width, square // width, 0) for _, square in scored[:BOMB_CANDIDATES]]
    weights = _static(state)[0]
    found = []
    for square in state.legal_targets(player):
        code = squares[square]
        overwrite = code not in EMPTY_KINDS
        rank = (overwrite, code not in (CHOICE, BONUS), -weights[square], square)
        for special in _specials(state, square):
            found.append((rank, special != player if code == CHOICE else special != SPECIAL_OVERWRITE,
                          (square % width, square // width, special)))
    found.sort()
    return [move for _, _, move in found]


# ---- evaluation ------------------------------------------------------------------------------

def _points(state: State) -> dict[int, int]:
    squares = state.squares
    return {p: 0 if p in state.disqualified else squares.count(p) for p in range(1, state.players + 1)}


def value(position: Position, seat: int) -> float:
    state = position.state
    points = _points(state)
    others = [points[p] for p in points if p != seat]
    best_other = max(others) if others else 0
    margin = points[seat] - best_other
    if position.player == 0:
        if seat in state.disqualified or margin < 0:
            return -WIN + margin
        return 0.0 if margin == 0 else WIN + margin
    squares = state.squares
    size = len(squares)
    filled = size - sum(squares.count(code) for code in EMPTY_KINDS) - squares.count(HOLE)
    fullness = filled / max(1, size - squares.count(HOLE))
    score = margin * (0.2 + fullness) if position.phase == 1 else margin * 2.0
    weights, stable, neighbours = _static(state)
    rival = max((p for p in points if p != seat), key=lambda p: points[p], default=0)
    for i, around in zip(stable, neighbours):
        owner = squares[i]
        if owner == seat:
            score += STABLE
        elif owner == rival:
            score -= STABLE
        elif owner in EMPTY_KINDS:
            for j in around:
                if squares[j] == seat:
                    score -= NEXT_TO_STABLE
                elif squares[j] == rival:
                    score += NEXT_TO_STABLE
    if position.phase == 1:
        score += OVERWRITE * (state.overwrites[seat] - state.overwrites[rival])
    reach = (2 * state.game_map.strength + 1) ** 2
    bomb = BOMB / 4 if state.players == 2 else MANY_PLAYERS_BOMB
    score += bomb * reach * (state.bombs[seat] - state.bombs[rival])
    return max(-WIN / 2, min(WIN / 2, score))


def _frontier(state: State, player: int) -> int:
    """``player``'s stones next to a free square: the stones others can enclose and flip."""
    squares, steps, kind = state.squares, state.steps, _FREE
    count, start = 0, -1
    while (start := squares.find(player, start + 1)) >= 0:
        base = start * 8
        for d in range(8):
            step = steps[base + d]
            if step >= 0 and kind[squares[step >> 3]]:
                count += 1
                break
    return count
