"""A person's seat is never stuck (issue 41): on its turn it offers what the referee accepts, a
question of the door stays offered until answered, and a seat with nothing to offer leaves with
the defect named instead of waiting for ever."""

from __future__ import annotations

import json
import random

import trio
import trio.testing

from swc_local.client import ladder
from swc_local.games.mississippi_queen.entry import ENTRY as MISSISSIPPI_QUEEN
from swc_local.games.mississippi_queen.plugin import MississippiQueenGame
from swc_local.games.mississippi_queen.rules import Position, Ship, generate_board
from swc_local.server.app import Server
from swc_local.server.config import Settings
from swc_local.server.xml.door import XmlDoor
from swc_local.server.xml.settings import door_settings
from swc_local.server.roborally.seats import RoboSeat
from swc_local.server.web.door_tables import DoorTable
from swc_local.server.xml.seats import PersonSeat

from tests.conftest import PASSWORD
from tests.web_helpers import http, renderer, start_viewer_server, without_reversixt_pauses

JSON = {"Content-Type": "application/json"}
MQ = MISSISSIPPI_QUEEN.plugin


async def post(url: str, body: dict):
    return await http(url, data=json.dumps(body).encode(), headers=JSON)


async def read(url: str, seat: str, after: int = -1) -> dict:
    status, data = await http(f"{url}/api/seats/{seat}?after={after}")
    assert status == 200, data
    return data


async def first_turn(url: str, seat: str) -> dict:
    data = await read(url, seat)
    while not (data["your_turn"] or data["over"]):
        data = await read(url, seat, data["version"])
    return data


async def play_to_the_end(url: str, seat: str, rng: random.Random) -> dict:
    data = await read(url, seat)
    while not data["over"]:
        if data["your_turn"]:
            assert data["moves"], data  # never a turn with nothing offered
            status, data = await post(f"{url}/api/seats/{seat}/move", {"index": rng.randrange(len(data["moves"]))})
            assert status == 200, data
        else:
            data = await read(url, seat, data["version"])
    while data["result_rows"] is None or data["status"] != "finished":
        await trio.sleep(0.05)
        data = await read(url, seat)
    return data


def mississippi_queen_at_the_issues_position() -> MississippiQueenGame:
    """Issue 41's position: turn 4, ONE to move at (6,-1,-5) heading RIGHT, speed 6, coal 0, three
    segments revealed. Within the revealed segments ONE has no move; the referee (as 24.2.5,
    spec §10 D1) accepts turning DOWN_LEFT and advancing into the fourth, unrevealed segment."""
    board = generate_board(random.Random(39))
    board.reveal(3)
    ships = [Ship(0, 6, -1, direction=0, speed=6, coal=0), Ship(1, 3, 1, direction=0, speed=2, coal=4)]
    return MississippiQueenGame(Position(board, ships, turn=4, current=0))


async def test_a_mississippi_queen_seat_offers_the_moves_into_unrevealed_segments_and_plays_on(nursery):
    def factory(plugin, rng):
        return mississippi_queen_at_the_issues_position() if plugin.game_type == MQ.game_type else None

    settings = Settings(free_ports=True, password=PASSWORD, seed=1, sections={"web": {"port": 0}})
    server = Server(settings, prepared={XmlDoor.name: XmlDoor(door_settings(settings), factory)}, opponents=ladder)
    server.web_renderer = renderer()
    server = await nursery.start(server.run)
    url = server.door("web").url
    status, table = await post(f"{url}/api/tables", {"game": "mississippi_queen", "seats": ["you", "bot"]})
    assert status == 200, table
    seat = table["seats"][0]["seat"]
    with trio.fail_after(60):
        data = await first_turn(url, seat)
        assert data["turn"] == 4 and data["your_turn"]
        offered = {m["text"] for m in data["moves"]}
        referee = mississippi_queen_at_the_issues_position()
        seen = MQ.game_from_state(referee.state_element())  # what the memento tells a client: no move
        assert seen.position.board.visible == 3 and MQ.legal_moves(seen) == []
        assert offered == {MQ.notation(m, referee) for m in MQ.legal_moves(referee)}
        data = await play_to_the_end(url, seat, random.Random(41))
    assert data["error"] is None and [row["cause"] for row in data["result_rows"]] == ["REGULAR", "REGULAR"]


async def test_a_seat_with_nothing_to_offer_leaves_with_the_defect_named(nursery, monkeypatch, caplog):
    monkeypatch.setattr(PersonSeat, "legal_moves", lambda self: [])
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    status, table = await post(f"{url}/api/tables", {"game": "piranhas", "seats": ["you", "bot"]})
    assert status == 200, table
    seat = table["seats"][0]["seat"]
    with trio.fail_after(30):
        data = await read(url, seat)
        while not data["over"]:
            assert not data["your_turn"], data  # never a turn that offers nothing
            data = await read(url, seat, data["version"])
        while data["result_rows"] is None or data["status"] != "finished":
            await trio.sleep(0.05)
            data = await read(url, seat)
    assert "no legal move to offer" in data["closed"]
    assert data["result_rows"][0]["cause"] == "LEFT", data["result_rows"]
    assert any("no legal move to offer" in r.getMessage() and r.levelname == "ERROR" for r in caplog.records)


async def robo_seat(nursery) -> tuple[RoboSeat, trio.abc.Stream]:
    """A Robo Rally seat as client 1 of a table, in the activation phase, its wire a memory pipe."""
    table = DoorTable("t", "roborally", "Robo Rally", ["1", "2"], nursery, ("you", "bot"))
    table.course, table.timer, table.timed = "Extra Crispy", 30.0, False
    seat = RoboSeat("s", table, 0, "you", "you")
    seat.stream, server_end = trio.testing.memory_stream_pair()
    for kind, body in (("Welcome", {"clientID": 1}), ("ActivePhase", {"phase": 3})):
        seat.receive(kind, body)
    return seat, server_end


async def answer(seat: RoboSeat, server_end, asked: str) -> dict:
    data = seat.json()
    assert data["your_turn"] and data["asked"] == asked and data["moves"], data
    await seat.send_request(json.dumps({"index": 0}).encode())
    return json.loads(await server_end.receive_some(4096))


async def test_a_reboot_direction_asked_before_a_damage_pick_is_offered_again_after_the_pick(nursery):
    seat, server_end = await robo_seat(nursery)
    seat.receive("Reboot", {"clientID": 1})  # spec §5.8: Reboot, then the damage, here a pick (§5.9)
    seat.receive("PickDamage", {"count": 2, "availablePiles": ["Virus", "Trojan"]})
    assert (await answer(seat, server_end, "damage"))["messageType"] == "SelectedDamage"
    seat.receive("DrawDamage", {"clientID": 1, "cards": ["Virus", "Virus"]})
    assert (await answer(seat, server_end, "reboot"))["messageType"] == "RebootDirection"
    assert not seat.json()["your_turn"] and seat.json()["asked"] is None


async def test_questions_stay_offered_in_any_order_until_answered_or_the_round_ends(nursery):
    seat, server_end = await robo_seat(nursery)
    seat.receive("PickDamage", {"count": 1, "availablePiles": ["Worm"]})
    seat.receive("Reboot", {"clientID": 1})
    assert (await answer(seat, server_end, "reboot"))["messageType"] == "RebootDirection"
    assert (await answer(seat, server_end, "damage"))["messageType"] == "SelectedDamage"
    seat.receive("Reboot", {"clientID": 1})
    seat.receive("ActivePhase", {"phase": 2})  # the round is over: the server took its default facing
    assert not seat.json()["your_turn"]


async def test_a_person_rebooting_after_a_damage_pick_on_extra_crispy_plays_on_to_the_end(nursery):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    status, table = await post(f"{url}/api/tables", {"game": "roborally", "course": "Extra Crispy", "robots": 2,
                                                     "seats": ["you", "bot"]})
    assert status == 200, table
    seat, rng, asked = table["seats"][0]["seat"], random.Random(6), []
    with trio.fail_after(300):
        data = await read(url, seat)
        while not data["over"]:
            if data["your_turn"]:
                assert data["moves"], data
                asked.append(data["asked"])
                moves = [m["index"] for m in data["moves"] if data["asked"] != "program" or m["card"] is not None]
                status, data = await post(f"{url}/api/seats/{seat}/move", {"index": rng.choice(moves)})
                assert status in (200, 409), data  # 409: the turn moved on (the timer) before the move
            else:
                data = await read(url, seat, data["version"])
    assert ("damage", "reboot") in zip(asked, asked[1:]), asked  # the pick, then the direction again
    assert data["result"] is not None and data["winner"] in (1, 2), data


async def test_a_reversixt_seat_with_nothing_to_offer_leaves_with_the_defect_named(nursery, monkeypatch, caplog):
    from swc_local.server.reversixt.seats import ReversiSeat

    monkeypatch.setattr(ReversiSeat, "legal_moves", lambda self: [])
    server = without_reversixt_pauses(await start_viewer_server(nursery))
    url = server.door("web").url
    status, table = await post(f"{url}/api/tables", {"game": "reversixt", "map": "classic_2p", "seats": ["you", "bot"]})
    assert status == 200, table
    seat = table["seats"][0]["seat"]
    with trio.fail_after(30):
        data = await read(url, seat)
        while not data["over"]:
            assert not data["your_turn"], data  # never a turn that offers nothing
            data = await read(url, seat, data["version"])
    assert "no legal move to offer" in data["closed"], data
    assert any("no legal move to offer" in r.getMessage() and r.levelname == "ERROR" for r in caplog.records)


async def test_a_damage_pick_offers_only_what_the_piles_hold_and_a_refused_pick_is_asked_again(nursery):
    from types import SimpleNamespace

    seat, server_end = await robo_seat(nursery)
    game = SimpleNamespace(piles={"Spam": 0, "Virus": 1, "Trojan": 5, "Worm": 0})
    seat.table.door = SimpleNamespace(door=SimpleNamespace(rooms=[SimpleNamespace(game=game)]))
    seat.receive("PickDamage", {"count": 2, "availablePiles": ["Virus", "Trojan"]})
    assert [m["cards"] for m in seat.json()["moves"]] == [["Virus", "Trojan"], ["Trojan", "Trojan"]]
    await answer(seat, server_end, "damage")
    game.piles["Virus"] = 0  # taken meanwhile: the door refuses the pick and keeps waiting (spec §5.9)
    seat.receive("Error", {"error": "Invalid damage selection"})
    assert [m["cards"] for m in seat.json()["moves"]] == [["Trojan", "Trojan"]]


def test_the_reference_bot_tries_the_next_damage_pick_when_one_is_refused():
    from swc_local.client.roborally_bot import RoboRallyBot

    bot = RoboRallyBot(seed=1)
    bot.on_message("PickDamage", {"count": 2, "availablePiles": ["Virus", "Trojan"]})
    bot.on_message("Error", {"error": "Invalid damage selection"})
    bot.on_message("Error", {"error": "Invalid damage selection"})
    picks = [m["messageBody"]["cards"] for m in bot.out if m["messageType"] == "SelectedDamage"]
    assert picks == [["Virus", "Trojan"], ["Virus", "Virus"], ["Trojan", "Trojan"]]
