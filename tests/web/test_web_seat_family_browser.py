"""People at the table of ReversiXT and Robo Rally in a real browser (Debian's headless Chromium).

A person sets a ReversiXT table on the start page and plays a whole game by clicking framed squares
(and the choice on choice and bonus squares) against the reference bot; only the legal squares
are framed, and the page ends on the ranking ``swc replay`` prints of the written log.  Two persons
play Robo Rally in two browser sessions to the end: start points by clicking, registers filled by
clicking cards with the timer shown, damage and reboot buttons; a move the server rejects (a
forged ``SetStartingPoint``) shows the server's own ``Error`` text.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

import trio
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from swc_local.games.roborally.board import load_map
from swc_local.games.roborally.plan import best_program

from tests.web_helpers import chrome, start_viewer_server, swc_replay, without_reversixt_pauses


def wait(driver, condition, timeout=60, message=""):
    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(lambda d: condition(d), message)


def seat_api(api: str) -> dict:
    with urllib.request.urlopen(api, timeout=20) as response:
        return json.loads(response.read())


def click(driver, css: str, last: bool = False) -> None:
    """Click the element ``css`` names as the page shows it now (a live page redraws often, so a
    found element may be replaced before a separate click reaches it)."""
    assert driver.execute_script(
        "const all = document.querySelectorAll(arguments[0]); const e = arguments[1] ? all[all.length - 1] : all[0];"
        "if (!e) return false; e.dispatchEvent(new MouseEvent('click', {bubbles: true})); return true;", css, last), css


def framed(driver) -> list[str]:
    return driver.execute_script("return [...document.querySelectorAll('#board rect.seat-target')].map(r => r.dataset.cell);")


def version(driver) -> str:
    return driver.execute_script("return document.getElementById('board').dataset.version;")


def turn_or_over(driver) -> str | None:
    """"over" once the result is shown, the step asked (a true string) on this seat's turn, else
    None: read in one script, as a look at the page costs a round trip to the browser."""
    return driver.execute_script("""
        const box = document.getElementById('result-box'), board = document.getElementById('board');
        if (!box.hidden && box.getClientRects().length > 0) return 'over';
        return board.dataset.yourTurn === '1' ? board.dataset.step || null : null;""")


def page_result(driver) -> list[tuple[str, str]]:
    rows = driver.execute_script(
        "return [...document.querySelectorAll('#result tbody tr')].map(r => [...r.cells].map(c => c.textContent));")
    return sorted((r[1], r[4]) for r in rows)


def replay_ranking(path: Path) -> list[tuple[str, str]]:
    out = swc_replay(path)
    return sorted(re.findall(r"^\d+\. player (\d+) \(group \d+\): (\d+) stones", out, re.M))


def reversi_turn(driver, api: str, turn: int) -> None:
    """Click a framed square (only the legal ones are framed), then its choice where it has one."""
    moves = seat_api(api)["moves"]
    shown = framed(driver)
    assert sorted(shown) == sorted({m["cells"][0] for m in moves}), "the page frames exactly the legal squares"
    before = version(driver)
    cell = sorted(shown)[turn % len(shown)]
    click(driver, f'#board rect.seat-target[data-cell="{cell}"]')
    here = [m for m in moves if m["cells"][0] == cell]
    if len(here) > 1:  # a choice or bonus square: the choices are offered, nothing is sent yet
        wait(driver, lambda d: d.find_element(By.ID, "choice-box").is_displayed())
        offered = [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#choices button")]
        assert offered == [m["choice"] for m in here]
        click(driver, "#choices button", last=True)
    wait(driver, lambda d: version(d) != before)


async def test_a_person_plays_reversixt_by_clicking_against_the_reference_bot(nursery, tmp_path):
    server = await start_viewer_server(nursery, save_replay=True, replay_dir=str(tmp_path / "logs"))
    without_reversixt_pauses(server)
    url = server.door("web").url
    driver = chrome(tmp_path)
    driver.set_page_load_timeout(30)

    def play() -> tuple[list, int, int]:
        driver.get(url + "/")
        driver.find_element(By.CSS_SELECTOR, "#play-table summary").click()
        wait(driver, lambda d: d.find_element(By.ID, "family-form").is_displayed())
        Select(driver.find_element(By.ID, "family-game")).select_by_value("reversixt")
        Select(driver.find_element(By.ID, "family-map")).select_by_value("classic_2p")
        kinds = [Select(s).first_selected_option.get_attribute("value")
                 for s in driver.find_elements(By.CSS_SELECTOR, "#family-seats select.seat-kind")]
        assert kinds == ["you", "bot"]
        driver.find_element(By.ID, "family-start").click()
        wait(driver, lambda d: "/seat/" in d.current_url, message="Play did not open the seat")
        api = url + "/api/seats/" + driver.current_url.rsplit("/", 1)[1]
        turns = choices = 0
        while wait(driver, turn_or_over, message="neither my turn nor the end") != "over":
            assert "no deadline" in driver.find_element(By.ID, "clock").text
            choices += len(driver.find_elements(By.CSS_SELECTOR, "#choices button")) > 0
            reversi_turn(driver, api, turns)
            turns += 1
        assert not driver.find_element(By.ID, "error").is_displayed()
        return page_result(driver), turns, seat_api(api)["phase"]

    try:
        with trio.fail_after(400):
            shown, turns, phase = await trio.to_thread.run_sync(play)
    finally:
        driver.quit()
    assert turns >= 5 and phase == 2  # placements, then bombs, all by clicking
    logs = list((tmp_path / "logs").glob("reversixt-*.log"))
    assert len(logs) == 1
    assert shown == await trio.to_thread.run_sync(replay_ranking, logs[0])


def robo_turn(driver, api: str, board) -> None:
    """One step of a person: a start point, five cards (the greedy program), a pile or a direction."""
    state = seat_api(api)
    step, before = state["asked"], version(driver)
    if step is None:  # the page still shows a question the game has left behind (it ended meanwhile)
        wait(driver, lambda d: turn_or_over(d) == "over" or seat_api(api)["asked"] is not None,
             message="the seat asks nothing and the game is not over")
        return
    if step == "start":
        shown = framed(driver)
        assert sorted(shown) == sorted(m["cells"][0] for m in state["moves"]), "only the free start points"
        click(driver, f'#board rect.seat-target[data-cell="{shown[0]}"]')
    elif step == "program":
        robot = state["robot"]
        target = board.checkpoints.get(state["checkpoints"] + 1)
        program = best_program(board, (robot["x"], robot["y"], robot["facing"]), state["hand"], target)
        for register, card in enumerate(program, 1):
            mark = version(driver)
            wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#hand button.card[data-card="{card}"]:enabled'))
            click(driver, f'#hand button.card[data-card="{card}"]:enabled')
            wait(driver, lambda d: version(d) != mark)
            if register < 5:
                wait(driver, lambda d: d.execute_script(
                    "const b = document.querySelector(arguments[0]); return b && b.textContent;",
                    f'#registers button[data-register="{register}"]') == f"{register}: {card}")
        return
    else:  # damage or reboot: the offered buttons, once the page has drawn them (the API can be ahead)
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#choices button"), message=f"no {step} choice shown")
        click(driver, "#choices button")
    wait(driver, lambda d: version(d) != before)


async def test_two_persons_play_robo_rally_in_two_browsers(nursery, tmp_path):
    server = await start_viewer_server(nursery, save_replay=True, replay_dir=str(tmp_path / "logs"))
    url = server.door("web").url
    drivers = [chrome(tmp_path / "one"), chrome(tmp_path / "two")]
    board = load_map("Dizzy Highway")
    apis = []

    def set_table() -> list[str]:
        """The start page: Robo Rally, a course, two robots, you and a second person (a link)."""
        driver = drivers[0]
        driver.get(url + "/")
        driver.find_element(By.CSS_SELECTOR, "#play-table summary").click()
        wait(driver, lambda d: d.find_element(By.ID, "family-form").is_displayed())
        Select(driver.find_element(By.ID, "family-game")).select_by_value("roborally")
        Select(driver.find_element(By.ID, "family-course")).select_by_value("Dizzy Highway")
        assert driver.find_element(By.ID, "family-robots").get_attribute("value") == "2"
        Select(driver.find_element(By.ID, "family-seat-1")).select_by_value("person")
        driver.find_element(By.ID, "family-start").click()
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#family-result a.seat-link")) == 2)
        links = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "#family-result a.seat-link")]
        assert links[0] != links[1] and all("/seat/" in link for link in links)
        return links

    def play() -> tuple[list, bool, int]:
        for driver, link in zip(drivers, set_table()):
            driver.get(link)
            apis.append(url + "/api/seats/" + link.rsplit("/", 1)[1])
        # a forged start point: the server's own Error text is shown on the page
        wait(drivers[0], lambda d: turn_or_over(d) == "start")
        body = json.dumps({"message": {"messageType": "SetStartingPoint", "messageBody": {"x": 5, "y": 5}}}).encode()
        request = urllib.request.Request(apis[0] + "/move", data=body, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=20) as response:
            assert json.loads(response.read())["error"] == "Not a start point: (5, 5)"
        drivers[0].refresh()
        wait(drivers[0], lambda d: d.find_element(By.ID, "error").text == "The server says: Not a start point: (5, 5)")
        timer_seen = False
        with_timer = lambda d: "s left" in d.find_element(By.ID, "timer").text  # noqa: E731
        while True:
            states = [turn_or_over(d) for d in drivers]
            if states == ["over", "over"]:
                break
            for index, (driver, state) in enumerate(zip(drivers, states)):
                if state not in (None, "over"):
                    if state == "program" and index == 1:
                        # the other robot is programmed: the 30-second timer runs on this page
                        wait(driver, lambda d: seat_api(apis[0])["finished_selection"] is False or with_timer(d))
                        timer_seen |= with_timer(driver)
                    robo_turn(driver, apis[index], board)
        return [page_result(d) for d in drivers], timer_seen, seat_api(apis[0])["winner"]

    try:
        with trio.fail_after(400):
            (first, second), timer_seen, winner = await trio.to_thread.run_sync(play)
    finally:
        for driver in drivers:
            driver.quit()
    assert first == second and len(first) == 2
    assert timer_seen
    assert dict(first)[str(winner)] == "1"  # one checkpoint on Dizzy Highway: the winner's


async def test_a_person_plays_robo_rally_by_clicking_against_the_reference_bot(nursery, tmp_path):
    """The start page's Robo Rally table with the reference bot in seat 2: the person clicks a
    start point and the greedy program's cards game after game of rounds, to the end; the page's
    ranking names the same winner as the seat's API, and the written log is read by ``swc replay``."""
    server = await start_viewer_server(nursery, save_replay=True, replay_dir=str(tmp_path / "logs"))
    url = server.door("web").url
    driver = chrome(tmp_path)
    board = load_map("Dizzy Highway")

    def play() -> tuple[list, int]:
        driver.get(url + "/")
        driver.find_element(By.CSS_SELECTOR, "#play-table summary").click()
        wait(driver, lambda d: d.find_element(By.ID, "family-form").is_displayed())
        Select(driver.find_element(By.ID, "family-game")).select_by_value("roborally")
        Select(driver.find_element(By.ID, "family-course")).select_by_value("Dizzy Highway")
        assert Select(driver.find_element(By.ID, "family-seat-1")).first_selected_option.get_attribute("value") == "bot"
        driver.find_element(By.ID, "family-start").click()
        wait(driver, lambda d: "/seat/" in d.current_url, message="Play did not open the seat")
        api = url + "/api/seats/" + driver.current_url.rsplit("/", 1)[1]
        while wait(driver, turn_or_over, 120, message="neither my turn nor the end") != "over":
            robo_turn(driver, api, board)
        assert not driver.find_element(By.ID, "error").is_displayed()
        return page_result(driver), seat_api(api)["winner"]

    try:
        with trio.fail_after(400):
            shown, winner = await trio.to_thread.run_sync(play)
    finally:
        driver.quit()
    assert len(shown) == 2 and dict(shown)[str(winner)] == "1"
    (log,) = (tmp_path / "logs").glob("roborally-*.jsonl")
    out = await trio.to_thread.run_sync(swc_replay, log)
    assert re.match(rf"Robo Rally on Dizzy Highway, players \[1, 2\], seed \d+, winner {winner}\n", out), out
