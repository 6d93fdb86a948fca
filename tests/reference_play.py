"""End-to-end steps the ``test_<game>_play`` modules share: many reference-bot games over TCP,
``swc match`` with checked replays, and a room loaded from a replay's position.

Each game's module keeps its own assertions on the outcome (the result envelopes differ by
year); what is here is the same for every game of the ``<join/>`` family.
"""

from __future__ import annotations

from pathlib import Path

import trio

from swc_local.client.bot import play_game
from swc_local.server.xml.replay import position_factory, read_replay
from swc_local.tools.match import MatchConfig, run_match
from swc_local.tools.replay_check import check_replay


async def reference_bot_games(plugin, port: int, games: int, parallel: int, *, timeout: float) -> list:
    """Play ``games`` games of two reference bots through ``<join/>``, ``parallel`` at a time;
    return every bot's report (two per game, in finishing order).  ``timeout`` guards against
    a hang; it is not a speed limit."""
    reports = []
    limiter = trio.CapacityLimiter(parallel)

    async def one_game(index: int) -> None:
        async with limiter:
            async with trio.open_nursery() as nursery:
                for seat in (0, 1):
                    nursery.start_soon(bot, 2 * index + seat)

    async def bot(seed: int) -> None:
        reports.append(await play_game(plugin, "127.0.0.1", port, seed=seed))

    with trio.fail_after(timeout):
        async with trio.open_nursery() as nursery:
            for index in range(games):
                nursery.start_soon(one_game, index)
    return reports


async def checked_match_replays(plugin, replays: Path) -> list[Path]:
    """``swc match`` of two games with replays into ``replays``: both results REGULAR, and each
    replay re-checks against the rules move by move.  Returns the replay files, sorted."""
    config = MatchConfig(plugin, games=2, seed=5, parallel=2, replays=replays)
    report = await run_match(config)
    assert report.complete
    for record in report.records:
        assert [s.cause for s in record.seats] == ["REGULAR", "REGULAR"]
    files = sorted(replays.glob("*.xml"))
    assert len(files) == 2
    for path in files:
        replay = read_replay(path)
        assert replay.plugin is plugin
        checked = check_replay(replay)
        assert checked.ok, checked.disagreement
        assert checked.moves_checked == len(replay.states) - 1
    return files


async def play_loaded_position(plugin, start_server, replay_file: Path, turn: int, replays: Path, *,
                               timeout: float):
    """A room loaded from ``turn`` of ``replay_file`` (``--load-game``), played by two reference
    bots: it starts exactly at that position and its own replay re-checks.  Returns that replay."""
    expected = read_replay(replay_file).game_at(turn).state_element().render()
    server = await start_server(
        game_factory=position_factory(replay_file, turn), save_replay=True, replay_dir=str(replays)
    )
    async with trio.open_nursery() as nursery:
        for seed in (1, 2):
            nursery.start_soon(play_game, plugin, "127.0.0.1", server.door("xml").port, None, seed)
    with trio.fail_after(timeout):
        while not list(replays.glob("*.xml")):
            await trio.sleep(0.01)
    loaded = read_replay(next(replays.glob("*.xml")))
    assert loaded.states[0].render() == expected  # the room started at the loaded position
    checked = check_replay(loaded)
    assert checked.ok, checked.disagreement
    return loaded


def regular_rooms(reports: list, games: int, colors: set[str], plugin=None) -> dict[str, list]:
    """The checks every module makes of :func:`reference_bot_games`' reports: two per game, none
    with an error, every score REGULAR, ``games`` rooms of two bots in the two ``colors``;
    returns the reports by room for the module's own assertions.

    With ``plugin``, a room may also end where the rules leave the player to move without a
    legal move and give it no skip (Hase und Igel 2025 when both hares are stuck, one game in
    thousands of random ones): that bot says "no legal move" and leaves, which is checked against
    the rules on the position it saw, and its opponent gets the result."""
    assert len(reports) == 2 * games
    rooms: dict[str, list] = {}
    for report in reports:
        rooms.setdefault(report.room_id, []).append(report)
    for seats in rooms.values():
        stuck = [r for r in seats if r.error == "no legal move" and plugin is not None]
        for report in stuck:
            assert report.stuck is not None and plugin.legal_moves(report.stuck) == [], "a legal move was there"
        for report in seats:
            if report in stuck:
                continue
            assert report.error is None, report.error
            assert report.outcome is not None
            if not stuck:
                assert [score.cause for score in report.outcome.scores] == ["REGULAR", "REGULAR"]
    assert len(rooms) == games
    assert all(len(seats) == 2 and {r.color for r in seats} == colors for seats in rooms.values())
    return rooms
