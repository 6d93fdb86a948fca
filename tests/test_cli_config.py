"""Configuration from swc_local.server.properties and the command line, and the ``swc`` command itself."""

from __future__ import annotations

import signal
import socket
import sys

import pytest
import trio

from swc_local.server.config import ConfigError, load_settings


def write(tmp_path, text: str):
    path = tmp_path / "server.properties"
    path.write_text(text, encoding="latin-1")
    return path


def test_without_a_file_the_official_defaults_apply(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    settings = load_settings()
    assert (settings.password, settings.port, settings.host, settings.paused) == (
        "examplepassword",
        13050,
        "127.0.0.1",
        False,
    )


def test_a_file_without_password_means_nobody_can_authenticate(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "paused = TRUE\n")
    settings = load_settings()
    assert settings.password is None and settings.paused is True


def test_java_properties_syntax_and_flags_win(tmp_path):
    path = write(tmp_path, "# comment\npassword : se\\\n  cret\nport=14000\nlocal = false\npaused = yes\nseed = 7\n")
    settings = load_settings(path)
    assert (settings.password, settings.port, settings.host, settings.paused, settings.seed) == (
        "secret",
        14000,
        "0.0.0.0",
        False,
        7,
    )
    assert load_settings(path, port=15000, password="flag").port == 15000


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
                [sys.executable, "-m", "swc_local.server", "--port", str(port), "--seed", "3"],
                cwd=tmp_path,
                capture_stderr=True,
                check=False,
                task_status=task_status,
            )
        )
        with trio.fail_after(20):
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
    assert server.returncode == 0
