"""Helpers of the web viewer's tests: a server with its viewer, HTTP calls, a headless Chromium."""

from __future__ import annotations

import gzip
import html
import json
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import trio

from swc_local.server.app import Server
from swc_local.server.config import Settings

DATA = Path(__file__).parent / "data"
PASSWORD = "testpassword"
OFFICIAL_PIRANHAS = DATA / "piranhas_2019" / "game_seed2_admin_observer_recv.xml"
REFERENCE_REVERSIXT = DATA / "reversixt" / "game_2p_default" / "log_game.txt"
ROBORALLY_LOG_GZ = DATA / "roborally" / "death_trap_game.jsonl.gz"


def renderer():
    """The games' own drawing; a stand-in naming the game for a game whose view is not there yet."""
    from swc_local.games import views

    def render(game_type, state, last_move=None, previous=None):
        try:
            views.view_module(game_type)
        except (ImportError, KeyError):
            return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 20">'
                    f'<text x="2" y="14">{html.escape(game_type)} {id(state)}</text></svg>')
        return views.render(game_type, state, last_move, previous)
    return render


async def start_viewer_server(nursery, sections: dict | None = None, **overrides) -> Server:
    fields = {"port": 0, "password": PASSWORD, "seed": 1} | overrides
    server = Server(Settings(**fields, sections={"web": {"port": 0}} | (sections or {})))
    server.web_renderer = renderer()
    return await nursery.start(server.run)


def _call(url: str, data: bytes | None = None, headers: dict | None = None, method: str | None = None):
    request = urllib.request.Request(url, data=data, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


async def http(url: str, data: bytes | None = None, headers: dict | None = None, method: str | None = None):
    """(status, parsed JSON or bytes) of one request, made in a thread."""
    status, body = await trio.to_thread.run_sync(lambda: _call(url, data, headers, method))
    try:
        return status, json.loads(body)
    except ValueError:
        return status, body


def unpacked_roborally_log(tmp_path: Path) -> Path:
    path = tmp_path / "death_trap_game.jsonl"
    path.write_bytes(gzip.decompress(ROBORALLY_LOG_GZ.read_bytes()))
    return path


class ViewProcess:
    """``swc view --port 0 FILE...`` as a user runs it; ``url`` is read from its first line."""

    def __init__(self, *files: Path) -> None:
        swc = Path(sys.executable).parent / "swc"  # the console script of this environment
        self.process = subprocess.Popen([str(swc), "view", "--port", "0", *map(str, files)],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("viewer on "):
            self.process.kill()
            raise AssertionError(f"swc view did not start: {line!r} {self.process.stderr.read()}")
        self.url = line.split()[-1].rstrip("/")

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.process.stdout.close()
        self.process.stderr.close()


def chrome(tmp_path: Path):
    """Debian's headless Chromium through its chromedriver (no driver download)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary, driver = shutil.which("chromium"), shutil.which("chromedriver")
    assert binary and driver, "the browser tests need Debian's chromium and chromium-driver (.ci/run installs them)"
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 f"--user-data-dir={tmp_path / 'chromium-profile'}", "--window-size=1200,900"):
        options.add_argument(flag)
    return webdriver.Chrome(options=options, service=Service(executable_path=driver))


class _SlowStream:
    def __init__(self, stream, delay: float) -> None:
        self.stream, self.delay = stream, delay

    async def send_all(self, data: bytes) -> None:
        await trio.sleep(self.delay)
        await self.stream.send_all(data)

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        return await self.stream.receive_some(max_bytes)

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc) -> None:
        await self.stream.aclose()


class _SlowTrio:
    """``trio`` for a bot module, whose connections wait ``delay`` before each send."""

    def __init__(self, delay: float) -> None:
        self.delay = delay

    def __getattr__(self, name: str):
        return getattr(trio, name)

    async def open_tcp_stream(self, host: str, port: int):
        return _SlowStream(await trio.open_tcp_stream(host, port), self.delay)


def slow_bots(monkeypatch, bot_class, delay: float = 0.1) -> None:
    """Make a bot class think ``delay`` seconds before every answer, so its game lasts a while."""
    monkeypatch.setattr(sys.modules[bot_class.__module__], "trio", _SlowTrio(delay))
