"""The four course maps load and match the counts of spec §6.6."""

import json

import pytest

from swc_local.games.roborally.board import MAP_FILES, load_map, maps_dir
from swc_local.games.roborally.text import render

COUNTS = {
    "Dizzy Highway": (136, 6, 1, 1, 0, 0, 0, 36, 2, 4, 6, 12),
    "Extra Crispy": (148, 6, 4, 1, 8, 2, 0, 18, 6, 12, 5, 22),
    "Lost Bearings": (137, 6, 4, 1, 4, 6, 0, 4, 18, 2, 6, 8),
    "Death Trap": (148, 6, 5, 1, 10, 0, 12, 0, 25, 0, 6, 21),
}
KEYS = ("field objects", "start points", "checkpoints", "reboot points", "pits", "gears", "push panels",
        "blue belts", "green belts", "laser emitters", "energy spaces", "wall fields")


@pytest.mark.parametrize("name", list(MAP_FILES))
def test_counts_match_the_spec(name):
    board = load_map(name)
    assert (board.width, board.height) == (13, 10)
    assert board.counts() == dict(zip(KEYS, COUNTS[name]))


@pytest.mark.parametrize("name, starts, antenna, restart, checkpoints", [
    ("Dizzy Highway", [(0, 3), (0, 6), (1, 1), (1, 4), (1, 5), (1, 8)], (0, 4, "right"), (7, 3, "bottom"), {1: (12, 3)}),
    ("Extra Crispy", [(0, 3), (0, 6), (1, 1), (1, 4), (1, 5), (1, 8)], (0, 4, "right"), (0, 0, "right"),
     {1: (10, 2), 2: (5, 7), 3: (10, 7), 4: (5, 2)}),
    ("Lost Bearings", [(0, 3), (0, 6), (1, 1), (1, 4), (1, 5), (1, 8)], (0, 4, "right"), (0, 0, "right"),
     {1: (11, 4), 2: (4, 5), 3: (8, 2), 4: (8, 7)}),
    ("Death Trap", [(11, 1), (11, 4), (11, 5), (11, 8), (12, 3), (12, 6)], (12, 5, "left"), (12, 9, "left"),
     {1: (1, 7), 2: (4, 4), 3: (7, 8), 4: (8, 2), 5: (0, 1)}),
])
def test_positions_match_the_spec(name, starts, antenna, restart, checkpoints):
    board = load_map(name)
    assert board.start_points == starts
    assert board.antenna == antenna
    assert board.restart == restart
    assert board.checkpoints == checkpoints


def test_game_map_is_the_file_unchanged():
    for name, file in MAP_FILES.items():
        raw = json.loads((maps_dir() / file).read_text())
        assert load_map(name).game_map == raw["messageBody"]["gameMap"]


def test_extra_crispy_corner_fix():
    assert load_map("Extra Crispy").square(11, 6).belt == (2, "left", ("bottom",))


def test_text_board_shows_the_elements():
    text = render(load_map("Dizzy Highway"))
    lines = text.splitlines()
    assert "A>" in lines[5] and "C1" in lines[4] and "Rv" in lines[4]
