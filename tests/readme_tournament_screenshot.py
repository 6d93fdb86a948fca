"""Writes the README's screenshot of a tournament's run page: ``python -m tests.readme_tournament_screenshot``.

Plays an SPRT between ReversiXT's greedy and random reference strategies (``swc tournament``, as
in the README), opens its database with ``swc view`` and saves the run page from Debian's
headless Chromium to docs/screenshots/tournament_run.png (docs/manual/tournament.md shows it).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from .tools.test_tournament_page import TournamentView, swc
from .tools.test_tournament_play import GREEDY, INSTANT_REVERSI, RANDOM
from .web_helpers import chrome

OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots" / "tournament_run.png"  # the docs site shows it


def main() -> int:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        db = scratch / "greedy-vs-random.db"
        run = swc("tournament", "reversixt", f"--bot=greedy={GREEDY}", f"--bot=random={RANDOM}", "--db", str(db),
                  "--sprt", "elo0=0", "elo1=150", "--games-per-pairing", "200", "--concurrency", "2", "--seed", "3",
                  *INSTANT_REVERSI)
        if run.returncode != 0:
            print(run.stderr, file=sys.stderr)
            return 1
        view = TournamentView(db)
        driver = chrome(scratch)
        try:
            driver.set_window_size(1200, 1500)
            driver.get(view.page)
            WebDriverWait(driver, 60).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-games"))
            OUT.parent.mkdir(exist_ok=True)
            driver.save_screenshot(str(OUT))
        finally:
            driver.quit()
            view.close()
    print(f"{OUT}: {OUT.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
