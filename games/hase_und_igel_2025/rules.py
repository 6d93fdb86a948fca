"""Hase und Igel 2025: performing a move, skips, the end of the game and its winner (spec §4-§6).

Why literal: a faithful stand-in must fail exactly where the official server fails, with the same
mistake, so :func:`perform_move` follows the server's order of checks step by step and works on
the live state without rollback (the server throws a failed state away; so does the room).

Spec-conformance notes:
- End rule of 25.1.0 and 26.x (spec §5, recommended there): over when a hare is on the goal and
  ``turn`` is even, or at ``turn >= 60``. The 25.final regression (immediate goal end, no round
  limit) is not reproduced.
- A skipped hare (no sensible move, §4.7) costs one extra ``turn``; the mover is then awarded
  again. If the mover has no sensible move either, the server does not skip a second time and
  neither does this module: the hare must still send a move (any move it sends is a mistake).
- The winner without a hare in the goal compares position, then fewer carrots (§5, score fragments).
"""

from __future__ import annotations

from dataclasses import dataclass

from swc_local.games.hase_und_igel_2025.movegen import has_sensible_move
from swc_local.games.hase_und_igel_2025.state import (
    MARKET_PRICE,
    MOVING_CARDS,
    TEAMS,
    TURN_LIMIT,
    Advance,
    CardAction,
    EatSalad,
    ExchangeCarrots,
    FallBack,
    Mistake,
    Move,
    State,
    award_position,
    check_advance,
    cost,
    eat_salad,
    fallback_target,
    in_goal,
    int32,
    may_exchange,
    must_eat_salad,
    play_card,
)
from swc_local.games.hase_und_igel_2025.track import HARE, MARKET

GOAL_REASON = "%s hat das Ziel zuerst erreicht."
CARROTS_REASON = "%s hat weniger Karotten uebrig."
SCORES_REASON = "%s ist weiter vorne."
TIE_REASON = "Beide Spieler sind gleichauf"


class RuleViolation(Exception):
    """The server's ``InvalidMoveException``: a mistake made by a move."""

    def __init__(self, mistake: Mistake, move: object):
        self.mistake = mistake
        self.move = move
        super().__init__(self.reason)

    @property
    def reason(self) -> str:
        """The exception's message, as the result's violation text quotes it."""
        return f"{self.mistake.value} bei '{self.move}'"

    @property
    def error_text(self) -> str:
        """The exception's ``toString`` after ``Ungueltiger Zug von 'NAME'.\\n`` in the error."""
        return f"InvalidMoveException(mistake={self.mistake.name}, move={self.move})"


def perform_move(state: State, move: Move) -> None:
    """Validate and perform ``move`` for the hare to move; raise :class:`RuleViolation`."""
    hare = state.current
    if not isinstance(move, EatSalad) and must_eat_salad(state, hare):
        raise RuleViolation(Mistake.MUST_EAT_SALAD, move)
    mistake = _perform(state, move)
    if mistake is not None:
        raise RuleViolation(mistake, move)
    if isinstance(move, Advance) and state.field_at(hare.position) != MARKET and move.cards:
        hare.last_action = CardAction(move.cards[-1])
    else:
        hare.last_action = move
    state.last_move = move
    state.turn += 1
    award_position(state, state.current)
    if not is_over(state) and not has_sensible_move(state):
        state.turn += 1
        award_position(state, state.current)


def _perform(state: State, move: Move) -> Mistake | None:
    hare = state.current
    if isinstance(move, Advance):
        return _advance(state, move)
    if isinstance(move, EatSalad):
        if not must_eat_salad(state, hare):
            return Mistake.CANNOT_EAT_SALAD
        eat_salad(state, hare)
        return None
    if isinstance(move, FallBack):
        target = fallback_target(state, hare)
        if target is None:
            return Mistake.CANNOT_FALL_BACK
        hare.carrots += 10 * (hare.position - target)
        hare.position = target
        return None
    if isinstance(move, ExchangeCarrots):
        if not may_exchange(state, hare, move.amount):
            return Mistake.CANNOT_EXCHANGE_CARROTS
        hare.carrots += move.amount
        return None
    raise TypeError(f"not a Hase und Igel 2025 move: {move!r}")


def _advance(state: State, move: Advance) -> Mistake | None:
    hare = state.current
    mistake = check_advance(state, hare, move.distance)
    if mistake is not None:
        return mistake
    hare.carrots = int32(hare.carrots - cost(move.distance))
    hare.position = int32(hare.position + move.distance)
    last_played: str | None = None
    bought = False
    for card in move.cards:
        if bought:
            return Mistake.MUST_BUY_ONE_CARD
        kind = state.field_at(hare.position)
        if kind == MARKET:
            if hare.carrots < MARKET_PRICE:
                return Mistake.MISSING_CARROTS
            hare.carrots -= MARKET_PRICE
            hare.cards.append(card)
            bought = True
            continue
        if kind != HARE or (last_played is not None and last_played not in MOVING_CARDS):
            return Mistake.CANNOT_PLAY_CARD
        last_played = card
        mistake = play_card(state, hare, card)
        if mistake is not None:
            return mistake
    kind = state.field_at(hare.position)
    if kind == MARKET and not bought:
        return Mistake.MUST_BUY_ONE_CARD
    if kind == HARE and (last_played is None or last_played in MOVING_CARDS):
        return Mistake.MUST_PLAY_CARD
    return None


def is_over(state: State) -> bool:
    return (any(in_goal(hare) for hare in state.hares) and state.turn % 2 == 0) or (
        state.turn >= TURN_LIMIT)


@dataclass(frozen=True, slots=True)
class Result:
    """Who won (a seat, None for a tie), the reason's template and the seat it names."""

    winner: int | None
    template: str
    named_seat: int | None

    def reason(self, names: tuple[str, str]) -> str:
        """The reason text; ``names`` are display names, a blank one shows as its team."""
        if self.named_seat is None:
            return self.template
        name = names[self.named_seat] or TEAMS[self.named_seat]
        return self.template.replace("%s", name)


def result(state: State) -> Result | None:
    """The winner once :func:`is_over` holds (``winCondition``, else the score comparison)."""
    if not is_over(state):
        return None
    return winner(state)


def winner(state: State) -> Result:
    """The winner of the current position, whether or not the game is over."""
    one, two = state.hares
    goalies = [seat for seat, hare in enumerate(state.hares) if in_goal(hare)]
    if len(goalies) == 1:
        return Result(goalies[0], GOAL_REASON, goalies[0])
    if len(goalies) == 2 or one.position == two.position:
        if one.carrots == two.carrots:
            return Result(None, TIE_REASON, None)
        seat = 0 if one.carrots < two.carrots else 1
        return Result(seat, CARROTS_REASON, seat)
    seat = 0 if one.position > two.position else 1
    return Result(seat, SCORES_REASON, seat)
