"""The one match runner (tools/runner.py) with real bot processes of every family: the result
record, the seed scheme, and the truth about bots that crash, never join or cannot start."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import trio

from swc_local.client import ladder
from swc_local.games import registry
from swc_local.swc_pytest.server import start_server
from swc_local.tools.results import GameResult, absent_last, ranks_from_points
from swc_local.tools.runner import CommandError, GameSpec, check_command, play_games, play_games_blocking
from tests.reversixt_golden import MAPS

FAST = {
    "piranhas": {},
    "ostseeschach": {},
    "reversixt": {"start_delay": 0, "turn_delay": 0},
    "roborally": {"timer": 0.2},
}

# exits at once, after one line on stderr (the command of issue 22's crash_bot.py)
CRASH_BOT = [sys.executable, "-c", "import sys; print('crash_bot: no luck today', file=sys.stderr); sys.exit(3)",
             "{port}"]
NEVER_JOINS = [sys.executable, "-c", "import time; time.sleep(60)", "{port}"]


def reference(game: str) -> list[str]:
    return ladder.command(registry.entry(game))


def specs(game: str, players: list, games: int = 1, seed: int = 5, **extra) -> list[GameSpec]:
    options = dict(FAST[game], **extra.pop("options", {}))
    return [GameSpec(game, i, seed + i, [(f"player{k + 1}", c) for k, c in enumerate(players)], options=options, **extra)
            for i in range(games)]


def test_results_are_json_and_come_back():
    async def run():
        return await play_games(specs("reversixt", [reference("reversixt")] * 2, games=2))

    results = trio.run(run)
    assert [r.index for r in results] == [0, 1]
    for result in results:
        assert result.game == "reversixt" and result.error is None
        again = GameResult.from_dict(json.loads(json.dumps(result.to_dict())))
        assert again == result
        assert sorted(s.rank for s in result.seats) in ([1, 2], [1, 1])


def test_ranks_helpers():
    assert ranks_from_points([2, 0]) == [1, 2] and ranks_from_points([1, 1]) == [1, 1]
    assert ranks_from_points([5, 9, 5]) == [2, 1, 2]
    # a missing player never ranks above one that played, whatever its stand-in did
    assert absent_last([1, 2, 3], {0}) == [3, 1, 2]
    assert absent_last([1, 2], {1}) == [1, 2]


@pytest.mark.parametrize("game", ["piranhas", "reversixt", "roborally"])
def test_game_i_is_the_same_whatever_parallel_is(game):
    players = [reference(game)] * 2
    # no clock may decide a move here: Robo Rally's timer only runs out for a bot that is late
    options = {"timer": 30.0} if game == "roborally" else {}
    one = play_games_blocking(specs(game, players, games=2, seed=21, options=options), parallel=1)
    two = play_games_blocking(specs(game, players, games=2, seed=21, options=options), parallel=2)
    assert [r.seed for r in one] == [r.seed for r in two] == [21, 22]
    assert [[(s.rank, s.score, s.cause) for s in r.seats] for r in one] == \
           [[(s.rank, s.score, s.cause) for s in r.seats] for r in two]


# -- issue 22 item 1: a bot that crashes or never joins loses its own seat, with the cause named


@pytest.mark.parametrize("game", ["piranhas", "ostseeschach", "reversixt", "roborally"])
@pytest.mark.parametrize("crashed_seat", [0, 1])
async def test_a_bot_that_exits_at_once_loses_its_own_seat(game, crashed_seat):
    players = [reference(game), reference(game)]
    players[crashed_seat] = CRASH_BOT
    with trio.fail_after(120):
        (result,) = await play_games(specs(game, players, options={"hard_timeout_ms": 1000} if game in ("piranhas", "ostseeschach") else {}),
                                     give_up_after=None)
    assert result.error is None, result.error
    crashed, other = result.seats[crashed_seat], result.seats[1 - crashed_seat]
    assert crashed.cause == "CRASHED" and crashed.exit_code == 3
    assert "before it joined" in crashed.reason and "crash_bot: no luck today" in crashed.reason
    assert (crashed.rank, other.rank) == (2, 1)
    assert other.cause == "REGULAR", other  # the bot that joined played its game out


@pytest.mark.parametrize("game", ["piranhas", "reversixt"])
async def test_a_bot_that_never_joins_loses_its_own_seat(game):
    map_options = {"map": str(MAPS / "trio_3p.map")} if game == "reversixt" else {"hard_timeout_ms": 1000}
    players = [reference(game), NEVER_JOINS] + ([reference(game)] if game == "reversixt" else [])
    with trio.fail_after(120):
        (result,) = await play_games(specs(game, players, start_timeout=10, options=map_options))
    assert result.error is None, result.error
    assert result.seats[1].cause == "NEVER_JOINED" and "did not join within 10 s" in result.seats[1].reason
    assert result.seats[1].rank == len(players)
    assert all(s.cause == "REGULAR" for k, s in enumerate(result.seats) if k != 1)


def test_the_fixture_does_not_score_a_crashing_bot_the_winner():
    with start_server("piranhas", seed=7) as server:
        game = server.play(CRASH_BOT, color="blue")
        assert game.bot.cause == "CRASHED" and not game.won and game.bot.points == 0
        assert "crash_bot: no luck today" in game.bot.reason
        assert game.color == "blue" and game.opponent.cause == "REGULAR" and game.opponent.points == 2


# -- issue 22 item 2: a command that cannot run stops the run at once


def test_check_command_names_what_is_wrong(tmp_path):
    assert check_command([sys.executable, "-V"]) is None
    assert "command not found" in check_command("pyhton my_bot.py --port {port}")
    assert "no such file" in check_command(f"{tmp_path}/bot.sh")
    (tmp_path / "bot.sh").write_text("#!/bin/sh\n")
    assert "not an executable" in check_command(f"{tmp_path}/bot.sh")
    assert check_command("{python} bot.py") is None  # the program is known per game only


@pytest.mark.parametrize("game", ["piranhas", "reversixt", "roborally"])
async def test_exit_127_stops_the_run_at_once_naming_the_command(game):
    missing = ["sh", "-c", "echo 'sh: 1: pyhton: not found' >&2; exit 127", "{port}"]
    with trio.fail_after(60), pytest.raises(CommandError) as caught:
        await play_games(specs(game, [missing, reference(game)], games=10))
    message = str(caught.value)
    assert message.startswith("player1's command cannot play: exited with code 127 before it joined")
    assert "pyhton: not found" in message and "exit 127" in message and "\n" not in message


async def test_every_game_crashing_before_the_join_stops_the_run():
    seen = []
    with trio.fail_after(60), pytest.raises(CommandError, match="crashed before joining in each of its first 2 games"):
        await play_games(specs("reversixt", [CRASH_BOT, reference("reversixt")], games=10), on_result=seen.append)
    assert len(seen) == 2


def test_the_fixture_raises_for_a_command_that_cannot_start():
    with start_server("piranhas", seed=1) as server:
        with pytest.raises(CommandError, match="cannot start: /nonexistent/bot"):
            server.play("/nonexistent/bot --port {port}")


def test_registry_import_is_light():
    code = "import sys, swc_local.games.registry as r; assert len(r.entries()) >= 8; print(sorted(m for m in sys.modules if m.startswith(('trio', 'swc_local.server'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_bot_process_imports_no_pydantic_and_no_door():
    """``swc bot`` starts once per seat of every game a match plays: it reads responses and loads
    its game's plugin; the lobby's pydantic request models and the doors are the server's alone
    (its light ``server/cli.py`` parses the shared options)."""
    code = ("import sys; from swc_local.tools.cli import bot_parser; import swc_local.client.bot; "
            "from swc_local.games import registry; "
            "[g.plugin for g in registry.entries() if g.family == 'xml']; "
            "print(sorted({m.split('.')[0] if m.startswith('pydantic') else m for m in sys.modules "
            "if m.startswith(('pydantic', 'swc_local.server', 'swc_local.protocol.messages'))}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['swc_local.server', 'swc_local.server.cli']"


def test_the_fixture_raises_the_text_of_swc_match_for_exit_127():
    missing = ["sh", "-c", "echo 'sh: 1: pyhton: not found' >&2; exit 127", "{port}"]
    with start_server("piranhas", seed=1) as server:
        with pytest.raises(CommandError) as caught:
            server.play(missing)
    assert str(caught.value).startswith("player1's command cannot play: exited with code 127 before it joined; "
                                        "last output: sh: 1: pyhton: not found -- command: sh -c")


def test_the_reversixt_fixture_does_not_rank_a_crashing_bot_above_the_others():
    from swc_local.swc_pytest.reversixt import start_reversixt

    with start_reversixt(map=str(MAPS / "trio_3p.map")) as server:
        game = server.play(CRASH_BOT, seat=2, opponents="greedy")
    assert game.error is None
    assert game.causes == {1: "REGULAR", 2: "CRASHED", 3: "REGULAR"}
    assert game.ranks[2] == 3 and 2 in game.disqualified
    assert "crash_bot: no luck today" in game.record.seats[1].reason
