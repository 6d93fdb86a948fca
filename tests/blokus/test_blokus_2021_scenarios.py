"""Every captured Blokus 2021 scenario of the official 21.4.0 server, replayed over TCP.

Each connection must receive the captured bytes (modulo room ids and reservation codes); rooms
start from the captured first memento (the start piece is the only random part of a board).  The
server runs with ``lobbyDialect = 2021`` where a capture's first message is a 2022-looking lobby
request (``password=``, ``<join/>``, ``joinRoom``) that only the dialect setting can tell from a
2022+ one.  Data: tests/data/blokus_2021/scenarios (transcripts, raw streams and the Ruby
client's proxied streams, large ones gzipped), copied from shared/golden/blokus_2021.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

from tests.scenario import Action, Replay, _clients_from_transcript, load
from tests.wire import data_class, messages
from tests.helpers import TESTS

FOLDER = TESTS / "data" / "blokus_2021" / "scenarios"
SEASON = {"lobby_dialect": "2021", "password": "examplepassword"}


def _read(path: Path) -> bytes:
    gz = path.with_name(path.name + ".gz")
    return gzip.decompress(gz.read_bytes()) if gz.exists() else path.read_bytes()


def scenario(name: str, tmp_path: Path):
    """Actions and clients of capture ``name``: raw connections from their ``.raw`` files, the
    proxied Ruby clients from ``<conn>_recv.xml``/``_sent.xml`` (their sends split at each
    ``<room>``, sent at the transcript's send points)."""
    transcript = tmp_path / f"transcript_{name}.txt"
    transcript.write_bytes(_read(FOLDER / f"transcript_{name}.txt"))
    folder = tmp_path / name
    folder.mkdir()
    for raw in (FOLDER / name).glob("*.raw*"):
        (folder / raw.name).write_bytes(raw.read_bytes())
    actions, clients = load(tmp_path, name)
    proxied = {path.name.split("_sent")[0] for path in (FOLDER / name).glob("*_sent.xml")}
    if not proxied:
        return actions, clients
    rebuilt = _clients_from_transcript(transcript)
    sent = {}
    for conn in proxied:
        sent[conn] = re.split(r"(?=<room )", _read(FOLDER / name / f"{conn}_sent.xml").decode())
        clients[conn] = rebuilt[conn]
        clients[conn].golden = _read(FOLDER / name / f"{conn}_recv.xml")
    used = dict.fromkeys(proxied, 0)
    for index, action in enumerate(actions):
        if action.kind == "send" and action.client in proxied:
            actions[index] = Action(action.time, action.client, "send", sent[action.client][used[action.client]])
            used[action.client] += 1
    assert used == {conn: len(pieces) for conn, pieces in sent.items()}
    for conn in sorted(proxied):  # the client's </protocol> came after it had read the result
        index = max(i for i, a in enumerate(actions) if a.client == conn and a.kind == "send")
        last = actions[index]
        if last.text.endswith("</protocol>"):
            last.text = last.text[: -len("</protocol>")]
            closed = [i for i, a in enumerate(actions) if i > index and a.client == conn and a.kind == "expect_closed"]
            actions.insert(closed[0] if closed else len(actions), Action(last.time, conn, "send", "</protocol>"))
            clients[conn].prefixes.append(len(clients[conn].golden))
    return actions, clients


def first_state(clients: dict):
    """The captured board: the memento with the lowest turn in any client's capture (an admin
    that observes a running room sees a later one first)."""
    states = [m.find("data").find("state") for client in clients.values() for m in messages(client.golden)
              if data_class(m) == "memento"]
    return min(states, key=lambda state: int(state.get("turn"))) if states else None


async def replay(start_server, name: str, tmp_path: Path, timed: bool = False, race_tail: bool = False,
                 **settings) -> tuple[Replay, dict]:
    """Replay capture ``name``; every client's bytes must equal the capture.  ``race_tail``: both
    clients sent ``</protocol>`` in the same millisecond, and the official server's result for
    the one who left second was lost with its socket; ours flushes what it queued before a
    connection closes, so there a result and ``left`` may follow the captured bytes."""
    actions, clients = scenario(name, tmp_path)
    boards = [state] if (state := first_state(clients)) is not None else []
    factory = (lambda plugin, rng: plugin.game_from_state(boards[0])) if boards else None
    server = await start_server(game_factory=factory, **(SEASON | settings))
    result = Replay(server.door("xml").port, actions, clients, timed=timed)
    await result.run()
    for client in clients.values():
        ours = result.normalised(client)
        if race_tail and ours.startswith(client.golden):
            assert [data_class(m) or m.tag for m in messages(b"<protocol>" + ours[len(client.golden):])] in ([], ["result", "left"])
            continue
        assert ours == client.golden, client.name
    return result, clients


UNTIMED = [
    "invalid_wrong_color", "invalid_wrong_shape", "invalid_skip_first", "invalid_not_in_corner",
    "invalid_out_of_bounds", "invalid_negative", "invalid_duplicate", "invalid_no_shared_corner",
    "invalid_obstructed", "invalid_touches", "invalid_alias", "invalid_no_position", "invalid_unknown_kind",
    "prepared_invalid", "skip_legal", "notyourturn", "disconnect", "close_after_left", "close_full",
    "admin_misc", "admin_lonely", "lobby", "raw_game",
]


@pytest.mark.parametrize("name", UNTIMED)
async def test_captured_scenario(start_server, tmp_path, name):
    await replay(start_server, name, tmp_path)


@pytest.mark.parametrize("name", ["softtimeout", "hardtimeout", "join_slow", "join_never"])
async def test_captured_timing_scenario(start_server, tmp_path, mock_clock, name):
    """Timeouts (2 s soft, 10 s hard; ``<join>`` players never: 3 s and 40 s without a word pass
    without a result) on trio's mock clock."""
    mock_clock.autojump_threshold = 0.01
    await replay(start_server, name, tmp_path, timed=True, race_tail=name.startswith("join"))


async def test_ruby_client_game(start_server, tmp_path):
    """The official Ruby client v21.2.0 against itself, a whole game (TWO wins 136:104)."""
    _, clients = await replay(start_server, "ruby_game", tmp_path)
    assert b"<part>136</part>" in clients["ONE"].golden


async def test_ruby_clients_in_a_prepared_paused_room(start_server, tmp_path):
    """Admin prepare (paused, Alice/Bob), observe, two steps, unpause; the Ruby clients join with
    their codes and play the whole game."""
    _, clients = await replay(start_server, "admin_prepared", tmp_path)
    assert b'<first displayName="Alice">' in clients["ONE"].golden


async def test_the_winner_by_points_names_the_player_who_timed_out(start_server, tmp_path, mock_clock):
    """§7.4, §13.1: Alice soft-times-out, yet ``<winner displayName="Alice">`` (more points)."""
    mock_clock.autojump_threshold = 0.1
    _, clients = await replay(start_server, "admin_prepared_timeout", tmp_path, timed=True)
    result = [m for m in messages(clients["TWO"].golden) if data_class(m) == "result"][-1].find("data")
    assert [s.get("cause") for s in result.findall("score")] == ["SOFT_TIMEOUT", "REGULAR"]
    assert result.find("winner").get("displayName") == "Alice"


@pytest.mark.parametrize("name", ["admin_prepared", "invalid_wrong_shape", "notyourturn", "close_full"])
async def test_a_default_server_speaks_2021_to_whoever_names_the_game(start_server, tmp_path, name):
    """Without ``lobbyDialect = 2021`` (the default server of every game): the clients name
    ``swc_2021_blokus`` in ``join`` or hold its reservations, so their connections speak 2021; the
    admin who authenticated with ``password=`` speaks the 2022+ lobby, whose answers to these
    requests are the same bytes."""
    await replay(start_server, name, tmp_path, lobby_dialect="classic")


def test_lobby_dialect_2021_is_a_setting(tmp_path):
    from swc_local.server.config import ConfigError, load_settings
    from swc_local.tools.cli import build_parser

    path = tmp_path / "server.properties"
    path.write_text("lobbyDialect = 2021\n")
    assert load_settings(path).section("xml").lobby_dialect == "2021"
    path.write_text("lobbyDialect = 2019\n")
    with pytest.raises(ConfigError, match="lobbyDialect must be classic, modern, 2020 or 2021, not '2019'"):
        load_settings(path)
    assert build_parser().parse_args(["serve", "--lobby-dialect", "2021"]).lobby_dialect == "2021"
