"""People at the table of ReversiXT and Robo Rally through the API (server/reversixt/seats.py,
server/roborally/seats.py): a script takes a seat with ``POST /api/tables``, reads its state
and legal moves and sends moves, as the seat page does; the game's end on the seat equals what
``swc replay`` prints of the log the table's door wrote."""

from __future__ import annotations

import json
import random
import re
import subprocess
from pathlib import Path

import pytest
import trio

from swc_local.games.roborally.board import board_from_game_map  # noqa: F401 -- the rules a script may plan with

from tests.web_helpers import http, start_viewer_server, swc_replay, without_reversixt_pauses

JSON = {"Content-Type": "application/json"}


async def post(url: str, body: dict):
    return await http(url, data=json.dumps(body).encode(), headers=JSON)


async def seat_state(url: str, seat: str, after: int) -> dict:
    status, data = await http(f"{url}/api/seats/{seat}?after={after}")
    assert status == 200, data
    return data


async def play(url: str, seat: str, choose) -> dict:
    """Play ``seat`` to the end with ``choose(state) -> index``; its last state once the viewer's
    record has the result."""
    data = await seat_state(url, seat, -1)
    while not data["over"]:
        if data["your_turn"] and data.get("moves"):
            status, answer = await post(f"{url}/api/seats/{seat}/move", {"index": choose(data)})
            assert status in (200, 409), answer  # 409: the turn moved on (a timer) before the move
            data = answer if status == 200 else await seat_state(url, seat, -1)
        else:
            data = await seat_state(url, seat, data["version"])
    with trio.fail_after(20):
        while data["result_rows"] is None or data["status"] != "finished":
            await trio.sleep(0.05)
            data = await seat_state(url, seat, -1)
    return data


async def take_seat(url: str, body: dict) -> dict:
    status, table = await post(f"{url}/api/tables", body)
    assert status == 200, table
    return table


async def test_a_person_plays_a_whole_reversixt_game_against_the_reference_bot(nursery, tmp_path):
    server = without_reversixt_pauses(await start_viewer_server(nursery, save_replay=True, replay_dir=str(tmp_path)))
    url = server.door("web").url
    table = await take_seat(url, {"game": "reversixt", "map": "classic_2p", "seats": ["you", "bot"]})
    seat = table["seats"][0]["seat"]
    rng = random.Random(3)
    with trio.fail_after(240):
        data = await play(url, seat, lambda state: rng.randrange(len(state["moves"])))
    assert data["error"] is None and data["result"] is not None
    logs = list(tmp_path.glob("reversixt-*.log"))
    assert len(logs) == 1
    printed = re.findall(r"^\d+\. player (\d+) \(group \d+\): (\d+) stones", swc_replay(logs[0]), re.M)
    seen = sorted((str(row["seat"]), row["score"][0]) for row in data["result_rows"])
    assert len(printed) == 2 and sorted(printed) == seen, (printed, data["result_rows"])
    assert {int(p): int(s) for p, s in printed} == {int(p): v for p, v in data["result"].items()}


def robo_choice(rng: random.Random):
    """A person who fills registers at random (never takes a card out), picks the first start
    point, damage pile and direction."""
    def choose(state: dict) -> int:
        moves = state["moves"]
        if state["asked"] == "program":
            return rng.choice([m["index"] for m in moves if m["card"] is not None])
        return 0
    return choose


async def test_a_person_plays_a_whole_robo_rally_game_against_the_reference_bot(nursery, tmp_path):
    server = await start_viewer_server(nursery, save_replay=True, replay_dir=str(tmp_path))
    url = server.door("web").url
    table = await take_seat(url, {"game": "roborally", "course": "Dizzy Highway", "robots": 2, "seats": ["you", "bot"]})
    seat = table["seats"][0]["seat"]
    with trio.fail_after(240):
        data = await play(url, seat, robo_choice(random.Random(5)))
    assert data["error"] is None and data["winner"] in (1, 2)
    logs = list(tmp_path.glob("roborally-*.jsonl"))
    assert len(logs) == 1
    printed = re.search(r"^Robo Rally on Dizzy Highway, players \[1, 2\], seed \d+, winner (\d+)$", swc_replay(logs[0]), re.M)
    assert printed is not None
    assert int(printed.group(1)) == data["winner"]
    winner_row = next(row for row in data["result_rows"] if row["rank"] == 1)
    assert winner_row["seat"] == str(data["winner"]), data["result_rows"]


MAPS = Path(__file__).parent.parent / "data" / "reversixt" / "maps"


async def test_an_uploaded_three_player_map_offers_the_choices_of_its_special_squares(nursery, tmp_path):
    server = without_reversixt_pauses(await start_viewer_server(nursery, save_replay=True, replay_dir=str(tmp_path)))
    url = server.door("web").url
    text = (MAPS / "specials_3p.map").read_text()
    table = await take_seat(url, {"game": "reversixt", "map_text": text, "seats": ["you", "bot", "bot"]})
    assert table["map"] == "uploaded.map" and [s["color"] for s in table["seats"]] == ["1", "2", "3"]
    seat = table["seats"][0]["seat"]
    offered: list[set] = []

    def choose(state: dict) -> int:
        special = [m for m in state["moves"] if m["choice"] is not None]
        if special:  # a choice or bonus square: every choice is offered, one move each
            square = (special[0]["x"], special[0]["y"])
            offered.append({m["choice"] for m in special if (m["x"], m["y"]) == square})
            return special[-1]["index"]
        return 0

    with trio.fail_after(120):
        data = await play(url, seat, choose)
    assert {"bomb", "overwrite stone"} in offered or any(len(o) == 3 for o in offered), offered
    assert data["result"] is not None and data["error"] is None
    logs = list(tmp_path.glob("reversixt-*.log"))
    printed = re.findall(r"^\d+\. player (\d+) \(group \d+\): (\d+) stones", swc_replay(logs[0]), re.M)
    assert sorted(printed) == sorted((str(r["seat"]), r["score"][0]) for r in data["result_rows"] if r["score"])


async def test_a_forged_reversixt_move_is_disqualified_and_the_seat_says_why(nursery):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    table = await take_seat(url, {"game": "reversixt", "map_text": (MAPS / "tiny_2p.map").read_text(),
                                  "seats": ["you", "bot"]})
    seat = table["seats"][0]["seat"]
    with trio.fail_after(30):
        data = await seat_state(url, seat, -1)
        while not data["your_turn"]:
            data = await seat_state(url, seat, data["version"])
        assert "0,0" not in {c for m in data["moves"] for c in m["cells"]}  # a corner: not offered
        status, data = await post(f"{url}/api/seats/{seat}/move", {"x": 0, "y": 0, "special": 0})
        assert status == 200
        while data["result_rows"] is None or data["status"] != "finished":
            data = await seat_state(url, seat, data["version"])
    assert data["error"] == "the server disqualified this seat (DISQ)"
    mine = next(r for r in data["result_rows"] if r["seat"] == "1")
    assert mine["cause"] == "DISQUALIFIED" and "invalid move" in mine["reason"], mine


async def test_a_family_table_refuses_what_it_cannot_seat(nursery):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    status, listing = await http(f"{url}/api/tables")
    families = {f["game"]: f for f in listing["families"]}
    assert {"classic_2p", "quad_4p"} <= {m["name"] for m in families["reversixt"]["maps"]}
    assert families["roborally"]["courses"] == ["Dizzy Highway", "Extra Crispy", "Lost Bearings", "Death Trap"]
    for body, text in (({"game": "reversixt", "map": "nowhere"}, "map: one of classic_2p"),
                       ({"game": "reversixt", "map_text": "2\n0\n1 1\n3 q\n"}, "the map cannot be played"),
                       ({"game": "reversixt", "map": "quad_4p", "seats": ["you", "bot"]}, "a list of 4 seats"),
                       ({"game": "reversixt", "seats": ["you", {"kind": "command", "command": "x"}]}, "{port}"),
                       ({"game": "reversixt", "time_limit": -1}, "time_limit"),
                       ({"game": "roborally", "course": "Mars"}, "course: one of Dizzy Highway"),
                       ({"game": "roborally", "robots": 7, "seats": ["you"] * 7}, "robots: 2 to 6"),
                       ({"game": "roborally", "robots": 3, "seats": ["you", "bot"]}, "a list of 3 seats")):
        status, data = await post(f"{url}/api/tables", body)
        assert status == 400 and text in data["error"], (body, data)


async def test_an_open_robo_rally_seat_names_its_door_and_a_bot_started_by_hand_takes_it(nursery):
    from swc_local.client.roborally_bot import RoboRallyBot

    server = await start_viewer_server(nursery)
    url = server.door("web").url
    table = await take_seat(url, {"game": "roborally", "course": "Dizzy Highway", "seats": ["you", "open"],
                                  "timeout": True})
    open_seat = table["seats"][1]
    assert open_seat["host"] == "127.0.0.1" and open_seat["port"] > 0 and "seat" not in open_seat
    nursery.start_soon(RoboRallyBot(greedy=True, seed=1).play, open_seat["host"], open_seat["port"])
    seat = table["seats"][0]["seat"]
    with trio.fail_after(60):
        data = await seat_state(url, seat, -1)
        while data["asked"] != "start":
            data = await seat_state(url, seat, data["version"])
    assert data["client_id"] == 1 and data["your_turn"] and len(data["moves"]) == 6


async def test_the_manuals_curl_commands_seat_a_person_in_reversixt_and_robo_rally(nursery):
    import shlex

    from tests.packaging.test_readme_examples import _shell_block

    server = await start_viewer_server(nursery)
    url = server.door("web").url
    address = url.removeprefix("http://")
    lines = [line for line in _shell_block('"game": "roborally"').splitlines() if line.strip()]
    assert len(lines) == 4

    def run(line: str, seat: str = "") -> dict:
        argv = shlex.split(line.replace("localhost:13080", address).replace("SEAT", seat))
        return json.loads(subprocess.run(argv, capture_output=True, text=True, check=True, timeout=30).stdout)

    reversi = await trio.to_thread.run_sync(run, lines[0])
    moved = await trio.to_thread.run_sync(run, lines[1], reversi["seats"][0]["seat"])
    assert moved["game"] == "reversixt" and moved["player"] == 1
    robo = await trio.to_thread.run_sync(run, lines[2])
    assert [s["kind"] for s in robo["seats"]] == ["you", "person"]
    seat = robo["seats"][0]["seat"]
    with trio.fail_after(20):
        data = await seat_state(url, seat, -1)
        while data["asked"] != "start":  # both persons have joined, the game is in its setup phase
            data = await seat_state(url, seat, data["version"])
        refused = await trio.to_thread.run_sync(run, lines[3], seat)
        while not refused["error"]:
            refused = await seat_state(url, seat, refused["version"])
    assert refused["error"] == "Not in the programming phase"  # the server's own Error text


async def test_a_persons_seat_is_untimed_unless_asked_by_the_doors_own_means(nursery):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    deadlines = []
    for timeout in (False, True):
        table = await take_seat(url, {"game": "reversixt", "map": "classic_2p", "seats": ["you", "bot"],
                                      "time_limit": 30, "timeout": timeout})
        assert table["time_limit"] == 30
        seat = table["seats"][0]["seat"]
        with trio.fail_after(30):
            data = await seat_state(url, seat, -1)
            while not data["your_turn"]:
                data = await seat_state(url, seat, data["version"])
        deadlines.append((data["clock"]["deadline_ms"], data["players"][0]["name"]))
    # the game's own record: the person joined as group 99 (never charged), or as group 0 (timed)
    assert deadlines == [(None, "player 1 (group 99)"), (30000, "player 1 (group 0)")]
    tables = server.door("web").context.tables
    doors = {}
    for timeout in (False, True):
        table = await take_seat(url, {"game": "roborally", "seats": ["you", "open"], "timeout": timeout})
        settings = tables.tables[table["table"]].door.settings
        doors[timeout] = (settings.pick_damage_timeout, settings.reboot_direction_wait, settings.setup_timeout)
    assert doors == {False: (3600.0, 3600.0, 0.0), True: (5.0, 2.0, 0.0)}


class _Wire:
    """A stand-in for the seat's connection: what the seat sent, line by line."""

    def __init__(self) -> None:
        self.sent: list[dict] = []

    async def send_all(self, data: bytes) -> None:
        self.sent += [json.loads(line) for line in data.decode().splitlines()]


async def test_a_robo_rally_seat_offers_damage_piles_and_directions_and_keeps_its_registers(nursery):
    from swc_local.server.web.door_tables import DoorTable
    from swc_local.server.roborally.seats import RoboSeat

    table = DoorTable("t", "roborally", "Robo Rally", ["1", "2"], nursery, ("you", "bot"))
    table.course, table.timer = "Dizzy Highway", 30.0
    seat = RoboSeat("s", table, 0, "you", "you")
    seat.stream = wire = _Wire()
    seat.receive("Welcome", {"clientID": 1})
    seat.receive("ActivePhase", {"phase": 2})
    seat.receive("YourCards", {"cardsInHand": ["Again", "MoveI", "MoveI", "TurnLeft", "Spam", "MoveII", "UTurn", "BackUp", "PowerUp"]})
    moves = seat.json()["moves"]
    assert {"card": "Again", "register": 1} not in [{k: m[k] for k in ("card", "register")} for m in moves]
    again_2 = next(m["index"] for m in moves if m["card"] == "Again" and m["register"] == 2)
    await seat.send_request(json.dumps({"index": again_2}).encode())
    assert wire.sent[-1] == {"messageType": "SelectedCard", "messageBody": {"card": "Again", "register": 2}}
    seat.receive("CardSelected", {"clientID": 1, "register": 2, "filled": True})
    state = seat.json()
    assert state["registers"] == [None, "Again", None, None, None] and "Again" not in state["hand"]
    take_out = next(m["index"] for m in state["moves"] if m["card"] is None)
    await seat.send_request(json.dumps({"index": take_out}).encode())
    seat.receive("CardSelected", {"clientID": 1, "register": 2, "filled": False})
    assert seat.json()["registers"] == [None] * 5 and "Again" in seat.json()["hand"]
    seat.receive("TimerStarted", {})
    assert 0 < seat.json()["clock"]["timer_ms_left"] <= 30000
    seat.receive("PickDamage", {"count": 2, "availablePiles": ["Virus", "Trojan"]})
    state = seat.json()
    assert state["asked"] == "damage" and [m["cards"] for m in state["moves"]] == [
        ["Virus", "Virus"], ["Virus", "Trojan"], ["Trojan", "Trojan"]]
    await seat.send_request(b'{"index": 1}')
    assert wire.sent[-1] == {"messageType": "SelectedDamage", "messageBody": {"cards": ["Virus", "Trojan"]}}
    assert seat.json()["asked"] == "program"  # the question asked before the pick is offered again
    seat.receive("Reboot", {"clientID": 1})
    assert [m["direction"] for m in seat.json()["moves"]] == ["top", "right", "bottom", "left"]
    await seat.send_request(b'{"index": 3}')
    assert wire.sent[-1] == {"messageType": "RebootDirection", "messageBody": {"direction": "left"}}
    seat.receive("Error", {"error": "No reboot pending"})
    assert seat.json()["error"] == "No reboot pending"
    seat.receive("ActivePhase", {"phase": 3})
    seat.receive("CurrentCards", {"activeCards": [{"clientID": 2, "card": "MoveI"}, {"clientID": 1, "card": "UTurn"}]})
    seat.receive("CurrentPlayer", {"clientID": 1})
    # the register's card is played by the seat itself (queued for the connection's loop to send)
    assert json.loads(seat.out[-1]) == {"messageType": "PlayCard", "messageBody": {"card": "UTurn"}}


async def test_a_reversixt_seat_lists_at_most_ten_thousand_bomb_targets_of_a_large_map(nursery):
    from swc_local.games.reversixt.mapfile import parse_map
    from swc_local.games.reversixt.rules import State
    from swc_local.protocol import reversixt as wire
    from swc_local.server.web.door_tables import DoorTable
    from swc_local.server.reversixt.seats import MAX_LISTED, ReversiSeat

    rows = ["1 2" + " 0" * 198] + ["0" + " 0" * 199] * 199
    game_map = parse_map(("2\n0\n1 1\n200 200\n" + "\n".join(rows) + "\n").encode())
    seat = ReversiSeat("s", DoorTable("t", "reversixt", "ReversiXT", ["1", "2"], nursery, ("you", "bot")), 0, "you", 99)
    seat.state, seat.me, seat.phase = State.initial(game_map), 1, 2
    seat.receive(wire.Frame(wire.REQUEST, wire.encode_request(0, 1)[5:]))
    data = seat.json()
    assert data["moves_total"] == 200 * 200 and len(data["moves"]) == len(data["cells"]) == MAX_LISTED
    assert data["moves"][0]["text"] == "player 1: bomb (0,0)" and data["clock"]["deadline_ms"] is None


async def test_a_table_whose_persons_left_before_the_game_began_is_called_off(nursery):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    tables = server.door("web").context.tables
    for body in ({"game": "roborally", "seats": ["you", "open"]}, {"game": "reversixt", "seats": ["you", "open"]}):
        table = await take_seat(url, body)
        tables.seats[table["seats"][0]["seat"]].finish("the person left")  # as the idle watch closes a seat
        with trio.fail_after(10):
            await tables.tables[table["table"]].ended.wait()
        assert tables.done(tables.tables[table["table"]])  # no longer counted against the table limit


@pytest.mark.parametrize("family", ["reversixt", "roborally"])
async def test_without_an_xml_door_the_viewer_offers_a_familys_tables(nursery, monkeypatch, family):
    """The viewer's table host knows no family: a server whose only door is ReversiXT's (or Robo
    Rally's) still offers that family's persons' tables, as it registers them itself."""
    from swc_local.server import families

    monkeypatch.setattr(families, "FAMILIES", tuple(f for f in families.FAMILIES if f.name == family))
    server = await start_viewer_server(nursery, sections={"roborally": {"port": 0}, "reversixt": {"enabled": True}})
    assert [door.name for door in server.doors] == [family, "web"]
    url = server.door("web").url
    status, offered = await http(f"{url}/api/tables")
    assert status == 200 and offered["available"] is True and offered["games"] == []
    assert [offer["game"] for offer in offered["families"]] == [family]
    table = await take_seat(url, {"game": family, "seats": ["you", "open"]})
    assert table["game"] == family and table["seats"][1]["port"] > 0
    status, seat = await http(f"{url}/api/seats/{table['seats'][0]['seat']}")
    assert status == 200 and seat["game"] == family and not seat["over"]
    status, page = await http(f"{url}/seat/{table['seats'][0]['seat']}")
    assert status == 200 and b"seat_family.js" in page
    status, refused = await post(f"{url}/api/tables", {"game": "piranhas", "seats": ["you", "bot"]})
    assert status == 400 and refused["error"] == f"a table is for {family}, not 'piranhas'"
