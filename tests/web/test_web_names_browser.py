"""What a person reads on the game page, in headless Chromium (issue 41): the last move in the
game's own notation (the text ``swc replay`` prints), each player by the name its client sent or
else its seat once, a result table with a reason in every row that never breaks inside a word,
and one verdict per game (Mississippi Queen's header and table agree).

The games are captures of the official servers, opened with ``swc view`` as a user does."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from swc_local.games.reversixt.movelog import read_move_log
from tests.web_helpers import DATA, REFERENCE_REVERSIXT, ViewProcess, call_json, chrome, swc_replay

CAPTURES = {  # file name -> (capture, the players as the page lists them)
    "piranhas_2019.xml": ("piranhas_2019/game_seed2_admin_observer_recv.xml", ["Alice", "Bob"]),
    "hase_und_igel_2018.xml": ("hase_und_igel_2018/game18/C1.raw", ["RED", "BLUE"]),  # "Unknown" both
    "piranhas_2026.xml": ("piranhas_2026/socha_admin/ONE_recv.xml", ["Alice", "Bob"]),
    "hase_und_igel_2025.xml": ("hase_und_igel_2025/hui_join/ONE_recv.xml", ["ONE", "TWO"]),
    "ostseeschach.xml": ("ostseeschach_2022/scenarios/simple22/P1_recv.xml", ["ONE", "TWO"]),
    "blokus_2027.xml": ("blokus/scenarios/blokus_join/ONE_recv.xml.gz", ["ONE", "TWO"]),
    "mississippi_queen.xml": ("mississippi_queen/scenarios/socha_admin/ONE_recv.xml.gz", ["Alice", "Bob"]),
}

# every word of every result cell on one line: a word split over two lines has two boxes
_BROKEN_WORDS = """
const broken = [];
for (const td of document.querySelectorAll('#result tbody td')) {
  const node = td.firstChild;
  if (!node) continue;
  for (const m of node.textContent.matchAll(/\\S+/g)) {
    const range = document.createRange();
    range.setStart(node, m.index);
    range.setEnd(node, m.index + m[0].length);
    const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
    if (lines.size > 1) broken.push(m[0]);
  }
}
return broken;"""

_PAGE = """
return {step: document.getElementById('board').dataset.step,
        last: document.getElementById('last-move').textContent,
        players: [...document.querySelectorAll('#players li')].map(li => li.textContent),
        rows: [...document.querySelectorAll('#result tbody tr')].map(r => [...r.cells].map(c => c.textContent)),
        board: document.getElementById('board').textContent};"""


def _replay(capture: str, path: Path) -> Path:
    data = (DATA / capture).read_bytes()
    data = gzip.decompress(data) if capture.endswith(".gz") else data
    data = b"\n".join(line for line in data.split(b"\n") if not line.startswith(b">>>>>>>>>>"))
    path.write_bytes(data if b"</protocol>" in data else data + b"</protocol>")
    return path


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """``swc view`` of every capture and one Chromium, narrow, so the result table must wrap."""
    folder = tmp_path_factory.mktemp("captures")
    files = {name: _replay(capture, folder / name) for name, (capture, _) in CAPTURES.items()}
    files["log_game.txt"] = REFERENCE_REVERSIXT
    view = ViewProcess(*files.values())
    driver = chrome(tmp_path_factory.mktemp("chromium"))
    driver.set_window_size(480, 900)
    try:
        status, games = call_json(view.url + "/api/games")
        by_source = {Path(g["source"]).name: g for g in games["games"]}
        yield view.url, driver, files, by_source
    finally:
        driver.quit()
        view.close()


def _last_page(url: str, driver, game: dict) -> dict:
    status, summary = call_json(f"{url}/api/games/{game['id']}")
    last = summary["count"] - 1
    driver.get(f"{url}/game/{game['id']}?step={last}")
    return WebDriverWait(driver, 30, poll_frequency=0.05).until(
        lambda d: (page := d.execute_script(_PAGE))["step"] == str(last) and page["rows"] and page)


@pytest.mark.parametrize("name", sorted(CAPTURES))
def test_the_game_page_reads_like_the_game(pages, name):
    url, driver, files, games = pages
    page = _last_page(url, driver, games[name])
    printed = [line.split(" moves: ", 1)[1] for line in swc_replay(files[name]).splitlines() if " moves: " in line]
    # the notation swc replay prints ("?" there, "—" here: Mississippi Queen's stuck end names no move)
    assert page["last"] == ("\u2014" if printed[-1] == "?" else printed[-1])
    assert page["players"] == CAPTURES[name][1]
    for row in page["rows"]:
        rank, seat, player, cause, score, reason = row
        assert reason, row  # the reason wherever a result is
        assert player in ("", *CAPTURES[name][1]) and "(" not in player, row
    assert driver.execute_script(_BROKEN_WORDS) == []


def test_mississippi_queens_header_and_table_give_one_verdict(pages):
    url, driver, files, games = pages
    page = _last_page(url, driver, games["mississippi_queen.xml"])
    # a stuck ship: the table shows what the server sent (regular="false": the stuck seat STUCK,
    # no rule violation), the board says who won and why instead of "(irregular)"
    assert [row[3] for row in page["rows"]] == ["REGULAR", "STUCK"]
    assert "irregular" not in page["board"]
    assert "game over: ONE wins" in page["board"] and "kann sich nicht mehr bewegen" in page["board"]
    assert re.search(r"kann sich nicht mehr bewegen", page["rows"][0][5])


def test_reversixt_players_are_named_once_and_moves_as_swc_replay_prints_them(pages):
    url, driver, files, games = pages
    page = _last_page(url, driver, games["log_game.txt"])
    printed = [line.split(": ", 1)[1] for line in swc_replay(REFERENCE_REVERSIXT).splitlines() if line.startswith("move ")]
    assert page["last"] == printed[-1]
    groups = read_move_log(REFERENCE_REVERSIXT.read_text()).groups
    assert page["players"] == [f"player {k} (group {g})" for k, g in enumerate(groups, 1)]
    assert driver.execute_script(_BROKEN_WORDS) == []
