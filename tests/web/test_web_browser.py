"""The viewer in a real browser: Debian's headless Chromium driven by selenium.

Live games of all three doors listed and their boards changing, a replay of each of the eight
games stepped to its result, and a hostile display name shown as text.
"""

from __future__ import annotations

import re
import time

import pytest
import trio
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from swc_local.client.admin import Admin
from swc_local.client.bot import play_game
from swc_local.games import registry
from swc_local.client import reversixt_bot as reversixt_bots
from swc_local.client.roborally_bot import RoboRallyBot
from swc_local.server.web.live import LiveBudget
from swc_local.server.xml.replay import read_replay

from tests.web_helpers import (PASSWORD, REFERENCE_REVERSIXT, ViewProcess, chrome, slow_bots, start_viewer_server,
                          unpacked_roborally_log)

HOSTILE = "<script>alert(1)</script>"
XML_GAMES = ["swc_2019_piranhas", "swc_2018_hase_und_igel", "swc_2022_ostseeschach",
             "swc_2025_hase_und_igel", "swc_2026_piranhas", "swc_2027_blokus", "swc_2023_penguins"]


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """One Chromium for the module: each test opens its own pages of its own server."""
    driver = chrome(tmp_path_factory.mktemp("chromium"))
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def wait(driver, condition, timeout=30, message=""):
    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(lambda d: condition(d), message)


def rows(driver) -> dict[str, dict]:
    """The start page's table, read in one go (the page redraws it on every update)."""
    return {row["game"]: row for row in driver.execute_script("""
        return [...document.querySelectorAll('#games tbody tr')].map(r => ({
            game: r.dataset.game, id: r.dataset.id, status: r.dataset.status,
            players: r.querySelector('.players').textContent}));""")}


def no_alert(driver) -> bool:
    try:
        driver.switch_to.alert
    except NoAlertPresentException:
        return True
    return False


_BOARD = "return [document.getElementById('board').dataset.step, document.getElementById('text').textContent];"


def board_changes(driver, url: str) -> None:
    """Open a game page and see its board (and the step shown) change by itself."""
    driver.get(url)
    first = wait(driver, lambda d: (shown := d.execute_script(_BOARD))[0] is not None and shown, message=url)
    wait(driver, lambda d: d.execute_script(_BOARD) != first, message=f"the board of {url} did not change")


async def test_start_page_follows_live_games_of_all_three_doors(nursery, browser, monkeypatch):
    slow_bots(monkeypatch, RoboRallyBot)  # games that last long enough to be watched
    slow_bots(monkeypatch, reversixt_bots.ClientGame)
    server = await start_viewer_server(nursery, sections={"roborally": {"port": 0, "keys": {"timer": "0.3", "map": "Death Trap"}}})
    # the bots play in this process, so the process CPU the live budget reads as the games' is
    # mostly theirs, and a page would see a new state every few seconds: the budget here reads
    # no game CPU, so it is what it is on a quiet server (2 % of one CPU for the live events)
    server.door("web").context.feeds._budget = LiveBudget(cpu=lambda: 0.0)
    url = server.door("web").url
    piranhas = registry.get("swc_2019_piranhas")
    async with await Admin.connect("127.0.0.1", server.door("xml").port, PASSWORD) as admin:
        prepared = await admin.prepare("piranhas", [HOSTILE, "Bob"], paused=True)
        async with trio.open_nursery() as games:
            for seed, code in enumerate(prepared.reservations):
                games.start_soon(play_game, piranhas, "127.0.0.1", server.door("xml").port, code, seed)
            for seed in (1, 2):
                games.start_soon(lambda s=seed: reversixt_bots.play("127.0.0.1", server.door("reversixt").port, seed=s))
                games.start_soon(RoboRallyBot(greedy=True, seed=seed).play, "127.0.0.1", server.door("roborally").port)
                await trio.sleep(0.05)

            async def step_slowly():
                await trio.sleep(0.5)
                while True:
                    await admin.step(prepared.room_id, settle=0.3)

            games.start_soon(step_slowly)

            def look():
                browser.get(url + "/")
                wanted = {"swc_2019_piranhas": "paused", "reversixt": "running", "roborally": "running"}  # stepped by the admin
                wait(browser, lambda d: wanted.items() <= {g: r["status"] for g, r in rows(d).items()}.items(),
                     message="the three live games are not listed as running (the stepped room as paused)")
                listed = rows(browser)
                assert listed["swc_2019_piranhas"]["players"] == f"{HOSTILE} vs Bob"  # the names the clients sent
                assert no_alert(browser)
                for game in ("roborally", "reversixt", "swc_2019_piranhas"):
                    board_changes(browser, f"{url}/game/{listed[game]['id']}")
                    assert no_alert(browser)
                players = browser.find_element(By.ID, "players").text
                browser.get(f"{url}/game/{listed['swc_2019_piranhas']['id']}")
                wait(browser, lambda d: HOSTILE in d.find_element(By.ID, "players").text)
                assert no_alert(browser) and players

            with trio.fail_after(120):
                await trio.to_thread.run_sync(look)
            games.cancel_scope.cancel()


async def record_xml_replays(nursery, tmp_path) -> list:
    server = await start_viewer_server(nursery, save_replay=True, replay_dir=str(tmp_path / "replays"))
    for game in XML_GAMES:
        plugin = registry.get(game)
        with trio.fail_after(120):
            async with trio.open_nursery() as bots:
                for seed in (1, 2):
                    bots.start_soon(play_game, plugin, "127.0.0.1", server.door("xml").port, None, seed)
                    await trio.sleep(0.05)
    paths = sorted(server.door("xml").replay_writer.paths.values())
    assert sorted(read_replay(p).game_type for p in paths) == sorted(XML_GAMES)
    return paths


def counter(driver) -> tuple[int, int]:
    text = driver.execute_script("return document.getElementById('counter').textContent.trim();")
    shown, total = re.fullmatch(r"\u00b7 step (\d+) of (\d+)", text).groups()
    return int(shown), int(total)


def step_through(driver, url: str) -> str:
    """Step a finished game with every control, end at its last state, return the result's text."""
    driver.get(url + "?step=0")
    wait(driver, lambda d: d.find_element(By.ID, "board").get_attribute("data-step") == "0", message=url)
    total = counter(driver)[1]
    assert counter(driver)[0] == 1 and total > 1
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    wait(driver, lambda d: counter(d)[0] == 2)
    body.send_keys(Keys.SHIFT, Keys.ARROW_RIGHT)
    wait(driver, lambda d: counter(d)[0] == min(12, total))
    driver.find_element(By.ID, "back").click()
    wait(driver, lambda d: counter(d)[0] == min(12, total) - 1)
    assert "step=" in driver.current_url
    driver.find_element(By.ID, "forward100").click()
    wait(driver, lambda d: counter(d)[0] == min(total, min(12, total) - 1 + 100))
    driver.find_element(By.ID, "first").click()
    wait(driver, lambda d: counter(d)[0] == 1)
    Select(driver.find_element(By.ID, "speed")).select_by_value("50")  # 20 steps a second, not the default 1
    driver.find_element(By.ID, "play").click()
    wait(driver, lambda d: counter(d)[0] > 1, message="play does not advance")
    driver.find_element(By.ID, "play").click()
    body.send_keys(Keys.END)
    wait(driver, lambda d: counter(d)[0] == total
         and d.find_element(By.ID, "board").get_attribute("data-step") == str(total - 1))
    assert driver.current_url.endswith(f"step={total - 1}")
    box = driver.find_element(By.ID, "result-box")
    assert box.is_displayed()
    return box.text


async def test_a_replay_of_each_of_the_eight_games_steps_to_its_result(nursery, browser, tmp_path):
    paths = await record_xml_replays(nursery, tmp_path)
    files = [*paths, REFERENCE_REVERSIXT, unpacked_roborally_log(tmp_path)]
    view = await trio.to_thread.run_sync(lambda: ViewProcess(*files))
    try:
        def check():
            browser.get(view.url + "/")
            wait(browser, lambda d: len(rows(d)) == len(files), message="not every file is listed")
            for game, row in sorted(rows(browser).items()):
                result = step_through(browser, f"{view.url}/game/{row['id']}")
                assert "REGULAR" in result or "DISQUALIFIED" in result or "LEFT" in result, (game, result)
                assert "1" in result, (game, result)
        with trio.fail_after(240):
            await trio.to_thread.run_sync(check)
    finally:
        view.close()


async def test_a_link_names_the_step_and_the_start_page_filters_and_takes_files(nursery, browser, tmp_path):
    roborally = unpacked_roborally_log(tmp_path)
    view = await trio.to_thread.run_sync(lambda: ViewProcess(REFERENCE_REVERSIXT))
    try:
        def check():
            browser.get(view.url + "/")
            wait(browser, lambda d: len(rows(d)) == 1)
            browser.find_element(By.ID, "upload").send_keys(str(roborally))  # as a user picks a file
            wait(browser, lambda d: "/game/g2" in d.current_url, message="the upload did not open its game")
            wait(browser, lambda d: d.find_element(By.ID, "title").text.startswith("Robo Rally"))
            browser.get(view.url + "/")
            wait(browser, lambda d: len(rows(d)) == 2)
            Select(browser.find_element(By.ID, "filter")).select_by_value("roborally")
            wait(browser, lambda d: list(rows(d)) == ["roborally"], message="the filter does not filter")
            assert "game=roborally" in browser.current_url
            browser.get(view.url + "/game/g1?step=7")
            wait(browser, lambda d: d.find_element(By.ID, "board").get_attribute("data-step") == "7")
            assert counter(browser)[0] == 8
            assert browser.find_element(By.ID, "step-label").text == "move 6"
            time.sleep(0.3)
            assert counter(browser)[0] == 8  # a finished game stays where the link points
        await trio.to_thread.run_sync(check)
    finally:
        view.close()
