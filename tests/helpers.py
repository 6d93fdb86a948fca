"""Helpers that many test modules share, in one place (issue 35): where the suite's files are,
waiting for a condition, preparing a room as an admin, and reading a classic (2019-2023) capture.

A helper that only one game's tests use stays with them (``tests/reversixt_harness.py``,
``tests/scenario.py``, ...); a fixture that a folder's tests share lives in that folder's
``conftest.py`` (``tests/reversixt/conftest.py``: ``run_dir``).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import trio

from swc_local.protocol.element import Element, parse

TESTS = Path(__file__).resolve().parent
"""The suite's root folder: ``TESTS / "data"``, ``TESTS / "foreign_clients"``, ... from any sub-folder."""
REPOSITORY = TESTS.parent
DATA = TESTS / "data"


async def until(condition, timeout: float = 10) -> None:
    """Wait (trio time: virtual under a mock clock) until ``condition()`` is true, at most ``timeout``."""
    with trio.fail_after(timeout):
        while not condition():
            await trio.sleep(0.01)


async def prepare_codes(port: int, game_type: str, names=("Alice", "Bob"), *, password: str = "examplepassword",
                        can_timeout: bool = True) -> list[str]:
    """Prepare a room with reserved named slots on a raw admin connection, as a tournament
    manager would, and return the reservation codes in slot order; the connection is closed
    after the answer (rooms outlive their admin)."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    timeout = "true" if can_timeout else "false"
    slots = "".join(f'<slot displayName="{name}" canTimeout="{timeout}" reserved="true"/>' for name in names)
    async with stream:
        await stream.send_all(f'<protocol><authenticate password="{password}"/>'
                              f'<prepare gameType="{game_type}" pause="false">{slots}</prepare>'.encode())
        received = b""
        with trio.fail_after(10):
            while b"</prepared>" not in received:
                chunk = await stream.receive_some(4096)
                if not chunk:
                    raise AssertionError(f"the server closed the admin connection: {received[-300:]!r}")
                received += chunk
        await stream.send_all(b"</protocol>")
    return re.findall(r"<reservation>([^<]*)</reservation>", received.decode())


def random_playout(plugin, seed: int, snapshot) -> tuple[list, object, bool]:
    """One random legal game of an XML game ``plugin`` from ``seed`` (its reference bot's moves):
    ``(snapshot(game) before each move, the game at its end, stuck)``; ``stuck`` is True when a
    player had no legal move before the game ended."""
    rng = random.Random(seed)
    game = plugin.new_game(rng)
    seen = []
    while game.outcome() is None:
        move = plugin.random_move(game, rng)
        if move is None:
            return seen, game, True
        seen.append(snapshot(game))
        game.apply(game.current_seat, move)
    return seen, game, False


_CLASSIC_STATE = re.compile(r"\n      <state .*?\n      </state>", re.S)
_CLASSIC_RESULT = re.compile(r"\n    <data class=\"result\">.*?\n    </data>", re.S)


def _text(capture: str | Path) -> str:
    return capture.read_text(encoding="utf-8") if isinstance(capture, Path) else capture


def captured_states(capture: str | Path) -> list[str]:
    """Every ``<state>`` a client received in a classic capture (a file or its text), exactly as
    the server rendered it at depth 3 (the official XStream indentation)."""
    return _CLASSIC_STATE.findall(_text(capture))


def captured_result(capture: str | Path) -> Element:
    """The ``<data class="result">`` of a classic capture (a file or its text)."""
    match = _CLASSIC_RESULT.search(_text(capture))
    assert match is not None, "the capture has no result"
    return parse(match.group(0))


UNHURRIED = {"soft_timeout_ms": 60_000, "hard_timeout_ms": 120_000}
"""Server settings for tests of many real-time games where no move deadline is under test: on a
loaded machine (the suite runs beside other work) a bot scheduled late must not turn a game into
SOFT_TIMEOUT, which such a test would read as a broken game.  Deadlines have tests of their own,
on trio's mock clock."""


def cli_errors(capsys, prog: str) -> list[str]:
    """The messages of the plain error lines ``PROG: error: MESSAGE; see PROG --help`` on stderr
    (server/cli.py ``usage_error``): each must be whole, without a timestamp."""
    errors = []
    for line in capsys.readouterr().err.splitlines():
        if line.startswith(f"{prog}: error: "):
            message = line[len(f"{prog}: error: "):]
            errors.append(message.removesuffix(f"; see {prog} --help"))
    return errors


class StoredRecords:
    """Game records as a tournament's ``stored`` games: what benchmarks.ladder's tally of
    irregular ends reads, without a database."""

    def __init__(self, records):
        from swc_local.tools.tournament.db import Stored  # only these tests need the tournament's

        self.stored = [Stored(str(r.index), str(r.index), r) for r in records]
