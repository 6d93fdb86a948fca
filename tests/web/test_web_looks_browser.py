"""The viewer looks like the game (issue 41), in a real browser (Debian's headless Chromium): the
board fills the room beside the panel (Blokus' cells larger than the official GUI's), the Mississippi
Queen ship is previewed while a move is built, a click that is no legal step says so, Robo Rally's
old prompts are not listed, the start page keeps its rows while live games change (a link never
vanishes under the pointer), ``swc view course.db`` links its tournament on the start page, and
"play from here" asks no passphrase on loopback of a server without one of its own."""

from __future__ import annotations

import json

import pytest
import trio
from selenium.webdriver.common.by import By

from tests.web_helpers import ViewerThread, call_json, chrome, wait_page, wait_seat

wait = wait_page


@pytest.fixture(scope="module")
def viewer():
    viewer = ViewerThread(password=None)  # a server without a passphrase of its own, on loopback
    yield viewer
    viewer.close()


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    driver = chrome(tmp_path_factory.mktemp("chromium"))
    driver.set_page_load_timeout(30)
    driver.set_window_size(1200, 900)
    yield driver
    driver.quit()


def new_table(viewer, **body) -> dict:
    status, table = call_json(viewer.url + "/api/tables", json.dumps(body).encode())
    assert status == 200, table
    return table


def open_seat(driver, viewer, **body) -> tuple[dict, str]:
    table = new_table(viewer, seats=["you", "bot"], **body)
    driver.get(viewer.url + table["seats"][0]["url"])
    return table, viewer.url + "/api/seats/" + table["seats"][0]["seat"]


def test_the_blokus_board_fills_the_room_beside_the_panel_with_cells_larger_than_the_official_guis(viewer, driver):
    open_seat(driver, viewer, game="blokus")
    wait_seat(driver, 60, "no turn offered")
    sizes = driver.execute_script("""
        const board = document.querySelector('#board svg').getBoundingClientRect();
        return {board: [board.width, board.height], window: [innerWidth, innerHeight],
                cell: 24 * document.querySelector('#board svg').getScreenCTM().a};""")  # the view's cell: 24 units
    cell = sizes["cell"]
    assert cell >= 26, f"a Blokus cell is {cell:.1f} px"  # the official GUI's 20 x 20 board: ~20 px cells
    assert sizes["board"][0] >= 0.6 * sizes["window"][0]  # the board column, not a fixed 720 px
    assert sizes["board"][1] >= 0.8 * sizes["window"][1]  # as high as the window lets it be


def test_a_click_that_is_no_legal_step_says_so(viewer, driver):
    open_seat(driver, viewer, game="swc_2026_piranhas")
    wait_seat(driver, 60, "no turn offered")
    framed = set(driver.execute_script(
        "return [...document.querySelectorAll('#board g.seat-targets rect')].map(r => r.dataset.cell);"))
    cell = driver.execute_script("""
        const framed = new Set(arguments[0]);
        return [...document.querySelectorAll('#board svg [data-cell]')].map(e => e.dataset.cell)
               .find(c => !framed.has(c) && c.split(',').every(v => Number(v) >= 3 && Number(v) <= 6));""", list(framed))
    driver.find_element(By.CSS_SELECTOR, f'#board svg [data-cell="{cell}"]').click()
    hint = driver.find_element(By.ID, "hint")
    assert f"Field {cell} is no legal step now" in hint.text and "framed fields" in hint.text
    assert "refused" in hint.get_attribute("class")


def test_the_mississippi_queen_ship_is_previewed_while_a_move_is_built(viewer, driver):
    table, api = open_seat(driver, viewer, game="swc_2024_mississippi_queen")
    wait_seat(driver, 60, "no turn offered")
    moves = call_json(api)[1]["moves"]
    move = next(m for m in moves if len(m["steps"]) >= 3 and m["steps"][1]["choice"].startswith("advance"))
    for depth, step in enumerate(move["steps"][:2]):
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#choices button.choice[data-choice="{step["choice"]}"]'))
        driver.find_element(By.CSS_SELECTOR, f'#choices button.choice[data-choice="{step["choice"]}"]').click()
        ship = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board g.seat-ship"), message="no ship drawn")[0]
        assert (ship.get_attribute("data-cell"), ship.get_attribute("data-heading")) == (
            step["ship"]["cell"], step["ship"]["heading"]), f"after step {depth}"
    assert call_json(api)[1]["your_turn"]  # a preview only: nothing was sent


def test_robo_rally_lists_what_happened_but_no_old_prompt(viewer, driver):
    table, api = open_seat(driver, viewer, game="roborally", course="Dizzy Highway", robots=2)
    wait(driver, lambda d: d.find_element(By.ID, "board").get_attribute("data-version"))
    shown = driver.execute_script("""
        const data = Object.assign({}, seat, {notes: ['your robot reboots: pick its direction', 'damage: SPAM',
                                                      'your robot reboots: pick its direction', 'checkpoint 1 reached']});
        show(data);
        return [...document.querySelectorAll('#notes li')].map(li => li.textContent);""")
    assert shown == ["damage: SPAM", "checkpoint 1 reached"]


def test_the_start_page_keeps_a_games_row_and_link_while_the_game_goes_on(viewer, driver):
    table = new_table(viewer, game="swc_2026_piranhas", seats=["bot", "bot"], start=0.3)
    driver.get(viewer.url + "/")
    row = f'#games tbody tr[data-id="{table["game_id"]}"]'
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, row + " a"))
    first = driver.execute_script(f"window.kept = document.querySelector('{row} a');"
                                  f"return document.querySelector('{row} td.progress').textContent;")
    wait(driver, lambda d: d.execute_script(f"return document.querySelector('{row} td.progress').textContent") != first,
         60, "the list showed no newer turn")
    assert driver.execute_script(f"return document.contains(window.kept) && window.kept === document.querySelector('{row} a');")


def test_play_from_here_asks_no_passphrase_on_loopback_of_a_server_without_one(viewer, driver):
    table = new_table(viewer, game="swc_2026_piranhas", seats=["bot", "bot"], start="paused")
    driver.get(f"{viewer.url}/game/{table['game_id']}")
    wait(driver, lambda d: d.find_element(By.ID, "counter").text.endswith("of 1"))  # the bots came: a first state
    wait(driver, lambda d: d.find_element(By.ID, "play-from").is_displayed())
    assert not driver.find_element(By.ID, "passphrase").is_displayed()
    driver.find_element(By.CSS_SELECTOR, "#play-form button").click()
    shown = wait(driver, lambda d: d.find_element(By.ID, "play-result").text, message="nothing prepared")
    assert "reservation codes" in shown, shown


def test_swc_view_of_a_tournament_database_links_its_run_page_on_the_start_page(tmp_path, driver):
    from swc_local.tools.tournament.core import Settings, Tournament
    from swc_local.tools.tournament.executors import play_locally
    from tests.tools.test_tournament_page import TournamentView
    from tests.tournament_fakes import fake_play_games

    tournament = Tournament.open(Settings(game="swc_2019_piranhas", bots=[("strong3", "x"), ("weak1", "x")],
                                          games_per_pairing=4, seed=2), tmp_path / "course.db", resume=False)
    trio.run(lambda: play_locally(tournament, 1, play_games=fake_play_games()))
    tournament.db.close()
    view = TournamentView(tmp_path / "course.db")
    try:
        driver.get(view.url + "/")
        link = wait(driver, lambda d: [a for a in d.find_elements(By.CSS_SELECTOR, "#tournaments a") if a.is_displayed()],
                    message="no tournament on the start page")[0]
        assert link.get_attribute("href") == view.page and link.text == "course.db"
        assert not driver.find_element(By.ID, "empty").is_displayed()  # not "No games yet"
    finally:
        view.close()
