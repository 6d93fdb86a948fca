"""People at the table of ReversiXT and Robo Rally through the API (server/web/seats_reversixt.py,
server/web/seats_roborally.py): a script takes a seat with ``POST /api/tables``, reads its state
and legal moves and sends moves, as the seat page does; the game's end on the seat equals what
``swc replay`` prints of the log the table's door wrote."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from swc_local.games.roborally.board import board_from_game_map  # noqa: F401 -- the rules a script may plan with

from tests.web_helpers import http, start_viewer_server

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


def swc_replay(path: Path) -> str:
    swc = Path(sys.executable).parent / "swc"
    done = subprocess.run([str(swc), "replay", str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


async def take_seat(url: str, body: dict) -> dict:
    status, table = await post(f"{url}/api/tables", body)
    assert status == 200, table
    return table


async def test_a_person_plays_a_whole_reversixt_game_against_the_reference_bot(nursery, tmp_path):
    server = await start_viewer_server(nursery, save_replay=True, replay_dir=str(tmp_path))
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
        if state["step"] == "program":
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
