"""Spec roborally.md §8: the whole first round of a 2-player game on Dizzy Highway, message by
message, over TCP. The hands are the spec's examples (the decks are stacked through the game
factory); everything else is the server's own doing."""

import random

from swc_local.games.roborally.cards import new_deck
from swc_local.games.roborally.game import Game

from tests.roborally_wire import Wire, running_door

HAND_1 = ["MoveII", "TurnRight", "MoveI", "MoveIII", "Again", "TurnLeft", "MoveI", "BackUp", "PowerUp"]
HAND_2 = ["MoveI", "MoveI", "TurnRight", "MoveII", "TurnLeft", "Again", "UTurn", "MoveIII", "BackUp"]
MAPS = ["Dizzy Highway", "Extra Crispy", "Lost Bearings", "Death Trap"]
SIX = ["BlueConveyorBelt", "GreenConveyorBelt", "WallShooting", "PlayerShooting", "EnergySpace", "CheckPoint"]


def stacked(first: list[str]) -> list[str]:
    rest = new_deck()
    for card in first:
        rest.remove(card)
    return list(reversed(first + rest))  # cards are drawn from the end


def stacked_game(board, pids, rng):
    game = Game(board, pids, rng)
    game.robots[pids[0]].draw = stacked(HAND_1 + ["UTurn"])
    game.robots[pids[1]].draw = stacked(HAND_2)
    return game


async def animations(wire, kinds=SIX):
    for kind in kinds:
        await wire.expect("Animation", {"type": kind})


async def test_whole_first_round_message_by_message(autojump_clock):
    """On trio's mock clock: the 1.5 s programming timer runs out in virtual time."""
    async with running_door(game_factory=stacked_game, timer=1.5, play_card_timeout=5.0) as door:
        one = await Wire.connect(door.port)
        await one.expect("HelloClient", {"protocol": "Version 1.0"})
        await one.send("HelloServer", {"group": "TolleTrolle", "isAI": False, "protocol": "Version 1.0"})
        await one.expect("Welcome", {"clientID": 1})
        await one.send("PlayerValues", {"name": "Alice", "figure": 1})
        await one.expect("PlayerAdded", {"clientID": 1, "name": "Alice", "figure": 1})
        two = await Wire.connect(door.port)
        await two.expect("HelloClient", {"protocol": "Version 1.0"})
        await two.send("HelloServer", {"group": "BotGroup", "isAI": True, "protocol": "Version 1.0"})
        await two.expect("Welcome", {"clientID": 2})
        await two.expect("PlayerAdded", {"clientID": 1, "name": "Alice", "figure": 1})
        await two.send("PlayerValues", {"name": "Bot", "figure": 2})
        for wire in (one, two):
            await wire.expect("PlayerAdded", {"clientID": 2, "name": "Bot", "figure": 2})
        await one.send("SetStatus", {"ready": True})
        for wire in (one, two):
            await wire.expect("PlayerStatus", {"clientID": 1, "ready": True})
        await one.expect("SelectMap", {"availableMaps": MAPS})
        await two.send("SetStatus", {"ready": True})
        for wire in (one, two):
            await wire.expect("PlayerStatus", {"clientID": 2, "ready": True})
        await one.send("MapSelected", {"map": "Dizzy Highway"})
        for wire in (one, two):
            await wire.expect("MapSelected", {"map": "Dizzy Highway"})
            game_map = (await wire.expect("GameStarted"))["gameMap"]
            assert len(game_map) == 13 and len(game_map[0]) == 10
            await wire.expect("ActivePhase", {"phase": 0})
            await wire.expect("CurrentPlayer", {"clientID": 1})

        # setup
        await one.send("SetStartingPoint", {"x": 1, "y": 4})
        for wire in (one, two):
            await wire.expect("StartingPointTaken", {"x": 1, "y": 4, "clientID": 1})
            await wire.expect("CurrentPlayer", {"clientID": 2})
        await two.send("SetStartingPoint", {"x": 1, "y": 5})
        for wire in (one, two):
            await wire.expect("StartingPointTaken", {"x": 1, "y": 5, "clientID": 2})
            await wire.expect("ActivePhase", {"phase": 2})
        await one.expect("YourCards", {"cardsInHand": HAND_1})
        await two.expect("NotYourCards", {"clientID": 1, "cardsInHand": 9})
        await two.expect("YourCards", {"cardsInHand": HAND_2})
        await one.expect("NotYourCards", {"clientID": 2, "cardsInHand": 9})

        # programming: the bot finishes, Alice leaves register 5 empty
        for register, card in enumerate(["MoveI", "Again", "TurnRight", "MoveII", "TurnLeft"], start=1):
            await two.send("SelectedCard", {"card": card, "register": register})
            for wire in (one, two):
                await wire.expect("CardSelected", {"clientID": 2, "register": register, "filled": True})
        for wire in (one, two):
            await wire.expect("SelectionFinished", {"clientID": 2})
            await wire.expect("TimerStarted", {})
        for register, card in enumerate(["TurnLeft", "MoveII", "TurnRight", "MoveIII"], start=1):
            await one.send("SelectedCard", {"card": card, "register": register})
            for wire in (one, two):
                await wire.expect("CardSelected", {"clientID": 1, "register": register, "filled": True})
        for wire in (one, two):
            await wire.expect("TimerEnded", {"clientIDs": [1]})
        await one.expect("CardsYouGotNow", {"cards": ["UTurn"]})
        for wire in (one, two):
            await wire.expect("ActivePhase", {"phase": 3})

        async def turn(wire, other, client_id, card):
            for w in (one, two):
                await w.expect("CurrentPlayer", {"clientID": client_id})
            await wire.send("PlayCard", {"card": card})
            await other.expect("CardPlayed", {"clientID": client_id, "card": card})

        async def both(kind, body):
            for wire in (one, two):
                await wire.expect(kind, body)

        # register 1
        await both("CurrentCards", {"activeCards": [{"clientID": 1, "card": "TurnLeft"}, {"clientID": 2, "card": "MoveI"}]})
        await turn(one, two, 1, "TurnLeft")
        await both("PlayerTurning", {"clientID": 1, "rotation": "counterclockwise"})
        await turn(two, one, 2, "MoveI")
        await both("Movement", {"clientID": 2, "x": 2, "y": 5})
        for wire in (one, two):
            await animations(wire)
        # register 2
        await both("CurrentCards", {"activeCards": [{"clientID": 1, "card": "MoveII"}, {"clientID": 2, "card": "Again"}]})
        await turn(one, two, 1, "MoveII")
        await both("Movement", {"clientID": 1, "x": 1, "y": 3})
        await both("Movement", {"clientID": 1, "x": 1, "y": 2})
        await turn(two, one, 2, "Again")
        for wire in (one, two):
            await animations(wire)
        # register 3: tie at d = 3, robot 2 first
        await both("CurrentCards", {"activeCards": [{"clientID": 2, "card": "TurnRight"}, {"clientID": 1, "card": "TurnRight"}]})
        await turn(two, one, 2, "TurnRight")
        await both("PlayerTurning", {"clientID": 2, "rotation": "clockwise"})
        await turn(one, two, 1, "TurnRight")
        await both("PlayerTurning", {"clientID": 1, "rotation": "clockwise"})
        for wire in (one, two):
            await animations(wire)
        # register 4
        await both("CurrentCards", {"activeCards": [{"clientID": 2, "card": "MoveII"}, {"clientID": 1, "card": "MoveIII"}]})
        await turn(two, one, 2, "MoveII")
        await both("Movement", {"clientID": 2, "x": 2, "y": 6})
        await both("Movement", {"clientID": 2, "x": 2, "y": 7})
        await turn(one, two, 1, "MoveIII")
        for x in (2, 3, 4):
            await both("Movement", {"clientID": 1, "x": x, "y": 2})
        for wire in (one, two):
            await wire.expect("Animation", {"type": "BlueConveyorBelt"})
            await wire.expect("Movement", {"clientID": 1, "x": 4, "y": 3})
            await wire.expect("Movement", {"clientID": 1, "x": 4, "y": 4})
            await animations(wire, SIX[1:])
        # register 5
        await both("CurrentCards", {"activeCards": [{"clientID": 1, "card": "UTurn"}, {"clientID": 2, "card": "TurnLeft"}]})
        await turn(one, two, 1, "UTurn")
        await both("PlayerTurning", {"clientID": 1, "rotation": "clockwise"})
        await both("PlayerTurning", {"clientID": 1, "rotation": "clockwise"})
        await turn(two, one, 2, "TurnLeft")
        await both("PlayerTurning", {"clientID": 2, "rotation": "counterclockwise"})
        for wire in (one, two):
            await wire.expect("Animation", {"type": "BlueConveyorBelt"})
            await wire.expect("Movement", {"clientID": 1, "x": 4, "y": 5})
            await wire.expect("Movement", {"clientID": 1, "x": 4, "y": 6})
            await animations(wire, SIX[1:])
        # end of round: no reboots, no shuffle (10 cards left), next programming phase
        await both("ActivePhase", {"phase": 2})
        assert (await one.expect("YourCards"))["cardsInHand"]
        await two.expect("NotYourCards", {"clientID": 1, "cardsInHand": 9})
        room = next(iter(door.switchboard.rooms))
        robots = room.game.robots
        assert (robots[1].pos, robots[1].facing, robots[1].energy) == ((4, 6), "left", 5)
        assert (robots[2].pos, robots[2].facing, robots[2].energy) == ((2, 7), "right", 5)
        await one.aclose()
        await two.aclose()
