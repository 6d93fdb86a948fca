"""What the viewer's pages got wrong, each as a new user met it.

Nameless players told apart by seat, the result at the last step only, the step counter, icons
that need no font, a way back from an unknown game, long names that stay in the board's
header, no "play from here" where no server can prepare a room (``swc view``), a Robo Rally
log whose winner is not shown as having left, and a paused room shown as paused.
"""

from __future__ import annotations

import gzip
import json
import re

import pytest
import trio
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from swc_local.client.admin import Admin
from swc_local.client.bot import play_game
from swc_local.client.client import Client
from swc_local.client.messages import MoveRequest
from swc_local.games import registry
from swc_local.games.svg import header
from swc_local.server.roborally.records import read_game_log

from tests.web_helpers import (OFFICIAL_PIRANHAS, PASSWORD, ROBORALLY_LOG_GZ, ViewProcess, chrome, http,
                          start_viewer_server)


def roborally_log_lines() -> list[str]:
    return gzip.decompress(ROBORALLY_LOG_GZ.read_bytes()).decode().splitlines()


def test_the_winner_of_a_robo_rally_log_is_regular_though_every_client_closes_after_the_end():
    lines = roborally_log_lines()  # as swc match roborally --replays writes it: two disconnects after GameFinished
    assert "GameFinished" in lines[-3] and all("ConnectionUpdate" in line for line in lines[-2:])
    rows = {row.seat: row for row in read_game_log("\n".join(lines), "death_trap.jsonl").result()}
    assert (rows["2"].rank, rows["2"].cause, rows["2"].reason) == (1, "REGULAR", "wins")
    assert (rows["1"].rank, rows["1"].cause) == (2, "REGULAR")


def test_a_robo_rally_player_who_left_before_the_end_is_still_shown_as_left():
    lines = roborally_log_lines()
    finished, closes = lines[-3], lines[-2:]
    left = json.loads(closes[0])  # client 1 goes before the end this time
    lines = [*lines[:-3], json.dumps(left), finished, closes[1]]
    rows = {row.seat: row for row in read_game_log("\n".join(lines), "death_trap.jsonl").result()}
    assert rows["1"].cause == "LEFT" and rows["2"].cause == "REGULAR"


def test_a_long_name_is_cut_to_fit_the_board_header_and_escaped():
    name = "<Bot>" + "x" * 300
    svg = header(400, [("#c00", name), ("#00c", "Bob")], [("turn 3", "#333")])
    labels = re.findall(r'class="seat">([^<]*)</text>', svg)
    assert labels[1] == "Bob"
    assert labels[0].startswith("&lt;Bot&gt;xxx") and labels[0].endswith("\u2026")
    assert len(labels[0].replace("&lt;", "<").replace("&gt;", ">")) < 70  # drawn smaller first, then cut


def test_a_seat_line_a_little_too_long_is_drawn_smaller_whole_not_cut():
    line = "RED (Alice), carrots 37, salads 5, cards [EAT_SALAD, HURRY_AHEAD], last advance 4"
    svg = header(682, [("#c00", line), ("#00c", "Bob")], [("turn 12", "#333"), ("RED to move", "#c00")])  # a hare track
    first = re.search(r'<text[^>]*font-size="([0-9.]+)"[^>]*class="seat">([^<]*)</text>', svg)
    assert first.group(2) == line  # whole: no "la\u2026"
    assert float(first.group(1)) < 13


def test_a_long_status_line_stays_inside_the_picture():
    """A line under the hare track and a status line over a board: drawn smaller to fit the
    picture's width, not run off its edge."""
    from swc_local.games.hare_track import panel

    stock = "ONE (ONE): field 41, carrots 112, salads 3, cards [EAT_SALAD, HURRY_AHEAD, FALL_BACK, SWAP_CARROTS], last advance 12"
    drawn = re.search(r'font-size="([0-9.]+)"[^>]*>([^<]*)</text>', panel(300, 682, [(stock, "#c00")]))
    assert drawn.group(2) == stock and len(stock) * float(drawn.group(1)) * 0.6 <= 682
    moved = "last move: accelerate +1, advance 2, turn DOWN_RIGHT, advance 3, push UP_RIGHT"
    status = re.search(r'font-size="([0-9.]+)"[^>]*class="status">([^<]*)</text>', header(480, [("#c00", "A"), ("#00c", "B")],
                                                                                           [(moved, "#c00")]))
    assert status.group(2) == moved and len(moved) * float(status.group(1)) * 0.6 <= 480 - 16


async def test_a_page_of_an_unknown_game_says_so_and_leads_back(nursery):
    server = await start_viewer_server(nursery)
    status, body = await http(server.door("web").url + "/game/%3Cb%3Eg99")
    assert status == 404
    page = body.decode()
    assert "<title>No such game" in page and '<a id="back" href="/">' in page
    assert "&lt;b&gt;g99" in page and "<b>g99" not in page


async def test_swc_view_does_not_offer_play_from_here_and_a_server_does(nursery):
    view = await trio.to_thread.run_sync(lambda: ViewProcess(OFFICIAL_PIRANHAS))
    try:
        status, game = await http(view.url + "/api/games/g1")
    finally:
        view.close()
    assert status == 200 and game["game"] == "swc_2019_piranhas" and game["can_play_from"] is False
    server = await start_viewer_server(nursery)
    piranhas = registry.get("swc_2019_piranhas")
    async with trio.open_nursery() as bots:
        for seed in (1, 2):
            bots.start_soon(play_game, piranhas, "127.0.0.1", server.door("xml").port, None, seed)
    status, listing = await http(server.door("web").url + "/api/games")
    status, game = await http(server.door("web").url + f"/api/games/{listing['games'][0]['id']}")
    assert game["can_play_from"] is True


async def wait_status(url: str, wanted: str) -> dict:
    with trio.fail_after(20):
        while True:
            _, listing = await http(url + "/api/games")
            if listing["games"] and listing["games"][0]["status"] == wanted:
                return listing["games"][0]
            await trio.sleep(0.05)


async def test_a_paused_room_is_shown_as_paused_and_as_running_once_unpaused(nursery):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    piranhas = registry.get("swc_2019_piranhas")
    async with await Admin.connect("127.0.0.1", server.door("xml").port, PASSWORD) as admin:
        room = await admin.prepare("piranhas", ["Alice", "Bob"], paused=True)
        async with trio.open_nursery() as bots:
            for seed, code in enumerate(room.reservations):
                bots.start_soon(play_game, piranhas, "127.0.0.1", server.door("xml").port, code, seed)
            game = await wait_status(url, "paused")
            assert [p["name"] for p in game["players"]] == ["Alice", "Bob"]
            with trio.fail_after(20):  # the game page's stream hears the pause without a move
                await admin.unpause(room.room_id)
            await wait_status(url, "running")
            await admin.pause(room.room_id)
            await wait_status(url, "paused")
            bots.cancel_scope.cancel()


@pytest.fixture
def browser(tmp_path):
    driver = chrome(tmp_path)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def wait(driver, condition, message="", timeout=30):
    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: condition(d), message)


async def test_nameless_players_the_result_the_counter_and_the_icons_in_a_browser(nursery, browser):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    piranhas = registry.get("swc_2019_piranhas")
    async with trio.open_nursery() as bots:  # two bots that give no name
        for seed in (1, 2):
            bots.start_soon(play_game, piranhas, "127.0.0.1", server.door("xml").port, None, seed)

    def look():
        browser.get(url + "/")
        wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#games tbody tr[data-status=finished]"))
        players = browser.find_element(By.CSS_SELECTOR, "#games tbody tr .players").text
        assert players == "RED vs BLUE", players  # no name sent: the seat, once
        game_id = browser.find_element(By.CSS_SELECTOR, "#games tbody tr").get_attribute("data-id")
        browser.get(f"{url}/game/{game_id}?step=0")
        wait(browser, lambda d: d.find_element(By.ID, "board").get_attribute("data-step") == "0")
        counter = browser.find_element(By.ID, "counter").text
        total = int(re.fullmatch(r"\u00b7 step 1 of (\d+)", counter).group(1))
        assert not browser.find_element(By.ID, "result-box").is_displayed(), "the result shows at step 0"
        for button in ("first", "last"):  # drawn, not a glyph the font may lack
            element = browser.find_element(By.ID, button)
            assert element.find_elements(By.TAG_NAME, "svg") and element.text.strip() == ""
            assert element.size["width"] > 10
        browser.find_element(By.ID, "last").click()
        wait(browser, lambda d: d.find_element(By.ID, "counter").text == f"\u00b7 step {total} of {total}")
        wait(browser, lambda d: d.find_element(By.ID, "result-box").is_displayed(), "no result at the last step")
        result = browser.find_element(By.ID, "result").text
        assert "Seat" in result and "RED" in result and "BLUE" in result
        browser.find_element(By.ID, "first").click()
        wait(browser, lambda d: not d.find_element(By.ID, "result-box").is_displayed(), "the result stays at step 1")
        assert browser.find_element(By.ID, "play-from").is_displayed()  # a server: play from here is offered
        browser.get(f"{url}/game/nothing-here")
        browser.find_element(By.ID, "back").click()
        wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#games tbody tr"), "the way back leads nowhere")

    with trio.fail_after(120):
        await trio.to_thread.run_sync(look)


async def game_of(url: str) -> dict:
    _, listing = await http(url + "/api/games")
    _, game = await http(url + "/api/games/" + listing["games"][0]["id"])
    return game


async def control(url: str, game_id: str, action: str, **extra):
    body = json.dumps({"action": action, **extra}).encode()
    return await http(f"{url}/api/games/{game_id}/control", body, {"Content-Type": "application/json"}, "POST")


async def test_an_admin_pauses_steps_unpauses_and_cancels_a_live_room_through_the_api(nursery):
    """The room changes as the admin lobby's own requests change it: a step is one move, and
    a cancel ends the game for an observing admin with ``left`` and no result."""
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    piranhas = registry.get("swc_2019_piranhas")
    reports = []

    async def bot(code, seed):
        reports.append(await play_game(piranhas, "127.0.0.1", server.door("xml").port, code, seed))

    async with await Admin.connect("127.0.0.1", server.door("xml").port, PASSWORD) as admin:
        room = await admin.prepare("piranhas", ["Alice", "Bob"], paused=True)
        await admin.observe(room.room_id)
        game = await game_of(url)
        assert game["controls"] == ["start", "cancel"] and game["controls_need_passphrase"] is False
        async with trio.open_nursery() as bots:
            for seed, code in enumerate(room.reservations):
                bots.start_soon(bot, code, seed)
            game = await wait_status(url, "paused")
            game = await game_of(url)
            assert game["controls"] == ["step", "unpause", "cancel"]
            before = game["count"]
            status, answer = await control(url, game["id"], "step")
            assert status == 200, answer
            with trio.fail_after(20):  # the step's request is answered: one move more, as <step> does
                while (await game_of(url))["count"] < before + 1:
                    await trio.sleep(0.05)
            assert (await control(url, game["id"], "pause"))[0] == 409  # already paused: not offered
            assert (await control(url, game["id"], "unpause"))[0] == 200
            await wait_status(url, "running")
            assert (await control(url, game["id"], "pause"))[0] == 200
            await wait_status(url, "paused")
            assert (await control(url, game["id"], "cancel"))[0] == 200
            with trio.fail_after(20):
                assert await admin.wait_result(room.room_id) is None  # left, no result: as <cancel>
        await wait_status(url, "finished")
    assert len(reports) == 2 and all(report.result is None for report in reports)
    game = await game_of(url)
    assert game["controls"] == [] and (await control(url, game["id"], "pause"))[0] == 409
    assert (await control(url, game["id"], "dance"))[0] == 409
    status, answer = await http(f"{url}/api/games/{game['id']}/control", b"not json", {}, "POST")
    assert status == 400 and "action" in answer["error"]


async def thinking_bot(port: int, code: str, moves: list) -> None:
    """A bot that thinks half a second a move, so an unpaused game lasts to be paused again;
    ``moves`` gets one entry per move sent."""
    async with await Client.connect("127.0.0.1", port, game="piranhas") as client:
        await client.join_prepared(code)
        async for message in client:
            if isinstance(message, MoveRequest):
                await trio.sleep(0.5)
                await client.send_move(client.plugin.legal_moves(client.memento.game)[0])
                moves.append(1)


async def test_room_buttons_on_the_game_page_steer_a_paused_room(nursery, browser):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    piranhas = registry.get("swc_2019_piranhas")
    async with await Admin.connect("127.0.0.1", server.door("xml").port, PASSWORD) as admin:
        room = await admin.prepare("piranhas", ["Alice", "Bob"], paused=True)
        async with trio.open_nursery() as bots:
            moves: list = []
            for code in room.reservations:
                bots.start_soon(thinking_bot, server.door("xml").port, code, moves)
            game = await wait_status(url, "paused")

            def buttons(driver) -> list[str]:
                return [b.get_attribute("data-action") for b in driver.find_elements(By.CSS_SELECTOR, "#control-form button")
                        if b.is_displayed()]

            def click(action: str) -> None:
                browser.find_element(By.CSS_SELECTOR, f'#control-form button[data-action="{action}"]').click()

            def steer():
                browser.get(f"{url}/game/{game['id']}")
                wait(browser, lambda d: d.find_element(By.ID, "status").text == "paused")
                assert buttons(browser) == ["step", "unpause", "cancel"]
                def shown(driver) -> int:  # a classic paused room has shown no state before its first step
                    return int(driver.find_element(By.ID, "board").get_attribute("data-step") or -1)
                before = shown(browser)
                click("step")
                wait(browser, lambda d: shown(d) > before, "a step drew no new state")
                wait(browser, lambda d: moves, "the step's move was not made")  # unpausing before it would
                click("unpause")                                                 # request a second one (official)
                wait(browser, lambda d: d.find_element(By.ID, "status").text == "running")
                wait(browser, lambda d: buttons(d) == ["pause", "cancel"])
                click("pause")
                wait(browser, lambda d: d.find_element(By.ID, "status").text == "paused")
                click("cancel")  # asks first
                wait(browser, lambda d: d.find_element(By.ID, "cancel-confirm").is_displayed())
                browser.find_element(By.ID, "cancel-yes").click()
                wait(browser, lambda d: d.find_element(By.ID, "status").text == "cancelled")
                wait(browser, lambda d: not d.find_element(By.ID, "room-controls").is_displayed())

            with trio.fail_after(120):
                await trio.to_thread.run_sync(steer)


async def test_another_sites_page_cannot_steer_a_room(nursery):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    async with await Admin.connect("127.0.0.1", server.door("xml").port, PASSWORD) as admin:
        await admin.prepare("piranhas", ["Alice", "Bob"], paused=True)
        game = await game_of(url)
        body = json.dumps({"action": "cancel"}).encode()
        status, answer = await http(f"{url}/api/games/{game['id']}/control", body,
                                    {"Content-Type": "application/json", "Origin": "http://evil.example"}, "POST")
        assert status == 403 and "another site" in answer["error"]
        assert (await game_of(url))["controls"] == ["start", "cancel"]  # the room is still there


def test_a_2025_result_names_the_losers_cause_from_the_winners_reason():
    """A stuck Mississippi Queen ship ends the game with ``regular="false"`` and no cause: the
    loser is STUCK (not regular, as the server marks it, and no rule violation), as ``swc
    match`` reports it; a rule violation stays one."""
    from swc_local.protocol.element import parse
    from swc_local.server.xml.records import result_rows

    def rows(reason: str):
        data = parse(f'<data class="result"><scores><entry><player team="ONE"/><score><part>1</part></score></entry>'
                     f'<entry><player team="TWO"/><score><part>0</part></score></entry></scores>'
                     f'<winner team="ONE" regular="false" reason="{reason}"/></data>')
        return [(row.rank, row.cause) for row in result_rows(data, ("a", "b"), ("ONE", "TWO"))]

    assert rows("TWO kann sich nicht mehr bewegen.") == [(1, "REGULAR"), (2, "STUCK")]
    assert rows("Regelverletzung von TWO: Zug ungültig") == [(1, "REGULAR"), (2, "RULE_VIOLATION")]
