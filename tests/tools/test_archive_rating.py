"""Rating an archive from the archives page (issue 45): the routes on a viewer in this process,
with a fake rating that plays no game (``Session.run`` replaced: each game waits for the test's
go, the bot wins against random and loses against greedy), so the states can be read between
games: the passphrase, a game that is not calibrated, the progress, the result kept across a
restart, one rating per archive, the bound on ratings at once and an archive that cannot play."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import trio

from swc_local.server.web.book import GameBook
from swc_local.tools import archive_rating
from swc_local.tools.ladder_table import Ladder, RungElo, save
from swc_local.tools.rate import BOT, Played, Session, next_round
from swc_local.tools.runner import CommandError
from swc_local.tools.view import serve_book
from tests.archives import reference_bot_zip
from tests.web_helpers import http

PASSWORD = "rate-pass"
GAME = "swc_2019_piranhas"
LADDER = Ladder(GAME, [RungElo("random", 0, 0, 0), RungElo("greedy", 356, 300, 410)], games_per_pairing=2,
                measured="a test's")


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SWC_ARCHIVE_CACHE", str(tmp_path / "cache"))


class FakeGames:
    """``Session.run`` without games: each game waits for :meth:`go`, then the bot wins against
    random and loses against greedy (``fail``: the game raises it instead)."""

    def __init__(self) -> None:
        self.send, self.receive = trio.open_memory_channel(100)
        self.fail: Exception | None = None

    async def go(self, games: int = 1) -> None:
        for _ in range(games):
            await self.send.send(None)

    async def run(self, session: Session, on_game=None, on_round=None) -> None:
        pair = 0
        while 2 * pair < session.games:
            rungs = next_round(session.ladder, session.played)
            specs = session.specs(pair, rungs)
            pair += len(rungs)
            on_round(specs)
            for spec in specs:
                await self.receive.receive()
                if self.fail is not None:
                    raise self.fail
                seat = [name for name, _ in spec.players].index(BOT)
                rung = spec.players[1 - seat][0]
                played = Played(spec.index, rung, seat, 1.0 if rung == "random" else 0.0, "REGULAR")
                session.played.append(played)
                on_game(played)


@pytest.fixture
def games(monkeypatch) -> FakeGames:
    fake = FakeGames()
    monkeypatch.setattr(Session, "run", lambda session, on_game=None, on_round=None: fake.run(session, on_game, on_round))
    return fake


def ladder_file(tmp_path: Path) -> Path:
    path = tmp_path / "elo.json"
    save(LADDER, path)
    return path


async def viewer(nursery, tmp_path: Path, password: str | None = PASSWORD, shelf: str = "shelf") -> str:
    door = await nursery.start(lambda task_status: serve_book(
        GameBook(), "127.0.0.1", 0, password, archives=tmp_path / shelf, ladder=ladder_file(tmp_path),
        task_status=task_status))
    return door.url


async def upload(url: str, tmp_path: Path, name: str = "<i>Team</i>") -> str:
    team = reference_bot_zip(tmp_path / "team.zip", GAME).read_bytes()
    status, body = await http(f"{url}/api/archives", team, {"X-Passphrase": PASSWORD, "X-File-Name": "team.zip",
                                                            "X-Archive-Name": name}, "POST")
    assert status == 200
    return body["id"]


async def rate(url: str, aid: str, **fields):
    body = {"passphrase": PASSWORD, "game": GAME, "games": 4} | fields
    return await http(f"{url}/api/archives/{aid}/rate", json.dumps(body).encode(), {"Content-Type": "application/json"},
                      "POST")


async def state_when(url: str, aid: str, ready) -> dict:
    with trio.fail_after(10):
        while True:
            status, state = await http(f"{url}/api/archives/{aid}/rating")
            if status == 200 and ready(state):
                return state
            await trio.sleep(0.02)


async def test_rating_needs_the_passphrase(nursery, tmp_path, games):
    url = await viewer(nursery, tmp_path)
    aid = await upload(url, tmp_path)
    assert await rate(url, aid, passphrase="wrong") == (403, {"error": "wrong passphrase"})
    assert (await http(f"{url}/api/archives/{aid}/rating"))[0] == 404
    assert not list((tmp_path / "shelf").glob("*.rating.json"))


async def test_without_a_passphrase_no_rating_starts_even_on_loopback(nursery, tmp_path, games):
    (tmp_path / "shelf").mkdir()
    shelf = json.dumps({"a1": {"name": "t", "file": "t.zip", "params": "", "main": "t/start.sh", "command": "", "check": None}})
    (tmp_path / "shelf" / "archives.json").write_text(shelf)
    url = await viewer(nursery, tmp_path, password=None)
    status, body = await rate(url, "a1", passphrase="")
    assert status == 403 and "start swc view with --password" in body["error"]


async def test_a_game_without_a_calibrated_ladder_says_so_in_one_line(nursery, tmp_path, games):
    url = await viewer(nursery, tmp_path)
    aid = await upload(url, tmp_path)
    status, body = await rate(url, aid, game="hive")
    assert status == 400 and body["error"].startswith("the ladder of Hive 2020 is not calibrated yet")
    assert "\n" not in body["error"]
    status, body = await rate(url, aid, games=3)
    assert status == 400 and body["error"].startswith("games 3: an even number from 2 to")
    status, listing = await http(f"{url}/api/archives")
    notes = {game["type"]: game["not_ratable"] for game in listing["games"]}
    assert notes[GAME] is None and notes["swc_2020_hive"].startswith("the ladder of Hive 2020 is not calibrated yet")
    assert listing["archives"][0]["rating"] is None


async def test_the_page_sees_the_progress_then_the_result_as_swc_rate_prints_it_also_after_a_restart(nursery, tmp_path, games):
    url = await viewer(nursery, tmp_path)
    aid = await upload(url, tmp_path)
    status, first = await rate(url, aid)
    assert status == 202 and first["status"] in ("queued", "running") and first["archive"] == "<i>Team</i>"
    state = await state_when(url, aid, lambda s: s["current"] is not None)
    assert state["current"] == {"index": 0, "rung": "random", "seat": 0} and state["played"] == 0
    assert await rate(url, aid) == (409, {"error": "<i>Team</i> is being rated already; its rating goes on"})
    await games.go()
    state = await state_when(url, aid, lambda s: s["played"] == 1)
    assert state["status"] == "running" and state["current"]["rung"] == "random" and state["current"]["seat"] == 1
    assert state["estimate"].startswith("at least") and state["lines"] == ["game 1 vs random (bot first): won"]
    await games.go(3)
    done = await state_when(url, aid, lambda s: s["status"] == "done")
    assert done["played"] == 4 and done["current"] is None
    assert [row["rung"] for row in done["report"]["against"]] == ["random", "greedy"]
    assert f"swc rate: {GAME}, 4 of 4 games, seed {done['seed']}" in done["text"]
    assert "the rung below: random (0, the scale's anchor)" in done["text"]
    assert "the rung above: greedy (+356, 95 %: +300 .. +410)" in done["text"]
    assert done["estimate"] == done["text"].splitlines()[1].split("Elo ", 1)[1].split(" on the ladder")[0]
    kept = json.loads((tmp_path / "shelf" / f"{aid}.rating.json").read_text())
    assert kept == done

    async with trio.open_nursery() as again:  # a restarted viewer shows it again
        url2 = await viewer(again, tmp_path)
        status, listing = await http(f"{url2}/api/archives")
        assert listing["archives"][0]["rating"] == {key: done[key] for key in archive_rating.SUMMARY}
        assert (await http(f"{url2}/api/archives/{aid}/rating")) == (200, done)
        again.cancel_scope.cancel()


async def test_a_rating_cut_short_by_the_viewers_stop_is_shown_as_stopped(tmp_path, games):
    async with trio.open_nursery() as first:
        url = await viewer(first, tmp_path)
        aid = await upload(url, tmp_path)
        await rate(url, aid)
        await games.go()
        await state_when(url, aid, lambda s: s["played"] == 1)
        first.cancel_scope.cancel()
    kept = json.loads((tmp_path / "shelf" / f"{aid}.rating.json").read_text())
    assert kept["status"] == "stopped" and kept["played"] == 1 and "1 of 4 games" in kept["text"]
    async with trio.open_nursery() as again:
        url = await viewer(again, tmp_path)
        status, state = await http(f"{url}/api/archives/{aid}/rating")
        assert state["status"] == "stopped" and state["estimate"].startswith("at least")
        again.cancel_scope.cancel()


async def test_ratings_beyond_the_bound_wait_for_a_free_slot(nursery, tmp_path, games, monkeypatch):
    monkeypatch.setattr(archive_rating, "MAX_RATINGS", 1)
    url = await viewer(nursery, tmp_path)
    one, two = await upload(url, tmp_path, "one"), await upload(url, tmp_path, "two")
    await rate(url, one, games=2)
    await state_when(url, one, lambda s: s["status"] == "running")
    status, second = await rate(url, two, games=2)
    assert status == 202
    await trio.sleep(0.1)
    assert (await http(f"{url}/api/archives/{two}/rating"))[1]["status"] == "queued"
    await games.go(2)
    await state_when(url, one, lambda s: s["status"] == "done")
    await state_when(url, two, lambda s: s["status"] == "running")
    await games.go(2)
    await state_when(url, two, lambda s: s["status"] == "done")


async def test_an_archive_that_cannot_play_fails_with_the_cause_named(nursery, tmp_path, games):
    url = await viewer(nursery, tmp_path)
    aid = await upload(url, tmp_path)
    games.fail = CommandError("bot's command cannot play: <script>crashed</script> -- command: team.zip")
    await rate(url, aid)
    await games.go()
    failed = await state_when(url, aid, lambda s: s["status"] == "failed")
    assert failed["error"] == "bot's command cannot play: <script>crashed</script> -- command: team.zip"
    assert failed["played"] == 0 and failed["estimate"] is None and "no game ended with a result" in failed["text"]
    games.fail = None
    status, again = await rate(url, aid, games=2)  # a failed rating may be started again
    assert status == 202


async def test_a_real_archive_that_crashes_fails_its_rating_with_its_own_words(nursery, tmp_path):
    from tests.archives import pack

    url = await viewer(nursery, tmp_path)
    crash = pack(tmp_path / "crash.zip", {"start.sh": ("#!/bin/sh\necho '<b>no board for me</b>' >&2\nexit 3\n", 0o755)})
    status, body = await http(f"{url}/api/archives", crash.read_bytes(), {"X-Passphrase": PASSWORD, "X-File-Name": "crash.zip"},
                              "POST")
    assert status == 200
    assert (await rate(url, body["id"], games=2))[0] == 202
    failed = await state_when(url, body["id"], lambda s: s["status"] == "failed")
    assert failed["error"].startswith("bot's command cannot play (it crashed before joining in each of its first 2 games): "
                                      "exited with code 3 before it joined; last output: <b>no board for me</b>")
