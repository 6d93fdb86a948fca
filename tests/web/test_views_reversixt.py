"""The ReversiXT SVG view (issue 25), tested without a browser on the reference server's own
move logs: every move of each log is replayed through our referee and drawn, as the viewer draws
a game it follows."""

from __future__ import annotations

import base64
import random
import struct
import zlib
from functools import lru_cache
from pathlib import Path

import pytest

from swc_local.games import views
from swc_local.games.reversixt.mapfile import HOLE, parse_map
from swc_local.games.reversixt.movelog import read_move_log, replay_log
from swc_local.games.reversixt.rules import State
from tests.helpers import TESTS
from tests.view_checks import HOSTILE, assert_hostile_name_escaped, cells, parse_svg, pieces, with_class

GOLDEN = TESTS / "data" / "reversixt"
LOGS = ["game_8p_default", "game_4p_t1", "game_3p_d2", "rules_bombs_transitions", "rules_specials",
        "rules_choice_swap_bonus_bomb", "rules_inversion_with_disqualified", "rules_phase2_after_p2"]


@lru_cache(maxsize=None)
def steps(name: str, map_name: str = HOSTILE):
    """(referee after each move, the move, the rules state before it), from a reference log."""
    log = read_move_log((GOLDEN / name / "log_game.txt").read_text())
    log.map_name = map_name
    found = []
    before = {}

    def on_move(referee, player):
        found.append((referee.state.copy(), referee.moves[-1], before.get("state"), referee))
        before["state"] = referee.state.copy()

    referee = replay_log(log, on_move)
    assert found, name
    return found, referee


def check(state, move, before, picture) -> None:
    root = parse_svg(picture)
    gm = state.game_map
    assert len(pieces(root)) == sum(1 for code in state.squares if 1 <= code <= 8)
    for player in range(1, gm.players + 1):
        assert len(pieces(root, f"p{player}")) == state.stones(player)
    assert len(with_class(root, "transition")) == len(gm.transitions)
    assert len(with_class(root, "special")) == sum(1 for code in state.squares if code >= 10)
    _, x, y, _ = move
    assert cells(root, "last-to") == [(x, y)]
    if before is not None and state.squares[y * gm.width + x] == HOLE:
        holes = [(i % gm.width, i // gm.width) for i, (a, b) in enumerate(zip(before.squares, state.squares))
                 if a != HOLE and b == HOLE]
        assert cells(root, "last-blast") == sorted(holes) and (x, y) in holes


@pytest.mark.parametrize("name", LOGS)
def test_every_move_of_a_reference_log(name):
    found, _ = steps(name)
    for state, move, before, _ in found:
        picture = views.render("reversixt", state, move, before)
        assert views.render("reversixt", state, move, before) == picture
        check(state, move, before, picture)


def test_bombs_are_drawn_with_their_blast():
    bombs = 0
    for name in LOGS:
        found, _ = steps(name)
        for state, move, before, _ in found:
            _, x, y, _ = move
            if before is not None and state.squares[y * state.game_map.width + x] == HOLE:
                root = parse_svg(views.render("reversixt", state, move, before))
                assert ": bomb (" in "".join(root.itertext())
                bombs += 1
    assert bombs >= 3


def test_the_referee_itself_can_be_drawn_with_its_map_name_escaped():
    found, referee = steps("game_8p_default")
    picture = views.render("reversixt", referee)  # map name, phase and last move from the referee
    assert_hostile_name_escaped(picture)
    root = parse_svg(picture)
    _, x, y, _ = referee.moves[-1]
    assert cells(root, "last-to") == [(x, y)]
    assert len(pieces(root)) == sum(referee.state.stones(p) for p in range(1, 9))
    assert "phase" in "".join(root.itertext())


def test_a_disqualified_player_stays_on_the_board_and_is_named():
    found, referee = steps("rules_inversion_with_disqualified")
    assert referee.state.disqualified
    root = parse_svg(views.render("reversixt", referee))
    for player in referee.state.disqualified:
        assert len(pieces(root, f"p{player}")) == referee.state.stones(player)
        assert f"player {player}" in "".join(root.itertext())
    assert "disqualified" in "".join(root.itertext())


def png_pixels(data: bytes) -> tuple[int, int, bytes]:
    """(width, height, palette indices) of the palette PNG the view embeds."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, chunks = 8, {}
    while position < len(data):
        length, = struct.unpack(">I", data[position:position + 4])
        kind = data[position + 4:position + 8]
        chunks[kind] = chunks.get(kind, b"") + data[position + 8:position + 8 + length]
        assert struct.unpack(">I", data[position + 8 + length:position + 12 + length])[0] == zlib.crc32(kind + data[position + 8:position + 8 + length])
        position += 12 + length
    width, height = struct.unpack(">II", chunks[b"IHDR"][:8])
    raw = zlib.decompress(chunks[b"IDAT"])
    rows = [raw[y * (width + 1):(y + 1) * (width + 1)] for y in range(height)]
    assert all(row[0] == 0 for row in rows)
    return width, height, b"".join(row[1:] for row in rows)


def test_a_huge_map_is_one_pixel_image_of_its_squares():
    size = 300
    rng = random.Random(5)
    rows = [" ".join(rng.choice("0012345678-cibx") for _ in range(size)) for _ in range(size)]
    game_map = parse_map(f"8\n1\n1 2\n{size} {size}\n".encode() + "\n".join(rows).encode() + b"\n0 0 0 <-> 299 299 4\n")
    state = State.initial(game_map)
    picture = views.render("reversixt", state, (1, 7, 9, 0))
    assert views.render("reversixt", state, (1, 7, 9, 0)) == picture
    assert len(picture) < 1_000_000  # bytes per square, not elements per square
    root = parse_svg(picture)
    assert not pieces(root) and cells(root, "last-to") == [(7, 9)]
    assert len(with_class(root, "transition")) == 1
    [image] = with_class(root, "board-image")
    data = base64.b64decode(image.get("href").removeprefix("data:image/png;base64,"))
    width, height, pixels = png_pixels(data)
    assert (width, height) == (size, size)
    assert pixels == bytes(state.squares)  # the palette index is the square's code
