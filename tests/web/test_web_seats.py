"""People at the table through the API: a person's seat of every XML game against its reference bot.

Each game of the registry's XML family is played to its end by a script that takes a seat with
``POST /api/tables`` and sends legal moves by index (``POST /api/seats/ID/move``), as the page
does; a new XML game is covered as soon as it is in the registry.
"""

from __future__ import annotations

import json
import random
import shlex

import pytest
import trio

from swc_local.client import ladder
from swc_local.games import registry

from tests.web_helpers import http, start_viewer_server

XML_GAMES = [g.game_type for g in registry.entries() if g.family == registry.XML]


async def seat_state(url: str, seat: str, after: int) -> dict:
    status, data = await http(f"{url}/api/seats/{seat}?after={after}")
    assert status == 200, data
    return data


async def play_seat(url: str, seat: str, rng: random.Random) -> dict:
    """Play ``seat`` with random legal moves to the end; its last state."""
    data = await seat_state(url, seat, -1)
    while not data["over"]:
        if data["your_turn"]:
            assert data["moves"], data
            choice = rng.randrange(len(data["moves"]))
            status, data = await http(f"{url}/api/seats/{seat}/move", data=b'{"index": %d}' % choice,
                                      headers={"Content-Type": "application/json"})
            assert status == 200, data
        else:
            data = await seat_state(url, seat, data["version"])
    # the viewer's record of the room catches up with the result
    with trio.fail_after(10):
        while data["result_rows"] is None:
            await trio.sleep(0.05)
            data = await seat_state(url, seat, -1)
    return data


@pytest.mark.parametrize("game", XML_GAMES)
async def test_a_person_plays_a_whole_game_against_the_reference_bot(nursery, game):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    status, table = await http(f"{url}/api/tables", data=b'{"game": "%s", "seats": ["you", "bot"]}' % game.encode(),
                               headers={"Content-Type": "application/json"})
    assert status == 200, table
    seat = table["seats"][0]["seat"]
    with trio.fail_after(240):
        data = await play_seat(url, seat, random.Random(7))
    assert data["result"] is not None and data["error"] is None
    causes = [row["cause"] for row in data["result_rows"]]
    # an end by the rules: REGULAR, or STUCK for a Mississippi Queen ship that cannot move, which
    # the server ends regular="false" though no rule was broken
    assert causes == ["REGULAR", "REGULAR"] or sorted(causes) == ["REGULAR", "STUCK"], data["result_rows"]
    room = server.door("xml").lobby.rooms.get(table["room"])
    assert room is None  # the room is over and gone


async def test_a_table_refuses_what_it_cannot_seat(nursery):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    for body, text in ((b'{"game": "chess"}', "reversixt, roborally or an XML game"), (b'{"game": "piranhas", "seats": ["you"]}', "two seats"),
                       (b'{"game": "piranhas", "seats": ["you", "wizard"]}', "one of"),
                       (b'{"game": "piranhas", "seats": ["you", {"kind": "command", "command": "x"}]}', "{reservation}")):
        status, data = await http(f"{url}/api/tables", data=body)
        assert status == 400 and text in data["error"], (body, data)
    status, data = await http(f"{url}/api/seats/nope")
    assert status == 404


async def create(url: str, body: bytes) -> dict:
    status, table = await http(f"{url}/api/tables", data=body, headers={"Content-Type": "application/json"})
    assert status == 200, table
    return table


async def test_a_persons_slot_has_no_deadline_unless_asked_and_bots_keep_theirs(nursery):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    untimed = await create(url, b'{"game": "ostseeschach", "seats": ["you", "open"]}')
    timed = await create(url, b'{"game": "ostseeschach", "seats": ["you", "open"], "timeout": true}')
    for table, person in ((untimed, False), (timed, True)):
        room = server.door("xml").lobby.rooms[table["room"]]
        assert [slot.can_timeout for slot in room.slots] == [person, True]
        data = await seat_state(url, table["seats"][0]["seat"], -1)
        assert data["clock"]["deadline_ms"] == (registry.get("swc_2022_ostseeschach").hard_timeout_ms if person else None)


async def test_an_open_seat_takes_a_bot_started_by_hand_and_a_command_seat_runs_its_command(nursery):
    from swc_local.client.bot import play_game

    server = await start_viewer_server(nursery)
    url = server.door("web").url
    table = await create(url, b'{"game": "piranhas", "seats": ["you", "open"]}')
    code = table["seats"][1]["reservation"]
    assert code in server.door("xml").lobby.reservations
    nursery.start_soon(play_game, registry.get("swc_2019_piranhas"), "127.0.0.1", server.door("xml").port, code, 3)
    with trio.fail_after(120):
        data = await play_seat(url, table["seats"][0]["seat"], random.Random(1))
    assert [row["cause"] for row in data["result_rows"]] == ["REGULAR", "REGULAR"]

    bot = shlex.join(ladder.command(registry.entry("piranhas")))
    body = json.dumps({"game": "piranhas", "seats": [{"kind": "command", "command": bot}, "you"]}).encode()
    table = await create(url, body)
    assert [s["color"] for s in table["seats"]] == ["red", "blue"]
    with trio.fail_after(120):
        data = await play_seat(url, table["seats"][1]["seat"], random.Random(2))
    assert [row["cause"] for row in data["result_rows"]] == ["REGULAR", "REGULAR"]


async def test_a_seat_nobody_reads_is_closed_and_scored_left(nursery):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    server.door("web").context.tables.limits.idle_seconds = 0.5
    table = await create(url, b'{"game": "piranhas", "seats": ["you", "bot"]}')
    seat = server.door("web").context.tables.seats[table["seats"][0]["seat"]]
    with trio.fail_after(30):
        while seat.closed_reason is None:
            await trio.sleep(0.1)
        while server.door("xml").lobby.rooms.get(table["room"]) is not None:
            await trio.sleep(0.05)
    assert "nobody read this seat" in seat.closed_reason
    data = await seat_state(url, seat.id, -1)
    with trio.fail_after(10):
        while data["result_rows"] is None:
            await trio.sleep(0.05)
            data = await seat_state(url, seat.id, -1)
    assert data["result_rows"][0]["cause"] == "LEFT"


async def test_tables_are_bounded_and_a_move_out_of_turn_is_refused(nursery):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    tables = server.door("web").context.tables
    tables.limits.max_tables = 2
    first = await create(url, b'{"game": "ostseeschach", "seats": ["open", "you"]}')
    await create(url, b'{"game": "ostseeschach", "seats": ["open", "open"]}')
    status, data = await http(f"{url}/api/tables", data=b'{"game": "ostseeschach", "seats": ["open", "open"]}')
    assert status == 503 and "2 tables" in data["error"]
    seat = first["seats"][1]["seat"]
    assert len(seat) >= 20  # secrets.token_urlsafe(16)
    status, data = await http(f"{url}/api/seats/{seat}/move", data=b'{"index": 0}')
    assert status == 409 and data["error"] == "it is not this seat's turn"
    status, data = await http(f"{url}/api/seats/{seat}/move", data=b'nonsense')
    assert status == 409 and "index" in data["error"]


async def test_the_readme_curl_commands_take_a_seat_and_move(nursery):
    import re
    import shlex
    import subprocess

    from tests.packaging.test_readme_examples import _shell_block

    server = await start_viewer_server(nursery)
    address = server.door("web").url.removeprefix("http://")
    lines = [line for line in _shell_block('"game": "piranhas", "seats"').splitlines() if line.strip()]
    assert len(lines) == 4

    def run(line: str, seat: str = "") -> dict:
        argv = shlex.split(line.replace("localhost:13080", address).replace("SEAT", seat))
        return json.loads(subprocess.run(argv, capture_output=True, text=True, check=True, timeout=30).stdout)

    table = await trio.to_thread.run_sync(run, lines[0])
    seat = table["seats"][0]["seat"]
    state = await trio.to_thread.run_sync(run, lines[1], seat)
    assert state["your_turn"] and state["moves"][0]["index"] == 0
    moved = await trio.to_thread.run_sync(run, lines[2], seat)
    assert moved["error"] is None and moved["turn"] >= 1
    refused = await trio.to_thread.run_sync(run, lines[3], seat)  # (0,0) is never a fish of ours: the server refuses it
    with trio.fail_after(10):
        while not refused["error"]:
            refused = await seat_state(f"http://{address}", seat, refused["version"])
    assert re.match(r"Ungueltiger Zug von 'you'\.", refused["error"]) or "nicht am Zug" in refused["error"], refused["error"]


async def test_a_person_joins_a_room_an_admin_prepared_by_its_reservation_code(nursery):
    from swc_local.client.admin import Admin
    from swc_local.client.bot import play_game

    from tests.web_helpers import PASSWORD

    server = await start_viewer_server(nursery)
    url = server.door("web").url
    async with await Admin.connect("127.0.0.1", server.door("xml").port, PASSWORD) as admin:
        prepared = await admin.prepare("piranhas", ["Alice", "Bob"], paused=False)
    codes = prepared.reservations
    status, data = await http(f"{url}/api/seats", data=json.dumps({"reservation": "nope"}).encode())
    assert status == 400 and data["error"] == "unknown reservation code"
    status, joined = await http(f"{url}/api/seats", data=json.dumps({"reservation": codes[1]}).encode())
    assert status == 200, joined
    assert joined["seats"][0]["color"] == "blue" and joined["room"] == prepared.room_id
    nursery.start_soon(play_game, registry.get("swc_2019_piranhas"), "127.0.0.1", server.door("xml").port, codes[0], 4)
    with trio.fail_after(120):
        data = await play_seat(url, joined["seats"][0]["seat"], random.Random(5))
    assert [row["cause"] for row in data["result_rows"]] == ["REGULAR", "REGULAR"]
    assert [p["name"] for p in data["players"]] == ["Alice", "Bob"]


async def test_another_sites_page_cannot_set_a_table_or_move(nursery):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    command = json.dumps({"game": "piranhas", "seats": ["you", {"kind": "command", "command": "touch /tmp/x {reservation}"}]})
    status, data = await http(f"{url}/api/tables", data=command.encode(), headers={"Origin": "http://evil.example"})
    assert status == 403 and "another site" in data["error"]
    assert not server.door("xml").lobby.rooms
    own = url.rstrip("/")
    status, table = await http(f"{url}/api/tables", data=b'{"game": "piranhas", "seats": ["you", "open"]}',
                               headers={"Origin": own})
    assert status == 200, table
    seat = table["seats"][0]["seat"]
    status, data = await http(f"{url}/api/seats/{seat}/move", data=b'{"index": 0}', headers={"Origin": "http://evil.example"})
    assert status == 403
    status, data = await http(f"{url}/api/seats", data=b'{"reservation": "x"}', headers={"Origin": "null"})
    assert status == 403


async def test_a_server_stopped_mid_game_ends_its_seats_and_bots_in_time(nursery, caplog):
    from swc_local.server.shutdown import stop_gracefully

    server = await start_viewer_server(nursery)
    url = server.door("web").url
    table = await create(url, b'{"game": "piranhas", "seats": ["you", "bot"]}')
    seat_id = table["seats"][0]["seat"]
    status, data = await http(f"{url}/api/seats/{seat_id}?wait=turn")
    assert data["your_turn"]
    tables = server.door("web").context.tables
    with trio.fail_after(10):
        await stop_gracefully(server, "server stopped (test)")
    assert "did not end in time" not in caplog.text
    seat = tables.seats[seat_id]
    assert seat.over and seat.closed_reason
    assert all(p.returncode is not None for t in tables.tables.values() for p in t.processes)


async def test_a_bot_seat_takes_the_reference_bots_strength_where_it_has_strengths(nursery):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    status, listed = await http(f"{url}/api/tables")
    strengths = {g["game"]: g["strengths"] for g in listed["games"]}
    assert {"random", "greedy"} <= set(strengths["swc_2027_blokus"]) and "greedy" in strengths["swc_2021_blokus"]
    assert strengths == {g["game"]: g["rungs"] for g in listed["games"]}  # the rungs, by their old name too
    assert strengths["swc_2019_piranhas"] == list(ladder.rungs(registry.entry("piranhas")))
    status, refused = await http(f"{url}/api/tables", data=b'{"game": "piranhas", "seats": ["you", '
                                                           b'{"kind": "bot", "strength": "nope"}]}')
    assert status == 400 and refused["error"].startswith("rung 'nope': the reference bot of piranhas plays random"), refused
    status, refused = await http(f"{url}/api/tables", data=b'{"game": "blokus", "seats": ["you", '
                                                           b'{"kind": "bot", "strength": "clever"}]}')
    assert status == 400 and "plays random, greedy" in refused["error"], refused
    status, table = await http(f"{url}/api/tables", data=b'{"game": "blokus", "seats": ["you", '
                                                          b'{"kind": "bot", "strength": "greedy"}]}')
    assert status == 200, table
    commands = server.door("web").context.tables.tables[table["table"]].commands
    assert len(commands) == 1 and commands[0][-2:] == ["--strategy", "greedy"]
    assert "swc_local.client.bot" in commands[0] and "swc_2027_blokus" in commands[0]
    with trio.fail_after(240):
        data = await play_seat(url, table["seats"][0]["seat"], random.Random(3))
    assert data["result"] is not None and data["error"] is None
    assert [row["cause"] for row in data["result_rows"]] == ["REGULAR", "REGULAR"]
