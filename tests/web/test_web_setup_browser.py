"""Setting a table up and steering it, in a real browser (Debian's headless Chromium), as issue 41
lists it: the other person's link and an open seat's code stay on the start page until copied; a
bot game started from the page is linked at once and can start paused or at a pace; a paused room
is paused on the seat page as on the game page, and a Step moves one move on both alike; Cancel
asks first and the game reads as cancelled in the page, the API and the replay.  One server and
one Chromium serve the module; each test is a new table, so a new room."""

from __future__ import annotations

import json

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.web_helpers import ViewerThread, call_json, chrome, click_a_move, swc_replay, wait_page, wait_seat

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


def new_table(viewer, **body) -> dict:
    status, table = call_json(viewer.url + "/api/tables", json.dumps(body).encode())
    assert status == 200, table
    return table


def game_json(viewer, game_id: str) -> dict:
    return call_json(f"{viewer.url}/api/games/{game_id}")[1]


def room_of(viewer, table: dict):
    return viewer.server.door("xml").lobby.rooms.get(table["room"])


def open_play_form(driver, viewer, game: str, first: str, second: str, start: str = "now") -> None:
    driver.get(viewer.url + "/")
    driver.find_element(By.CSS_SELECTOR, "#play-table summary").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#table-game option"))
    Select(driver.find_element(By.ID, "table-game")).select_by_value(game)
    Select(driver.find_element(By.ID, "seat-0")).select_by_value(first)
    Select(driver.find_element(By.ID, "seat-1")).select_by_value(second)
    Select(driver.find_element(By.ID, "table-pace")).select_by_value(start)
    driver.find_element(By.ID, "table-start").click()


def text(driver, element_id: str) -> str:
    return driver.find_element(By.ID, element_id).text


@pytest.mark.parametrize("other, shown", [("person", "a.seat-link.person"), ("open", "code.reservation")])
def test_the_other_players_link_or_code_stays_shown_until_copied(viewer, driver, other, shown):
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": viewer.url, "permissions": ["clipboardReadWrite",
                                                                                            "clipboardSanitizedWrite"]})
    open_play_form(driver, viewer, "swc_2026_piranhas", "you", other)
    share = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#table-result " + shown), message="nothing to share")[0]
    value = share.text
    copy = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#table-result button.copy"), message="no Copy")[0]
    assert "/seat/" not in driver.current_url  # still on the start page, the link or code in view
    assert driver.find_element(By.CSS_SELECTOR, "#table-result a.game-link").get_attribute("href").split("/game/")[1]
    if other == "person":  # the second person's seat is a real one
        assert call_json(viewer.url + "/api/seats/" + value.rsplit("/", 1)[1])[1]["color"] == "TWO"
    else:  # a reservation of the room, for a bot started by hand
        assert value in viewer.server.door("xml").lobby.reservations
    copy.click()
    wait(driver, lambda d: "/seat/" in d.current_url, message="copying did not lead on to your seat")
    assert driver.execute_script("return navigator.clipboard.readText()") == value


def test_a_bot_game_started_paused_is_linked_at_once_and_each_step_is_one_move(viewer, driver):
    open_play_form(driver, viewer, "swc_2026_piranhas", "bot", "bot", "paused")
    link = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#table-result a.game-link"), message="no game link")[0]
    game_id = link.get_attribute("href").rsplit("/", 1)[1]
    link.click()
    wait(driver, lambda d: text(d, "status") == "paused", message="the game did not start paused")
    record = viewer.server.door("web").context.book.get(game_id)
    for count in (2, 3):
        wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, '#control-form button[data-action="step"]').is_displayed())
        driver.find_element(By.CSS_SELECTOR, '#control-form button[data-action="step"]').click()
        wait(driver, lambda d: text(d, "counter").endswith(f"of {count}"), message=f"no state {count} after a step")
        wait(driver, lambda d: record.room.pending is None)  # the room waits for the next step: no move can come
        assert record.count() == count and text(driver, "status") == "paused"


def test_a_bot_game_at_a_pace_runs_slowly_and_pause_stops_it(viewer, driver):
    table = new_table(viewer, game="swc_2026_piranhas", seats=["bot", "bot"], start=1)
    driver.get(f"{viewer.url}/game/{table['game_id']}")
    wait(driver, lambda d: text(d, "status") == "running")
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, '#control-form button[data-action="pause"]').is_displayed())
    record = viewer.server.door("web").context.book.get(table["game_id"])
    wait(driver, lambda d: record.count() >= 2, message="the pace made no move")
    driver.find_element(By.CSS_SELECTOR, '#control-form button[data-action="pause"]').click()
    wait(driver, lambda d: text(d, "status") == "paused")
    assert record.pace is None and record.status() == "paused"
    driver.find_element(By.CSS_SELECTOR, '#control-form button[data-action="unpause"]').click()
    wait(driver, lambda d: text(d, "status") == "finished", 120, "unpaused, the game did not run to its end")
    assert record.count() > 3
    assert call_json(viewer.url + "/api/tables", json.dumps({"game": "swc_2026_piranhas", "seats": ["bot", "bot"],
                                                             "start": "slowly"}).encode())[0] == 400


def test_a_paused_room_is_paused_on_the_seat_page_and_a_step_moves_both_pages_alike(viewer, driver):
    table = new_table(viewer, game="swc_2026_piranhas", seats=["you", "bot"], names=["Alice", "Robot"], start="paused")
    seat_url, api = viewer.url + table["seats"][0]["url"], viewer.url + "/api/seats/" + table["seats"][0]["seat"]
    driver.get(seat_url)
    seat_tab = driver.current_window_handle
    driver.switch_to.new_window("tab")
    driver.get(f"{viewer.url}/game/{table['game_id']}")
    game_tab = driver.current_window_handle

    def both(to_move_seat: str, to_move_game: str, states: int) -> None:
        driver.switch_to.window(game_tab)
        wait(driver, lambda d: text(d, "counter").endswith(f"of {states}") and text(d, "to-move") == to_move_game,
             message=f"game page: not {to_move_game} to move at state {states}")
        assert text(driver, "status") == "paused"
        driver.switch_to.window(seat_tab)
        wait(driver, lambda d: text(d, "to-move") == to_move_seat and text(d, "status") == "paused",
             message=f"seat page: not paused with {to_move_seat} to move")
        assert driver.find_element(By.ID, "paused-note").is_displayed()

    def step() -> None:
        driver.switch_to.window(game_tab)
        button = wait(driver, lambda d: [b for b in d.find_elements(By.CSS_SELECTOR, '#control-form button[data-action="step"]')
                                         if b.is_displayed()])[0]
        button.click()

    try:
        both("ONE", "Alice", 1)  # paused before the first move: nobody was asked yet
        step()
        driver.switch_to.window(seat_tab)
        wait_seat(driver, 60, "the step did not give the person the move")
        click_a_move(driver, api)
        both("TWO", "Robot", 2)  # the person moved: the room waits for a step to ask the bot
        step()
        both("ONE", "Alice", 3)  # one step, one move of the bot, on both pages
        status, _ = call_json(f"{viewer.url}/api/games/{table['game_id']}/control", b'{"action": "cancel"}')
        assert status == 200
        driver.switch_to.window(seat_tab)  # the person's page says how the game ended
        wait(driver, lambda d: text(d, "status") == "cancelled", message="the seat page does not say cancelled")
    finally:
        driver.switch_to.window(game_tab)
        driver.close()
        driver.switch_to.window(seat_tab)


def test_cancel_asks_first_and_the_game_reads_as_cancelled_in_page_api_and_replay(viewer, driver):
    table = new_table(viewer, game="swc_2026_piranhas", seats=["bot", "bot"], names=["Ann", "Ben"], start="paused")
    game_id = table["game_id"]
    driver.get(f"{viewer.url}/game/{game_id}")
    wait(driver, lambda d: text(d, "status") == "paused")
    cancel = driver.find_element(By.CSS_SELECTOR, '#control-form button[data-action="cancel"]')
    cancel.click()
    wait(driver, lambda d: d.find_element(By.ID, "cancel-confirm").is_displayed())
    driver.find_element(By.ID, "cancel-no").click()  # not yet: nothing happens
    assert not driver.find_element(By.ID, "cancel-confirm").is_displayed()
    assert room_of(viewer, table) is not None and game_json(viewer, game_id)["status"] == "paused"
    cancel.click()
    wait(driver, lambda d: d.find_element(By.ID, "cancel-yes").is_displayed())
    driver.find_element(By.ID, "cancel-yes").click()
    wait(driver, lambda d: text(d, "status") == "cancelled", message="the page does not say cancelled")
    rows = driver.execute_script(
        "return [...document.querySelectorAll('#result tbody tr')].map(r => [...r.cells].map(c => c.textContent));")
    assert [(r[0], r[3], r[5]) for r in rows] == [("-", "CANCELLED", "cancelled from the viewer")] * 2
    result = game_json(viewer, game_id)["result"]
    assert [(r["rank"], r["cause"], r["reason"]) for r in result] == [(None, "CANCELLED", "cancelled from the viewer")] * 2
    path = viewer.server.door("xml").replay_writer.paths[table["room"]]
    assert b'cancelled="cancelled from the viewer"' in path.read_bytes()[:1000]
    assert "cancelled: cancelled from the viewer" in swc_replay(path)


def test_a_bot_seat_offers_the_games_rungs_and_starts_the_one_chosen(viewer, driver):
    """Issue 45: a rung as opponent for a person's seat, in the XML form and in the other families'."""
    from swc_local.client import ladder
    from swc_local.games import registry

    tables = viewer.server.door("web").context.tables
    driver.get(viewer.url + "/")
    driver.find_element(By.CSS_SELECTOR, "#play-table summary").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#table-game option"))
    Select(driver.find_element(By.ID, "table-game")).select_by_value("swc_2023_penguins")
    rung = Select(driver.find_element(By.ID, "strength-1"))
    assert [o.get_attribute("value") for o in rung.options] == list(ladder.rungs(registry.entry("penguins")))
    assert not driver.find_element(By.ID, "strength-0").is_displayed()  # the person's seat has no rung
    rung.select_by_value("search-short")
    before = set(tables.tables)
    driver.find_element(By.ID, "table-start").click()
    wait(driver, lambda d: "/seat/" in d.current_url, message="Play did not open the seat")
    (new,) = set(tables.tables) - before
    assert tables.tables[new].commands[0][-2:] == ["--strategy", "search-short"]

    driver.get(viewer.url + "/")
    driver.find_element(By.CSS_SELECTOR, "#play-table summary").click()
    wait(driver, lambda d: d.find_element(By.ID, "family-form").is_displayed())
    Select(driver.find_element(By.ID, "family-game")).select_by_value("reversixt")
    Select(driver.find_element(By.ID, "family-map")).select_by_value("classic_2p")
    assert not driver.find_element(By.ID, "family-rung-0").is_displayed()
    family_rung = Select(driver.find_element(By.ID, "family-rung-1"))
    assert [o.get_attribute("value") for o in family_rung.options] == list(ladder.rungs(registry.entry("reversixt")))
    assert family_rung.first_selected_option.get_attribute("value") == "greedy"  # the reference bot's own rung
    family_rung.select_by_value("random")
    before = set(tables.tables)
    driver.find_element(By.ID, "family-start").click()
    wait(driver, lambda d: set(tables.tables) - before, message="no ReversiXT table")
    (new,) = set(tables.tables) - before
    wait(driver, lambda d: tables.tables[new].commands, message="the bot did not start")
    assert "--strategy random --host" in " ".join(tables.tables[new].commands[0])
