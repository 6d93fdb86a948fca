"""Rating an archive on the archives page as a person does it, in headless Chromium against
``swc view --archives DIR`` started as a user starts it (issue 45): the refusal of a wrong
passphrase, the one line of a game without a calibrated ladder, then a real rating at a reduced
size (two games against a two-rung table given with ``--ladder``, as tests/tools/test_rate.py
keeps ``swc rate`` cheap), its report as ``swc rate`` prints it, names shown as text."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from swc_local.tools.ladder_table import Ladder, RungElo, save
from tests.archives import reference_bot_zip
from tests.processes import command_lines, descendants, stop_within_seconds
from tests.web_helpers import chrome

PASSWORD = "rate-pass"
GAME = "swc_2019_piranhas"


def _start_view(shelf: Path, ladder: Path, env: dict) -> tuple[subprocess.Popen, str]:
    swc = Path(sys.executable).parent / "swc"
    process = subprocess.Popen([str(swc), "view", "--archives", str(shelf), "--password", PASSWORD, "--port", "0",
                                "--ladder", str(ladder)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    for line in process.stdout:
        if line.startswith("viewer on "):
            return process, line.split()[-1].rstrip("/")
    process.kill()
    raise AssertionError("swc view did not start")


def _team_and_viewer(tmp_path: Path) -> tuple[Path, tuple[subprocess.Popen, str]]:
    """A reference bot's archive, and ``swc view`` on an empty shelf with a two-rung ladder table."""
    ladder = tmp_path / "elo.json"
    save(Ladder(GAME, [RungElo("random", 0, 0, 0), RungElo("greedy", 356, 300, 410)], games_per_pairing=2,
                measured="a test's"), ladder)
    team = reference_bot_zip(tmp_path / "our_team.zip", GAME)
    return team, _start_view(tmp_path / "shelf", ladder, os.environ | {"SWC_ARCHIVE_CACHE": str(tmp_path / "cache")})


def _choose(browser, value: str) -> None:
    from selenium.webdriver.common.by import By

    for option in browser.find_elements(By.CSS_SELECTOR, "#game option"):
        if option.get_attribute("value") == value:
            option.click()


def test_a_person_rates_an_archive_in_the_browser(tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    team, (process, url) = _team_and_viewer(tmp_path)
    browser = chrome(tmp_path)
    try:
        browser.get(f"{url}/archives")
        browser.find_element(By.ID, "file").send_keys(str(team))
        browser.find_element(By.ID, "name").send_keys("<b>Team A</b>")
        browser.find_element(By.ID, "passphrase").send_keys(PASSWORD)
        browser.find_element(By.ID, "upload").click()
        row = WebDriverWait(browser, 30).until(lambda b: b.find_elements(By.CSS_SELECTOR, "#archives tbody tr"))[0]
        assert row.find_element(By.CSS_SELECTOR, "td.rating").text == "-"

        _choose(browser, "swc_2020_hive")
        assert browser.find_element(By.ID, "rate-note").text.startswith("the ladder of Hive 2020 is not calibrated yet")
        _choose(browser, GAME)
        assert browser.find_element(By.ID, "rate-note").text == ""

        passphrase = browser.find_element(By.ID, "passphrase")
        passphrase.clear()
        passphrase.send_keys("wrong")
        row.find_element(By.CSS_SELECTOR, "button.rate").click()
        WebDriverWait(browser, 20).until(lambda b: b.find_element(By.ID, "message").text == "wrong passphrase")
        assert not list((tmp_path / "shelf").glob("*.rating.json"))

        passphrase.clear()
        passphrase.send_keys(PASSWORD)
        games = browser.find_element(By.ID, "rate-games")
        games.clear()
        games.send_keys("2")
        row.find_element(By.CSS_SELECTOR, "button.rate").click()
        report = WebDriverWait(browser, 120).until(lambda b: b.find_elements(By.ID, "rating-report"))[0]
        head = browser.find_element(By.ID, "rating-head").text
        assert head == "<b>Team A</b> in piranhas: done"
        assert not browser.find_elements(By.CSS_SELECTOR, "#rating b, #archives b")  # names are text, not markup
        lines = report.text.splitlines()
        assert lines[0].startswith(f"swc rate: {GAME}, 2 of 2 games, seed ")
        assert lines[1].startswith("Elo ") and lines[1].endswith("on the ladder's scale (random = 0), from 2 games")
        assert "  vs random: " in report.text and "of 2 points" in report.text
        cell = browser.find_element(By.CSS_SELECTOR, "#archives tbody tr td.rating span").text
        assert cell == f"{lines[1].split(' on the ladder')[0]} (piranhas)"
        (kept,) = (tmp_path / "shelf").glob("*.rating.json")
        state = json.loads(kept.read_text())
        assert state["status"] == "done" and state["sandboxed"] and state["text"] == report.text

        browser.refresh()  # a reloaded page lists it, and shows it again on request
        show = WebDriverWait(browser, 20).until(lambda b: b.find_elements(By.CSS_SELECTOR, "button.show-rating"))[0]
        show.click()
        WebDriverWait(browser, 20).until(lambda b: b.execute_script(
            "const r = document.getElementById('rating-report'); return r && r.textContent;") == state["text"])

        games = browser.find_element(By.ID, "rate-games")  # a long one, stopped with the viewer mid-game
        games.clear()
        games.send_keys("40")
        browser.find_element(By.ID, "passphrase").send_keys(PASSWORD)
        browser.find_element(By.CSS_SELECTOR, "#archives tbody tr button.rate").click()
        progress = WebDriverWait(browser, 60).until(lambda b: b.execute_script(
            "const p = document.getElementById('rating-progress'); return p && p.textContent.includes(', now game ') "
            "&& p.textContent;"))
        assert re.fullmatch(r"(\d+) of 40 games played, now game (\d+) against (random|greedy) "
                            r"\(the archive (first|second)\); Elo so far: .+", progress), progress
    finally:
        browser.quit()
        stop_within_seconds(process)
    state = json.loads(kept.read_text())
    assert state["status"] == "stopped" and state["games"] == 40 and state["current"] is None


def _press(browser, selector: str) -> None:
    """Click the button ``selector`` of the rating's cell, which the page redraws every second."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    def pressed(b) -> bool:
        try:
            b.find_element(By.CSS_SELECTOR, selector).click()
        except StaleElementReferenceException:
            return False
        return True

    WebDriverWait(browser, 30).until(pressed)


def test_a_person_stops_a_rating_and_resumes_it_in_the_browser(tmp_path):
    """Stop mid-game: the archive's bot is gone, the row says stopped with the Elo so far and
    offers Resume; Resume goes on to the games asked, the games played before Stop counted."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    team, (process, url) = _team_and_viewer(tmp_path)
    browser = chrome(tmp_path)
    try:
        browser.get(f"{url}/archives")
        browser.find_element(By.ID, "file").send_keys(str(team))
        browser.find_element(By.ID, "passphrase").send_keys(PASSWORD)
        browser.find_element(By.ID, "upload").click()
        row = WebDriverWait(browser, 30).until(lambda b: b.find_elements(By.CSS_SELECTOR, "#archives tbody tr"))[0]
        _choose(browser, GAME)
        games = browser.find_element(By.ID, "rate-games")
        games.clear()
        games.send_keys("6")
        row.find_element(By.CSS_SELECTOR, "button.rate").click()
        WebDriverWait(browser, 30).until(lambda b: b.find_elements(By.CSS_SELECTOR, "#archives button.stop-rating"))
        WebDriverWait(browser, 120).until(lambda b: re.match(r"[1-5] of 6 games played, now game", b.execute_script(
            "const p = document.getElementById('rating-progress'); return p ? p.textContent : '';"))
            and any("start.sh" in line for line in command_lines(process.pid).values()))  # a game played, one playing
        team_bots = [pid for pid, line in command_lines(process.pid).items() if "start.sh" in line or " bot " in line]
        game = list(command_lines(process.pid))
        _press(browser, "#archives button.stop-rating")
        head = WebDriverWait(browser, 30).until(lambda b: b.execute_script(
            "const h = document.getElementById('rating-head'); return h && h.textContent.includes('stopped') "
            "&& h.textContent;"))
        played = int(re.search(r"stopped after (\d+) of 6 games", head).group(1))
        assert head == f"our_team in piranhas: stopped after {played} of 6 games; Resume goes on from there"
        assert 1 <= played < 6 and team_bots
        with_estimate = browser.find_element(By.CSS_SELECTOR, "#archives tbody tr td.rating span").text
        assert re.fullmatch(rf"stopped after {played} of 6 games: Elo .+ \(piranhas\)", with_estimate), with_estimate
        assert f"stopped by Stop on the archives page after {played} games" in browser.find_element(By.ID, "rating-report").text
        assert browser.find_element(By.ID, "message").text == "rating stopped; Resume goes on with it."
        deadline = time.monotonic() + 10  # the game's processes: killed before the answer, gone soon after
        while any(Path(f"/proc/{pid}").exists() for pid in game) or descendants(process.pid):
            assert time.monotonic() < deadline, command_lines(process.pid)
            time.sleep(0.05)
        assert not browser.find_elements(By.CSS_SELECTOR, "#archives button.stop-rating")

        _press(browser, "#archives button.resume-rating")
        WebDriverWait(browser, 240).until(lambda b: b.execute_script(
            "const h = document.getElementById('rating-head'); return h && h.textContent;") == "our_team in piranhas: done")
        report = browser.find_element(By.ID, "rating-report").text
        assert report.splitlines()[0].startswith(f"swc rate: {GAME}, 6 of 6 games, seed ")
        (kept,) = (tmp_path / "shelf").glob("*.rating.json")
        state = json.loads(kept.read_text())
        assert state["status"] == "done" and state["resumed"] == 1 and sorted(r["index"] for r in state["results"]) == list(range(6))
        assert not browser.find_elements(By.CSS_SELECTOR, "#archives button.resume-rating")
    finally:
        browser.quit()
        stop_within_seconds(process)
