"""Hase und Igel 2025 property tests: random playouts, and the generator against the validator.

Why both directions: the move generator (the server's sensible-move list, used by bots and to
detect skips) and the validator (the literal check of every move a client sends) are written
independently; if they agree on every state random games reach, neither can drift from the spec
unnoticed. "Agree" means: every generated move is accepted, and every forward move the validator
accepts (advances of 1..44 fields with up to three cards, eat salad, fall back, exchanges of
+-10) is generated.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swc_local.games.hase_und_igel_2025 import movegen, rules, track
from swc_local.games.hase_und_igel_2025.entry import ENTRY as HASE_UND_IGEL_2025_ENTRY
from swc_local.games.hase_und_igel_2025.plugin import describe
from swc_local.games.plugin import InvalidMove, MalformedMove
from swc_local.protocol.element import Element
from swc_local.games.hase_und_igel_2025.state import (
    CARDS,
    Advance,
    EatSalad,
    ExchangeCarrots,
    FallBack,
    State,
)
from tests.helpers import random_playout

PLUGIN = HASE_UND_IGEL_2025_ENTRY.plugin

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
PLAYOUTS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def accepts(state: State, move) -> bool:
    trial = state.copy()
    try:
        rules.perform_move(trial, move)
    except rules.RuleViolation:
        return False
    return True


def candidate_moves(state: State):
    """Every forward move worth asking the validator about in ``state``."""
    yield EatSalad()
    yield FallBack()
    yield from (ExchangeCarrots(amount) for amount in (10, -10))
    hare = state.current
    for distance in range(1, 45):
        kind = state.field_at(hare.position + distance)
        longest = 3 if kind == track.HARE else 1
        for length in range(longest + 1):
            for cards in itertools.product(CARDS, repeat=length):
                yield Advance(distance, cards)


def playout(seed: int) -> list[State]:
    """The states (before each move, and the last one) of one random game."""
    states, game, _ = random_playout(PLUGIN, seed, lambda game: game.state.copy())
    return [*states, game.state.copy()]


@PLAYOUTS
@given(SEEDS)
def test_random_games_end_regularly(seed):
    states = playout(seed)
    final = states[-1]
    assert rules.is_over(final), f"no move at turn {final.turn}:\n{describe(final)}"
    assert final.turn <= rules.TURN_LIMIT + 1
    result = rules.result(final)
    assert result is not None and result.reason(("", ""))
    for before, after in zip(states, states[1:]):
        assert after.turn - before.turn in (1, 2)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, st.randoms(use_true_random=False))
def test_generator_and_validator_agree(seed, rng):
    states = playout(seed)
    for state in rng.sample(states, min(8, len(states))):
        if rules.is_over(state):
            continue
        generated = movegen.sensible_moves(state)
        assert len(set(generated)) == len(generated)
        for move in generated:
            assert accepts(state, move), f"generated {move} refused at turn {state.turn}"
        accepted = {move for move in candidate_moves(state) if accepts(state, move)}
        assert accepted == set(generated), (state, accepted ^ set(generated))
        assert movegen.has_sensible_move(state) == bool(generated)


@settings(max_examples=200, deadline=None)
@given(SEEDS)
def test_tracks_have_the_generated_shape_and_seeds_repeat(seed):
    fields = track.generate(random.Random(seed))
    assert track.is_generated_shape(fields)
    assert fields == track.generate(random.Random(seed))
    assert track.from_letters(track.to_letters(fields)) == fields


def test_captured_track_has_the_generated_shape():
    captured = "0HK2HK1KHMSIHKKI12MIKKS2IMHKK2IKKHH21IKKH2SIK2KHM1IMHK2KISHK1KHKZ"
    assert track.is_generated_shape(track.from_letters(captured))
    assert not track.is_generated_shape(track.from_letters(captured.replace("M", "K", 1)))


def test_skip_h33():
    """Spec §9 H33: TWO has no sensible move after ONE's exchange and is skipped (turn 2)."""
    state = State(track.from_letters(
        "0HK2HK1KHMSIHKKI12MIKKS2IMHKK2IKKHH21IKKH2SIK2KHM1IMHK2KISHK1KHKZ"))
    one, two = state.hares
    one.position, one.carrots = 7, 40
    two.position, two.carrots = 6, 0
    rules.perform_move(state, ExchangeCarrots(10))
    assert state.turn == 2 and one.carrots == 50 and state.current is one


def test_random_move_is_none_only_without_moves():
    game = PLUGIN.new_game(random.Random(3))
    assert PLUGIN.random_move(game, random.Random(1)) in PLUGIN.legal_moves(game)
    stuck = PLUGIN.game_from_state(game.state_element())
    stuck.state.track = track.from_letters(
        "0HK2HK1KHMSIHKKI12MIKKS2IMHKK2IKKHH21IKKH2SIK2KHM1IMHK2KISHK1KHKZ")
    one = stuck.state.hares[0]
    one.position, one.carrots = 6, 0  # POSITION_1, no carrots, no hedgehog behind
    assert PLUGIN.legal_moves(stuck) == [] and PLUGIN.random_move(stuck, random.Random(1)) is None


def test_huge_distances_wrap_like_kotlin_ints():
    """cost(65535) wraps to -32768 on the server: the advance fails at the target, not the cost."""
    state = State(track.generate(random.Random(1)))
    with pytest.raises(rules.RuleViolation) as error:
        rules.perform_move(state.copy(), Advance(65535))
    assert error.value.mistake.name == "FIELD_NONEXISTENT"
    with pytest.raises(rules.RuleViolation) as error:
        rules.perform_move(state.copy(), Advance(1000))
    assert error.value.mistake.name == "MISSING_CARROTS"


MOVE_CLASSES = sorted(PLUGIN.move_classes) + ["card", "move", "state"]
INTS = st.one_of(st.integers(-70, 70), st.integers(-(2**31), 2**31 - 1))
CARD_TEXT = st.sampled_from(list(CARDS) + ["JOKER", "", " EAT_SALAD", "eat_salad"])


@st.composite
def move_data(draw):
    """Arbitrary ``<data class=...>`` elements, mostly well-formed, sometimes not."""
    attrs = {"class": draw(st.sampled_from(MOVE_CLASSES))}
    for name in draw(st.lists(st.sampled_from(["distance", "amount", "foo"]), max_size=3)):
        attrs[name] = draw(st.one_of(INTS.map(str), st.sampled_from(["", "x", "0x10", "#7",
                                                                     "99999999999", "-0"])))
    children = [Element("card", text=draw(CARD_TEXT))
                for _ in range(draw(st.integers(0, 4)))]
    if draw(st.booleans()) and draw(st.booleans()):
        children.append(Element("foo"))
    return Element("data", attrs, children)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, st.integers(0, 40), move_data())
def test_any_move_data_is_a_move_a_malformed_move_or_a_verdict(seed, plies, data):
    """Whatever a client sends decodes to a move or MalformedMove, and applying a decoded move
    either works or raises InvalidMove with both official texts; nothing else escapes."""
    rng = random.Random(seed)
    game = PLUGIN.new_game(rng)
    for _ in range(plies):
        move = PLUGIN.random_move(game, rng)
        if move is None or game.outcome() is not None:
            break
        game.apply(game.current_seat, move)
    try:
        move = game.decode_move(data)
    except MalformedMove as error:
        assert error.cause == "PROTOCOL_ERROR"
        return
    try:
        game.apply(game.current_seat, move)
    except InvalidMove as error:
        assert error.reason.endswith(f" bei '{move}'")
        assert error.detail.startswith("InvalidMoveException(mistake=")
        return
    assert game.state.turn >= 1


@settings(max_examples=300, deadline=None)
@given(INTS, st.lists(st.sampled_from(CARDS), max_size=6), SEEDS)
def test_any_advance_gets_a_verdict(distance, cards, seed):
    state = State(track.generate(random.Random(seed)))
    hare = state.hares[0]
    hare.cards = list(cards)
    hare.position = random.Random(seed).randrange(0, 64)
    try:
        rules.perform_move(state, Advance(distance, tuple(cards)))
    except rules.RuleViolation as violation:
        assert violation.mistake.value in violation.reason
