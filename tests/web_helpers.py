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

from swc_local.client import ladder
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


async def start_viewer_server(nursery, sections: dict | None = None, opponents=ladder, **overrides) -> Server:
    """A server with its viewer on free ports; its tables seat the ladder's reference bots as
    ``swc serve``'s do (``opponents=None``: a server built without them)."""
    fields = {"free_ports": True, "password": PASSWORD, "seed": 1} | overrides
    server = Server(Settings(**fields, sections={"web": {"port": 0}} | (sections or {})), opponents=opponents)
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


_SEAT_PAGE = """
const shown = e => !!e && !e.hidden && e.getClientRects().length > 0;
const board = document.getElementById('board'), error = document.getElementById('error');
return {over: shown(document.getElementById('result-box')), your_turn: board.dataset.yourTurn === '1',
        version: board.dataset.version, offered: (() => {""" + _OFFERED + """})(),
        to_move: document.getElementById('to-move').textContent, clock: document.getElementById('clock').textContent,
        error: shown(error) ? error.textContent : null};"""


def seat_page(driver) -> dict:
    """What a test reads of a person's seat page, in one round trip to the browser: ``over`` (the
    result shown), ``your_turn``, the board's ``version``, the steps ``offered``, the ``to_move``
    and ``clock`` texts and the ``error`` shown (None when hidden)."""
    return driver.execute_script(_SEAT_PAGE)


def seat_state(driver) -> str | None:
    """"over" once the result is shown, "turn" when the page offers this seat a move, else None."""
    page = seat_page(driver)
    return "over" if page["over"] else "turn" if page["your_turn"] and page["offered"] else None


def wait_seat(driver, timeout: float = 120, message: str = "") -> dict:
    """The seat page (:func:`seat_page`) once it shows the result or offers this seat a move."""
    return wait_in_page(driver, "const p = (() => {" + _SEAT_PAGE + "})();"
                                "return p.over || (p.your_turn && p.offered.length) ? p : null;", timeout, message)


_WAIT_IN_PAGE = """
const args = arguments, done = arguments[arguments.length - 1], end = Date.now() + arguments[0];
const check = () => {%s};
(function poll() {
  let value = null;
  try { value = check(); } catch (error) { value = null; }
  if (value || Date.now() > end) done(value || null); else setTimeout(poll, 10);
})();"""


def wait_in_page(driver, condition: str, timeout: float = 60, message: str = "", *args):
    """The first true value of the script body ``condition`` (its arguments from ``arguments[1]``
    on), checked by the page itself every 10 ms, so a wait costs one round trip to the browser
    rather than one per check; TimeoutException after ``timeout`` seconds."""
    import time

    from selenium.common.exceptions import TimeoutException

    end = time.monotonic() + timeout
    if getattr(driver, "_wait_in_page_timeout", None) is None:
        driver.set_script_timeout(60)
        driver._wait_in_page_timeout = 60
    script = _WAIT_IN_PAGE.replace("%s", condition)
    while True:
        left = end - time.monotonic()
        value = driver.execute_async_script(script, int(1000 * min(30.0, max(0.0, left))), *args)
        if value:
            return value
        if left <= 0:
            raise TimeoutException(message)


def wait_page(driver, condition, timeout: float = 60, message: str = ""):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(lambda d: condition(d), message)


_TARGET = """
const key = args[1];
const value = CSS.escape(key.slice(key.indexOf(':') + 1));
return key.startsWith('cell:')
  ? document.querySelector('#board g.seat-targets rect[data-cell="' + value + '"]:not(.seat-picked)')
  : document.querySelector('#choices button.choice[data-choice="' + value + '"]');"""


_STEP = ("const offered = (() => {" + _OFFERED + "})();"
         "return offered.length ? [offered, (() => {" + _TARGET + "})(), document.getElementById('board').dataset.version]"
         " : null;")
"""A step of a move (a :func:`wait_in_page` condition): the steps offered, the target of the one
to click and the board's version, once the page offers any step (a redraw empties it a moment)."""


_SENT = """
const page = (() => {""" + _SEAT_PAGE + """})();
if (page.version !== args[1]) return page;
if (page.error !== null) return page;  // refused: the assertion below shows the server's words
const send = document.querySelector('#choices button.send');
return send ? {send} : null;"""


def click_a_move(driver, api: str, choose=None) -> dict:
    """Play one move on a person's seat page by clicking what the page offers, step by step: the
    move is ``choose(moves)`` of the seat's legal moves (the API's list; default the first), and at
    every step the page must offer exactly the next steps of the legal moves that agree with the
    clicks so far; the page must show no error once the move is sent.  Returns the move clicked.
    Each step reads the page and finds its target in one script, then clicks it as a person does
    (WebDriver's click), so a move costs few round trips to the browser."""
    moves = call_json(api)[1]["moves"]
    move = choose(moves) if choose is not None else moves[0]
    version = None if move["steps"] else seat_page(driver)["version"]
    for depth, step in enumerate(move["steps"]):
        prefix = [step_key(s) for s in move["steps"][:depth]]
        expected = {step_key(m["steps"][depth]) for m in moves
                    if len(m["steps"]) > depth and [step_key(s) for s in m["steps"][:depth]] == prefix}
        offered, target, shown = wait_in_page(driver, _STEP, 30, f"step {depth}: the page offers no step", step_key(step))
        version = shown if version is None else version  # before the first click
        assert sorted(offered) == sorted(expected), f"step {depth}: offered {sorted(offered)[:8]}..."
        target.click()
    page = wait_in_page(driver, _SENT, 60, "the move was not sent", version)
    if "send" in page:
        page["send"].click()  # a prefix of longer moves
        page = wait_in_page(driver, _SENT, 60, "the move was not sent", version)
    assert page["error"] is None, page["error"]
    return move


def swc_replay(path: Path) -> str:
    """What ``swc replay PATH`` prints, through the command's own entry point run in this process
    (a new interpreter per game would cost seconds on a loaded machine)."""
    import contextlib
    import io

    from swc_local.tools.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["replay", str(path)]) == 0
    return out.getvalue()


def replay_result(path: Path) -> list[tuple[str, str, list[str]]]:
    """(seat, cause, score parts) of both seats as ``swc replay PATH`` prints its result."""
    import re

    lines = swc_replay(path).split("result:")[1].strip().splitlines()
    rows = [re.match(r"(\w+)\s+(\w+) \[([^\]]*)\]", line.strip()) for line in lines[:2]]
    return [(m.group(1).upper(), m.group(2), m.group(3).split()) for m in rows]


def page_result(driver) -> list[tuple[str, str, list[str]]]:
    """(seat, cause, score parts) of each row of a seat page's result table."""
    rows = driver.execute_script(
        "return [...document.querySelectorAll('#result tbody tr')].map(r => [...r.cells].map(c => c.textContent));")
    return [(r[1], r[3], r[4].split(" / ")) for r in rows]


def without_reversixt_pauses(server: Server) -> Server:
    """The server's ReversiXT door (and so its tables) without the reference's 1 s start and 100 ms
    turn pauses, as ``swc match --start-delay 0 --turn-delay 0`` plays: for tests that play whole
    games and are not about the pauses."""
    from swc_local.server.reversixt.game import Timing

    server.door("reversixt").settings.timing = Timing(start_delay=0.0, turn_delay=0.0)
    return server
