"""Every captured scenario of the official Mississippi Queen 2024 server (24.2.5), replayed over
TCP byte for byte (shared/golden/mississippi_queen_2024, copied to
tests/data/mississippi_queen/scenarios, streams gzipped).

The official river is unseeded, so each room starts from the captured one: the first memento's
state, with the segments later mementos revealed added unrevealed (a move may reveal them).
"""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest

from swc_local.games.mississippi_queen import xmlmap
from swc_local.games.mississippi_queen.plugin import MississippiQueenGame
from tests.scenario import Replay, load, run_capture
from tests.piranhas.test_scenarios_piranhas_2026 import load_socha_capture
from tests.wire import data_class, messages
from tests.helpers import TESTS

FOLDER = TESTS / "data" / "mississippi_queen" / "scenarios"
GAME = "swc_2024_mississippi_queen"
SETTINGS = {"default_game": GAME, "lobby_dialect": "modern"}

RAW = [
    "admin_cancel", "close", "disconnect", "end_goal", "end_round_limit_passengers", "end_round_limit_points",
    "end_round_limit_tie", "end_segment_distance", "invalid_acc_above_max", "invalid_acc_below_min",
    "invalid_acc_coal", "invalid_acc_not_first", "invalid_acc_sandbank", "invalid_acc_zero", "invalid_action",
    "invalid_adv_blocked", "invalid_adv_distance", "invalid_adv_points", "invalid_adv_push_points",
    "invalid_adv_sandbank", "invalid_adv_through", "invalid_direction", "invalid_no_actions",
    "invalid_no_actions_element", "invalid_points_left", "invalid_push_backward", "invalid_push_blocked",
    "invalid_push_offboard", "invalid_push_points", "invalid_push_required", "invalid_push_same_field",
    "invalid_push_sandbank", "invalid_turn_coal", "invalid_turn_sandbank", "lobby", "notyourturn",
]


def river_of(clients) -> tuple:
    """(first state, the state that shows the most segments) of a capture, or None."""
    states = [m.find("data").find("state") for c in clients.values() for m in messages(c.golden)
              if data_class(m) == "memento"]
    if not states:
        return None
    return states[0], max(states, key=lambda s: len(s.find("board").findall("segment")))


def factory_for(clients):
    river = river_of(clients)
    if river is None:
        return None
    first, widest = river
    return lambda plugin, rng: MississippiQueenGame(xmlmap.position_from_state(first, widest))


async def replay(start_server, actions, clients, timed: bool = False, **settings) -> Replay:
    server = await start_server(game_factory=factory_for(clients), password="examplepassword",
                                **(SETTINGS | settings))
    result = Replay(server.door("xml").port, actions, clients, timed=timed)
    await result.run()
    return result


def assert_all_equal(result: Replay, clients, unlike: dict[str, bytes] | None = None) -> None:
    """Every connection got the captured bytes, except those in ``unlike`` (name -> what we send)."""
    unlike = unlike or {}
    assert clients and any(client.golden for client in clients.values())
    for client in clients.values():
        expected = unlike.get(client.name, client.golden)
        assert result.normalised(client) == expected, client.name


@pytest.mark.parametrize("name", [name for name in RAW if name != "close"])
async def test_captured_scenario(start_server, name):
    actions, clients = load(FOLDER, name)
    assert_all_equal(await replay(start_server, actions, clients), clients)


async def test_captured_close(start_server):
    """``<sc.protocol.CloseConnection/>`` before and after a join, and ``<close/>`` in a game (no
    message in 24.2.5: dropped, PROTOCOL_ERROR) as captured.  The one difference: ``<close/>`` as
    a connection's first message (K1) cannot show which season it speaks, so it is answered as
    the 2025+ servers answer it (``<protocol/>``); 24.2.5 closed without a byte."""
    actions, clients = load(FOLDER, "close")
    assert clients["K1"].golden == b""
    result = await replay(start_server, actions, clients)
    assert_all_equal(result, clients, unlike={"K1": b"<protocol/>"})
    assert b"ONE hat das Spiel verlassen: PROTOCOL_ERROR" in clients["C2"].golden


@pytest.mark.parametrize("name", ["softtimeout", "hardtimeout"])
async def test_captured_timeout(start_server, mock_clock, name):
    """The 2 s soft and 10 s hard timeouts of a prepared ``canTimeout`` slot, on a virtual clock."""
    mock_clock.autojump_threshold = 0.1
    actions, clients = load(FOLDER, name)
    assert_all_equal(await replay(start_server, actions, clients, timed=True), clients)


async def test_captured_slow_join_player_with_timeouts_off(start_server, mock_clock):
    """24.x never timed out ``<join/>`` players (``join_slow``: a move 3 s late is accepted);
    here they are timed out unless the server's ``timeout`` key is false, as for every season."""
    mock_clock.autojump_threshold = 0.1
    actions, clients = load(FOLDER, "join_slow")
    assert_all_equal(await replay(start_server, actions, clients, timed=True, join_timeout=False), clients)


def _socha_folder(name: str, tmp_path: Path) -> tuple[Path, Path]:
    """The capture unpacked as tests/piranhas/test_scenarios_piranhas_2026 reads socha captures."""
    folder = tmp_path / name
    folder.mkdir()
    for packed in (FOLDER / name).glob("*.gz"):
        (folder / packed.name[:-3]).write_bytes(gzip.decompress(packed.read_bytes()))
    transcript = tmp_path / f"transcript_{name}.txt"
    transcript.write_bytes(gzip.decompress((FOLDER / f"transcript_{name}.txt.gz").read_bytes()))
    for log in (FOLDER / name).glob("*.log"):
        shutil.copy(log, folder / log.name)
    return folder, transcript


@pytest.mark.parametrize("name", ["socha_game", "socha_admin", "socha_admin_doublestep"])
async def test_captured_socha_clients(start_server, name, tmp_path):
    """Two socha 2.2.2 clients: ``<join/>`` until TWO is stuck (``regular="false"``); prepared
    under an admin that observes, steps and unpauses; a step while a request is pending (a second
    request, then a not-your-turn violation, §10 D4)."""
    actions, clients = load_socha_capture(*_socha_folder(name, tmp_path))
    assert_all_equal(await replay(start_server, actions, clients), clients)
    if name == "socha_game":
        assert b'<winner team="ONE" regular="false" reason="TWO kann sich nicht mehr bewegen."/>' in clients["ONE"].golden


async def test_captured_socha_soft_timeout(start_server, mock_clock, tmp_path):
    """socha 2.2.2 needs more than 2 s for its first move in a ``canTimeout`` slot, on a virtual clock."""
    mock_clock.autojump_threshold = 0.1
    actions, clients = load_socha_capture(*_socha_folder("socha_admin_softtimeout", tmp_path))
    assert_all_equal(await replay(start_server, actions, clients, timed=True), clients)
