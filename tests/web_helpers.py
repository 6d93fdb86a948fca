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


class ViewerThread:
    """A server with its viewer, run by ``trio.run`` in a thread of its own, so that one server
    serves every (synchronous) test of a module; ``close()`` cancels it."""

    def __init__(self, **overrides) -> None:
        import threading

        self.ready = threading.Event()
        self.server: Server | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, args=(overrides,), daemon=True)
        self.thread.start()
        self.ready.wait(60)
        if self.server is None:
            raise AssertionError(f"the viewer did not start: {self.error!r}")
        self.url = self.server.door("web").url

    def _run(self, overrides: dict) -> None:
        try:
            trio.run(self._main, overrides)
        except BaseException as error:  # reported by __init__ or close()
            self.error = error
            self.ready.set()

    async def _main(self, overrides: dict) -> None:
        async with trio.open_nursery() as nursery:
            self.cancel_scope, self.token = nursery.cancel_scope, trio.lowlevel.current_trio_token()
            self.server = await start_viewer_server(nursery, **overrides)
            self.ready.set()
            await trio.sleep_forever()

    def close(self) -> None:
        trio.from_thread.run_sync(self.cancel_scope.cancel, trio_token=self.token)
        self.thread.join(30)


def call_json(url: str, data: bytes | None = None) -> tuple[int, object]:
    """(status, parsed JSON) of one request, from a synchronous test."""
    status, body = _call(url, data)
    return status, json.loads(body)


# -- a person's seat in the browser ---------------------------------------------------------------

_OFFERED = """
const keys = [];
for (const r of document.querySelectorAll('#board g.seat-targets rect.seat-from, #board g.seat-targets rect.seat-to'))
  keys.push('cell:' + r.dataset.cell);
for (const b of document.querySelectorAll('#choices button.choice:not(.back):not(.send)'))
  keys.push('choice:' + b.dataset.choice);
return keys;"""


def step_key(step: dict) -> str:
    return "cell:" + step["cell"] if "cell" in step else "choice:" + step["choice"]


def seat_state(driver) -> str | None:
    """"over" once the result is shown, "turn" when the page offers this seat a move, else None."""
    from selenium.webdriver.common.by import By

    if driver.find_element(By.ID, "result-box").is_displayed():
        return "over"
    board = driver.find_element(By.ID, "board")
    if board.get_attribute("data-your-turn") == "1" and driver.execute_script(_OFFERED):
        return "turn"
    return None


def wait_page(driver, condition, timeout: float = 60, message: str = ""):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(lambda d: condition(d), message)


def click_a_move(driver, api: str, choose=None) -> dict:
    """Play one move on a person's seat page by clicking what the page offers, step by step: the
    move is ``choose(moves)`` of the seat's legal moves (the API's list; default the first), and at
    every step the page must offer exactly the next steps of the legal moves that agree with the
    clicks so far.  Returns the move clicked."""
    from selenium.webdriver.common.by import By

    moves = call_json(api)[1]["moves"]
    move = choose(moves) if choose is not None else moves[0]
    board = driver.find_element(By.ID, "board")
    version = board.get_attribute("data-version")
    for depth, step in enumerate(move["steps"]):
        prefix = [step_key(s) for s in move["steps"][:depth]]
        expected = {step_key(m["steps"][depth]) for m in moves
                    if len(m["steps"]) > depth and [step_key(s) for s in m["steps"][:depth]] == prefix}
        offered = driver.execute_script(_OFFERED)
        assert sorted(offered) == sorted(expected), f"step {depth}: offered {sorted(offered)[:8]}..."
        if "cell" in step:
            driver.find_element(By.CSS_SELECTOR, f'#board g.seat-targets rect[data-cell="{step["cell"]}"]'
                                                 ":not(.seat-picked)").click()
        else:
            driver.find_element(By.CSS_SELECTOR, f'#choices button.choice[data-choice="{step["choice"]}"]').click()
    if board.get_attribute("data-version") == version and driver.find_elements(By.CSS_SELECTOR, "#choices button.send"):
        driver.find_element(By.CSS_SELECTOR, "#choices button.send").click()  # a prefix of longer moves
    wait_page(driver, lambda d: board.get_attribute("data-version") != version, message="the move was not sent")
    return move


def replay_result(path: Path) -> list[tuple[str, str, list[str]]]:
    """(seat, cause, score parts) of both seats as ``swc replay PATH`` prints its result."""
    import re

    swc = Path(sys.executable).parent / "swc"
    out = subprocess.run([str(swc), "replay", str(path)], capture_output=True, text=True, check=True).stdout
    lines = out.split("result:")[1].strip().splitlines()
    rows = [re.match(r"(\w+)\s+(\w+) \[([^\]]*)\]", line.strip()) for line in lines[:2]]
    return [(m.group(1).upper(), m.group(2), m.group(3).split()) for m in rows]


def page_result(driver) -> list[tuple[str, str, list[str]]]:
    """(seat, cause, score parts) of each row of a seat page's result table."""
    rows = driver.execute_script(
        "return [...document.querySelectorAll('#result tbody tr')].map(r => [...r.cells].map(c => c.textContent));")
    return [(r[1], r[3], r[4].split(" / ")) for r in rows]
