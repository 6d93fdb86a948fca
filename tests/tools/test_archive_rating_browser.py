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
from pathlib import Path

from swc_local.tools.ladder_table import Ladder, RungElo, save
from tests.archives import reference_bot_zip
from tests.processes import stop_within_seconds
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


def _choose(browser, value: str) -> None:
    from selenium.webdriver.common.by import By

    for option in browser.find_elements(By.CSS_SELECTOR, "#game option"):
        if option.get_attribute("value") == value:
            option.click()


def test_a_person_rates_an_archive_in_the_browser(tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    ladder = tmp_path / "elo.json"
    save(Ladder(GAME, [RungElo("random", 0, 0, 0), RungElo("greedy", 356, 300, 410)], games_per_pairing=2,
                measured="a test's"), ladder)
    team = reference_bot_zip(tmp_path / "our_team.zip", GAME)
    process, url = _start_view(tmp_path / "shelf", ladder, os.environ | {"SWC_ARCHIVE_CACHE": str(tmp_path / "cache")})
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
