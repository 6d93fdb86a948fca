"""Every move kind of every XML game reads in the game's own notation in ``swc replay`` (issue 41):
the captures of the official servers, replayed as a user does, and the moves the official clients
sent where no capture holds that kind in a state's ``lastMove`` (a push, a skip).

Before, ``swc replay`` printed the ``<lastMove>`` XML flattened: ``from(x=7 y=3), direction()``
for Piranhas 2026, ``distance=5 card()`` for Hase und Igel 2025, ``actions()`` for Mississippi
Queen, a Blokus piece without its position.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

from swc_local.games import registry
from swc_local.protocol.element import parse
from tests.web_helpers import swc_replay

DATA = Path(__file__).resolve().parent.parent / "data"

# (capture, lines ``swc replay`` prints for it: one per move kind the capture holds)
REPLAYED = [
    ("piranhas_2019/game_seed2_admin_observer_recv.xml", ["RED moves: (0,1) UP", "BLUE moves: (8,0) LEFT"]),
    ("piranhas_2026/socha_admin/ONE_recv.xml", ["ONE moves: (9,4) DOWN_LEFT", "TWO moves: (8,0) UP_LEFT"]),
    ("hase_und_igel_2018/game18/C1.raw", [
        "RED moves: advance 5 to 5 (HARE), card TAKE_OR_DROP_CARROTS +20",
        "BLUE moves: advance 6 to 6 (HARE), card FALL_BACK, card HURRY_AHEAD, card TAKE_OR_DROP_CARROTS -20",
        "RED moves: advance 8 to 13 (HARE), card EAT_SALAD",
        "BLUE moves: advance 6 to 12 (CARROT)",
        "RED moves: fall back",
        "BLUE moves: carrots +10",
        "RED moves: eat a salad",
    ]),
    ("hase_und_igel_2025/hui_join/ONE_recv.xml", [
        "ONE moves: advance 7 to 7 (CARROTS)",
        "ONE moves: advance 2 to 9 (MARKET), buy HURRY_AHEAD",
        "TWO moves: advance 5 to 34 (HARE), card SWAP_CARROTS",
        "ONE moves: eat a salad",
        "ONE moves: fall back",
        "TWO moves: carrots +10",
        "TWO moves: carrots -10",
    ]),
    ("ostseeschach_2022/scenarios/simple22/P1_recv.xml", [
        "ONE moves: Seestern (0,4) -> (1,4)",
        "TWO moves: Robbe (7,6) -> (6,4)",
        "ONE moves: Moewe (0,0) -> (1,0)",
        "TWO moves: Herzmuschel (7,5) -> (6,6)",
    ]),
    ("penguins/scenarios/admin_cancel/ADMIN.raw.gz", ["ONE moves: set on (5,1)"]),
    ("penguins/scenarios/end_draw/C1.raw.gz", ["ONE moves: (0,0) -> (2,0)"]),
    ("hive_2020/admin_java/BLUE_recv.xml.gz", [
        "RED moves: set BEE at (5,-3,-2)",
        "RED moves: GRASSHOPPER (2,-1,-1) -> (5,-4,-1)",
    ]),
    ("blokus/scenarios/blokus_join/ONE_recv.xml.gz", [
        "ONE moves: BLUE PENTO_W (RIGHT) at (8,0)",
        "TWO moves: YELLOW TETRO_I at (0,1)",
        "TWO moves: YELLOW PENTO_W (RIGHT, flipped) at (1,0)",
        "ONE moves: RED PENTO_S (MIRROR, flipped) at (0,16)",
    ]),
    ("blokus_2021/scenarios/skip_legal/C1.raw", [
        "ONE moves: BLUE PENTO_Z at (0,0)",
        "ONE moves: RED PENTO_Z (flipped) at (0,17)",
        "ONE moves: BLUE skips",
    ]),
    ("mississippi_queen/scenarios/socha_admin/ONE_recv.xml.gz", [
        "ONE moves: accelerate +1, advance 1, turn LEFT, advance 1, turn UP_LEFT, turn DOWN_RIGHT",
        "TWO moves: accelerate -1, advance 1, turn LEFT, advance 1",
    ]),
]

# (game type, capture, the move element a client sent, its notation): kinds no lastMove holds
SENT = [
    ("swc_2024_mississippi_queen", "mississippi_queen/scenarios/invalid_push_blocked/C1.raw.gz",
     '<data class="move"><actions><push direction="RIGHT"/></actions></data>', "push RIGHT"),
    ("swc_2024_mississippi_queen", "mississippi_queen/scenarios/invalid_push_points/C2.raw.gz",
     '<data class="move"><actions><acceleration acc="1"/><advance distance="1"/><push direction="DOWN_RIGHT"/>'
     '<push direction="DOWN_RIGHT"/></actions></data>',
     "accelerate +1, advance 1, push DOWN_RIGHT, push DOWN_RIGHT"),
    ("swc_2027_blokus", "blokus/scenarios/blokus_skip_first/C1.raw.gz",
     '<data class="sc.plugin2027.SkipMove"><color>BLUE</color></data>', "BLUE skips"),
    ("swc_2020_hive", "hive_2020/invalid_skip/RED.raw.gz", '<data class="skipmove"/>', "skip"),
]


def _capture(relative: str) -> bytes:
    data = (DATA / relative).read_bytes()
    return gzip.decompress(data) if relative.endswith(".gz") else data


def _as_replay(relative: str, folder: Path) -> Path:
    """The server's side of a capture as a replay file: the client's own lines (``>>>`` SENT)
    left out, the stream closed as a replay is."""
    lines = [line for line in _capture(relative).split(b"\n") if not line.startswith(b">>>>>>>>>>")]
    data = b"\n".join(lines)
    path = folder / "replay.xml"
    path.write_bytes(data if b"</protocol>" in data else data + b"</protocol>")
    return path


@pytest.mark.parametrize("relative, expected", REPLAYED, ids=[r.split("/")[0] for r, _ in REPLAYED])
def test_swc_replay_writes_every_move_kind_in_the_games_notation(relative, expected, tmp_path):
    out = swc_replay(_as_replay(relative, tmp_path))
    moves = [line for line in out.splitlines() if " moves: " in line]
    assert moves
    for line in expected:
        assert line in moves, f"{line!r} not among {moves[:6]}..."
    for line in moves:  # no flattened XML anywhere: no empty element, no attr=value
        assert "()" not in line and "=" not in line, line


@pytest.mark.parametrize("game_type, relative, sent, expected", SENT, ids=[s[0] + "-" + s[3] for s in SENT])
def test_moves_the_clients_sent_read_in_the_games_notation(game_type, relative, sent, expected):
    assert sent.encode() in _capture(relative)  # the very bytes of the capture
    plugin = registry.entry(game_type).plugin
    state = parse(re.search(rb"<state\b.*?</state>", _capture(relative), re.S).group(0))
    game = plugin.game_from_state(state)
    assert plugin.notation(game.decode_move(parse(sent)), game) == expected
