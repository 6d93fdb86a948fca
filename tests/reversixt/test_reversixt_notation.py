"""Every ReversiXT move kind reads in one notation in ``swc replay`` and the viewer's records
(issue 41): the reference server's move logs, printed as a user does.  Before, a move read
``player 1 -> (4,0,0)``, a bomb and a plain stone alike."""

from __future__ import annotations

import pytest

from swc_local.server.reversixt.records import ReversiRecord
from tests.reversixt_golden import GOLDEN
from tests.web_helpers import swc_replay

KINDS = [
    ("rules_specials", "move 12: player 1: (2,2), inversion"),
    ("rules_specials", "move 9: player 1: (2,0), choice: keep my colour"),
    ("rules_specials", "move 0: player 1: (2,4), bonus: an overwrite stone"),
    ("rules_specials", "move 3: player 1: (0,8), overwrite stone"),
    ("rules_specials", "move 44: player 1: bomb (4,0)"),
    ("game_2p_default", "move 4: player 1: (2,2), choice: swap with player 2"),
    ("game_4p_default", "move 9: player 2: (1,6), bonus: a bomb"),
    ("game_2p_default", "move 0: player 1: (5,3)"),
]


@pytest.mark.parametrize("log, line", KINDS, ids=[line.split(": ", 2)[-1].split(" ")[0] + "-" + log for log, line in KINDS])
def test_swc_replay_names_every_move_kind(log, line):
    lines = swc_replay(GOLDEN / log / "log_game.txt").splitlines()
    assert line in lines


def test_the_viewer_shows_the_same_text_as_swc_replay():
    path = GOLDEN / "rules_specials" / "log_game.txt"
    printed = [line.split(": ", 1)[1] for line in swc_replay(path).splitlines() if line.startswith("move ")]
    text = path.read_text()
    record = ReversiRecord(str(path), lambda: (0, text), finished=True)
    shown = [step.note for step in record.steps() if step.last_move is not None]
    assert shown == printed and "player 1: bomb (4,0)" in shown
