"""Shared helpers for the Hase und Igel tests: the spec's example board, state setup, captures.

No tests live here; the other ``test_hase_und_igel_*`` modules import it.
"""

from __future__ import annotations

import re
from pathlib import Path

from swc_local.games.hase_und_igel import rules
from swc_local.games.hase_und_igel.rules import Move, Player, State
from swc_local.protocol.element import Element, parse
from tests.helpers import TESTS, captured_result, captured_states  # noqa: F401 -- the golden tests read them here

DATA = TESTS / "data" / "hase_und_igel_2018"

_EXAMPLE = """
 0 START      1 CARROT     2 HARE       3 HARE       4 POSITION_2 5 POSITION_1 6 CARROT     7 CARROT
 8 HARE       9 CARROT    10 SALAD     11 HEDGEHOG  12 HARE     13 CARROT    14 CARROT    15 HEDGEHOG
16 POSITION_1 17 CARROT   18 POSITION_2 19 HEDGEHOG 20 CARROT   21 POSITION_2 22 SALAD    23 CARROT
24 HEDGEHOG  25 CARROT    26 HARE      27 CARROT    28 POSITION_2 29 CARROT  30 HEDGEHOG  31 HARE
32 CARROT    33 POSITION_1 34 CARROT   35 HARE      36 POSITION_2 37 HEDGEHOG 38 CARROT   39 HARE
40 POSITION_2 41 CARROT   42 SALAD     43 HEDGEHOG  44 CARROT    45 HARE     46 POSITION_1 47 CARROT
48 POSITION_2 49 CARROT   50 HEDGEHOG  51 CARROT    52 HARE      53 CARROT   54 POSITION_2 55 CARROT
56 HEDGEHOG  57 SALAD     58 CARROT    59 POSITION_1 60 HARE     61 CARROT   62 HARE      63 CARROT
64 GOAL
"""


def _example_board() -> tuple[str, ...]:
    tokens = _EXAMPLE.split()
    board = [""] * 65
    for index, kind in zip(tokens[::2], tokens[1::2]):
        board[int(index)] = kind
    return tuple(board)


EXAMPLE_BOARD = _example_board()
"""The fixed board of spec §9."""


def make_player(color: int, index: int, carrots: int, salads: int, *,
                cards: list[str] | None = None, last: rules.Action | None = None) -> Player:
    return Player(color, index, carrots, salads,
                  list(rules.CARD_TYPES) if cards is None else list(cards), last)


def setup(red: tuple[int, int, int], blue: tuple[int, int, int], *, turn: int = 0,
          red_last: rules.Action | None = rules.advance(1),
          blue_last: rules.Action | None = rules.advance(1),
          red_cards: list[str] | None = None, blue_cards: list[str] | None = None,
          board: tuple[str, ...] = EXAMPLE_BOARD) -> State:
    """A mid-game state as §9 sets them up ("lastNonSkipAction = some advance unless stated")."""
    return State(board, make_player(rules.RED, *red, cards=red_cards, last=red_last),
                 make_player(rules.BLUE, *blue, cards=blue_cards, last=blue_last), turn)


def start() -> State:
    return rules.new_state(EXAMPLE_BOARD)


def mv(*actions: rules.Action) -> Move:
    return Move(tuple(actions))


def pos(player: Player) -> tuple[int, int, int]:
    return player.index, player.carrots, player.salads


# ---------------------------------------------------------------- captures

_SENT = re.compile(r"^\[\+\s*[\d.]+s\] (\w+) >> (<room .*</room>)$", re.M)


def transcript_moves(name: str) -> list[tuple[str, Element]]:
    """(client, ``<data class="move">``) for every move a client sent, in time order."""
    text = (DATA / f"transcript_{name}.txt").read_text(encoding="utf-8")
    return [(client, parse(room).find("data")) for client, room in _SENT.findall(text)]


def raw_sent_moves(path: Path) -> list[Element]:
    """The moves one client sent, from the ``SENT:`` markers of its raw capture."""
    text = path.read_text(encoding="utf-8")
    rooms = re.findall(r"^>+ SENT: (<room .*</room>)$", text, re.M)
    return [parse(room).find("data") for room in rooms]


def captured_winner_text(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    match = re.search(r"\n      <winner [^\n]*", text)
    assert match is not None
    if match.group(0).endswith("/>"):
        return match.group(0)
    end = text.index("\n      </winner>", match.end()) + len("\n      </winner>")
    return text[match.start():end]
