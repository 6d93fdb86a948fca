"""Hase und Igel 2025 end to end on our own tools: 100 reference-bot games over TCP, ``swc match``
with replays that ``swc replay --check`` accepts and prints, ``--load-game`` from such a replay,
and the pytest fixture."""

from __future__ import annotations

import io
import random
import re
import sys
from pathlib import Path

import pytest
import trio

from swc_local.client.bot import play_game
from swc_local.games import registry
from swc_local.server.replay import position_factory, read_replay
from swc_local.tools.match import MatchConfig, run_match
from swc_local.client.messages import parse as parse_message
from swc_local.protocol.element import Element, parse
from swc_local.tools.replay_check import check_replay, print_replay

PLUGIN = registry.get("swc_2025_hase_und_igel")
DATA = Path(__file__).parent / "data" / "hase_und_igel_2025"
GAMES = 100
PARALLEL = 8


def test_short_name_resolves():
    assert registry.resolve("hase_und_igel_2025") == "swc_2025_hase_und_igel"
    assert PLUGIN.describe(PLUGIN.new_game(random.Random(1))).startswith("turn 0, ONE to move")


async def test_hundred_reference_bot_games_eight_at_a_time(start_server):
    """100 games of two reference bots through ``<join gameType="swc_2025_hase_und_igel"/>``,
    8 at a time on one server: every bot gets a regular result, two bots per room, 100 rooms."""
    server = await start_server(seed=25)
    reports = []
    limiter = trio.CapacityLimiter(PARALLEL)

    async def one_game(index: int) -> None:
        async with limiter:
            async with trio.open_nursery() as nursery:
                for seat in (0, 1):
                    nursery.start_soon(bot, 2 * index + seat)

    async def bot(seed: int) -> None:
        reports.append(await play_game(PLUGIN, "127.0.0.1", server.port, seed=seed))

    with trio.fail_after(600):  # a guard against a hang, not a speed limit
        async with trio.open_nursery() as nursery:
            for index in range(GAMES):
                nursery.start_soon(one_game, index)
    assert len(reports) == 2 * GAMES
    rooms: dict[str, list] = {}
    for report in reports:
        assert report.error is None, report.error
        assert report.outcome is not None
        assert [score.cause for score in report.outcome.scores] == ["REGULAR", "REGULAR"]
        winner = report.outcome.element.find("data").find("winner")
        assert winner.get("regular") == "true" and winner.get("reason")
        rooms.setdefault(report.room_id, []).append(report)
    assert len(rooms) == GAMES
    assert all(len(seats) == 2 and {r.color for r in seats} == {"ONE", "TWO"}
               for seats in rooms.values())
    assert server.lobby.rooms_finished == GAMES


async def test_swc_match_replays_check_print_and_load(tmp_path: Path, start_server):
    """``swc match hase_und_igel_2025`` with replays; each replay re-checks against the rules and
    prints; a room loaded from turn 10 of one starts exactly there and plays to a regular end."""
    config = MatchConfig(PLUGIN, games=2, seed=5, parallel=2, replays=tmp_path)
    report = await run_match(config)
    assert report.complete
    for record in report.records:
        assert [s.cause for s in record.result.scores] == ["REGULAR", "REGULAR"]
    files = sorted(tmp_path.glob("*.xml"))
    assert len(files) == 2
    for path in files:
        replay = read_replay(path)
        assert replay.plugin is PLUGIN
        checked = check_replay(replay)
        assert checked.ok, checked.disagreement
        assert checked.moves_checked == len(replay.states) - 1
        printed = io.StringIO()
        print_replay(replay, printed)
        assert "ONE moves: " in printed.getvalue() and "winner: " in printed.getvalue()

    tampered = tmp_path / "tampered.xml"
    original = files[0].read_text(encoding="utf-8")
    for old, new in ((' regular="true" reason="', ' regular="true" reason="X'),
                     ("<part>2</part>", "<part>1</part>")):
        tampered.write_text(original.replace(old, new), encoding="utf-8")
        assert check_replay(read_replay(tampered)).disagreement.startswith("result: recorded")
    tampered.unlink()

    replay = read_replay(files[0])
    expected = replay.game_at(10).state_element().render()
    loaded_dir = tmp_path / "loaded"
    server = await start_server(
        game_factory=position_factory(files[0], 10), save_replay=True, replay_dir=str(loaded_dir)
    )
    async with trio.open_nursery() as nursery:
        for seed in (1, 2):
            nursery.start_soon(play_game, PLUGIN, "127.0.0.1", server.port, None, seed)
    with trio.fail_after(120):
        while not list(loaded_dir.glob("*.xml")):
            await trio.sleep(0.01)
    loaded = read_replay(next(loaded_dir.glob("*.xml")))
    assert loaded.states[0].render() == expected  # the room started at the loaded position
    checked = check_replay(loaded)
    assert checked.ok, checked.disagreement
    typed = parse_message(Element("room", {"roomId": ""}, [loaded.result]))
    assert [score.cause for score in typed.scores] == ["REGULAR", "REGULAR"]


def test_2025_results_get_their_causes_back():
    """The 2025 envelope writes no cause; the client derives it from ``<winner regular reason>``."""
    capture = (DATA / "hui_invalid_cards" / "C2.raw").read_text(encoding="utf-8")
    result = re.search(r'<room roomId="[^"]*">\s*<data class="result">.*?</room>', capture, re.S)
    typed = parse_message(parse(result[0]))
    assert [score.cause for score in typed.scores] == ["RULE_VIOLATION", "REGULAR"]
    assert [score.parts for score in typed.scores] == [("0", "0", "0"), ("2", "0", "68")]
    assert typed.winner_seat == 1


@pytest.mark.swc_server(game="hase_und_igel_2025", seed=7)
def test_fixture_plays_hase_und_igel_2025(swc_server):
    bot = (f"{sys.executable} -m swc_local.server.cli bot hase_und_igel_2025 --port {{port}} "
           "--reservation {reservation} --seed {seed}")
    game = swc_server.play(bot)
    assert game.result is not None
    assert game.bot.cause == "REGULAR" and game.opponent.cause == "REGULAR"
    assert game.bot.points + game.opponent.points == 2
