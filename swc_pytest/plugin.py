"""Fixtures for testing a bot against this server: ``swc_server`` and ``swc_play``.

::

    import pytest

    @pytest.mark.swc_server(game="piranhas", seed=7)
    def test_my_bot_finishes_without_faults(swc_server):
        game = swc_server.play("python my_bot.py --port {port} --reservation {reservation}")
        assert game.bot.cause == "REGULAR"

Design notes (why it looks like this):

* The server runs in a background thread with its own trio loop (:class:`swc_local.client.blocking.Portal`)
  on a free localhost port, one per test.  So the fixture is a plain synchronous fixture: it
  works in a plain pytest project and under pytest-trio's ``trio_mode`` alike, and the test's own
  event loop (if any) is never involved.
* ``play`` blocks until the game is over and returns a :class:`swc_local.swc_pytest.server.PlayedGame`; an async
  test can ``await swc_server.aplay(...)``, which runs the same call in a worker thread.
* Options come from ``@pytest.mark.swc_server(game=..., seed=..., paused=..., password=...)``
  (any other keyword is a :class:`swc_local.server.config.Settings` field, e.g. ``hard_timeout_ms``).
  ``paused`` applies to rooms created by ``join`` (spec §5), not to the helper's prepared rooms.
"""

from __future__ import annotations

import pytest

from swc_local.swc_pytest import families
from swc_local.swc_pytest.causes import explain_comparison


def pytest_assertrepr_compare(config, op: str, left: object, right: object) -> list[str] | None:
    """``assert game.bot.cause == "REGULAR"`` failing says why the bot did not play (its reason)."""
    return explain_comparison(op, left, right)


def pytest_configure(config) -> None:
    config.addinivalue_line(
        "markers",
        "swc_server(game='piranhas', seed=None, paused=False, password='examplepassword', **settings): "
        "options of the swc_server fixture",
    )
    for family in families.FAMILIES:  # each other family's fixtures (swc_pytest/families.py), as a plugin of its own
        config.addinivalue_line("markers", family.marker)
        if not config.pluginmanager.is_registered(family.fixtures):
            config.pluginmanager.register(family.fixtures, f"swc_local.swc_pytest.{family.name}")


@pytest.fixture
def swc_server(request):
    """A running game server on a free port (stopped after the test)."""
    from swc_local.swc_pytest.server import start_server

    marker = request.node.get_closest_marker("swc_server")
    options = dict(marker.kwargs) if marker else {}
    if options.get("save_replay") and "replay_dir" not in options:
        options["replay_dir"] = str(request.getfixturevalue("tmp_path") / "replays")
    with start_server(**options) as server:
        yield server


@pytest.fixture
def swc_play(swc_server):
    """``swc_play(bot_command, color="red", ...)``: one game of the bot against the reference bot."""
    return swc_server.play
