"""The archives page of ``swc view --archives DIR`` (issue 44): upload, name, parameters, test.

The API on a viewer in this process (passphrase always asked, broken uploads refused with their
line, names kept as text); then the page as a person uses it, in headless Chromium against
``swc view`` started as a user starts it: upload a team's ZIP, rename it, run the test, read
the table.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from swc_local.server.web.book import GameBook
from swc_local.tools.view import serve_book
from tests.archives import cache, pack, reference_bot_zip  # noqa: F401 (cache: the autouse fixture)
from tests.processes import stop_within_seconds
from tests.web_helpers import chrome, http

PASSWORD = "archive-pass"
GAME = "swc_2019_piranhas"


async def _viewer(nursery, shelf: Path, password: str | None = PASSWORD) -> str:
    door = await nursery.start(lambda task_status: serve_book(GameBook(), "127.0.0.1", 0, password, archives=shelf,
                                                              task_status=task_status))
    return door.url


async def test_uploads_need_the_passphrase_and_a_broken_one_is_refused_with_its_line(nursery, tmp_path):
    url = await _viewer(nursery, tmp_path / "shelf")
    team = reference_bot_zip(tmp_path / "team.zip", GAME).read_bytes()
    status, body = await http(f"{url}/api/archives", team, {"X-Passphrase": "wrong"}, "POST")
    assert (status, body) == (403, {"error": "wrong passphrase"})
    broken = pack(tmp_path / "b.zip", {"start.sh": "echo no interpreter\n"}).read_bytes()
    status, body = await http(f"{url}/api/archives", broken, {"X-Passphrase": PASSWORD, "X-File-Name": "b.zip"}, "POST")
    assert status == 400 and body["error"].startswith("b.zip: start.sh is not executable: its first line names no interpreter")
    name = "<img src=x onerror=alert(1)>"
    status, body = await http(f"{url}/api/archives", team, {"X-Passphrase": PASSWORD, "X-File-Name": "team.zip",
                                                            "X-Archive-Name": name, "X-Archive-Params": "--seed 3"}, "POST")
    assert status == 200 and body["main"] == "team/start.sh" and body["name"] == name
    status, body = await http(f"{url}/api/archives/{body['id']}", json.dumps({"passphrase": PASSWORD, "params": "'open"}).encode(),
                              {"Content-Type": "application/json"}, "POST")
    assert status == 400 and "extra parameters" in body["error"]
    status, listing = await http(f"{url}/api/archives")
    assert [(a["name"], a["params"]) for a in listing["archives"]] == [(name, "--seed 3")]
    assert len(list((tmp_path / "shelf").glob("*.zip"))) == 1  # the refused upload was not kept
    assert json.loads((tmp_path / "shelf" / "archives.json").read_text())  # kept across restarts


async def test_without_a_passphrase_nothing_can_be_changed_even_on_loopback(nursery, tmp_path):
    url = await _viewer(nursery, tmp_path / "shelf", password=None)
    team = reference_bot_zip(tmp_path / "team.zip", GAME).read_bytes()
    status, body = await http(f"{url}/api/archives", team, {"X-Passphrase": ""}, "POST")
    assert status == 403 and "start swc view with --password" in body["error"]
    status, listing = await http(f"{url}/api/archives")
    assert listing["changes_allowed"] is False and listing["archives"] == []


def _start_view(shelf: Path, env: dict) -> tuple[subprocess.Popen, str]:
    swc = Path(sys.executable).parent / "swc"
    process = subprocess.Popen([str(swc), "view", "--archives", str(shelf), "--password", PASSWORD, "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    for line in process.stdout:
        if line.startswith("viewer on "):
            return process, line.split()[-1].rstrip("/")
    process.kill()
    raise AssertionError("swc view did not start")


def test_a_person_uploads_names_and_tests_an_archive_in_the_browser(tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    team = reference_bot_zip(tmp_path / "our_team.zip", GAME)
    process, url = _start_view(tmp_path / "shelf", os.environ | {"SWC_ARCHIVE_CACHE": str(tmp_path / "cache")})
    browser = chrome(tmp_path)
    try:
        browser.get(f"{url}/archives")
        browser.find_element(By.ID, "passphrase").send_keys(PASSWORD)
        browser.find_element(By.ID, "file").send_keys(str(team))
        browser.find_element(By.ID, "name").send_keys("<b>Team A</b>")
        browser.find_element(By.ID, "upload").click()
        rows = WebDriverWait(browser, 30).until(lambda b: b.find_elements(By.CSS_SELECTOR, "#archives tbody tr"))
        assert rows[0].find_element(By.CSS_SELECTOR, "input.name").get_attribute("value") == "<b>Team A</b>"
        assert not browser.find_elements(By.CSS_SELECTOR, "#archives b")  # the name is text, not markup
        params = rows[0].find_element(By.CSS_SELECTOR, "input.params")
        params.send_keys("--seed 5")
        rows[0].find_element(By.CSS_SELECTOR, "button.save").click()
        WebDriverWait(browser, 20).until(lambda b: b.find_element(By.ID, "message").text == "saved.")
        for option in browser.find_elements(By.CSS_SELECTOR, "#game option"):
            if option.get_attribute("value") == GAME:
                option.click()
        browser.find_element(By.CSS_SELECTOR, "#archives tbody tr button.test").click()
        verdict = WebDriverWait(browser, 120).until(lambda b: b.find_elements(By.ID, "check-verdict"))[0]
        assert verdict.text == f"<b>Team A</b> in {GAME}: PASSED"
        cells = [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
                 for tr in browser.find_elements(By.CSS_SELECTOR, "#check table tr")[1:]]
        assert [row[1] for row in cells] == ["red", "blue"]  # two games, seats swapped
        assert all(row[2:6] == ["yes"] * 4 and row[6].endswith("MiB") and row[7].endswith(" s") for row in cells)
        shelf = json.loads((tmp_path / "shelf" / "archives.json").read_text())
        (item,) = shelf.values()
        assert item["params"] == "--seed 5" and item["check"]["passed"]
    finally:
        browser.quit()
        stop_within_seconds(process)
