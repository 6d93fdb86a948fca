"""The server's "sensible moves" of Hase und Igel 2025 (spec §4.7): what bots choose from.

Why this list and not every move the validator accepts: the validator also accepts moves no bot
should make (``advance 0``, negative distances, spec §9 H26/H27), and the official server uses
exactly this list to decide whether a hare is skipped; socha 3.7.2's ``possible_moves()`` gave the
same list on every captured position. Every move here is accepted by :func:`rules.perform_move`
(the property tests check that), and every forward advance the validator accepts is here.

Spec-conformance notes:
- Card sequences on a HARE field: each distinct card kind in the hand that passes its check,
  followed (for a moving card) by whatever the field it lands on allows: more cards on a HARE
  (a sequence that would strand the hare there is dropped), one card of each kind bought on a
  MARKET, nothing elsewhere. The official code walks a hash set of the hand, so its order is
  arbitrary; here cards come in the order of :data:`state.CARDS`.
"""

from __future__ import annotations

from swc_local.games.hase_und_igel_2025.state import (
    CARDS,
    MARKET_PRICE,
    MOVING_CARDS,
    Advance,
    EatSalad,
    ExchangeCarrots,
    FallBack,
    Hare,
    Move,
    State,
    card_effect,
    check_advance,
    check_card,
    cost,
    fallback_target,
    max_distance,
    may_exchange,
    must_eat_salad,
)
from swc_local.games.hase_und_igel_2025.track import GOAL_INDEX, HARE, MARKET


def sensible_moves(state: State) -> list[Move]:
    """The move list of the hare to move (empty: the server would skip it)."""
    hare = state.current
    if must_eat_salad(state, hare):
        return [EatSalad()]
    moves: list[Move] = []
    for distance in range(1, min(max_distance(hare.carrots), GOAL_INDEX - hare.position) + 1):
        if check_advance(state, hare, distance) is not None:
            continue
        trial = state.copy()
        mover = trial.hares[state.seat]
        mover.carrots -= cost(distance)
        mover.position += distance
        sequences = card_sequences(trial, mover)
        if sequences is None:
            moves.append(Advance(distance))
        else:
            moves.extend(Advance(distance, cards) for cards in sequences)
    if fallback_target(state, hare) is not None:
        moves.append(FallBack())
    moves.extend(ExchangeCarrots(amount) for amount in (10, -10)
                 if may_exchange(state, hare, amount))
    return moves


def has_sensible_move(state: State) -> bool:
    """Whether the hare to move has any move (cheaper than building the list when it has one)."""
    hare = state.current
    if must_eat_salad(state, hare):
        return True
    if fallback_target(state, hare) is not None or may_exchange(state, hare, 10):
        return True
    return bool(sensible_moves(state))


def card_sequences(state: State, hare: Hare) -> list[tuple[str, ...]] | None:
    """Card lists ``hare`` can use where it stands; None when the field takes no cards."""
    kind = state.field_at(hare.position)
    if kind == MARKET:
        return [(card,) for card in CARDS] if hare.carrots >= MARKET_PRICE else []
    if kind != HARE:
        return None
    sequences: list[tuple[str, ...]] = []
    for card in CARDS:
        if card not in hare.cards:
            continue
        trial = state.copy()
        player = trial.hares[0 if hare is state.hares[0] else 1]
        player.cards.remove(card)
        if check_card(trial, player, card) is not None:
            continue
        card_effect(trial, player, card)
        if card not in MOVING_CARDS:
            sequences.append((card,))
            continue
        following = card_sequences(trial, player)
        if following is None:
            sequences.append((card,))
        else:
            sequences.extend((card, *rest) for rest in following)
    return sequences
