"""Legal-move generation for Hase und Igel 2018: every complete action list for the side to move.

Why separate from :mod:`rules`: the validator there follows the spec literally (one action at a
time, recursive look-ahead on copied players); bots, the reference random player and the property
tests need all moves fast, so this module enumerates them over plain integers, with the card chains
from a hare field memoised.  The property tests check that both agree on every state they reach.

Spec-conformance notes:
- Card values are canonical: TAKE_OR_DROP_CARROTS with 20, -20 and 0 (each a distinct move), the
  other cards with 0 (the server ignores their value).  Actions carry orders 0, 1, 2, ...
- Skip is offered exactly when the skip check of §4.6 passes, including its 44-field horizon, so a
  rich player may in theory see a long advance and a skip side by side.
"""

from __future__ import annotations

from functools import lru_cache

from swc_local.games.hase_und_igel.board import (
    CARROT,
    GOAL,
    GOAL_INDEX,
    HARE,
    HEDGEHOG,
    INVALID,
    SALAD,
    START,
)
from swc_local.games.hase_und_igel.rules import (
    COST,
    EAT,
    FALL,
    HURRY,
    TAKE,
    Action,
    Move,
    State,
    advance,
    card,
    eat_salad,
    exchange,
    fall_back,
    fall_back_target,
    field_at,
    must_advance,
    must_eat_salad,
    skip,
)


def legal_moves(state: State) -> list[Move]:
    """Every complete action list the validator accepts for the player to move.

    Card values are canonical: TAKE_OR_DROP_CARROTS with 20, -20 or 0, other cards with 0.
    """
    board, p, o = state.board, state.current, state.other
    index, carrots, salads, cards = p.index, p.carrots, p.salads, tuple(p.cards)
    here = field_at(board, index)
    eat_pending = must_eat_salad(board, p)
    stuck = must_advance(board, p)
    moves: list[Move] = []
    short_advance = False  # an advance the skip check would see (distance <= 44)
    if not eat_pending:
        last_index = len(board) - 1
        distance = 1
        while distance < len(COST) and COST[distance] <= carrots and index + distance <= last_index:
            target = index + distance
            kind = board[target]
            left = carrots - COST[distance]
            step = _ADVANCES[distance]
            found = False
            if target == o.index and target != GOAL_INDEX or kind == HEDGEHOG or kind == START:
                pass
            elif kind == HARE:
                for chain in _chains(board, target, left, salads, cards, o.index, o.carrots, 1):
                    moves.append(Move((step,) + chain))
                    found = True
            elif kind == SALAD:
                found = salads > 0
            elif kind == GOAL:
                found = left <= 10 and salads == 0
            else:
                found = True
            if found:
                if kind != HARE:
                    moves.append(Move((step,)))
                short_advance = short_advance or distance <= 44
            distance += 1
    blocking = short_advance
    if here == HARE and not stuck:
        for chain in _chains(board, index, carrots, salads, cards, o.index, o.carrots, 0):
            moves.append(Move(chain))
            blocking = True
    if here == CARROT:
        moves.append(_EXCHANGE_PLUS)
        if carrots >= 10:
            moves.append(_EXCHANGE_MINUS)
        blocking = True
    if here == SALAD and salads > 0 and not stuck:
        moves.append(_EAT)
        blocking = True
    if fall_back_target(board, p, o) is not None:
        moves.append(_FALL)
        blocking = True
    if not blocking:
        moves.append(_SKIP)
    return moves


_ADVANCES = tuple(advance(d) for d in range(len(COST)))
_EXCHANGE_PLUS = Move((exchange(10),))
_EXCHANGE_MINUS = Move((exchange(-10),))
_EAT = Move((eat_salad(),))
_FALL = Move((fall_back(),))
_SKIP = Move((skip(),))


@lru_cache(maxsize=1 << 16)
def _chains(board: tuple[str, ...], index: int, carrots: int, salads: int, cards: tuple[str, ...],
            other_index: int, other_carrots: int, order: int) -> tuple[tuple[Action, ...], ...]:
    """All card sequences playable from a hare field at ``index`` (not in must-advance state)."""
    first = other_index <= index and not (
        index == GOAL_INDEX == other_index and carrots >= other_carrots)
    out: list[tuple[Action, ...]] = []
    for position, card_type in enumerate(cards):
        if card_type == TAKE:
            out.append((card(TAKE, 20, order),))
            if carrots >= 20:
                out.append((card(TAKE, -20, order),))
            out.append((card(TAKE, 0, order),))
        elif card_type == EAT:
            if salads > 0:
                out.append((card(EAT, 0, order),))
        elif card_type == HURRY or card_type == FALL:
            if (card_type == HURRY) == first:
                continue
            target = other_index + 1 if card_type == HURRY else other_index - 1
            kind = field_at(board, target)
            action = card(card_type, 0, order)
            if kind == HARE:
                rest = cards[:position] + cards[position + 1:]
                for tail in _chains(board, target, carrots, salads, rest, other_index,
                                    other_carrots, order + 1):
                    out.append((action,) + tail)
            elif kind == SALAD:
                if salads > 0:
                    out.append((action,))
            elif kind == GOAL:
                if carrots <= 10 and salads == 0:
                    out.append((action,))
            elif kind not in (INVALID, HEDGEHOG, START):
                out.append((action,))
    return tuple(out)
