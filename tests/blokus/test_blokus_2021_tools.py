"""Blokus 2021 through the registry: the reference bot over TCP, ``swc bot``, ``swc match``,
``swc replay --check``, the pytest fixture and the view."""

from __future__ import annotations

import random
import shlex
import sys
from pathlib import Path

import pytest
import trio

from swc_local.client.bot import play_game
from swc_local.client import ladder
from swc_local.games import registry
from swc_local.games.blokus_2021 import xmlmap
from swc_local.games.blokus_2021.entry import ENTRY as BLOKUS_2021_ENTRY
from tests.helpers import TESTS

PLUGIN = BLOKUS_2021_ENTRY.plugin

pytest_plugins = ["pytester"]

SLOW = {"soft_timeout_ms": 20_000, "hard_timeout_ms": 30_000}


async def test_reference_bots_play_whole_games_over_tcp(start_server):
    """Six games of the random reference bot against itself: every game ends REGULAR, both
    players see the same result, the winner (if any) has more points."""
    server = await start_server(**SLOW)
    reports = []

    async def bot(seed: int) -> None:
        reports.append(await play_game(PLUGIN, "127.0.0.1", server.door("xml").port, seed=seed))

    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            for seed in range(12):
                nursery.start_soon(bot, seed)
    rooms: dict[str, list] = {}
    for report in reports:
        assert report.error is None, report.error
        assert [score.cause for score in report.outcome.scores] == ["REGULAR", "REGULAR"]
        rooms.setdefault(report.room_id, []).append(report)
    assert len(rooms) == 6
    for one, two in rooms.values():
        assert one.result.render() == two.result.render()
        points = [int(score.parts[1]) for score in one.outcome.scores]
        winners = one.result.findall("winner")
        assert len(winners) == (2 if points[0] == points[1] else 1)
        if len(winners) == 1:
            assert winners[0].find("color").text == ("ONE" if points[0] > points[1] else "TWO")


def test_the_registry_names_it():
    game = registry.entry("blokus_2021")
    assert game is not None and game.game_type == "swc_2021_blokus"
    assert registry.get("swc_2021_blokus") is PLUGIN
    assert registry.entry("blokus").game_type == "swc_2027_blokus"


def test_a_2021_state_is_claimed_by_2021_and_a_2027_state_by_2027():
    from swc_local.games.blokus.entry import ENTRY as BLOKUS_ENTRY
    PLUGIN_2027 = BLOKUS_ENTRY.plugin

    state_2021 = PLUGIN.new_game(random.Random(1)).state_element()
    state_2027 = PLUGIN_2027.new_game(random.Random(1)).state_element()
    assert registry.plugin_for_state(state_2021) is PLUGIN
    assert registry.plugin_for_state(state_2027) is PLUGIN_2027


async def test_swc_match_replays_check_and_load(tmp_path, start_server):
    """``swc match blokus_2021`` with replays (each re-checks against the rules move by move); a
    room loaded from turn 12 of one (``--load-game``/``--turn``) starts exactly there and plays
    to a REGULAR end."""
    from swc_local.server.xml.replay import position_factory, read_replay
    from swc_local.tools.replay_check import check_replay, score_tuples
    from tests.reference_play import checked_match_replays

    files = await checked_match_replays(PLUGIN, tmp_path)
    source = read_replay(files[0]).game_at(12)
    replays = tmp_path / "loaded"
    server = await start_server(game_factory=position_factory(files[0], 12), save_replay=True, replay_dir=str(replays))
    async with trio.open_nursery() as nursery:
        for seed in (1, 2):
            nursery.start_soon(play_game, PLUGIN, "127.0.0.1", server.door("xml").port, None, seed)
    with trio.fail_after(60):
        while not list(replays.glob("*.xml")):
            await trio.sleep(0.01)
    loaded = read_replay(next(replays.glob("*.xml")))
    first = PLUGIN.game_from_state(loaded.states[0])
    # the same position; first/second name the new room's players (here <join> players: "")
    assert xmlmap.state_element(first.position).render() == xmlmap.state_element(source.position).render()
    assert first.names == ("", "") and source.names == ("player1", "player2")
    assert check_replay(loaded).ok
    assert [score[0] for score in score_tuples(loaded.result)] == ["REGULAR", "REGULAR"]


def test_swc_replay_prints_the_teams_and_the_winner(tmp_path, capsys):
    """``swc replay`` of a captured official game (the Ruby clients'): teams ONE/TWO, the winner."""
    import gzip

    from swc_local.tools.cli import main

    recv = gzip.decompress((TESTS / "data" / "blokus_2021" / "scenarios" / "ruby_game" / "ONE_recv.xml.gz").read_bytes())
    path = tmp_path / "ruby.xml"
    path.write_bytes(recv.replace(b"<protocol>", b'<protocol gameType="swc_2021_blokus">', 1) + b"\n</protocol>")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "ONE REGULAR [0 104]" in out and "TWO REGULAR [2 136]" in out and "winner: TWO" in out
    assert main(["replay", "--check", str(path)]) == 0
    assert "ok: 64 moves and the result agree with the rules" in capsys.readouterr().out


def test_tournament_plays_a_pair_of_reference_bots(tmp_path, capsys):
    from tests.tools.test_tournament_play import report, rows, tournament

    db = tmp_path / "blokus_2021.db"
    reference = shlex.join(ladder.command(registry.entry("blokus_2021")))
    assert tournament("blokus_2021", f"--bot=a={reference}", f"--bot=b={reference}", "--db", str(db), "--seed", "1",
                      "--concurrency", "2") == 0
    data = report(db, capsys)
    assert data["games"] == 2 and data["no_result"] == 0
    assert [count for _, count in rows(db, "SELECT game_key, COUNT(DISTINCT bot) FROM seats GROUP BY game_key")] == [2, 2]


@pytest.mark.swc_server(game="blokus_2021", seed=7, soft_timeout_ms=20000, hard_timeout_ms=30000)
def test_fixture_plays_blokus_2021(swc_server):
    bot = f"{sys.executable} -m swc_local.tools.cli bot blokus_2021 --port {{port}} --reservation {{reservation}} --seed {{seed}}"
    game = swc_server.play(bot)
    assert game.result is not None
    assert game.bot.cause == "REGULAR" and game.opponent.cause == "REGULAR"
    assert game.bot.points + game.opponent.points == 2
    assert int(game.bot.parts[1]) > 0 and int(game.opponent.parts[1]) > 0


def test_view_draws_board_pieces_last_move_turn_and_result():
    from swc_local.games import views
    from swc_local.games.blokus_2021.rules import SetMove

    rng = random.Random(3)
    game = PLUGIN.new_game(rng)
    move = None
    while game.outcome() is None:
        move = PLUGIN.random_move(game, rng)
        game.apply(game.current_seat, move)
        if game.turn == 8:
            picture = views.render("swc_2021_blokus", game, move)
            assert "Blokus 2021, turn 8" in picture and "to move" in picture and 'class="last-to"' in picture
    picture = views.render("blokus_2021", game, move)
    assert "game over" in picture and isinstance(move, SetMove) and picture.count('class="piece ') > 100
