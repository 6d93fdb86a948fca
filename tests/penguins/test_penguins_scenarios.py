"""Every captured Penguins 2023 scenario of the official 23.0.3 server, replayed over TCP.

Each connection must receive the captured bytes (modulo room ids and reservation codes).  Rooms
start from the board the captured game's printed seed gives (``seeds.txt``, Kotlin's XorWow),
so these replays also prove the board generator end to end; the two ``end_*`` scenarios start
from the one-memento replay the official server loaded (``--loadGameFile``), here the captured
first memento.  The 23.x lobby answers a fresh connection's junk the modern way, so the server
runs with ``lobbyDialect = modern`` and ``defaultGame`` Penguins (a 23.x server hosts only it).
Data: tests/data/penguins/scenarios (copied from shared/golden/penguins_2023).
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

from swc_local.games.penguins.entry import ENTRY as PENGUINS_ENTRY
from tests.scenario import SEND_LINE, SENT, Action, Client, Replay, _clients_from_transcript, load
from tests.penguins.test_penguins_rules import SEEDS
from tests.helpers import TESTS

PLUGIN = PENGUINS_ENTRY.plugin

FOLDER = TESTS / "data" / "penguins" / "scenarios"
SETTINGS = {"lobby_dialect": "modern", "default_game": "swc_2023_penguins"}
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")

RAW_SCENARIOS = sorted(
    p.name[len("transcript_"):-len(".txt")] for p in FOLDER.glob("transcript_*.txt")
)
TIMED = {"softtimeout", "hardtimeout", "notimeout_join"}
CLIENT_GAMES = ("socha_game", "ruby_game", "mixed_game", "socha_admin")


def board_factory(name: str):
    """Every room of scenario ``name`` starts from the official board of its printed seed."""
    if name not in SEEDS:
        return None
    return lambda plugin, rng: plugin.game_from_seed(SEEDS[name])


async def run(start_server, name: str, actions, clients, timed: bool = False, **settings) -> Replay:
    factory = board_factory(name)
    if factory is None:  # end_*: the official server loaded a one-memento replay
        from tests.scenario import first_state

        state = first_state(clients)
        factory = lambda plugin, rng: plugin.game_from_state(state)  # noqa: E731
    server = await start_server(game_factory=factory, password="examplepassword", **(SETTINGS | settings))
    replay = Replay(server.door("xml").port, actions, clients, timed=timed)
    replay.server = server
    await replay.run()
    return replay


def assert_all_equal(replay: Replay, clients) -> None:
    assert any(client.golden for client in clients.values())
    for client in clients.values():
        ours = replay.normalised(client)
        at = next((i for i, (a, b) in enumerate(zip(ours, client.golden)) if a != b),
                  min(len(ours), len(client.golden)))
        assert ours == client.golden, (client.name, at, ours[at - 200: at + 200], client.golden[at - 200: at + 200])


@pytest.mark.parametrize("name", [n for n in RAW_SCENARIOS if n not in TIMED])
async def test_captured_scenario(start_server, name):
    actions, clients = load(FOLDER, name)
    replay = await run(start_server, name, actions, clients)
    assert_all_equal(replay, clients)


@pytest.mark.parametrize("name", ["softtimeout", "hardtimeout"])
async def test_captured_timeouts_of_prepared_slots(start_server, mock_clock, name):
    """2 s soft, 10 s hard (written as SOFT_TIMEOUT), on a virtual clock."""
    mock_clock.autojump_threshold = 0.1
    actions, clients = load(FOLDER, name)
    replay = await run(start_server, name, actions, clients, timed=True)
    assert_all_equal(replay, clients)


async def test_join_players_without_timeouts_as_23_x(start_server, mock_clock):
    """With ``timeout = false`` a ``<join/>`` player may think 12 s, as on 23.0.3 (our default
    times ``<join/>`` players out, as for Ostseeschach 2022: see docs/games/penguins.md)."""
    mock_clock.autojump_threshold = 0.1
    actions, clients = load(FOLDER, "notimeout_join")
    replay = await run(start_server, "notimeout_join", actions, clients, timed=True, join_timeout=False)
    assert_all_equal(replay, clients)


def load_raw_client(path: Path) -> Client:
    """One ``.raw.gz`` stream: its bytes without the send marks, and the bytes before each send."""
    parts = SENT.split(gzip.decompress(path.read_bytes()))
    prefixes = [sum(map(len, parts[: i + 1])) for i in range(len(parts) - 1)]
    return Client(path.name.split(".")[0], b"".join(parts), prefixes)


def client_game(name: str, tmp_path: Path) -> tuple[list[Action], dict]:
    """A proxied real-client game: what each client sent (``<conn>_sent.xml``, exact bytes) cut
    into its messages, sent in the transcript's order at the transcript's send points (bytes
    received before each send); received bytes from ``<conn>_recv.xml``.

    The transcript logs a send per line of XML the proxy saw, so a slide of the Ruby client is
    two lines (``<from>``, ``<to>``): a ``<to>`` line right after a ``<from>`` line belongs to the
    same message.  The Ruby client's final ``</protocol>`` is not logged: it goes out once the
    client has received all of its capture (it closes right after the result)."""
    transcript = tmp_path / f"transcript_{name}.txt"
    transcript.write_bytes(gzip.decompress((FOLDER / f"transcript_{name}.txt.gz").read_bytes()))
    clients = _clients_from_transcript(transcript)
    clients = {conn: clients[conn] for conn in ("ONE", "TWO")}
    admin_raw = FOLDER / name / "ADMIN.raw.gz"
    if admin_raw.exists():  # the admin's exact stream, with its send marks
        clients["ADMIN"] = load_raw_client(admin_raw)
    messages: dict[str, list[str]] = {}
    for conn, client in clients.items():
        if conn == "ADMIN":
            continue
        sent = gzip.decompress((FOLDER / name / f"{conn}_sent.xml.gz").read_bytes()).decode()
        messages[conn] = [piece for piece in re.split(r"(?=<room )|(?=</protocol>)", sent) if piece]
        client.golden = gzip.decompress((FOLDER / name / f"{conn}_recv.xml.gz").read_bytes())
    actions, last_line, line_index = [], {"ONE": "", "TWO": ""}, {"ONE": 0, "TWO": 0}
    prefixes: dict[str, list[int]] = {"ONE": [], "TWO": []}
    for match in map(SEND_LINE.match, transcript.read_text(encoding="utf-8").splitlines()):
        if not match or match[2] not in clients:
            continue
        conn, text = match[2], match[3]
        if conn == "ADMIN":
            actions.append(Action(float(match[1]), conn, "send", text))
            continue
        continues = text.startswith("<to ") and last_line[conn].startswith("<from ")
        if not continues:
            prefixes[conn].append(clients[conn].prefixes[line_index[conn]])
            actions.append(Action(float(match[1]), conn, "send", messages[conn].pop(0)))
        last_line[conn] = text
        line_index[conn] += 1
    for conn, client in clients.items():
        if conn == "ADMIN":
            continue
        if messages[conn] == ["</protocol>"]:
            prefixes[conn].append(len(client.golden))
            actions.append(Action(actions[-1].time, conn, "send", messages[conn].pop()))
        assert not messages[conn], (conn, messages[conn][:1])
        client.prefixes = prefixes[conn]
    return _joins_in_server_order(actions, clients), clients


def _joins_in_server_order(actions: list[Action], clients: dict) -> list[Action]:
    """The proxy labels its clients by who connected first, but the server seats ``<join>``
    players by whose join it read first (``G/ruby_game``: the client labelled ONE is seated
    TWO): the join of the client whose capture welcomes it as ONE goes first, and the other
    joins only once the first has its ``<joined>``."""
    slots = [i for i, a in enumerate(actions) if a.client in ("ONE", "TWO") and a.text.startswith("<protocol><join")]
    joins = sorted((actions[i] for i in slots), key=lambda a: b'color="ONE"' not in clients[a.client].golden[:400])
    if len(joins) != 2 or "joinPrepared" in joins[0].text:
        return actions
    actions = list(actions)
    for i, join in zip(slots, joins):
        actions[i] = join
    first = clients[joins[0].client]
    actions.insert(slots[0] + 1, Action(joins[0].time, first.name, "wait", str(first.golden.index(b"/>") + 2)))
    return actions


@pytest.mark.parametrize("name", ["socha_game", "ruby_game", "mixed_game", "socha_admin"])
async def test_real_client_join_game_capture(start_server, tmp_path, name):
    """The Ruby client closes right after the result, before ``<left/>`` reached it: the capture
    of a Ruby connection ends with the result, and it sends ``</protocol>`` only once it has read
    all of that.  Our server has sent ``<left/>`` by then (as 23.0.3 did, a few ms later), so a
    Ruby connection gets exactly its capture plus that one ``<left/>``."""
    actions, clients = client_game(name, tmp_path)
    left_before_close = {}
    for conn, client in clients.items():
        if not client.golden.rstrip().endswith(b"/>"):
            room = re.search(rb'<joined roomId="([^"]+)"', client.golden)[1]
            left_before_close[conn] = b'\n  <left roomId="' + room + b'"/>'
            client.golden += left_before_close[conn]
    replay = await run(start_server, name, actions, clients)
    assert_all_equal(replay, clients)
    assert (name in ("socha_game", "socha_admin")) == (not left_before_close)


@pytest.mark.parametrize("name", ["end_draw", "end_skip"])
async def test_the_official_one_memento_load_file_replays_the_capture(start_server, tmp_path, name):
    """The official server ran these with ``--loadGameFile FILE --turn 8``, FILE one memento in
    ``<protocol><room><data class="memento">``; the same file given to our ``--load-game`` (its
    ``position_factory``) gives the captured bytes."""
    from tests.scenario import first_state
    from swc_local.server.xml.replay import position_factory

    actions, clients = load(FOLDER, name)
    state = first_state(clients)
    file = tmp_path / f"{name}.xml"
    file.write_text('<protocol><room roomId="x"><data class="memento">' + state.render() + "</data></room></protocol>",
                    encoding="utf-8")
    server = await start_server(game_factory=position_factory(file, 8, "penguins"), password="examplepassword",
                                **SETTINGS)
    replay = Replay(server.door("xml").port, actions, clients, timed=False)
    await replay.run()
    assert_all_equal(replay, clients)
