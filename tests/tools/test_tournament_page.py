"""The viewer's run page of a tournament (``swc view course.db``) in headless Chromium: the LLR
chart of a finished SPRT with both bounds, Elo with its band, the games opening in the viewer,
and the page's data equal to ``swc tournament report --json``; a running tournament's page
follows its database."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from swc_local.server.web.book import GameBook
from swc_local.tools.cli import main
from swc_local.tools.tournament.core import Settings, Tournament
from swc_local.tools.tournament.executors import play_locally
from swc_local.tools.tournament.page import TournamentSource
from tests.tools.test_tournament_play import GREEDY, INSTANT_REVERSI, RANDOM
from tests.tournament_fakes import fake_play_games
from tests.web_helpers import chrome


def swc(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(Path(sys.executable).parent / "swc"), *args], capture_output=True, text=True, timeout=600)


class TournamentView:
    """``swc view --port 0 DB`` as a user runs it; the run page's address from its output."""

    def __init__(self, db: Path) -> None:
        self.process = subprocess.Popen([str(Path(sys.executable).parent / "swc"), "view", "--port", "0", str(db)],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        first, second = self.process.stdout.readline(), self.process.stdout.readline()
        assert first.startswith("viewer on ") and "/tournament/t1" in second, (first, second)
        self.page = second.split()[0]
        self.url = first.split()[-1].rstrip("/")

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def finished_sprt(tmp_path_factory) -> tuple[Path, dict]:
    folder = tmp_path_factory.mktemp("sprt")
    db = folder / "v2-vs-v1.db"
    # the commands' own entry point in this process: the bots are processes either way, and two
    # more interpreters would cost seconds on a loaded machine
    assert main(["tournament", "reversixt", f"--bot=greedy={GREEDY}", f"--bot=random={RANDOM}", "--db", str(db),
                 "--sprt", "elo0=0", "elo1=300", "--games-per-pairing", "60", "--concurrency", "2", "--seed", "1",
                 *INSTANT_REVERSI]) == 0
    reported = io.StringIO()
    with contextlib.redirect_stdout(reported):
        assert main(["tournament", "report", str(db), "--json"]) == 0
    return db, json.loads(reported.getvalue())


def test_the_run_page_of_a_finished_sprt_shows_its_llr_chart_and_the_report(finished_sprt, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    db, expected = finished_sprt
    assert expected["verdict"].startswith("SPRT: H1 accepted")
    view = TournamentView(db)
    driver = chrome(tmp_path)
    try:
        driver.get(view.page)
        WebDriverWait(driver, 60).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-games"))
        data = driver.execute_script("return window.swcTournament")
        assert data["report"] == expected  # the page shows exactly what report --json says
        pairs = sum(expected["sprt"]["pentanomial"])
        llr = driver.find_element(By.CSS_SELECTOR, "#llr-chart polyline.llr")
        assert int(llr.get_attribute("data-points")) == pairs == len(expected["history"])
        bounds = sorted(float(line.get_attribute("data-value"))
                        for line in driver.find_elements(By.CSS_SELECTOR, "#llr-chart line.bound"))
        assert bounds == pytest.approx([expected["sprt"]["lower_bound"], expected["sprt"]["upper_bound"]])
        assert driver.find_elements(By.CSS_SELECTOR, "#elo-chart polygon.band")  # Elo with its interval
        assert expected["verdict"] in driver.find_element(By.ID, "verdict").text
        assert driver.find_element(By.ID, "status").text == f"{expected['games']} of {expected['scheduled']} games (finished)"
        standings = driver.find_element(By.ID, "standings").text
        assert "greedy" in standings and expected["standings"][0]["elo_text"] in standings
        games = driver.find_elements(By.CSS_SELECTOR, "#game-list tbody tr")
        assert len(games) == expected["games"]
        assert driver.find_element(By.ID, "no-irregular").is_displayed()
        link = driver.find_element(By.CSS_SELECTOR, "#game-list tbody tr a")
        link.click()  # each game opens in the viewer
        WebDriverWait(driver, 60).until(lambda d: "/game/" in d.current_url and d.find_element(By.ID, "counter").text)
        assert int(driver.find_element(By.ID, "counter").text.split(" of ")[1]) > 1
    finally:
        driver.quit()
        view.close()


async def test_a_running_tournaments_page_follows_its_database(tmp_path):
    settings = Settings(game="swc_2019_piranhas", bots=[("strong3", "x"), ("weak1", "x")], games_per_pairing=20, seed=2,
                        sprt={"elo0": 0, "elo1": 5})
    tournament = Tournament.open(settings, tmp_path / "live.db", resume=False)
    source = TournamentSource(tmp_path / "live.db", GameBook())
    assert source()["report"]["games"] == 0 and not source()["finished"]
    play = fake_play_games(noise=5)

    async def some(specs, **options):
        await play(specs[:6], **options)

    await play_locally(tournament, 1, play_games=some)
    now = source()
    assert now["report"]["games"] == 6 and len(now["report"]["history"]) == 3 and not now["finished"]
    tournament.db.close()


def test_swc_view_names_a_file_that_is_no_tournament(tmp_path):
    import sqlite3

    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).execute("CREATE TABLE x (y)").connection.commit()
    run = swc("view", "--port", "0", str(empty))
    assert run.returncode == 2 and "empty.db" in run.stderr and "Traceback" not in run.stderr
