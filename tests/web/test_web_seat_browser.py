"""People at the table in a real browser (Debian's headless Chromium through selenium).

A person plays a whole Piranhas 2019 game by clicking fish and targets against the reference bot
from the start page, and the page ends on the result ``swc replay`` prints of the written replay;
only legal moves are framed; a move the server rejects (sent through the API with a forged body)
shows the server's own error; two persons in two browser sessions play Piranhas 2026 against each
other.  One server and one Chromium serve the module (each test is a new table, so a new room).
"""

from __future__ import annotations

import pytest
import trio
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from swc_local.games import registry
from swc_local.games.piranhas.rules import Direction, Move

from tests.web_helpers import (
    PASSWORD, ViewerThread, call_json, chrome, click_a_move, page_result, replay_result, seat_state, wait_page, wait_seat,
)

wait = wait_page


@pytest.fixture(scope="module")
def viewer(tmp_path_factory):
    viewer = ViewerThread(save_replay=True, replay_dir=str(tmp_path_factory.mktemp("replays")))
    yield viewer
    viewer.close()


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    driver = chrome(tmp_path_factory.mktemp("chromium"))
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def framed(driver, kind: str) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#board rect.seat-' + arguments[0])].map(r => r.dataset.cell);", kind)


def middle_fish(moves: list[dict]) -> dict:
    """A move of the middle one of the fish that can move (its first target)."""
    fish = sorted({m["cells"][0] for m in moves})
    return next(m for m in moves if m["cells"][0] == fish[len(fish) // 2])


def new_table(viewer, body: bytes) -> dict:
    status, table = call_json(viewer.url + "/api/tables", body)
    assert status == 200, table
    return table


def test_a_person_plays_piranhas_by_clicking_against_the_reference_bot(viewer, driver):
    driver.get(viewer.url + "/")
    driver.find_element(By.CSS_SELECTOR, "#play-table summary").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#table-game option"))
    Select(driver.find_element(By.ID, "table-game")).select_by_value("swc_2019_piranhas")
    assert Select(driver.find_element(By.ID, "seat-0")).first_selected_option.get_attribute("value") == "you"
    assert Select(driver.find_element(By.ID, "seat-1")).first_selected_option.get_attribute("value") == "bot"
    tables = viewer.server.door("web").context.tables
    before = set(tables.tables)
    driver.find_element(By.ID, "table-start").click()
    wait(driver, lambda d: "/seat/" in d.current_url, message="Play did not open the seat")
    api = viewer.url + "/api/seats/" + driver.current_url.rsplit("/", 1)[1]
    assert driver.find_element(By.ID, "color").text == "red"
    turns = 0
    while not (page := wait_seat(driver, 60, "neither my turn nor the end"))["over"]:
        assert "no deadline" in page["clock"]
        click_a_move(driver, api, middle_fish)
        turns += 1
    assert turns >= 2
    assert driver.find_element(By.ID, "error").is_displayed() is False
    (table,) = set(tables.tables) - before
    path = viewer.server.door("xml").replay_writer.paths[tables.tables[table].room_id]
    shown = page_result(driver)
    assert shown == replay_result(path)
    assert [cause for _, cause, _ in shown] == ["REGULAR", "REGULAR"]


def test_a_move_the_server_rejects_shows_the_servers_error(viewer, driver):
    seat = new_table(viewer, b'{"game": "piranhas", "seats": ["you", "bot"]}')["seats"][0]
    plugin = registry.get("swc_2019_piranhas")
    forged = plugin.move_element(Move(0, 0, Direction.UP)).render(0).encode()  # a corner: never a fish at the start
    driver.get(viewer.url + seat["url"])
    wait(driver, lambda d: d.find_element(By.ID, "board").get_attribute("data-your-turn") == "1")
    status, data = call_json(viewer.url + "/api/seats/" + seat["seat"] + "/move", forged)
    assert status == 200 and data["error"], data
    error = data["error"]
    text = wait(driver, lambda d: d.find_element(By.ID, "error").is_displayed() and d.find_element(By.ID, "error").text)
    assert text == "The server says: " + error
    assert error == "Ungueltiger Zug von 'you'.\nField does not belong to the current player"  # the referee's words
    assert wait(driver, lambda d: d.find_element(By.ID, "result-box").is_displayed())
    assert [c for _, c, _ in page_result(driver)][0] == "RULE_VIOLATION"


def test_two_persons_play_piranhas_2026_in_two_browsers(viewer, driver, tmp_path):
    first, second = new_table(viewer, b'{"game": "piranhas_2026", "seats": ["you", "person"]}')["seats"]
    assert first["kind"] == "you" and second["kind"] == "person" and first["url"] != second["url"]
    drivers = [driver, chrome(tmp_path / "two")]
    try:
        for each, seat in zip(drivers, (first, second)):
            each.get(viewer.url + seat["url"])
        for ply in range(6):
            mover, seat, other = drivers[ply % 2], (first, second)[ply % 2], drivers[(ply + 1) % 2]
            assert wait(mover, seat_state) == "turn"
            assert other.find_element(By.ID, "board").get_attribute("data-your-turn") == "0"
            assert not framed(other, "from"), "the waiting person is offered nothing"
            click_a_move(mover, viewer.url + "/api/seats/" + seat["seat"], middle_fish)
        for each in drivers:
            wait(each, lambda d: d.find_element(By.ID, "turn").text == "turn 6")
        assert drivers[0].find_element(By.ID, "last-move").text == drivers[1].find_element(By.ID, "last-move").text
    finally:
        drivers[1].quit()


def test_ostseeschach_is_played_by_clicking_a_piece_then_its_target(viewer, driver):
    seat = new_table(viewer, b'{"game": "ostseeschach", "seats": ["bot", "you"]}')["seats"][1]
    driver.get(viewer.url + seat["url"])
    for _ in range(3):
        assert wait(driver, seat_state) == "turn"
        move = click_a_move(driver, viewer.url + "/api/seats/" + seat["seat"], middle_fish)
        assert [s["cell"] for s in move["steps"]] == move["cells"]  # the piece, then its target
    assert driver.find_element(By.ID, "color").text == "TWO"
    assert not driver.find_element(By.ID, "error").is_displayed()


def test_the_full_list_of_legal_moves_stays_one_click_away(viewer, driver):
    seat = new_table(viewer, b'{"game": "hase_und_igel", "seats": ["you", "bot"]}')["seats"][0]
    driver.get(viewer.url + seat["url"])
    for _ in range(3):
        if wait(driver, seat_state) == "over":
            break
        moves = call_json(viewer.url + "/api/seats/" + seat["seat"])[1]["moves"]
        assert driver.find_element(By.ID, "moves-box").get_attribute("open") is None  # folded: pointing first
        driver.find_element(By.CSS_SELECTOR, "#moves-box summary").click()
        buttons = driver.find_elements(By.CSS_SELECTOR, "#moves button.move")
        assert [b.text for b in buttons] == [m["text"] for m in moves]  # exactly the legal moves
        version = driver.find_element(By.ID, "board").get_attribute("data-version")
        turn = driver.find_element(By.ID, "turn").text
        buttons[-1].click()
        wait(driver, lambda d: d.find_element(By.ID, "board").get_attribute("data-version") != version
             and d.find_element(By.ID, "turn").text != turn)
    assert not driver.find_element(By.ID, "error").is_displayed()


def test_the_start_page_joins_a_prepared_room_by_its_reservation_code(viewer, driver):
    from swc_local.client.admin import Admin

    async def prepare():
        async with await Admin.connect("127.0.0.1", viewer.server.door("xml").port, PASSWORD) as admin:
            return await admin.prepare("ostseeschach", ["Alice", "Bob"], paused=False)

    prepared = trio.run(prepare)
    driver.get(viewer.url + "/")
    driver.find_element(By.CSS_SELECTOR, "#play-table summary").click()
    driver.find_element(By.ID, "join-code").send_keys("not a code")
    driver.find_element(By.ID, "join-start").click()
    wait(driver, lambda d: d.find_element(By.ID, "table-result").text == "unknown reservation code")
    driver.find_element(By.ID, "join-code").clear()
    driver.find_element(By.ID, "join-code").send_keys(prepared.reservations[1])
    driver.find_element(By.ID, "join-start").click()
    wait(driver, lambda d: "/seat/" in d.current_url)
    wait(driver, lambda d: d.find_element(By.ID, "color").text == "TWO")
    room = viewer.server.door("xml").lobby.rooms[prepared.room_id]
    wait(driver, lambda d: room.slots[1].occupied, 10)
