"""Writes the docs site's screenshots of the viewer: ``python -m tests.readme_screenshots``.

Three games in Debian's headless Chromium, each opened with ``swc view`` at a step in its middle:
the official server's Piranhas 2019 replay (tests/data), a Blokus 2027 game played here by the
reference bots, and the reference server's ReversiXT ``log_game.txt``.  Then a person's turn at
the table (:data:`SEAT_SHOTS`, one entry per game: a server with its viewer, a seat against the
reference bot, a few moves clicked, then the first clicks of the next move with its preview),
and at a ReversiXT and a Robo Rally table (:data:`FAMILY_SEAT_SHOTS`).
The PNGs go to docs/screenshots/ (the viewer's page of the docs site shows them).
"""

from __future__ import annotations

import json
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import trio

from swc_local.client.bot import play_game
from swc_local.games import registry
from swc_local.server.app import Server
from swc_local.server.config import Settings

from .web_helpers import (
    OFFICIAL_PIRANHAS, REFERENCE_REVERSIXT, ViewerThread, ViewProcess, call_json, chrome, click_a_move, seat_state,
    step_key, wait_page,
)

OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"  # the docs site shows them


async def blokus_replay(directory: Path) -> Path:
    server = Server(Settings(free_ports=True, seed=7, save_replay=True, replay_dir=str(directory), sections={"web": {"port": -1}}))
    plugin = registry.get("swc_2027_blokus")
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        async with trio.open_nursery() as bots:
            for seed in (1, 2):
                bots.start_soon(play_game, plugin, "127.0.0.1", server.door("xml").port, None, seed)
                await trio.sleep(0.05)
        nursery.cancel_scope.cancel()
    (path,) = server.door("xml").replay_writer.paths.values()
    return path


def shoot(view: ViewProcess, profile: Path, shots: list[tuple[str, str, float]]) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver = chrome(profile)
    try:
        driver.set_window_size(1100, 760)
        driver.get(view.url + "/")
        WebDriverWait(driver, 30).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#games tbody tr")) == len(shots))
        driver.save_screenshot(str(OUT / "start_page.png"))
        for (game_id, name, where), index in zip(shots, range(len(shots))):
            driver.get(f"{view.url}/game/{game_id}")
            WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "counter").text)
            total = int(driver.find_element(By.ID, "counter").text.split(" of ")[1])
            step = min(total - 1, int(total * where))
            driver.get(f"{view.url}/game/{game_id}?step={step}")
            WebDriverWait(driver, 30).until(
                lambda d: d.find_element(By.ID, "board").get_attribute("data-step") == str(step))
            driver.save_screenshot(str(OUT / f"{name}.png"))
    finally:
        driver.quit()


@dataclass(frozen=True)
class SeatShot:
    """A person's turn at the table: ``game`` (a name ``POST /api/tables`` takes), the PNG's
    ``name``, how many of the person's ``moves`` are clicked first, and how many ``steps`` of the
    next move are clicked before the picture (the pointer then rests on the next step's cell);
    ``table``: more of the ``POST /api/tables`` body (a map, the seats; default: you against
    the reference bot)."""

    game: str
    name: str
    moves: int = 3
    steps: int = 2
    table: tuple[tuple[str, object], ...] = ()


SEAT_SHOTS = (
    SeatShot("blokus", "seat_blokus_2027", moves=3, steps=2),  # piece and orientation chosen, anchor previewed
)


def shoot_seats(profile: Path, shots=SEAT_SHOTS) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    viewer, driver = ViewerThread(), chrome(profile / "seats")
    try:
        driver.set_window_size(1200, 900)
        for shot in shots:
            body = {"game": shot.game, "seats": ["you", "bot"], **dict(shot.table)}
            status, table = call_json(viewer.url + "/api/tables", json.dumps(body).encode())
            assert status == 200, table
            seat = table["seats"][0]
            api = viewer.url + "/api/seats/" + seat["seat"]
            driver.get(viewer.url + seat["url"])
            for _ in range(shot.moves):
                assert wait_page(driver, seat_state, 120) == "turn"
                click_a_move(driver, api, lambda moves: max(moves, key=lambda m: len(m["steps"])))
            assert wait_page(driver, seat_state, 120) == "turn"
            moves = call_json(api)[1]["moves"]
            move = max(moves, key=lambda m: (len(m["steps"]), len(m["steps"][-1].get("preview", ()))))
            for step in move["steps"][:shot.steps]:
                selector = (f'#board g.seat-targets rect[data-cell="{step["cell"]}"]' if "cell" in step
                            else f'#choices button.choice[data-choice="{step["choice"]}"]')
                driver.find_element(By.CSS_SELECTOR, selector).click()
            if len(move["steps"]) > shot.steps and "cell" in move["steps"][shot.steps]:
                target = move["steps"][shot.steps]["cell"]
                ActionChains(driver).move_to_element(driver.find_element(
                    By.CSS_SELECTOR, f'#board g.seat-targets rect[data-cell="{target}"]')).perform()
            assert step_key(move["steps"][0])  # the move the picture shows is a legal one
            driver.save_screenshot(str(OUT / f"{shot.name}.png"))
    finally:
        driver.quit()
        viewer.close()


@dataclass(frozen=True)
class FamilySeatShot:
    """A person's turn at a ReversiXT or Robo Rally table (server/web/door_tables.py): the
    ``POST /api/tables`` body (you against the reference bot), the PNG's ``name``, how many of the
    person's ``turns`` are clicked first (the first framed square; for Robo Rally the start point),
    then ``cards`` clicked into registers before the picture, the pointer on a framed square."""

    name: str
    table: tuple[tuple[str, object], ...]
    turns: int = 0
    cards: int = 0


FAMILY_SEAT_SHOTS = (
    FamilySeatShot("seat_reversixt", (("game", "reversixt"), ("map", "classic_2p")), turns=3),
    FamilySeatShot("seat_roborally", (("game", "roborally"), ("course", "Dizzy Highway"), ("robots", 2)),
                   turns=1, cards=2),  # start point set, two registers filled, the hand offered
)


def shoot_family_seats(profile: Path, shots=FAMILY_SEAT_SHOTS) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    def your_turn(driver) -> bool:
        return driver.find_element(By.ID, "board").get_attribute("data-your-turn") == "1"

    def framed(driver) -> list:
        return driver.find_elements(By.CSS_SELECTOR, "#board rect.seat-target")

    viewer, driver = ViewerThread(), chrome(profile / "family-seats")
    try:
        driver.set_window_size(1200, 900)
        for shot in shots:
            status, table = call_json(viewer.url + "/api/tables",
                                      json.dumps({"seats": ["you", "bot"], **dict(shot.table)}).encode())
            assert status == 200, table
            driver.get(viewer.url + table["seats"][0]["url"])
            for _ in range(shot.turns):
                wait_page(driver, lambda d: your_turn(d) and framed(d), 120)
                before = driver.find_element(By.ID, "board").get_attribute("data-version")
                framed(driver)[0].click()
                choices = driver.find_elements(By.CSS_SELECTOR, "#choices button")
                if choices and choices[0].is_displayed():
                    choices[0].click()
                wait_page(driver, lambda d: d.find_element(By.ID, "board").get_attribute("data-version") != before)
            for _ in range(shot.cards):
                wait_page(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#hand button.card:enabled"), 120)
                before = driver.find_element(By.ID, "board").get_attribute("data-version")
                driver.find_element(By.CSS_SELECTOR, "#hand button.card:enabled").click()
                wait_page(driver, lambda d: d.find_element(By.ID, "board").get_attribute("data-version") != before)
            if not shot.cards:
                wait_page(driver, lambda d: your_turn(d) and framed(d), 120)
                ActionChains(driver).move_to_element(framed(driver)[0]).perform()
            driver.save_screenshot(str(OUT / f"{shot.name}.png"))
    finally:
        driver.quit()
        viewer.close()


def main() -> int:
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        official = scratch / "official_piranhas_2019.xml"  # the capture, closed as a replay file
        official.write_bytes(OFFICIAL_PIRANHAS.read_bytes().rstrip() + b"\n</protocol>\n")
        blokus = trio.run(blokus_replay, scratch)
        view = ViewProcess(official, blokus, REFERENCE_REVERSIXT)
        try:
            shoot(view, scratch, [("g1", "piranhas_2019", 0.5), ("g2", "blokus_2027", 0.7), ("g3", "reversixt", 0.6)])
        finally:
            view.close()
        shoot_seats(scratch)
        shoot_family_seats(scratch)
    for path in sorted(OUT.glob("*.png")):
        print(f"{path}: {path.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
