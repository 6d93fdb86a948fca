"""Writes the screenshot of a contest's run page: ``python -m tests.readme_contest_screenshot [DB]``.

Plays the contest's formats (``swc tournament --format contest``) between eight ReversiXT
reference bots (four greedy, four random; groups of four, the best four of each in the
Champions League, two games an encounter), opens its database with ``swc view`` and saves the
run page from Debian's headless Chromium, the first match day opened, to
docs/screenshots/contest_run.png (docs/manual/contest.md shows it). With ``DB``, the page of that
database instead of a new contest (a few minutes less).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from .tools.test_tournament_page import TournamentView, swc
from .tools.test_tournament_play import GREEDY, INSTANT_REVERSI, RANDOM
from .web_helpers import chrome

OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots" / "contest_run.png"


def play(db: Path) -> bool:
    bots = [f"--bot={kind}{i}={GREEDY if kind == 'greedy' else RANDOM}" for i in range(1, 5)
            for kind in ("greedy", "random")]
    run = swc("tournament", "reversixt", "--format", "contest", *bots, "--games-per-encounter", "2",
              "--group-size", "4", "--advance", "4", "--db", str(db), "--concurrency", "2", "--seed", "2",
              *INSTANT_REVERSI)
    if run.returncode != 0:
        print(run.stderr, file=sys.stderr)
    return run.returncode == 0


def main(argv: list[str]) -> int:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        db = Path(argv[0]) if argv else scratch / "contest.db"
        if not argv and not play(db):
            return 1
        view = TournamentView(db)
        driver = chrome(scratch)
        try:
            driver.set_window_size(1200, 2000)
            driver.get(view.page)
            WebDriverWait(driver, 60).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-games"))
            driver.execute_script("document.getElementById('notes').hidden = true;"  # the mirror notes of greedy pairs
                                  "document.querySelector('#league details').open = true;"
                                  "document.querySelectorAll('#league .day').forEach((d, i) => { d.hidden = i > 0; });")
            OUT.parent.mkdir(exist_ok=True)
            driver.save_screenshot(str(OUT))
        finally:
            driver.quit()
            view.close()
    print(f"{OUT}: {OUT.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
