"""Writes the docs site's screenshots of the viewer: ``python -m tests.readme_screenshots``.

Three games in Debian's headless Chromium, each opened with ``swc view`` at a step in its middle:
the official server's Piranhas 2019 replay (tests/data), a Blokus 2027 game played here by the
reference bots, and the reference server's ReversiXT ``log_game.txt``. The PNGs go to
docs/screenshots/ (the viewer's page of the docs site shows them).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import trio

from swc_local.client.bot import play_game
from swc_local.games import registry
from swc_local.server.app import Server
from swc_local.server.config import Settings

from .web_helpers import OFFICIAL_PIRANHAS, REFERENCE_REVERSIXT, ViewProcess, chrome

OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"  # the docs site shows them


async def blokus_replay(directory: Path) -> Path:
    server = Server(Settings(port=0, seed=7, save_replay=True, replay_dir=str(directory), sections={"web": {"port": -1}}))
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
    for path in sorted(OUT.glob("*.png")):
        print(f"{path}: {path.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
