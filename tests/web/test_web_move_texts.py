"""A person's seat reads every move in the game's own notation (issue 41): the moves offered and
the last move, through the seat API the page draws from, for every XML game against its
reference bot.  Before, the offers read the official ``toString`` or a repr (``PENTO_V``,
``x=8 y=0 direction=UP_RIGHT``, ``Schwimme von [3|9] ...``) and the last move the flattened XML
(``from(x=7 y=3), direction()``)."""

from __future__ import annotations

import re

import pytest
import trio

from swc_local.games import registry

from tests.web_helpers import http, start_viewer_server

_DIR8 = r"(UP|DOWN|LEFT|RIGHT|UP_LEFT|UP_RIGHT|DOWN_LEFT|DOWN_RIGHT)"
_HEX = r"\(-?\d+,-?\d+,-?\d+\)"
_MQ_ACTION = r"(accelerate [-+]\d|advance -?\d|turn [A-Z_]+|push [A-Z_]+)"
_BLOKUS = r"(BLUE|YELLOW|RED|GREEN) (skips|[A-Z_]+( \((RIGHT|MIRROR|LEFT)(, flipped)?\)| \(flipped\))? at \(\d+,\d+\))"
NOTATION = {  # every XML game of the registry (a new one fails here until its notation is added)
    "swc_2019_piranhas": rf"\(\d,\d\) {_DIR8}",
    "swc_2026_piranhas": rf"\(\d,\d\) {_DIR8}",
    "swc_2018_hase_und_igel": r"advance \d+ to \d+ \([A-Z_0-9]+\)(, card [A-Z_]+( [-+]\d+)?)*|carrots [-+]10|eat a salad"
                              r"|fall back|skip",
    "swc_2025_hase_und_igel": r"advance \d+ to \d+ \([A-Z_0-9]+\)(, (card|cards|buy) [A-Z_, ]+)?|carrots [-+]10"
                              r"|eat a salad|fall back",
    "swc_2022_ostseeschach": r"(Herzmuschel|Moewe|Seestern|Robbe) \(\d,\d\) -> \(\d,\d\)",
    "swc_2027_blokus": _BLOKUS,
    "swc_2021_blokus": _BLOKUS,
    "swc_2023_penguins": r"set on \(\d+,\d+\)|\(\d+,\d+\) -> \(\d+,\d+\)",
    "swc_2024_mississippi_queen": rf"{_MQ_ACTION}(, {_MQ_ACTION})*",
    "swc_2020_hive": rf"set [A-Z]+ at {_HEX}|[A-Z]+ {_HEX} -> {_HEX}|skip",
}


async def _turn(url: str, seat: str, after: int) -> dict:
    """The seat's state once it is the seat's turn again (or the game is over)."""
    while True:
        status, data = await http(f"{url}/api/seats/{seat}?after={after}")
        assert status == 200, data
        if data["your_turn"] or data["over"]:
            return data
        after = data["version"]


async def _offers_and_reply(url: str, game: str) -> tuple[list[str], dict]:
    """A new table against the bot: the texts of the seat's first offers, and its state after the
    bot's reply (over when that reply ended the game)."""
    status, table = await http(f"{url}/api/tables", data=b'{"game": "%s", "seats": ["you", "bot"]}' % game.encode(),
                               headers={"Content-Type": "application/json"})
    assert status == 200, table
    seat = table["seats"][0]["seat"]
    data = await _turn(url, seat, -1)
    texts = [move["text"] for move in data["moves"]]
    shortest = min(range(len(texts)), key=lambda i: len(texts[i]))  # a slow Mississippi Queen ship
    status, sent = await http(f"{url}/api/seats/{seat}/move", data=b'{"index": %d}' % shortest,
                              headers={"Content-Type": "application/json"})
    assert status == 200, sent
    data = await _turn(url, seat, sent["version"])
    while not data["over"] and data["step"] != f"turn {data['turn']}":  # the viewer's record catches up
        await trio.sleep(0.05)
        status, data = await http(f"{url}/api/seats/{seat}")
    return texts, data


@pytest.mark.parametrize("game", sorted(g.game_type for g in registry.entries() if g.family == registry.XML))
async def test_offered_moves_and_the_last_move_read_in_the_games_notation(nursery, game):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    with trio.fail_after(120):
        for _ in range(5):  # a new room when the bot's reply ended the game (a stuck ship: no last move)
            texts, data = await _offers_and_reply(url, game)
            assert texts and all(re.fullmatch(NOTATION[game], text) for text in texts), texts[:5]
            if not data["over"]:
                break
    assert not data["over"]
    assert re.fullmatch(NOTATION[game], data["last_move"]), data["last_move"]  # the bot's reply
