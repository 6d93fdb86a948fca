"""Stop and Resume of an archive's rating (the archives page): the routes on a viewer in this
process.  The games are played by a stand-in for the match runner (``runner.play_games``), so
the real Session chooses the rounds, seeds and seats: each game waits for the test's go and the
bot's result follows from its seeds alone (a deterministic bot), so a resumed rating can be
compared game by game with one never stopped.  One test plays real processes: the archive's
bot and the rung are gone once Stop has answered."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import trio

from swc_local.tools import archive_rating, runner
from swc_local.tools.ladder_table import Ladder, RungElo
from swc_local.tools.rate import BOT, Session
from swc_local.tools.results import REGULAR, GameResult, SeatResult
from tests.archives import cache, pack  # noqa: F401 (the autouse fixture: an archive cache of the test's own)
from tests.processes import command_lines, descendants
from tests.tools.test_archive_rating import GAME, LADDER, PASSWORD, rate, state_when, upload, viewer
from tests.web_helpers import http

SEED = 4242


TALL = Ladder(GAME, [RungElo("random", 0, 0, 0), RungElo("greedy", 356, 300, 410), RungElo("search-short", 600, 540, 660),
                     RungElo("search", 900, 830, 970)], games_per_pairing=2, measured="a test's")
RUNG_COMMANDS = {rung.rung: [rung.rung] for rung in TALL.rungs}


def bot_wins(spec: runner.GameSpec) -> bool:
    """A deterministic bot of about +450: its result in a game follows from the game's seeds alone."""
    seat = [name for name, _ in spec.players].index(BOT)
    rung = spec.players[1 - seat][0]
    return (spec.seat_seeds[seat] + spec.seed) % 1000 >= TALL.elo_of(rung)


def result_of(spec: runner.GameSpec) -> GameResult:
    seat = [name for name, _ in spec.players].index(BOT)
    ranks = [2, 2]
    ranks[seat if bot_wins(spec) else 1 - seat] = 1
    return GameResult(game=spec.game, index=spec.index, seed=spec.seed, duration=1.0,
                      seats=tuple(SeatResult(name, str(k), ranks[k], (), REGULAR) for k, (name, _) in enumerate(spec.players)))


class Games:
    """``runner.play_games`` without processes: game after game, each when :meth:`go` lets it
    (``free``: without waiting); ``started`` lists every game begun, ``played`` every one ended."""

    def __init__(self, free: bool = False) -> None:
        self.send, self.receive = trio.open_memory_channel(1000)
        self.free = free
        self.slow_end: trio.Event | None = None  # set: a game cut off takes until this event to end
        self.ending = trio.Event()  # set when a game is being cut off
        self.started: list[runner.GameSpec] = []
        self.played: list[tuple] = []

    async def go(self, games: int = 1) -> None:
        for _ in range(games):
            await self.send.send(None)

    async def play_games(self, specs, *, parallel=1, on_result=None, give_up_after=2):
        for spec in specs:
            self.started.append(spec)
            if self.free:
                await trio.lowlevel.checkpoint()
            else:
                try:
                    await self.receive.receive()
                except trio.Cancelled:  # cut off
                    self.ending.set()
                    if self.slow_end is not None:
                        with trio.CancelScope(shield=True):  # as a bot's process group takes a second
                            await self.slow_end.wait()
                    raise
            self.played.append(game_key(spec))
            on_result(result_of(spec))


def game_key(spec: runner.GameSpec) -> tuple:
    """What makes a game the same game: its number, board, seats and every seat's seed."""
    return spec.index, spec.seed, tuple(name for name, _ in spec.players), spec.seat_seeds


@pytest.fixture
def games(monkeypatch) -> Games:
    fake = Games()
    monkeypatch.setattr(runner, "play_games", fake.play_games)
    monkeypatch.setattr(archive_rating.secrets, "randbits", lambda bits: SEED)  # every rating here has one seed
    return fake


async def post(url: str, aid: str, action: str, passphrase: str = PASSWORD):
    return await http(f"{url}/api/archives/{aid}/{action}", json.dumps({"passphrase": passphrase}).encode(),
                      {"Content-Type": "application/json"}, "POST")


async def uninterrupted(games: int, ladder: Ladder = LADDER) -> tuple[list[tuple], list[dict]]:
    """The games and results of a rating with :data:`SEED` on ``ladder`` that is never stopped."""
    fake = Games(free=True)
    session = Session(GAME, "bot", ladder, RUNG_COMMANDS, games, SEED)
    original, runner.play_games = runner.play_games, fake.play_games
    try:
        await session.run()
    finally:
        runner.play_games = original
    return fake.played, archive_rating._results(session)["results"]


# -- Session: a resumed rating plays the games an uninterrupted one plays -------------------------


@pytest.mark.parametrize("cut_after", [1, 4, 5, 7, 13, 19])  # mid-round, at a round's end, late
async def test_a_session_resumed_from_its_games_plays_what_a_session_never_stopped_plays(cut_after, monkeypatch):
    whole, whole_results = await uninterrupted(20, TALL)
    fake = Games(free=True)
    monkeypatch.setattr(runner, "play_games", fake.play_games)
    first = Session(GAME, "bot", TALL, RUNG_COMMANDS, 20, SEED)
    with trio.CancelScope() as scope:
        await first.run(on_game=lambda played: scope.cancel() if len(first.played) == cut_after else None)
    assert len(first.played) == cut_after
    second = Session(GAME, "bot", TALL, RUNG_COMMANDS, 20, SEED, played=list(first.played))
    await second.run()
    assert fake.played == whole  # not one game twice, none missing, each with its own seeds and rung
    assert archive_rating._results(second)["results"] == whole_results
    assert len({names for _, _, names, _ in whole}) > 2  # the rounds moved along the ladder: more than one pair of rungs


# -- the routes --------------------------------------------------------------------------------


async def test_stop_keeps_the_games_played_and_resume_goes_on_to_the_games_asked(nursery, tmp_path, games):
    whole, whole_results = await uninterrupted(8)
    url = await viewer(nursery, tmp_path)
    aid = await upload(url, tmp_path)
    assert (await rate(url, aid, games=8))[0] == 202
    await games.go(3)
    await state_when(url, aid, lambda s: s["played"] == 3 and s["current"] is not None)

    status, stopped = await post(url, aid, "stop")
    assert status == 200 and stopped["status"] == "stopped" and stopped["played"] == 3 and stopped["current"] is None
    assert stopped["estimate"] is not None and stopped["ended"] is not None
    assert "stopped by Stop on the archives page after 3 games" in stopped["text"]
    assert stopped == json.loads((tmp_path / "shelf" / f"{aid}.rating.json").read_text())
    assert await post(url, aid, "stop") == (409, {"error": "<i>Team</i> is not being rated: nothing to stop"})
    await games.go()  # the game Stop cut off never ends now
    await trio.sleep(0.05)
    assert (await http(f"{url}/api/archives/{aid}/rating"))[1]["played"] == 3

    status, resumed = await post(url, aid, "resume")
    assert status == 202 and resumed["status"] in ("queued", "running") and resumed["played"] == 3
    assert resumed["resumed"] == 1 and len(resumed["lines"]) == 3
    await state_when(url, aid, lambda s: s["status"] == "running")
    assert await post(url, aid, "resume") == (409, {"error": "<i>Team</i>'s rating is running, not stopped: only a "
                                                             "stopped rating can be resumed"})
    await games.go(5)
    done = await state_when(url, aid, lambda s: s["status"] == "done")
    assert done["played"] == 8 and done["seed"] == SEED and done["results"] == whole_results
    assert games.played == whole  # each game once, with the seeds and seats of the rating never stopped
    assert [game_key(spec) for spec in games.started] == whole[:4] + whole[3:]  # the cut-off game 4 again from its start
    assert f"swc rate: {GAME}, 8 of 8 games, seed {SEED}" in done["text"] and "stopped by" not in done["text"]
    assert len(done["lines"]) == 8
    status, again = await post(url, aid, "resume")
    assert status == 409 and again["error"] == "<i>Team</i>'s rating is done, not stopped: only a stopped rating can be resumed"


async def test_resume_after_the_viewer_restarted_goes_on_with_the_kept_games(tmp_path, games):
    whole, whole_results = await uninterrupted(8)
    async with trio.open_nursery() as first:
        url = await viewer(first, tmp_path)
        aid = await upload(url, tmp_path)
        await rate(url, aid, games=8)
        await games.go(5)
        await state_when(url, aid, lambda s: s["played"] == 5)
        first.cancel_scope.cancel()
    kept = json.loads((tmp_path / "shelf" / f"{aid}.rating.json").read_text())
    assert kept["status"] == "stopped" and "stopped by the viewer's stop after 5 games" in kept["text"]
    async with trio.open_nursery() as again:
        url = await viewer(again, tmp_path)
        assert await post(url, aid, "stop") == (409, {"error": "<i>Team</i> is not being rated: nothing to stop"})
        assert (await post(url, aid, "resume"))[0] == 202
        await games.go(3)
        done = await state_when(url, aid, lambda s: s["status"] == "done")
        assert done["played"] == 8 and done["results"] == whole_results
        again.cancel_scope.cancel()


async def test_a_queued_rating_is_stopped_before_its_first_game_and_the_other_goes_on(nursery, tmp_path, games,
                                                                                       monkeypatch):
    monkeypatch.setattr(archive_rating, "MAX_RATINGS", 1)
    url = await viewer(nursery, tmp_path)
    one, two = await upload(url, tmp_path, "one"), await upload(url, tmp_path, "two")
    await rate(url, one, games=2)
    await state_when(url, one, lambda s: s["status"] == "running")
    await rate(url, two, games=2)
    status, stopped = await post(url, two, "stop")
    assert status == 200 and stopped["status"] == "stopped" and stopped["played"] == 0 and stopped["estimate"] is None
    assert (await http(f"{url}/api/archives/{one}/rating"))[1]["status"] == "running"
    await games.go(2)
    await state_when(url, one, lambda s: s["status"] == "done")
    assert (await post(url, two, "resume"))[0] == 202
    await games.go(2)
    done = await state_when(url, two, lambda s: s["status"] == "done")
    assert done["played"] == 2


async def test_stop_and_resume_refuse_a_wrong_passphrase_an_unknown_archive_and_nothing_to_do(nursery, tmp_path, games):
    url = await viewer(nursery, tmp_path)
    aid = await upload(url, tmp_path)
    for action in ("stop", "resume"):
        assert await post(url, aid, action, passphrase="wrong") == (403, {"error": "wrong passphrase"})
        assert await post(url, "no-such-id", action) == (404, {"error": "no such archive"})
    assert await post(url, aid, "stop") == (409, {"error": "<i>Team</i> is not being rated: nothing to stop"})
    assert await post(url, aid, "resume") == (409, {"error": "<i>Team</i> has no rating to resume; Rate starts one"})
    await rate(url, aid, games=2)
    await state_when(url, aid, lambda s: s["current"] is not None)
    assert await post(url, aid, "stop", passphrase="wrong") == (403, {"error": "wrong passphrase"})
    assert (await http(f"{url}/api/archives/{aid}/rating"))[1]["status"] == "running"  # a refused Stop stops nothing
    await games.go(2)
    await state_when(url, aid, lambda s: s["status"] == "done")
    assert await post(url, aid, "stop") == (409, {"error": "<i>Team</i> is not being rated: nothing to stop"})


async def test_a_second_stop_while_the_first_waits_for_the_game_to_end_is_refused(nursery, tmp_path, games):
    url = await viewer(nursery, tmp_path)
    aid = await upload(url, tmp_path)
    await rate(url, aid, games=2)
    await state_when(url, aid, lambda s: s["current"] is not None)
    games.slow_end = trio.Event()
    answers = []

    async def first_stop() -> None:
        answers.append(await post(url, aid, "stop"))

    nursery.start_soon(first_stop)
    with trio.fail_after(10):
        await games.ending.wait()
    assert await post(url, aid, "stop") == (409, {"error": "the rating of <i>Team</i> is being stopped already"})
    assert answers == []  # the first Stop answers only once the game has ended
    games.slow_end.set()
    with trio.fail_after(10):
        while not answers:
            await trio.sleep(0.01)
    assert answers[0][0] == 200 and answers[0][1]["status"] == "stopped"


async def test_a_stop_while_the_checks_before_the_first_game_run_says_to_try_again(nursery, tmp_path, games, monkeypatch):
    import threading

    checking, release = threading.Event(), threading.Event()

    def slow_check(spec):
        checking.set()
        release.wait(10)
        return None

    monkeypatch.setattr(archive_rating, "check_command", slow_check)
    url = await viewer(nursery, tmp_path)
    aid = await upload(url, tmp_path)
    answers = []

    async def rate_it() -> None:
        answers.append(await rate(url, aid, games=2))

    nursery.start_soon(rate_it)
    await trio.to_thread.run_sync(checking.wait, 10)
    assert await post(url, aid, "stop") == (409, {"error": "the rating of <i>Team</i> is being checked before its "
                                                           "first game; Stop again in a moment"})
    release.set()
    with trio.fail_after(10):
        while not answers:
            await trio.sleep(0.01)
    assert answers[0][0] == 202
    assert (await post(url, aid, "stop"))[1]["status"] == "stopped"


async def test_a_rating_kept_without_its_games_cannot_be_resumed_and_says_so(tmp_path, games):
    async with trio.open_nursery() as first:
        url = await viewer(first, tmp_path)
        aid = await upload(url, tmp_path)
        first.cancel_scope.cancel()
    older = {"status": "stopped", "archive": "t", "game": GAME, "games": 4, "seed": 3, "played": 1, "lines": []}
    (tmp_path / "shelf" / f"{aid}.rating.json").write_text(json.dumps(older))
    async with trio.open_nursery() as again:
        url = await viewer(again, tmp_path)
        status, body = await post(url, aid, "resume")
        assert status == 409 and body["error"] == ("the kept rating of <i>Team</i> does not list its games, so it "
                                                   "cannot go on; Rate starts a new one")
        assert (await http(f"{url}/api/archives/{aid}/rating"))[1] == older
        again.cancel_scope.cancel()


# -- real processes ----------------------------------------------------------------------------


def processes_running(marker: str) -> list[int]:
    """This test's processes whose command line holds ``marker``."""
    return [pid for pid, line in command_lines(os.getpid()).items() if marker in line]


def alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie has ended: only its exit status waits to be read)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in "ZX"
    except OSError:
        return False


async def test_stop_ends_the_bot_the_rung_and_the_sandbox(nursery, tmp_path):
    """A toy archive that never joins (``sleep``) keeps its game waiting for it: Stop mid-game."""
    url = await viewer(nursery, tmp_path)
    toy = pack(tmp_path / "toy.zip", {"start.sh": ("#!/bin/sh\nexec sleep 3141\n", 0o755)})
    status, body = await http(f"{url}/api/archives", toy.read_bytes(), {"X-Passphrase": PASSWORD, "X-File-Name": "toy.zip"},
                              "POST")
    assert status == 200
    aid = body["id"]
    assert (await rate(url, aid, games=2))[0] == 202
    with trio.fail_after(30):
        while not (bots := processes_running("sleep 3141")) or not processes_running("bwrap"):
            await trio.sleep(0.05)
    rungs = processes_running("swc_local.client.bot")  # the rung: the reference bot
    sandboxes = processes_running("bwrap")
    game = {*rungs, *sandboxes, *(pid for box in sandboxes for pid in descendants(box))}  # the sandbox's keeper too
    assert rungs and set(bots) <= game
    status, stopped = await post(url, aid, "stop")
    assert status == 200 and stopped["status"] == "stopped" and stopped["played"] == 0
    # Stop answers once the runner has signalled every process of the game (SIGTERM, then SIGKILL:
    # tools/players.py); when each is gone is the kernel's affair (a pid namespace's teardown, a
    # loaded machine's scheduling), so the test waits for that, well within the bot's 52 minutes.
    with trio.fail_after(60):
        while any(alive(pid) for pid in game):
            await trio.sleep(0.02)
