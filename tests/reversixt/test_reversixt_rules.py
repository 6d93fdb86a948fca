"""ReversiXT rules and referee, checked against every captured game of the reference server.

Each capture's answers (the bytes each client sent) are fed to the referee in turn order, as the
server would read them; the move log and the result file must equal the reference's. Scenarios
whose outcome depends on the clock or on the transport (timeouts, a failed send) are left to the
server tests (tests/reversixt/test_reversixt_door.py).
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swc_local.games.reversixt.mapfile import GameMap, Transition, load_map, parse_map
from swc_local.games.reversixt.referee import Referee
from swc_local.games.reversixt.rules import State
from swc_local.protocol import reversixt as wire
from tests.reversixt_golden import GOLDEN, MAPS, frames, normalise_log, scenarios

TRANSPORT_OR_CLOCK = {"fault_disconnect_waiting_closed", "fault_no_answer_no_limit", "rules_map_over_64k"}
REPLAYABLE = sorted(
    s.name for s in scenarios().values() if s.log() is not None and not s.timed and s.name not in TRANSPORT_OR_CLOCK
)


def replay(scenario, on_request=None) -> Referee:
    game_map = load_map(str(MAPS / scenario.map_name))
    n = game_map.players
    answers = {k: frames(scenario.sent(k))[1:] for k in range(1, n + 1)}
    groups = [frames(scenario.sent(k))[0].payload[0] for k in range(1, n + 1)]
    referee = Referee(game_map, groups, 0, int(scenario.option("-d", 1)), f"../maps/{scenario.map_name}", 0, 0.0)
    while True:
        action, player = referee.next_action()
        if action == "end_game":
            return referee
        if action == "end_phase1":
            continue
        if on_request is not None:
            on_request(referee, player)
        referee.request(player)
        if not answers[player]:
            referee.fault(player, "receive failed")
            continue
        frame = answers[player].pop(0)
        if frame.type not in wire.FIXED_LENGTH or len(frame.payload) != wire.FIXED_LENGTH[frame.type]:
            referee.fault(player, "receive failed")
        elif frame.type != wire.MOVE:
            referee.fault(player, "invalid message")
        else:
            move = wire.decode_move(frame.payload)
            referee.answer(player, move.x, move.y, move.special, 0.0)


@pytest.mark.parametrize("name", REPLAYABLE)
def test_captured_game_replays_to_the_same_log_and_result(name):
    scenario = scenarios()[name]
    referee = replay(scenario)
    assert normalise_log("".join(referee.log)) == normalise_log(scenario.log())
    assert referee.result_text(scenario.map_name) == scenario.result()


def test_bomb_spreads_through_transitions_and_stops_at_holes():
    state = State.initial(load_map(str(MAPS / "bombs_2p.map")))
    w = state.game_map.width
    assert state.bomb(1, 0, 0)
    holes = {(i % w, i // w) for i, code in enumerate(state.squares) if code == 9}
    for square in [(x, y) for x in range(3) for y in range(3)] + [(9, 7), (8, 6), (9, 6), (8, 7)]:
        assert square in holes
    assert (0, 3) not in holes


def test_ring_walk_stops_at_its_start():
    state = State.initial(load_map(str(MAPS / "ring_2p.map")))
    assert state.check_placement(1, 0, 0, 0) is None


def test_inversion_and_choice():
    state = State.initial(load_map(str(MAPS / "specials_3p.map")))
    flips = state.check_placement(1, 2, 2, 0)
    assert flips
    before = bytes(state.squares)
    state.place(1, 2, 2, 0, flips)
    shifted = [(c % 3 + 1) if 1 <= c <= 3 else c for c in before]
    for f in flips + [2 * 10 + 2]:
        shifted[f] = 2
    assert list(state.squares) == shifted
    state = State.initial(load_map(str(MAPS / "specials_3p.map")))
    assert state.check_placement(1, 2, 0, 0) is None and state.check_placement(1, 2, 0, 4) is None
    flips = state.check_placement(1, 2, 0, 3)
    p1, p3 = state.stones(1), state.stones(3)
    state.place(1, 2, 0, 3, flips)
    assert (state.stones(1), state.stones(3)) == (p3, p1 + 1 + len(flips))


def _slow_targets(state: State, player: int) -> set[int]:
    """Oracle: try every square with check_placement (all legal specials)."""
    out = set()
    gm = state.game_map
    for y in range(gm.height):
        for x in range(gm.width):
            code = state.squares[y * gm.width + x]
            special = 1 if code == 10 else 20 if code == 12 else 0
            if state.check_placement(player, x, y, special) is not None:
                out.add(y * gm.width + x)
    return out


@st.composite
def random_maps(draw):
    n = draw(st.integers(2, 8))
    w, h = draw(st.integers(2, 9)), draw(st.integers(2, 9))
    chars = ["0"] * 6 + ["-", "c", "i", "b", "x"] + [str(p) for p in range(1, n + 1)] * 2
    rows = [[draw(st.sampled_from(chars)) for _ in range(w)] for _ in range(h)]
    header = f"{n}\n{draw(st.integers(0, 2))}\n{draw(st.integers(0, 2))} {draw(st.integers(0, 2))}\n{h} {w}\n"
    text = header + "\n".join(" ".join(r) for r in rows) + "\n"
    game_map = parse_map(text.encode())
    # transitions between random usable ends
    ends = [
        (x, y, r)
        for y in range(h)
        for x in range(w)
        for r in range(8)
        if rows[y][x] != "-" and not (0 <= x + (0, 1, 1, 1, 0, -1, -1, -1)[r] < w and 0 <= y + (-1, -1, 0, 1, 1, 1, 0, -1)[r] < h and rows[y + (-1, -1, 0, 1, 1, 1, 0, -1)[r]][x + (0, 1, 1, 1, 0, -1, -1, -1)[r]] != "-")
    ]
    rng = random.Random(draw(st.integers(0, 2**32)))
    rng.shuffle(ends)
    lines = []
    for i in range(0, min(len(ends) - 1, 2 * draw(st.integers(0, 6))), 2):
        lines.append("%d %d %d <-> %d %d %d" % (ends[i] + ends[i + 1]))
    return parse_map((text + "\n".join(lines) + "\n").encode()), rng


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_maps())
def test_random_games_never_raise_and_always_end(case):
    game_map, rng = case
    referee = Referee(game_map, [0] * game_map.players)
    for _ in range(10_000):
        action, player = referee.next_action()
        if action == "end_game":
            break
        if action == "end_phase1":
            continue
        referee.request(player)
        state = referee.state
        if referee.phase == 1:
            targets = state.legal_targets(player)
            assert targets == _slow_targets(state, player)
            if rng.random() < 0.03:
                referee.answer(player, rng.randrange(70000) & 0xFFFF, 0, rng.randrange(256), 0.0)
                continue
            square = rng.choice(sorted(targets))
            x, y = square % game_map.width, square // game_map.width
            code = state.squares[square]
            special = rng.randint(1, game_map.players) if code == 10 else rng.choice((20, 21)) if code == 12 else 0
            verdict = referee.answer(player, x, y, special, 0.0)
            assert verdict.disqualified is None
        else:
            squares = [i for i, c in enumerate(state.squares) if c != 9]
            square = rng.choice(squares)
            verdict = referee.answer(player, square % game_map.width, square // game_map.width, 0, 0.0)
            assert verdict.disqualified is None
    else:
        pytest.fail("game did not end")
    assert referee.finished


VALID_POSITIONS = json.loads((GOLDEN / "valid_positions.json").read_text())


@pytest.mark.parametrize("name", REPLAYABLE)
def test_legal_move_counts_equal_the_reference_at_every_request(name):
    """The reference prints ``valid positions: N`` (its own move generator's count for the player
    it is about to ask) before every request: a perft-like oracle for ours. Phase 1 only; the
    number it prints in phase 2 is not a count of bomb targets."""
    scenario = scenarios()[name]
    counts = []
    replay(scenario, on_request=lambda referee, player: counts.append(
        len(referee.state.legal_targets(player)) if referee.phase == 1 else None))
    expected = VALID_POSITIONS[name]
    assert len(counts) == len(expected)
    assert [c for c in counts] == [e if c is not None else None for c, e in zip(counts, expected)]
