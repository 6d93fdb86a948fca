"""The Robo Rally wire mapping (games/roborally/wire.py): every event of the rules becomes
messages the codec accepts, with the recipients the spec names; the rules' card vocabulary is
the protocol's."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from swc_local.games.roborally import cards, events, wire
from swc_local.protocol import roborally as codec

EXAMPLES = [
    events.PhaseStarted(2), events.PlayerToAct(7), events.StartPointTaken(7, 1, 2), events.DeckShuffled(7),
    events.HandDealt(7, ("MoveI", "Again")), events.RegisterChanged(7, 3, True), events.SelectionDone(7),
    events.TimerRunning(), events.TimerOver((7, 8)), events.RegistersFilled(7, ("UTurn",)),
    events.RegisterRevealed(((7, "MoveI"), (8, None))), events.CardPlayed(7, "MoveI", True),
    events.EnergyGained(7, 6, "PowerUpCard"), events.CardReplaced(7, 2, "Spam"), events.Turned(7, "clockwise"),
    events.Moved(7, 3, 4), events.Rebooting(7), events.DamageToPick(7, 2, ("Virus", "Worm")),
    events.DamageTaken(7, ("Spam", "Spam")), events.BoardElementsActive("Gear"), events.CheckpointReached(7, 1),
    events.GameWon(7),
]


def test_every_event_type_has_an_example_and_a_mapping():
    assert {type(example) for example in EXAMPLES} == set(typing.get_args(events.Event))


@pytest.mark.parametrize("event", EXAMPLES, ids=lambda event: type(event).__name__)
def test_every_event_maps_to_messages_the_codec_accepts(event):
    for to, _, message_type, body in wire.messages([event]):
        assert to in ("all", "others", "one")
        codec.encode(message_type, body)  # raises for a body the message's model refuses
    assert dataclasses.is_dataclass(event)


def test_recipients_follow_the_spec():
    assert wire.messages([events.HandDealt(7, ("MoveI", "Again"))]) == [
        ("one", 7, "YourCards", {"cardsInHand": ["MoveI", "Again"]}),
        ("others", 7, "NotYourCards", {"clientID": 7, "cardsInHand": 2}),
    ]
    assert wire.messages([events.CardPlayed(7, "MoveI", False)])[0][:3] == ("all", 7, "CardPlayed")
    assert wire.messages([events.CardPlayed(7, "MoveI", True)])[0][:3] == ("others", 7, "CardPlayed")
    assert wire.messages([events.RegisterRevealed(((8, None),))])[0][3] == {"activeCards": [{"clientID": 8, "card": "Null"}]}


def test_the_rules_know_the_same_card_names_as_the_protocol():
    assert cards.CARD_NAMES == frozenset(codec.CARD_NAMES)
