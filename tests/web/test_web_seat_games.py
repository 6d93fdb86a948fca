"""A person plays a whole game of every XML game by pointing, in a real browser.

For each XML game a person's seat plays against the game's reference bot, every move chosen by
clicking what the page offers (board cells, then choices beside the board), checked at every
step against the seat's legal moves (:func:`tests.web_helpers.click_a_move`); the page ends on the
result that ``swc replay`` prints of the written replay.  One server and one Chromium serve the
whole module (a game's table is a new room), so the module costs the games, not start-ups.
"""

from __future__ import annotations

import random

import pytest
from selenium.webdriver.common.by import By

from tests.web_helpers import (
    ViewerThread, call_json, chrome, click_a_move, page_result, replay_result, seat_state, wait_page, wait_seat,
)

XML_GAMES = ["piranhas", "hase_und_igel", "ostseeschach", "piranhas_2026", "hase_und_igel_2025", "blokus",
             "penguins", "mississippi_queen", "blokus_2021", "hive"]


@pytest.fixture(scope="module")
def viewer(tmp_path_factory):
    folder = tmp_path_factory.mktemp("replays")
    viewer = ViewerThread(save_replay=True, replay_dir=str(folder))
    yield viewer
    viewer.close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = chrome(tmp_path_factory.mktemp("chromium"))
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


@pytest.mark.parametrize("game", XML_GAMES)
def test_a_person_plays_a_whole_game_by_pointing_against_the_reference_bot(viewer, browser, game):
    rng = random.Random(game)
    status, table = call_json(viewer.url + "/api/tables",
                              f'{{"game": "{game}", "seats": ["you", "bot"]}}'.encode())
    assert status == 200, table
    seat = table["seats"][0]
    api = viewer.url + "/api/seats/" + seat["seat"]
    browser.get(viewer.url + seat["url"])
    moves = 0
    while not (page := wait_seat(browser, 120, f"{game}: neither the person's turn nor the end"))["over"]:
        assert page["to_move"] == seat["color"]
        assert "no deadline" in page["clock"]
        click_a_move(browser, api, rng.choice)  # which also finds no error shown once the move is sent
        moves += 1
    assert moves >= 1
    shown = page_result(browser)
    path = viewer.server.door("xml").replay_writer.paths[table["room"]]
    assert shown == replay_result(path)
    assert "RULE_VIOLATION" not in {cause for _, cause, _ in shown}


def test_the_start_page_offers_the_ladders_rungs_of_the_chosen_game(viewer, browser):
    from selenium.webdriver.support.ui import Select

    browser.get(viewer.url + "/")
    browser.find_element(By.CSS_SELECTOR, "#play-table summary").click()
    wait_page(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#table-game option"))
    Select(browser.find_element(By.ID, "table-game")).select_by_value("swc_2019_piranhas")
    rungs = ["random", "greedy-25", "greedy-50", "greedy-75", "greedy", "search-short", "search-long"]  # its GREEDY_SHARES
    assert [o.get_attribute("value") for o in Select(browser.find_element(By.ID, "strength-1")).options] == rungs
    Select(browser.find_element(By.ID, "table-game")).select_by_value("swc_2027_blokus")
    strength = Select(browser.find_element(By.ID, "strength-1"))
    assert [o.get_attribute("value") for o in strength.options] == [
        "random", "greedy-45", "greedy-80", "greedy", "search-short", "search-long"]  # its own GREEDY_SHARES
    assert not browser.find_element(By.ID, "strength-0").is_displayed()  # the first seat is the person's
    strength.select_by_value("greedy")
    tables = viewer.server.door("web").context.tables
    before = set(tables.tables)
    browser.find_element(By.ID, "table-start").click()
    wait_page(browser, lambda d: "/seat/" in d.current_url, message="Play did not open the seat")
    (new,) = set(tables.tables) - before
    assert tables.tables[new].commands[0][-2:] == ["--strategy", "greedy"]
    wait_page(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#choices button.choice"))  # the person's turn


def _seat(viewer, browser, game: str) -> str:
    status, table = call_json(viewer.url + "/api/tables", f'{{"game": "{game}", "seats": ["you", "bot"]}}'.encode())
    assert status == 200, table
    browser.get(viewer.url + table["seats"][0]["url"])
    assert wait_page(browser, seat_state, 60) == "turn"
    return viewer.url + "/api/seats/" + table["seats"][0]["seat"]


def _click(browser, step: dict):
    if "cell" in step:
        return browser.find_element(By.CSS_SELECTOR, f'#board g.seat-targets rect[data-cell="{step["cell"]}"]')
    return browser.find_element(By.CSS_SELECTOR, f'#choices button.choice[data-choice="{step["choice"]}"]')


def test_a_blokus_anchor_previews_the_piece_where_it_would_lie(viewer, browser):
    from selenium.webdriver.common.action_chains import ActionChains

    api = _seat(viewer, browser, "blokus")
    moves = call_json(api)[1]["moves"]
    move = moves[len(moves) // 2]
    piece, orientation, anchor = move["steps"]
    assert len(_click(browser, piece).find_elements(By.CSS_SELECTOR, "svg.shape rect")) == len(anchor["preview"])
    _click(browser, piece).click()
    _click(browser, orientation).click()
    assert browser.find_element(By.ID, "chosen").text == f"chosen: {piece['choice']} \u2192 {orientation['choice']}"
    ActionChains(browser).move_to_element(_click(browser, anchor)).perform()
    shown = browser.execute_script("return [...document.querySelectorAll('#board rect.seat-preview')].map(r => r.dataset.cell)")
    assert sorted(shown) == sorted(anchor["preview"])
    browser.find_element(By.CSS_SELECTOR, "#choices button.back").click()  # back to the orientations
    assert browser.find_element(By.ID, "chosen").text == f"chosen: {piece['choice']}"
    assert not browser.execute_script("return document.querySelectorAll('#board rect.seat-preview').length")


def test_a_mississippi_queen_move_that_longer_ones_extend_is_sent_by_its_send_button(viewer, browser):
    api = _seat(viewer, browser, "mississippi_queen")
    moves = call_json(api)[1]["moves"]
    keys = [[s["choice"] for s in m["steps"]] for m in moves]
    short = next(m for m, k in zip(moves, keys) if any(len(o) > len(k) and o[:len(k)] == k for o in keys))
    version = browser.find_element(By.ID, "board").get_attribute("data-version")
    for step in short["steps"]:
        _click(browser, step).click()
    send = browser.find_element(By.CSS_SELECTOR, "#choices button.send")
    assert send.text == "send: " + short["text"]
    send.click()
    wait_page(browser, lambda d: d.find_element(By.ID, "board").get_attribute("data-version") != version)
    assert not browser.find_element(By.ID, "error").is_displayed()
