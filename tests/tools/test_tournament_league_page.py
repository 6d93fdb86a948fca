"""The run page of the contest's formats in headless Chromium (``swc view DB``): a league's
standings as the contest shows them, its match days with who sits out, its encounters with each
game opening its replay; the Final Four's bracket and places; and a league started from the
page (``swc view --leagues DIR``) with the admin passphrase, followed on its run page."""

from __future__ import annotations

import contextlib
import io
import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from swc_local.client import ladder
from swc_local.games import registry
from swc_local.tools.cli import main
from tests.web_helpers import chrome

PIRANHAS = shlex.join(ladder.command(registry.entry("piranhas")))


def swc_view(*args: str) -> tuple[subprocess.Popen, str, list[str]]:
    """``swc view --port 0 ...``: (process, base url, the lines it printed about tournaments)."""
    process = subprocess.Popen([str(Path(sys.executable).parent / "swc"), "view", "--port", "0", *args],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = process.stdout.readline()
    assert first.startswith("viewer on "), first
    lines = []
    expected = sum(1 for a in args if a.endswith(".db")) + (1 if "--leagues" in args else 0)
    for _ in range(expected):
        lines.append(process.stdout.readline().split()[0])
    return process, first.split()[-1].rstrip("/"), lines


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[Path, Path, dict, dict]:
    folder = tmp_path_factory.mktemp("leagues")
    league_db, knockout_db = folder / "league.db", folder / "ko.db"
    three = [f"--bot={name}={PIRANHAS}" for name in ("anna", "ben", "cleo")]
    assert main(["tournament", "piranhas", "--format", "league", *three, "--games-per-encounter", "2",
                 "--db", str(league_db), "--seed", "3", "--concurrency", "2"]) == 0
    four = [f"--bot={name}={PIRANHAS}" for name in ("s1", "s2", "s3", "s4")]
    assert main(["tournament", "piranhas", "--format", "final-eight", *four, "--games-per-encounter", "2",
                 "--db", str(knockout_db), "--seed", "3", "--concurrency", "2"]) == 0
    reports = []
    for db in (league_db, knockout_db):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["tournament", "report", str(db), "--json"]) == 0
        reports.append(json.loads(out.getvalue()))
    return league_db, knockout_db, reports[0], reports[1]


def wait_for_data(driver):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 60).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-games"))


def test_a_leagues_run_page_shows_standings_match_days_and_each_games_replay(played, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    league_db, _, expected, _ = played
    process, _, pages = swc_view(str(league_db))
    driver = chrome(tmp_path)
    try:
        driver.get(pages[0])
        wait_for_data(driver)
        assert driver.execute_script("return window.swcTournament")["report"] == expected
        stage = expected["league"]["stages"][0]
        rows = driver.find_elements(By.CSS_SELECTOR, "#league .league-standings tbody tr")
        assert [r.find_elements(By.TAG_NAME, "td")[1].text for r in rows] == [s["team"] for s in stage["standings"]]
        header = driver.find_element(By.CSS_SELECTOR, "#league .league-standings thead").text
        assert all(word in header for word in ("points", "victory points", "won", "drawn", "lost"))
        first = rows[0].find_elements(By.TAG_NAME, "td")
        assert first[2].text == str(stage["standings"][0]["points"])
        assert first[3].text == str(stage["standings"][0]["victory_points"])
        assert not driver.find_element(By.ID, "crosstable-section").is_displayed()
        driver.find_element(By.CSS_SELECTOR, "#league details summary").click()
        days = driver.find_elements(By.CSS_SELECTOR, "#league .day")
        assert len(days) == 3  # three teams: three match days, one sits out each
        sitting = [d.find_element(By.CSS_SELECTOR, ".bye").text for d in days]
        assert sorted(sitting) == sorted(f"{t} sits out" for t in ("anna", "ben", "cleo"))
        links = driver.find_elements(By.CSS_SELECTOR, "#league .encounters .games a")
        assert len(links) == expected["games"] == 6
        encounter = driver.find_element(By.CSS_SELECTOR, "#league .encounters tbody tr").text
        shown = stage["days"][0]["encounters"][0]
        assert shown["home"] in encounter and ":".join(map(str, shown["wins"])) in encounter
        links[0].click()  # each game opens its replay in the viewer
        WebDriverWait(driver, 60).until(lambda d: "/game/" in d.current_url and d.find_element(By.ID, "counter").text)
        assert int(driver.find_element(By.ID, "counter").text.split(" of ")[1]) > 1
    finally:
        driver.quit()
        stop(process)


def test_the_final_fours_page_draws_its_bracket_and_places(played, tmp_path):
    from selenium.webdriver.common.by import By

    _, knockout_db, _, expected = played
    process, _, pages = swc_view(str(knockout_db))
    driver = chrome(tmp_path)
    try:
        driver.get(pages[0])
        wait_for_data(driver)
        stage = expected["league"]["stages"][0]
        rounds = driver.find_elements(By.CSS_SELECTOR, "#league .bracket .round")
        assert [r.find_element(By.TAG_NAME, "h3").text for r in rounds] == ["Semi-finals", "Finals"]
        matches = driver.find_elements(By.CSS_SELECTOR, "#league .match")
        assert [m.find_element(By.CSS_SELECTOR, ".title").text for m in matches] == [
            "semi-final 1", "semi-final 2", "third place", "final"]
        final = next(e for e in stage["days"][1]["encounters"] if e["title"] == "final")
        assert matches[3].find_element(By.CSS_SELECTOR, ".line.winner").text.startswith(final["winner"])
        places = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#league .places li")]
        assert places == [f"{p['place']}. {p['team']}" for p in stage["places"]]
        assert len(driver.find_elements(By.CSS_SELECTOR, "#league .match .games a")) == 8
    finally:
        driver.quit()
        stop(process)


def test_a_league_started_from_the_page_with_the_passphrase_is_followed_on_its_run_page(tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    folder = tmp_path / "leagues"
    folder.mkdir()
    process, url, pages = swc_view("--password", "teacher", "--leagues", str(folder))
    assert pages == [f"{url}/tournament/new"]
    driver = chrome(tmp_path)
    try:
        driver.get(pages[0])
        WebDriverWait(driver, 60).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
        assert driver.find_element(By.ID, "passphrase").is_displayed()
        Select(driver.find_element(By.ID, "game")).select_by_value("piranhas")
        Select(driver.find_element(By.ID, "format")).select_by_value("final-eight")
        games = driver.find_element(By.ID, "games")
        games.clear()
        games.send_keys("2")
        driver.find_element(By.ID, "seed").send_keys("5")
        teams = driver.find_element(By.ID, "teams")
        teams.send_keys("\n".join(f"t{i}={PIRANHAS}" for i in range(4)))
        driver.find_element(By.ID, "passphrase").send_keys("wrong")
        driver.find_element(By.ID, "start").click()
        WebDriverWait(driver, 60).until(lambda d: d.find_element(By.ID, "error").text == "wrong admin passphrase")
        passphrase = driver.find_element(By.ID, "passphrase")
        passphrase.clear()
        passphrase.send_keys("teacher")
        teams.clear()
        teams.send_keys("\n".join(f"<b>t{i}</b>={PIRANHAS}" for i in range(4)))
        driver.find_element(By.ID, "start").click()
        WebDriverWait(driver, 60).until(lambda d: "may use letters" in d.find_element(By.ID, "error").text)
        assert "<b>t0</b>" in driver.find_element(By.ID, "error").text  # shown as text, not markup
        assert not list(folder.glob("*.db"))
        teams.clear()
        teams.send_keys("\n".join(f"t{i}={PIRANHAS}" for i in range(4)))
        driver.find_element(By.ID, "start").click()
        WebDriverWait(driver, 60).until(lambda d: "/tournament/league-" in d.current_url)
        wait_for_data(driver)
        WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#league .match"))
        assert driver.find_element(By.CSS_SELECTOR, "#league .stage h2").text.startswith("Final Four")
        assert len(list(folder.glob("league-*.db"))) == 1
    finally:
        driver.quit()
        stop(process)
