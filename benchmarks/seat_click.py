"""A person's click to the bot's answer drawn on the page (issue 32's benchmark row).

A server (in this process, on its own thread) with the viewer; a person's seat of Piranhas 2019
against the reference bot (a subprocess, as the viewer starts it); Debian's headless Chromium on
the seat page (``--game``: any XML game). Each sample: the page clicks what it offers, step by
step (a fish, then its target; a Blokus piece, orientation, anchor), until the move is sent; the
time runs from that last click to the moment the page has drawn the board of the bot's answer with the person
to move again (a MutationObserver in the page sees ``data-your-turn`` turn to 1). Games are
played back to back until ``--moves`` samples are taken; the median and p99 are printed.

    python -m benchmarks.seat_click --moves 60
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import threading
import urllib.request

import trio

CLICK = """
const done = arguments[arguments.length - 1];
const board = document.getElementById('board');
const offered = () => board.querySelector('g.seat-targets rect.seat-from, g.seat-targets rect.seat-to')
  || document.querySelector('#choices button.choice:not(.back):not(.send)')
  || document.querySelector('#choices button.send');
if (!offered()) { done(null); return; }
const version = board.dataset.version;
let start = 0;
const observer = new MutationObserver(() => {
  if (board.dataset.version !== version && board.dataset.yourTurn === '1') {
    observer.disconnect(); done(performance.now() - start);
  }
  if (document.getElementById('result-box').hidden === false) { observer.disconnect(); done(-1); }
});
observer.observe(board, {attributes: true});
// click the first thing offered, step by step, until the move is sent (the page then offers
// nothing); the time runs from the last click, the one that sent the move
for (let element = offered(); element; element = offered()) {
  start = performance.now();
  element.dispatchEvent(new MouseEvent('click', {bubbles: true}));
}
"""


def start_server() -> tuple[str, threading.Event]:
    from swc_local.server.app import Server
    from swc_local.server.config import Settings

    ready: dict = {}
    started, stop = threading.Event(), threading.Event()

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            server = await nursery.start(Server(Settings(free_ports=True, sections={"web": {"port": 0}})).run)
            ready["url"] = server.door("web").url
            started.set()
            while not stop.is_set():
                await trio.sleep(0.1)
            server.cancel()

    threading.Thread(target=trio.run, args=(main,), daemon=True).start()
    started.wait(30)
    return ready["url"], stop


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--window-size=1200,900"):
        options.add_argument(flag)
    return webdriver.Chrome(options=options, service=Service(executable_path=shutil.which("chromedriver")))


def new_seat(url: str, game: str) -> str:
    body = json.dumps({"game": game, "seats": ["you", "bot"]}).encode()
    with urllib.request.urlopen(urllib.request.Request(url + "/api/tables", data=body), timeout=20) as response:
        return json.loads(response.read())["seats"][0]["url"]


def measure(moves: int, game: str = "piranhas") -> list[float]:
    from selenium.webdriver.support.ui import WebDriverWait

    url, stop = start_server()
    driver = browser()
    driver.set_script_timeout(30)
    samples: list[float] = []
    try:
        while len(samples) < moves:
            driver.get(url + new_seat(url, game))
            while len(samples) < moves:
                WebDriverWait(driver, 30, 0.02).until(lambda d: d.execute_script(
                    "return document.querySelector('#board').dataset.yourTurn === '1'"
                    " || !document.getElementById('result-box').hidden"))
                elapsed = driver.execute_async_script(CLICK)
                if elapsed is None or elapsed < 0:
                    break  # the game is over: a new one
                samples.append(elapsed)
    finally:
        driver.quit()
        stop.set()
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--game", default="piranhas", help="an XML game's name (default piranhas)")
    args = parser.parse_args()
    samples = sorted(measure(args.moves, args.game))
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    print(f"person's click to the bot's answer drawn ({args.game}, reference bot, {len(samples)} moves): "
          f"median {statistics.median(samples):.1f} ms, p99 {p99:.1f} ms")


if __name__ == "__main__":
    main()
