"""Admin scripting over real sockets: the library (prepare, observe, pause, step, result, cancel),
its blocking form, and ``swc admin``."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import trio

from swc_local.client.admin import Admin, AdminError, Slot
from swc_local.client.admin_cli import PassphraseError, find_password
from swc_local.client.blocking import connect_admin
from swc_local.client.bot import play_game
from swc_local.client.messages import JoinedGameRoom, Left, Memento, Result
from swc_local.games import registry
from tests.conftest import PASSWORD

PIRANHAS = registry.get("swc_2019_piranhas")


async def test_prepare_observe_step_pause_and_result(server):
    async with await Admin.connect("127.0.0.1", server.door("xml").port, PASSWORD) as admin:
        room = await admin.prepare("piranhas", ["Alice", "Bob"], paused=True)
        assert len(room.reservations) == 2
        await admin.observe(room.room_id)
        async with trio.open_nursery() as nursery:
            reports = []

            async def bot(code: str, seed: int) -> None:
                reports.append(await play_game(PIRANHAS, "127.0.0.1", server.door("xml").port, code, seed))

            for seat, code in enumerate(room.reservations):
                nursery.start_soon(bot, code, seat)
            with trio.fail_after(10):
                first = await admin.first_step(room.room_id, settle=0.3)  # waits for the start
                turns = [first.turn]
                for _ in range(2):  # one move per step; the state shown is the one before it
                    await admin.step(room.room_id, settle=0.3)
                    memento = await admin.next_memento(room.room_id)
                    turns.append(memento.turn)
                    assert memento.game.turn == memento.turn
                assert turns == [0, 1, 2]
                await admin.unpause(room.room_id)
                result = await admin.wait_result(room.room_id)
        assert isinstance(result, Result)
        assert [s.cause for s in result.scores] == ["REGULAR", "REGULAR"]
        assert sorted(s.points for s in result.scores) in ([0, 2], [1, 1])
        assert {r.color for r in reports} == {"red", "blue"}
        if result.winner is not None:
            assert result.winner[0] in ("Alice", "Bob")
        assert server.door("xml").lobby.rooms == {}


async def test_pause_a_running_room_then_cancel(server):
    async with await Admin.connect("127.0.0.1", server.door("xml").port, PASSWORD) as admin:
        room = await admin.prepare("piranhas", [Slot("A"), Slot("B")])
        await admin.observe(room.room_id)
        async with trio.open_nursery() as nursery:
            for seat, code in enumerate(room.reservations):
                nursery.start_soon(play_game, PIRANHAS, "127.0.0.1", server.door("xml").port, code, seat)
            with trio.fail_after(10):
                first = await admin.next_memento(room.room_id)
                assert first.turn == 0
                await admin.pause(room.room_id)
                await trio.sleep(0.3)
                paused_at = server.door("xml").lobby.rooms[room.room_id].game.turn
                await trio.sleep(0.3)
                assert server.door("xml").lobby.rooms[room.room_id].game.turn == paused_at  # nothing moves
                await admin.cancel(room.room_id)
                assert await admin.wait_result(room.room_id) is None  # cancelled: left, no result
        assert room.room_id not in server.door("xml").lobby.rooms


async def test_join_notices_reach_the_admin(server):
    async with await Admin.connect("127.0.0.1", server.door("xml").port, PASSWORD) as admin:
        await admin.set_test_mode(False)  # a round trip: the admin is registered
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play_game, PIRANHAS, "127.0.0.1", server.door("xml").port, None, 1)
            nursery.start_soon(play_game, PIRANHAS, "127.0.0.1", server.door("xml").port, None, 2)
            with trio.fail_after(10):
                while len([m for m in admin._lobby if isinstance(m, JoinedGameRoom)]) < 2:
                    await admin._pump()
        notices = [m for m in admin.lobby_messages() if isinstance(m, JoinedGameRoom)]
        assert [n.existing for n in notices] == [False, True]


async def test_a_wrong_passphrase_is_an_admin_error(server):
    async with await Admin.connect("127.0.0.1", server.door("xml").port, "wrong") as admin:
        with pytest.raises(AdminError), trio.fail_after(5):
            await admin.prepare("piranhas", ["A", "B"])


def test_blocking_admin_and_swc_admin_command(swc_server):
    """A synchronous script: the blocking wrapper, then ``swc admin`` in a subprocess."""
    with connect_admin("127.0.0.1", swc_server.port, swc_server.password) as admin:
        room = admin.prepare("piranhas", ["Alice", "Bob"], paused=True)
        admin.observe(room.room_id)
        cli = [sys.executable, "-m", "swc_local.tools.cli", "admin", "--port", str(swc_server.port), "--password", swc_server.password]
        bots = [
            subprocess.Popen([sys.executable, "-m", "swc_local.tools.cli", "bot", "piranhas", "--port", str(swc_server.port), "--reservation", code])
            for code in room.reservations
        ]
        try:
            stepped = subprocess.run(cli + ["step", room.room_id, "--count", "2", "--interval", "0.3"], capture_output=True, text=True, timeout=60)
            assert stepped.stdout.split() == ["turn", "0", "turn", "1"], stepped.stderr
            turns = [admin.next_memento(room.room_id, timeout=10).turn for _ in range(2)]
            assert turns == [0, 1]
            subprocess.run(cli + ["unpause", room.room_id], check=True, timeout=60)
            messages = []
            while not messages or not isinstance(messages[-1], Left):
                messages.append(admin.room_message(room.room_id, timeout=10))
        finally:
            for bot in bots:
                bot.wait(timeout=60)
        assert isinstance(messages[-1], Left)
        assert isinstance(messages[-2], Result)
        assert any(isinstance(m, Memento) for m in messages)
        prepared = subprocess.run(cli + ["prepare", "piranhas", "--name", "X", "--name", "Y"], capture_output=True, text=True, timeout=60)
        assert prepared.returncode == 0
        # labelled: "room: ID", then "red (X): CODE" and "blue (Y): CODE"
        (room_line, *code_lines) = prepared.stdout.splitlines()
        room_id = room_line.removeprefix("room: ")
        codes = [line.split(": ")[1] for line in code_lines]
        assert [line.split(": ")[0] for line in code_lines] == ["red (X)", "blue (Y)"]
        assert len(codes) == 2 and room_id in swc_server.server.door("xml").lobby.rooms
        assert set(codes) <= set(swc_server.server.door("xml").lobby.reservations)


@pytest.mark.swc_server(password="s3cret")
def test_swc_admin_finds_the_passphrase_as_swc_serve_does(swc_server, tmp_path):
    """--properties PATH, else ./server.properties, else the default; --password/SWC_PASSWORD win."""
    (tmp_path / "server.properties").write_text("# as swc serve reads it\npassword = s3cret\n")
    other = tmp_path / "other.properties"
    other.write_text("password=wrong\n")
    env = {k: v for k, v in os.environ.items() if k != "SWC_PASSWORD"}
    base = [sys.executable, "-m", "swc_local.tools.cli", "admin", "--port", str(swc_server.port)]

    def prepare(*flags: str, **extra_env: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            base + list(flags) + ["prepare", "piranhas"], capture_output=True, text=True,
            timeout=30, cwd=tmp_path, env=env | extra_env,
        )

    assert prepare().returncode == 0                                   # ./server.properties
    assert prepare("--properties", str(other)).returncode == 1         # the named file wins
    assert prepare("--properties", str(other), "--password", "s3cret").returncode == 0
    assert prepare("--properties", str(other), SWC_PASSWORD="s3cret").returncode == 0
    missing = prepare("--properties", str(tmp_path / "nope.properties"))
    assert missing.returncode == 2 and "does not exist" in missing.stderr


def test_find_password_precedence(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert find_password(None, None, environ={}) == "examplepassword"  # no file: the default
    (tmp_path / "server.properties").write_text("password:from-file\n")
    assert find_password(None, None, environ={}) == "from-file"
    assert find_password(None, None, environ={"SWC_PASSWORD": "env"}) == "env"
    assert find_password("flag", None, environ={"SWC_PASSWORD": "env"}) == "flag"
    keyless = tmp_path / "keyless.properties"
    keyless.write_text("port=13050\n")
    with pytest.raises(PassphraseError, match="no password key"):
        find_password(None, keyless, environ={})


def test_swc_admin_and_swc_bot_say_why_the_server_closed_on_them(swc_server):
    """The close carries no reason on the wire; the commands name it from what they asked."""
    swc = [sys.executable, "-m", "swc_local.tools.cli"]
    port = ["--port", str(swc_server.port)]
    cancel = subprocess.run(swc + ["admin", *port, "--password", swc_server.password, "cancel", "no-such-room"],
                            capture_output=True, text=True, timeout=30)
    assert cancel.returncode == 1 and cancel.stderr.count("\n") == 1, cancel.stderr
    assert "unknown room 'no-such-room'" in cancel.stderr
    bot = subprocess.run(swc + ["bot", "piranhas", *port, "--reservation", "no-such-code"],
                         capture_output=True, text=True, timeout=30)
    assert bot.returncode == 1 and "unknown or already used reservation code 'no-such-code'" in bot.stderr, bot.stderr
    assert "Traceback" not in cancel.stderr + bot.stderr


def test_swc_admin_cancel_confirms_and_swc_bot_says_won_lost_or_draw(swc_server):
    swc = [sys.executable, "-m", "swc_local.tools.cli"]
    admin = swc + ["admin", "--port", str(swc_server.port), "--password", swc_server.password]
    prepared = subprocess.run(admin + ["prepare", "piranhas"], capture_output=True, text=True, timeout=30)
    room_id = prepared.stdout.splitlines()[0].removeprefix("room: ")
    cancelled = subprocess.run(admin + ["cancel", room_id], capture_output=True, text=True, timeout=30)
    assert cancelled.returncode == 0 and cancelled.stdout == f"room {room_id} cancelled\n"
    assert room_id not in swc_server.server.door("xml").lobby.rooms
    bots = [subprocess.Popen(swc + ["bot", "piranhas", "--port", str(swc_server.port), "--seed", str(seed)],
                             stdout=subprocess.PIPE, text=True) for seed in (1, 2)]
    lines = [bot.communicate(timeout=60)[0] for bot in bots]
    verdicts = sorted(line.split()[0] for line in lines)
    assert verdicts in (["lost", "won"], ["draw", "draw"]), lines
    assert all(" after " in line and " moves in room " in line and "[" not in line for line in lines), lines


def test_swc_admin_names_a_misspelled_password_key(tmp_path):
    keyless = tmp_path / "server.properties"
    keyless.write_text("pasword = secret\n")
    with pytest.raises(PassphraseError, match="'pasword' a misspelling"):
        find_password(None, keyless, environ={})
