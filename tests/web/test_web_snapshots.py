"""A live XML game is kept by the viewer as copies of the room's game, not as each move's bytes.

The viewer's record of a live room is called on every move of every room, watched or not; it keeps
a snapshot of the game per state (``GameHooks.snapshot``) and renders a state only when a page asks.
These tests check, for every XML game, that a snapshot shows exactly the state of the memento the
observers got at that move, however the game goes on afterwards.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from swc_local.games import registry
from swc_local.protocol import messages as msg
from swc_local.protocol.element import parse
from swc_local.server.web.book import GameBook
from swc_local.server.xml.records import XmlRecord

XML_PLUGINS = registry.all_plugins()  # the six XML games


def live_room(plugin, game, names=("Alice", "Bob")):
    slots = [SimpleNamespace(display_name=name) for name in names]
    return SimpleNamespace(id="r1", game=game, slots=slots, plugin=plugin, status=SimpleNamespace(value="running"))


def play(plugin, record, game, rng, plies=60) -> list[bytes]:
    """Mementos as a room sends them to its observers (each once more, as after a ``step``)."""
    sent = []
    for _ in range(plies):
        memento = msg.memento("r1", game.state_element()).render(1).encode()
        record.send(memento)
        record.send(memento)  # a state re-sent counts once
        sent.append(memento)
        move = plugin.random_move(game, rng) if game.outcome() is None else None
        if move is None:
            break
        game.apply(game.current_seat, move)
    return sent


def state_of(memento: bytes) -> str:
    return parse(memento).find("data").find("state").render()


@pytest.mark.parametrize("plugin", XML_PLUGINS, ids=lambda plugin: plugin.game_type)
def test_every_state_of_a_live_game_is_the_memento_observers_got(plugin):
    rng = random.Random(2027)
    game = plugin.new_game(rng)
    game.set_display_names(("Alice", "Bob"))
    record = GameBook().add(XmlRecord(plugin, "live", room=live_room(plugin, game)))
    sent = play(plugin, record, game, rng)
    assert len(sent) > 3
    assert record.count() == len(sent)
    assert not any(isinstance(kept, bytes) for kept in record._mementos)  # no move's bytes kept alive
    for index, memento in enumerate(sent):  # the game went on meanwhile: each snapshot still shows its state
        assert record.state_element(index).render() == state_of(memento)
    newest = plugin.game_from_state(parse(sent[-1]).find("data").find("state"))
    assert record.step(len(sent) - 1).label == f"turn {newest.turn}"


def test_without_a_snapshot_the_memento_bytes_are_kept():
    plugin = registry.get("swc_2019_piranhas")
    rng = random.Random(5)
    game = plugin.new_game(rng)
    stand_in = SimpleNamespace(state_element=game.state_element)  # a game without the hook
    record = XmlRecord(plugin, "live", room=live_room(plugin, stand_in))
    sent = play(plugin, record, game, rng, plies=5)
    assert record._mementos == sent
    assert [record.state_element(i).render() for i in range(len(sent))] == [state_of(m) for m in sent]
