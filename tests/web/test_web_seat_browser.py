"""People at the table in a real browser (Debian's headless Chromium through selenium).

A person plays a whole Piranhas 2019 game by clicking fish and targets against the reference bot,
and the page ends on the result ``swc replay`` prints of the written replay; only legal moves are
framed; a move the server rejects (sent through the API with a forged body) shows the server's
own error; two persons in two browser sessions play Piranhas 2026 against each other.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import trio
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from swc_local.games import registry
from swc_local.games.piranhas.rules import Direction, Move

from tests.web_helpers import chrome, http, start_viewer_server


def wait(driver, condition, timeout=60, message=""):
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: condition(d), message)


def framed(driver, kind: str) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#board rect.seat-' + arguments[0])].map(r => r.dataset.cell);", kind)


def click_cell(driver, kind: str, cell: str) -> None:
    driver.find_element(By.CSS_SELECTOR, f'#board rect.seat-{kind}[data-cell="{cell}"]').click()


def my_turn_or_over(driver) -> str | None:
    board = driver.find_element(By.ID, "board")
    if driver.find_element(By.ID, "result-box").is_displayed():
        return "over"
    return "turn" if board.get_attribute("data-your-turn") == "1" and framed(driver, "from") else None


def seat_api(url: str) -> dict:
    import json
    import urllib.request

    with urllib.request.urlopen(url, timeout=20) as response:
        return json.loads(response.read())


def play_one_turn(driver, api: str) -> None:
    """Pick a fish, then its target, by clicking framed cells; only legal ones are framed."""
    moves = seat_api(api)["moves"]
    legal_from = {m["cells"][0] for m in moves}
    shown_from = framed(driver, "from")
    assert set(shown_from) == legal_from, "the page frames exactly the fish that can move"
    version = driver.find_element(By.ID, "board").get_attribute("data-version")
    fish = sorted(shown_from)[len(shown_from) // 2]
    click_cell(driver, "from", fish)
    targets = framed(driver, "to")
    assert set(targets) == {m["cells"][1] for m in moves if m["cells"][0] == fish}
    click_cell(driver, "to", sorted(targets)[0])
    wait(driver, lambda d: d.find_element(By.ID, "board").get_attribute("data-version") != version)


def replay_result(path: Path) -> list[tuple[str, str, list[str]]]:
    swc = Path(sys.executable).parent / "swc"
    out = subprocess.run([str(swc), "replay", str(path)], capture_output=True, text=True, check=True).stdout
    lines = out.split("result:")[1].strip().splitlines()
    rows = [re.match(r"(\w+)\s+(\w+) \[([^\]]*)\]", line.strip()) for line in lines[:2]]
    return [(m.group(1).upper(), m.group(2), m.group(3).split()) for m in rows]


def page_result(driver) -> list[tuple[str, str, list[str]]]:
    rows = driver.execute_script(
        "return [...document.querySelectorAll('#result tbody tr')].map(r => [...r.cells].map(c => c.textContent));")
    return [(r[1], r[3], r[4].split(" / ")) for r in rows]


async def test_a_person_plays_piranhas_by_clicking_against_the_reference_bot(nursery, tmp_path):
    server = await start_viewer_server(nursery, save_replay=True, replay_dir=str(tmp_path / "replays"))
    url = server.door("web").url
    driver = chrome(tmp_path)
    driver.set_page_load_timeout(30)

    def play() -> list:
        driver.get(url + "/")
        driver.find_element(By.CSS_SELECTOR, "#play-table summary").click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#table-game option"))
        Select(driver.find_element(By.ID, "table-game")).select_by_value("swc_2019_piranhas")
        assert Select(driver.find_element(By.ID, "seat-0")).first_selected_option.get_attribute("value") == "you"
        assert Select(driver.find_element(By.ID, "seat-1")).first_selected_option.get_attribute("value") == "bot"
        driver.find_element(By.ID, "table-start").click()
        wait(driver, lambda d: "/seat/" in d.current_url, message="Play did not open the seat")
        api = url + "/api/seats/" + driver.current_url.rsplit("/", 1)[1]
        assert driver.find_element(By.ID, "color").text == "red"
        turns = 0
        while wait(driver, my_turn_or_over, message="neither my turn nor the end") == "turn":
            assert "no deadline" in driver.find_element(By.ID, "clock").text
            play_one_turn(driver, api)
            turns += 1
        assert turns >= 2
        assert driver.find_element(By.ID, "error").is_displayed() is False
        return page_result(driver)

    try:
        with trio.fail_after(400):
            shown = await trio.to_thread.run_sync(play)
    finally:
        driver.quit()
    paths = list(server.door("xml").replay_writer.paths.values())
    assert len(paths) == 1
    printed = await trio.to_thread.run_sync(replay_result, paths[0])
    assert shown == printed
    assert [cause for _, cause, _ in shown] == ["REGULAR", "REGULAR"]


async def test_a_move_the_server_rejects_shows_the_servers_error(nursery, tmp_path):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    status, table = await http(url + "/api/tables", data=b'{"game": "piranhas", "seats": ["you", "bot"]}')
    assert status == 200, table
    seat = table["seats"][0]
    driver = chrome(tmp_path)
    plugin = registry.get("swc_2019_piranhas")
    forged = plugin.move_element(Move(0, 0, Direction.UP)).render(0).encode()  # a corner: never a fish at the start

    def look() -> str:
        driver.get(url + seat["url"])
        wait(driver, lambda d: d.find_element(By.ID, "board").get_attribute("data-your-turn") == "1")
        return driver.find_element(By.ID, "board").get_attribute("data-version")

    try:
        await trio.to_thread.run_sync(look)
        status, data = await http(url + "/api/seats/" + seat["seat"] + "/move", data=forged)
        assert status == 200 and data["error"], data
        error = data["error"]
        text = await trio.to_thread.run_sync(lambda: wait(
            driver, lambda d: d.find_element(By.ID, "error").is_displayed() and d.find_element(By.ID, "error").text))
        assert text == "The server says: " + error
        assert error == "Ungueltiger Zug von 'you'.\nField does not belong to the current player"  # the referee's words
        assert await trio.to_thread.run_sync(lambda: wait(driver, lambda d: d.find_element(By.ID, "result-box").is_displayed()))
        causes = await trio.to_thread.run_sync(lambda: [c for _, c, _ in page_result(driver)])
        assert causes[0] == "RULE_VIOLATION", causes
    finally:
        driver.quit()


async def test_two_persons_play_piranhas_2026_in_two_browsers(nursery, tmp_path):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    status, table = await http(url + "/api/tables", data=b'{"game": "piranhas_2026", "seats": ["you", "person"]}')
    assert status == 200, table
    first, second = table["seats"]
    assert first["kind"] == "you" and second["kind"] == "person" and first["url"] != second["url"]
    drivers = [chrome(tmp_path / "one"), chrome(tmp_path / "two")]

    def play() -> None:
        for driver, seat in zip(drivers, (first, second)):
            driver.get(url + seat["url"])
        for ply in range(6):
            driver, seat = drivers[ply % 2], (first, second)[ply % 2]
            other = drivers[(ply + 1) % 2]
            assert wait(driver, my_turn_or_over) == "turn"
            assert other.find_element(By.ID, "board").get_attribute("data-your-turn") == "0"
            assert not framed(other, "from"), "the waiting person is offered nothing"
            play_one_turn(driver, url + "/api/seats/" + seat["seat"])
        wait(drivers[0], lambda d: d.find_element(By.ID, "turn").text == "turn 6")
        wait(drivers[1], lambda d: d.find_element(By.ID, "turn").text == "turn 6")
        assert drivers[0].find_element(By.ID, "last-move").text == drivers[1].find_element(By.ID, "last-move").text

    try:
        with trio.fail_after(200):
            await trio.to_thread.run_sync(play)
    finally:
        for driver in drivers:
            driver.quit()


async def test_ostseeschach_is_played_by_clicking_a_piece_then_its_target(nursery, tmp_path):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    status, table = await http(url + "/api/tables", data=b'{"game": "ostseeschach", "seats": ["bot", "you"]}')
    assert status == 200, table
    seat = table["seats"][1]
    driver = chrome(tmp_path)

    def play() -> None:
        driver.get(url + seat["url"])
        for _ in range(3):
            assert wait(driver, my_turn_or_over) == "turn"
            play_one_turn(driver, url + "/api/seats/" + seat["seat"])
        assert driver.find_element(By.ID, "color").text == "TWO"
        assert not driver.find_element(By.ID, "error").is_displayed()

    try:
        with trio.fail_after(120):
            await trio.to_thread.run_sync(play)
    finally:
        driver.quit()


async def test_a_game_without_pointing_offers_its_legal_moves_as_a_list(nursery, tmp_path):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    status, table = await http(url + "/api/tables", data=b'{"game": "hase_und_igel", "seats": ["you", "bot"]}')
    assert status == 200, table
    seat = table["seats"][0]
    driver = chrome(tmp_path)

    def play() -> None:
        driver.get(url + seat["url"])
        for _ in range(3):
            if wait(driver, my_turn_or_list) == "over":
                break
            moves = seat_api(url + "/api/seats/" + seat["seat"])["moves"]
            buttons = driver.find_elements(By.CSS_SELECTOR, "#moves button.move")
            assert [b.text for b in buttons] == [m["text"] for m in moves]  # exactly the legal moves
            assert not framed(driver, "from")
            version = driver.find_element(By.ID, "board").get_attribute("data-version")
            turn = driver.find_element(By.ID, "turn").text
            buttons[-1].click()
            wait(driver, lambda d: d.find_element(By.ID, "board").get_attribute("data-version") != version
                 and d.find_element(By.ID, "turn").text != turn)
        assert not driver.find_element(By.ID, "error").is_displayed()

    try:
        with trio.fail_after(120):
            await trio.to_thread.run_sync(play)
    finally:
        driver.quit()


def my_turn_or_list(driver) -> str | None:
    if driver.find_element(By.ID, "result-box").is_displayed():
        return "over"
    board = driver.find_element(By.ID, "board")
    return "turn" if board.get_attribute("data-your-turn") == "1" and driver.find_elements(By.CSS_SELECTOR, "#moves button.move") else None


async def test_the_start_page_joins_a_prepared_room_by_its_reservation_code(nursery, tmp_path):
    from swc_local.client.admin import Admin

    from tests.web_helpers import PASSWORD

    server = await start_viewer_server(nursery)
    url = server.door("web").url
    async with await Admin.connect("127.0.0.1", server.door("xml").port, PASSWORD) as admin:
        prepared = await admin.prepare("ostseeschach", ["Alice", "Bob"], paused=False)
    driver = chrome(tmp_path)

    def join() -> str:
        driver.get(url + "/")
        driver.find_element(By.CSS_SELECTOR, "#play-table summary").click()
        driver.find_element(By.ID, "join-code").send_keys("not a code")
        driver.find_element(By.ID, "join-start").click()
        wait(driver, lambda d: d.find_element(By.ID, "table-result").text == "unknown reservation code")
        driver.find_element(By.ID, "join-code").clear()
        driver.find_element(By.ID, "join-code").send_keys(prepared.reservations[1])
        driver.find_element(By.ID, "join-start").click()
        wait(driver, lambda d: "/seat/" in d.current_url)
        wait(driver, lambda d: d.find_element(By.ID, "color").text == "TWO")
        return driver.current_url

    try:
        await trio.to_thread.run_sync(join)
        room = server.door("xml").lobby.rooms[prepared.room_id]
        with trio.fail_after(10):
            while not room.slots[1].occupied:
                await trio.sleep(0.05)
    finally:
        driver.quit()
