"""Property tests: random legal playouts, and the generator against the literal validator.

Why both directions: the generator (fast, used by bots and the random player) and the validator
(literal, used by the server) are written independently; if they agree on every state a random
game reaches, neither can quietly drift from the spec.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swc_local.games.hase_und_igel import movegen, rules
from swc_local.games.hase_und_igel.entry import ENTRY as HASE_UND_IGEL_ENTRY
from swc_local.games.hase_und_igel.rules import (
    CARD,
    CARD_TYPES,
    EAT,
    FALL,
    HURRY,
    TAKE,
    Move,
    RuleViolation,
    advance,
    card,
    eat_salad,
    exchange,
    fall_back,
    perform_move,
    skip,
)

PLUGIN = HASE_UND_IGEL_ENTRY.plugin

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
SLOW = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# An example of the two exhaustive checks below is a whole game, every position of it checked
# move by move: 40 random games are plenty (100 cost the suite 12 s).
WHOLE_GAMES = settings(SLOW, max_examples=40)


def _accepts(state: rules.State, actions) -> tuple[bool, str | None]:
    trial = state.copy()
    try:
        perform_move(trial, Move(tuple(actions)))
    except RuleViolation as violation:
        return False, violation.message
    return True, None


def _normal(actions) -> Move:
    """The generator's canonical form: sorted by order, ignored values set to 0."""
    ordered = sorted(actions, key=lambda a: a.order)
    valueless = (rules.EAT_SALAD, rules.FALL_BACK, rules.SKIP)
    return Move(tuple(
        a._replace(value=0) if a.kind in valueless or a.kind == CARD and a.card != TAKE else a
        for a in ordered))


def _playout_states(seed: int):
    """Every state (before each move) of one random legal game, and the finished game."""
    rng = random.Random(seed)
    game = PLUGIN.new_game(rng)
    states = []
    while game.outcome() is None:
        assert game.turn < rules.TURN_LIMIT
        states.append(game.state.copy())
        move = PLUGIN.random_move(game, rng)
        assert move is not None
        game.apply(game.current_seat, move)
    return states, game


@SLOW
@given(SEEDS)
def test_random_playouts_end_by_turn_60_and_every_offer_is_accepted(seed):
    states, game = _playout_states(seed)
    assert game.turn <= rules.TURN_LIMIT
    outcome = game.outcome()
    assert outcome.winner in (0, 1)
    assert len(game.score_parts(0)) == 2
    for state in states:
        moves = movegen.legal_moves(state)
        assert moves and len(set(moves)) == len(moves)
        for move in moves:
            assert _accepts(state, move.actions) == (True, None), move


_FIRST = ([advance(d) for d in range(-1, 67)]
          + [exchange(v) for v in (-20, -10, 0, 10, 20)]
          + [eat_salad(), fall_back(), skip()])
_CARD_CHOICES = [(t, v) for t in CARD_TYPES for v in ((20, -20, 0, 10) if t == TAKE else (0,))]


def _validator_moves(state: rules.State) -> set[Move]:
    """Every move over the alphabet above that the validator accepts.

    Pruning is exact because there is no rollback: a prefix that fails fails every extension.
    """
    accepted: set[Move] = set()

    def extend(prefix):
        order = len(prefix)
        followers = [card(t, v, order) for t, v in _CARD_CHOICES]
        followers += [advance(1, order), skip(order)]
        for action in followers:
            explore(prefix + [action])

    def explore(actions):
        ok, message = _accepts(state, actions)
        if ok:
            accepted.add(Move(tuple(actions)))
        if (ok or message == rules.MUST_PLAY_CARD) and len(actions) < 5:
            extend(actions)

    for first in _FIRST + [card(t, v) for t, v in _CARD_CHOICES]:
        explore([first])
    return accepted


@WHOLE_GAMES
@given(SEEDS)
def test_validator_accepts_exactly_the_generated_moves(seed):
    states, _ = _playout_states(seed)
    for state in states:
        assert _validator_moves(state) == set(movegen.legal_moves(state))


def _mutate(move: Move, rng: random.Random) -> list[rules.Action]:
    actions = list(move.actions)
    choice = rng.randrange(7)
    i = rng.randrange(len(actions))
    a = actions[i]
    if choice == 0:
        actions[i] = a._replace(value=a.value + rng.choice((-1, 1, 10, -10, 20)))
    elif choice == 1:
        actions[i] = a._replace(order=a.order + rng.choice((-1, 1)))
    elif choice == 2 and a.kind == CARD:
        actions[i] = a._replace(card=rng.choice(CARD_TYPES))
    elif choice == 3:
        actions.append(card(rng.choice(CARD_TYPES), rng.choice((20, -20, 0)), len(actions)))
    elif choice == 4 and len(actions) > 1:
        actions.pop()
    elif choice == 5:
        rng.shuffle(actions)  # XML order is irrelevant once orders are right
    else:
        actions[i] = a._replace(value=rng.randrange(100))  # e.g. a card's ignored value
    return actions


@WHOLE_GAMES
@given(SEEDS)
def test_random_action_lists_are_accepted_iff_offered(seed):
    states, _ = _playout_states(seed)
    rng = random.Random(seed ^ 0x5A5A)
    for state in states:
        legal = set(movegen.legal_moves(state))
        offered = sorted(legal)
        for _ in range(40):
            if rng.random() < 0.6:
                actions = _mutate(rng.choice(offered), rng)
            else:
                actions = [rng.choice(_FIRST)] + [
                    card(rng.choice(CARD_TYPES), rng.choice((20, -20, 0)), k)
                    for k in range(1, rng.randrange(1, 4))]
            ok, _message = _accepts(state, actions)
            assert ok == (_normal(actions) in legal), actions


def test_skip_is_offered_only_when_nothing_else_is():
    for seed in range(30):
        states, _ = _playout_states(seed)
        for state in states:
            moves = movegen.legal_moves(state)
            if Move((skip(),)) in moves:
                assert moves == [Move((skip(),))]


@st.composite
def arbitrary_states(draw):
    """Positions a real game rarely reaches: goal, order-0 cards, odd hands, rich players."""
    from swc_local.games.hase_und_igel.board import generate

    board = generate(random.Random(draw(SEEDS)))
    red_index = draw(st.integers(0, 64))
    blue_index = draw(st.integers(0, 64).filter(
        lambda i: i != red_index or i in (0, 64)))
    actions = st.sampled_from([None, advance(3), card(TAKE, 20, 1), card(EAT, 0, 1),
                               card(HURRY, 0, 2), card(FALL, 0, 1), eat_salad(), fall_back(),
                               exchange(10)])
    carrots = st.one_of(st.integers(0, 120), st.integers(0, 2200))

    def player(color, index):
        hand = [t for t in CARD_TYPES if draw(st.booleans())]
        return rules.Player(color, index, draw(carrots), draw(st.integers(0, 5)), hand,
                            draw(actions))

    return rules.State(board, player(0, red_index), player(1, blue_index),
                       draw(st.integers(0, 59)))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(arbitrary_states())
def test_validator_and_generator_agree_on_constructed_states(state):
    assert _validator_moves(state) == set(movegen.legal_moves(state))


def test_skip_check_looks_at_most_44_fields_ahead():
    # §4.6: with >= 1035 carrots the skip check stops at distance 44, so a far goal jump and a
    # skip are both legal on this (constructed) board.
    board = (("START",) + ("CARROT",) * 14 + ("HEDGEHOG",) + ("POSITION_1",) * 4
             + ("HEDGEHOG",) * 44 + ("GOAL",))
    red = rules.Player(0, 19, 1040, 0, [], advance(4))
    blue = rules.Player(1, 15, 50, 5, [], fall_back())
    state = rules.State(board, red, blue, 0)
    assert set(movegen.legal_moves(state)) == {Move((advance(45),)), Move((skip(),))}
    assert _validator_moves(state) == set(movegen.legal_moves(state))
