"""Configuration from swc_local.server.properties and the command line, and the ``swc`` command itself."""

from __future__ import annotations

import signal
import socket
import sys

import pytest
import trio

from swc_local.server.config import ConfigError, load_settings
from swc_local.server.xml.settings import door_settings
from tests.helpers import REPOSITORY, cli_errors


def write(tmp_path, text: str):
    path = tmp_path / "server.properties"
    path.write_text(text, encoding="latin-1")
    return path


def test_without_a_file_the_official_defaults_apply(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    settings = load_settings()
    xml = settings.section("xml")
    assert (settings.password, door_settings(settings).port, settings.host, xml.paused) == (
        "examplepassword",
        13050,
        "127.0.0.1",
        False,
    )


def test_a_file_without_password_means_nobody_can_authenticate(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "paused = TRUE\n")
    settings = load_settings()
    assert settings.password is None and settings.section("xml").paused is True


def test_java_properties_syntax_and_flags_win(tmp_path):
    path = write(tmp_path, "# comment\npassword : se\\\n  cret\nport=14000\nlocal = false\npaused = yes\nseed = 7\n")
    settings = load_settings(path)
    xml = settings.section("xml")
    assert (settings.password, xml.port, settings.host, xml.paused, settings.seed) == (
        "secret",
        14000,
        "0.0.0.0",
        False,
        7,
    )
    assert load_settings(path, xml={"port": 15000}, password="flag").section("xml").port == 15000


def test_local_is_strict(tmp_path):
    with pytest.raises(ConfigError):
        load_settings(write(tmp_path, "local = yes\n"))


def test_a_named_properties_file_must_exist(tmp_path):
    with pytest.raises(ConfigError):
        load_settings(tmp_path / "missing.properties")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_swc_serve_plays_two_swc_bots_and_stops_on_ctrl_c(tmp_path):
    port = free_port()
    async with trio.open_nursery() as nursery:
        server = await nursery.start(
            lambda task_status: trio.run_process(
                # the other doors on free ports: a busy default port (7777, 52020, 13080) stops swc serve
                [sys.executable, "-m", "swc_local.server", "--port", str(port), "--seed", "3", "--reversixt-port", "0",
                 "--roborally-port", "0", "--viewer-port", "0"],
                cwd=tmp_path,
                capture_stderr=True,
                check=False,
                task_status=task_status,
            )
        )
        with trio.fail_after(60):
            while True:
                try:
                    await (await trio.open_tcp_stream("127.0.0.1", port)).aclose()
                    break
                except OSError:
                    await trio.sleep(0.05)
            results = []

            async def bot():
                results.append(
                    await trio.run_process(
                        [sys.executable, "-m", "swc_local.tools.cli", "bot", "piranhas", "--port", str(port)],
                        capture_stderr=True,
                        check=False,
                    )
                )

            async with trio.open_nursery() as bots:
                bots.start_soon(bot)
                bots.start_soon(bot)
        assert [r.returncode for r in results] == [0, 0], [r.stderr for r in results]
        server.send_signal(signal.SIGINT)
        with trio.fail_after(10):
            await server.wait()
    assert server.returncode == 128 + signal.SIGINT


# -- wrong input is refused with the value, the file and line, and what is accepted (issue 22) --


def swc(*argv: str) -> int:
    from swc_local.tools.cli import main

    try:
        return main(list(argv))
    except SystemExit as stop:  # argparse's usage errors
        return stop.code


def one_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in text, text
    return lines[0]


@pytest.mark.parametrize("argv, flag, value", [
    (["serve", "--port", "99999"], "--port", "99999"),
    (["serve", "--port", "-5"], "--port", "-5"),
    (["serve", "--port", "many"], "--port", "many"),
    (["serve", "--reversixt-port", "65536"], "--reversixt-port", "65536"),
    (["serve", "--roborally-port", "-2"], "--roborally-port", "-2"),
    (["bot", "piranhas", "--port", "99999"], "--port", "99999"),
    (["admin", "--port", "-1", "cancel", "x"], "--port", "-1"),
    (["roborally", "--port", "70000"], "--port", "70000"),
    (["roborally-bot", "--port", "x1"], "--port", "x1"),
    (["view", "x.xml", "--port", "65536"], "--port", "65536"),
    (["serve", "--viewer-port", "-7"], "--viewer-port", "-7"),
])
def test_a_port_out_of_range_is_a_one_line_error(argv, flag, value, capsys):
    assert swc(*argv) == 2
    line = one_line(capsys.readouterr().err)
    assert flag in line and repr(value) in line and "0..65535" in line


def test_a_properties_file_names_the_file_and_line_of_each_error(tmp_path):
    cases = {
        "saveReplay = yes\n": ("saveReplay", "'yes'", "true or false"),
        "testMode = 1\n": ("testMode", "'1'", "true or false"),
        "port = 99999\n": ("port", "'99999'", "0..65535"),
        "reversixtPort = -3\n": ("reversixtPort", "'-3'", "0..65535"),
        "<xml>garbage\n": ("malformed line", "'<xml>garbage'", "key = value"),
    }
    for text, needles in cases.items():
        path = write(tmp_path, "# first line\npassword = x\n" + text)
        with pytest.raises(ConfigError) as raised:
            load_settings(path)
        assert str(raised.value).startswith(f"{path}:3: "), raised.value
        assert all(needle in str(raised.value) for needle in needles), raised.value


def test_an_unknown_key_is_a_warning_naming_the_closest_known_key(tmp_path, caplog):
    path = write(tmp_path, "pasword = secret\nplugins = ./plugins\nturn = 3\ndebug = true\nsaveReplay=TRUE\n")
    settings = load_settings(path)
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert warnings == [f"{path}:1: unknown key 'pasword' is ignored; did you mean 'password'?"]
    # the official servers' own keys are known keys (and turn is the 2022+ turnToLoad)
    assert settings.password is None and settings.section("xml").turn_to_load == 3 and settings.save_replay is True


def test_swc_serve_stops_on_a_bad_properties_file_with_its_line(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "password = x\nroborally.timer = soon\n")
    assert swc("serve", "--port", "0") == 2
    (error,) = cli_errors(capsys, "swc serve")
    assert error == "server.properties:2: roborally.timer must be a number, not 'soon'"


def _replay_of(plugin_name: str, path) -> str:
    """A one-state replay file of ``plugin_name``'s start position."""
    import random

    from swc_local.games import registry

    plugin = registry.get(registry.resolve(plugin_name))
    state = plugin.new_game(random.Random(1)).state_element().render()
    path.write_text(f'<protocol gameType="{plugin.game_type}"><room roomId="r"><data class="memento">{state}'
                    '</data></room></protocol>')
    return str(path)


@pytest.mark.parametrize("argv", [
    ["match", "hase_und_igel", "--games", "1", "--seed", "1"],
    ["serve", "--port", "0", "--game", "blokus", "--no-reversixt", "--roborally-port", "-1"],
])
def test_load_game_with_a_replay_of_another_game_is_refused(argv, tmp_path, capsys):
    replay = _replay_of("piranhas", tmp_path / "piranhas.xml")
    assert swc(*argv, "--load-game", replay) == 2
    (error,) = cli_errors(capsys, f"swc {argv[0]}")
    assert replay in error and "swc_2019_piranhas" in error
    assert ("swc_2018_hase_und_igel" if argv[0] == "match" else "swc_2027_blokus") in error


def test_a_missing_reversixt_map_stops_swc_serve_at_once(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert swc("serve", "--port", "0", "--reversixt-map", "maps/quad_4p.map") == 2
    (error,) = cli_errors(capsys, "swc serve")
    assert "--reversixt-map 'maps/quad_4p.map'" in error and "No such file" in error


def test_every_key_of_the_example_file_is_a_known_key(tmp_path, caplog):
    import re
    from pathlib import Path

    example = (REPOSITORY / "server.properties.example").read_text()
    every_key = re.sub(r"(?m)^#(\w[\w.]* ?=)", r"\1", example).replace("loadGameFile =", "#loadGameFile =")
    load_settings(write(tmp_path, every_key))
    assert [r.getMessage() for r in caplog.records if r.levelname == "WARNING"] == []


def test_a_wrong_default_game_is_named_by_its_flag_or_its_line(tmp_path, monkeypatch, caplog, capsys):
    monkeypatch.chdir(tmp_path)
    assert swc("serve", "--port", "0", "--game", "piranhas") == 2
    write(tmp_path, "password = x\ndefaultGame = piranhas\n")
    assert swc("serve", "--port", "0") == 2
    errors = cli_errors(capsys, "swc serve")
    assert errors[0].startswith("--game 'piranhas' is not a modern game")
    assert errors[1].startswith("server.properties:2: defaultGame 'piranhas' is not a modern game")
    assert swc("admin", "prepare", "no-such-game") == 2  # before it connects anywhere
    assert one_line(capsys.readouterr().err).startswith("swc admin: unknown game 'no-such-game' (known: ")


@pytest.mark.parametrize("flags, door, how", [
    (["--port", "{taken}"], "XML door", "--port PORT (server.properties: port) moves it"),
    (["--port", "0", "--viewer-port", "{taken}"], "web viewer",
     "--viewer-port PORT (server.properties: viewerPort) moves it, --viewer-port -1 turns it off"),
], ids=["xml", "viewer"])
def test_a_busy_port_stops_swc_serve_with_one_plain_line(tmp_path, flags, door, how):
    """Like every door's port (tests/tools/test_cli_points.py): one plain line (no timestamp, no
    traceback) naming the address, the port and the flag and key that set it, exit 2 (issue 43)."""
    import subprocess

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = busy.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "swc_local.tools.cli", "serve", *(f.format(taken=taken) for f in flags),
             "--no-reversixt", "--roborally-port", "-1"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    errors = [line for line in done.stderr.splitlines() if "cannot listen" in line]
    assert errors == [f"swc serve: error: cannot listen on 127.0.0.1:{taken} for the {door} (Address already in use); {how}"]
    assert " ERROR " not in done.stderr and "Traceback" not in done.stderr


def test_the_reversixt_drop_in_refuses_a_port_out_of_range(capsys):
    from swc_local.server.reversixt.dropin import main as dropin

    assert dropin(["-m", "any.map", "-p", "99999"]) == 255  # its status for argument errors
    assert one_line(capsys.readouterr().out) == "invalid port 99999 (accepted: 0..65535)"
