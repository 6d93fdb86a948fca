"""What a bot prints at the end (issue 43): ``client.outcome`` and ``str(result)`` in words, also
when an illegal move left the bot without a result."""

from __future__ import annotations

import trio

from swc_local.client.client import Client
from swc_local.client.messages import MoveRequest, Result, Score, parse
from swc_local.games import registry
from swc_local.protocol.element import Element, parse as parse_xml

PIRANHAS = registry.get("swc_2019_piranhas")


async def test_after_an_illegal_move_the_outcome_says_why_there_is_no_result(server):
    red = await Client.connect("127.0.0.1", server.door("xml").port, "piranhas")
    blue = await Client.connect("127.0.0.1", server.door("xml").port, "piranhas")
    async with red, blue:
        await red.join()
        await blue.join()
        assert red.outcome == "no result yet: the game is not over"
        with trio.fail_after(5):
            while not isinstance(await red.receive(), MoveRequest):
                pass
            await red.send_move(Element("data", {"class": "move", "x": "5", "y": "5", "direction": "UP"}))
            async for _ in red:
                pass
    assert red.result is None  # the classic server sends a rule breaker no result
    assert red.outcome.startswith("no result: the server said \"Ungueltiger Zug von 'Unknown'.")
    assert red.outcome.endswith("and closed the connection"), red.outcome


async def test_a_whole_game_ends_with_the_result_in_words_from_each_side(server):
    outcomes = {}

    async def player(name: str, delay: float) -> None:
        await trio.sleep(delay)
        async with await Client.connect("127.0.0.1", server.door("xml").port, "piranhas") as client:
            await client.join()
            async for message in client:
                if isinstance(message, MoveRequest):
                    await client.send_move(PIRANHAS.legal_moves(client.memento.game)[0])
            outcomes[client.color] = (client.outcome, str(client.result))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(player, "first", 0)
        nursery.start_soon(player, "second", 0.05)
    (red, text), (blue, same) = outcomes["red"], outcomes["blue"]
    assert text == same and "Result(" not in text
    assert red.split(" as ")[0] in ("won", "lost", "draw") and red.split(": ")[0].endswith(" as red")
    assert blue.split(": ")[0].endswith(" as blue") and "(Gewinner/\u2205 Schwarm)" in red


def test_str_of_a_result_names_winner_causes_parts_and_the_reason_once():
    xml = ('<room roomId="r"><data class="result"><definition><fragment name="Gewinner"/>'
           '<fragment name="Punkte"/></definition>'
           '<score cause="RULE_VIOLATION" reason="Ungueltiger Zug"><part>0</part><part>3</part></score>'
           '<score cause="REGULAR" reason="Ungueltiger Zug"><part>2</part><part>5</part></score>'
           '<winner displayName="b" color="BLUE"/></data></room>')
    result = parse(parse_xml(xml))
    assert isinstance(result, Result)
    assert str(result) == ("seat 2 won: seat 1 RULE_VIOLATION 0/3, seat 2 REGULAR 2/5 (Gewinner/Punkte): "
                           "Ungueltiger Zug")
    assert result.describe(0, "red") == "lost as red: RULE_VIOLATION 0/3 against REGULAR 2/5 (Gewinner/Punkte): Ungueltiger Zug"
    draw = Result("r", (), (Score("REGULAR", None, ("1",)), Score("REGULAR", None, ("1",))), None, None)
    assert str(draw) == "draw: seat 1 REGULAR 1, seat 2 REGULAR 1" and draw.verdict(1) == "draw"
