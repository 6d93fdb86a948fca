"""Captured scenarios of the official Piranhas 2026 server (26.1.0), replayed over TCP byte for byte.

Each scenario runs against a fresh server whose rooms start from the captured board (the
official boards are unseeded), with the clients sending what they sent, in the captured order;
every connection must receive the captured bytes, room ids and reservation codes mapped.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import TESTS
from tests.scenario import SEND_LINE, SENT, Action, Client, Replay, first_state, replay_capture

FOLDER = TESTS / "data" / "piranhas_2026"
ENDGAMES = FOLDER / "endgames"

RAW_SCENARIOS = [
    "invalid_empty", "invalid_opponent", "invalid_jump", "invalid_bounds", "invalid_offboard",
    "invalid_format", "invalid_direction", "notyourturn", "disconnect",
]


@pytest.fixture
def start_server(start_server):
    """The shared fixture, with Piranhas 2026 as the game of ``<join/>`` (by default the newest
    season gets it, and these captures are of Piranhas 2026)."""

    async def start(game_factory=None, **settings):
        return await start_server(game_factory, **({"default_game": "swc_2026_piranhas"} | settings))

    return start


@pytest.mark.parametrize("name", RAW_SCENARIOS)
async def test_captured_scenario(start_server, name):
    await replay_capture(start_server, FOLDER, name)


async def test_captured_lobby_errors(start_server):
    """Failing lobby requests.  ``joinPrepared``/``joinRoom`` with an unknown code or room show no
    dialect, so they are answered in the server's ``lobbyDialect``: a server for the modern games
    sets it to ``modern`` (with the default ``classic`` those two get the 2019 answer, a close)."""

    async def modern_server(**settings):
        return await start_server(lobby_dialect="modern", **settings)

    await replay_capture(modern_server, FOLDER, "lobby")


@pytest.mark.parametrize("name", sorted(p.name for p in ENDGAMES.iterdir() if p.is_dir()))
async def test_captured_endgame(start_server, name):
    await replay_capture(start_server, ENDGAMES, name)


@pytest.mark.parametrize("name", ["softtimeout", "hardtimeout"])
async def test_captured_timeout(start_server, mock_clock, name):
    """The 2 s soft and 10 s hard timeouts, on a virtual clock that jumps while all wait."""
    mock_clock.autojump_threshold = 0.1
    await replay_capture(start_server, FOLDER, name, timed=True)


# --- the two captures of proxied socha 4.3.9 clients ---------------------------------------------

MOVE_REQUEST_END = b'<data class="moveRequest"/>\n  </room>'


def _socha_client(folder: Path, name: str) -> tuple[Client, list[str]]:
    """A proxied socha client: what it received, and its sends (the join, then one per move).

    It sends its k-th move right after its k-th move request, so that is where it waits."""
    golden = (folder / f"{name}_recv.xml").read_bytes()
    sent = (folder / f"{name}_sent.xml").read_text(encoding="utf-8")
    first_room = sent.find("<room ")
    if first_room < 0:  # it never moved (a socha client that timed out on its first move)
        sends = [sent]
    else:
        sends = [sent[:first_room]] + ["<room " + chunk for chunk in sent[first_room + 6 :].split("<room ")]
    prefixes, at = [0], 0
    while (at := golden.find(MOVE_REQUEST_END, at)) >= 0:
        at += len(MOVE_REQUEST_END)
        prefixes.append(at)
    assert len(prefixes) == len(sends), f"{name}: {len(sends)} sends, {len(prefixes)} chances to send"
    return Client(name, golden, prefixes), sends


def load_socha_capture(folder: Path, transcript: Path) -> tuple[list[Action], dict[str, Client]]:
    """Actions in the captured global order of sends; raw clients (the admin) as usual."""
    clients: dict[str, Client] = {}
    texts: dict[str, list[str]] = {}
    for side in ("ONE", "TWO"):
        clients[side], texts[side] = _socha_client(folder, side)
    for raw in folder.glob("*.raw"):
        data = raw.read_bytes()
        marks = list(SENT.finditer(data))
        parts = SENT.split(data)
        clients[raw.stem] = Client(raw.stem, b"".join(parts), [sum(map(len, parts[: i + 1])) for i in range(len(marks))])
        texts[raw.stem] = [m[0].decode("utf-8")[len("\n>>>>>>>>>> SENT: ") : -1] for m in marks]
    actions: list[Action] = []
    used = dict.fromkeys(texts, 0)
    for line in transcript.read_text(encoding="utf-8").splitlines():
        match = SEND_LINE.match(line)
        if match is None:
            continue
        name = match[2]
        if name in ("ONE", "TWO") and used[name] == 0 and "ADMIN" not in clients and name == "TWO":
            # <join/> pairs in arrival order: TWO joins once ONE was told it joined
            joined = clients["ONE"].golden.index(b"/>", clients["ONE"].golden.index(b"<joined ")) + 2
            actions.append(Action(float(match[1]), "ONE", "wait", str(joined)))
        actions.append(Action(float(match[1]), name, "send", texts[name][used[name]]))
        used[name] += 1
    assert used == {name: len(sends) for name, sends in texts.items()}
    return actions, clients


@pytest.mark.parametrize("name", ["socha_game", "socha_admin"])
async def test_captured_socha_clients(start_server, name):
    """Two socha 4.3.9 clients (``<join/>``; and joinPrepared under an admin that prepares paused,
    observes, steps twice and unpauses): all 60 mementos, the requests, the result and ``left``,
    byte for byte on every connection."""
    actions, clients = load_socha_capture(FOLDER / name, FOLDER / f"transcript_{name}.txt")
    state = first_state(clients)
    server = await start_server(
        game_factory=lambda plugin, rng: plugin.game_from_state(state), password="examplepassword"
    )
    replay = Replay(server.door("xml").port, actions, clients, timed=False)
    await replay.run()
    for client in clients.values():
        assert replay.normalised(client) == client.golden, client.name
