"""The Robo Rally door over TCP: lobby rules and errors, bad input, connection loss, Alive,
whole games of the reference bots, many games at once."""

import json

import pytest
import trio

from swc_local.client.roborally_bot import RoboRallyBot

from tests.roborally_wire import Wire, join, running_door

MAPS = ["Dizzy Highway", "Extra Crispy", "Lost Bearings", "Death Trap"]


async def hello(port, is_ai=True):
    wire = await Wire.connect(port)
    await wire.expect("HelloClient")
    await wire.send("HelloServer", {"group": "g", "isAI": is_ai, "protocol": "Version 1.0"})
    client_id = (await wire.expect("Welcome"))["clientID"]
    return wire, client_id


async def test_handshake_errors():
    async with running_door() as door:
        wire = await Wire.connect(door.port)
        await wire.expect("HelloClient")
        await wire.send("Alive")  # answers nothing, never an error
        await wire.send("PlayerValues", {"name": "x", "figure": 1})
        await wire.expect("Error", {"error": "Send HelloServer first"})
        await wire.send("HelloServer", {"group": 5, "isAI": False, "protocol": "Version 1.0"})
        await wire.expect("Error", {"error": "Invalid field: group"})  # present, not a string (spec §4.2)
        await wire.send("HelloServer", {"group": "g", "protocol": "Version 1.0", "clientID": 77})
        await wire.expect("Welcome", {"clientID": 1})
        await wire.send("HelloServer", {"group": "g", "protocol": "Version 1.0"})
        await wire.expect("Error", {"error": "Already welcomed"})
        other = await Wire.connect(door.port)
        await other.expect("HelloClient")
        await other.send("HelloServer", {"group": "g", "isAI": False, "protocol": "Version 2.0"})
        await other.expect("Error", {"error": "Protocol version not supported: Version 2.0"})
        await other.expect_closed()


async def test_malformed_lines_keep_the_connection_and_a_too_long_line_closes_it():
    async with running_door(max_line_bytes=1000) as door:
        wire = await Wire.connect(door.port)
        await wire.expect("HelloClient")
        await wire.send_raw(b"{oops\r\n\n   \n[1]\n" + b'{"messageType":"Nope","messageBody":{}}\n'
                            + b'{"messageType":"TimerStarted","messageBody":{}}\n' + b"\xff\n")
        await wire.expect("Error", {"error": "Malformed JSON"})
        await wire.expect("Error", {"error": "Malformed message"})
        await wire.expect("Error", {"error": "Unknown message type: Nope"})
        await wire.expect("Error", {"error": "Malformed JSON"})
        await wire.send("HelloServer", {"group": "g", "isAI": False, "protocol": "Version 1.0"})
        await wire.expect("Welcome")
        await wire.send_raw(b"x" * 2000)
        await wire.expect("Error", {"error": "Message too long"})
        await wire.expect_closed()


async def test_lobby_rules_and_errors():
    async with running_door() as door:
        a, id_a = await hello(door.port, is_ai=False)
        await a.send("SetStatus", {"ready": True})
        await a.expect("Error", {"error": "Send PlayerValues first"})
        await a.send("SetStartingPoint", {"x": 1, "y": 1})
        await a.expect("Error", {"error": "You are not a player"})
        await a.send("PlayerValues", {"name": "A", "figure": 9})
        await a.expect("Error", {"error": "Invalid figure: 9"})
        await a.send("PlayerValues", {"name": "A", "figure": 5.0})
        await a.expect("PlayerAdded", {"clientID": id_a, "name": "A", "figure": 5})
        await a.send("PlayerValues", {"name": "A", "figure": 4})
        await a.expect("Error", {"error": "Player values already set"})
        b, id_b = await hello(door.port)
        await b.expect("PlayerAdded", {"clientID": id_a, "name": "A", "figure": 5})
        await b.send("PlayerValues", {"name": "B", "figure": 5})
        await b.expect("Error", {"error": "Figure 5 is already taken"})
        await b.send("PlayerValues", {"name": "B", "figure": 0})
        for wire in (a, b):
            await wire.expect("PlayerAdded", {"clientID": id_b, "name": "B", "figure": 0})
        await b.send("MapSelected", {"map": "Death Trap"})
        await b.expect("Error", {"error": "You may not select the map"})
        await b.send("SendChat", {"message": "psst", "to": id_a})
        await a.expect("ReceivedChat", {"message": "psst", "from": id_b, "isPrivate": True})
        await b.send("SendChat", {"message": "hi all", "to": -1})
        for wire in (a, b):
            await wire.expect("ReceivedChat", {"message": "hi all", "from": id_b, "isPrivate": False})
        await b.send("SendChat", {"message": "?", "to": 999})
        await b.expect("Error", {"error": "Unknown recipient: 999"})
        await a.send("SetStatus", {"ready": True})
        for wire in (a, b):
            await wire.expect("PlayerStatus", {"clientID": id_a, "ready": True})
        await a.expect("SelectMap", {"availableMaps": MAPS})
        await a.send("MapSelected", {"map": "Nowhere"})
        await a.expect("Error", {"error": "Unknown map: Nowhere"})
        await a.send("MapSelected", {"map": "Lost Bearings"})
        for wire in (a, b):
            await wire.expect("MapSelected", {"map": "Lost Bearings"})
        late, id_late = await hello(door.port)
        await late.expect("PlayerAdded", {"clientID": id_a, "name": "A", "figure": 5})
        await late.expect("PlayerAdded", {"clientID": id_b, "name": "B", "figure": 0})
        await late.expect("PlayerStatus", {"clientID": id_a, "ready": True})
        await late.expect("MapSelected", {"map": "Lost Bearings"})
        await b.send("SetStatus", {"ready": True})
        for wire in (a, b, late):
            await wire.expect("PlayerStatus", {"clientID": id_b, "ready": True})
            await wire.expect("GameStarted")
            await wire.expect("ActivePhase", {"phase": 0})
            await wire.expect("CurrentPlayer", {"clientID": id_a})
        await late.send("SetStartingPoint", {"x": 0, "y": 3})
        await late.expect("Error", {"error": "You are not a player"})
        await b.send("SetStartingPoint", {"x": 0, "y": 3})
        await b.expect("Error", {"error": "Not your turn"})
        await a.send("SetStartingPoint", {"x": "0", "y": 3})
        await a.expect("Error", {"error": "Invalid field: x"})
        await a.send("SetStartingPoint", {"x": 5, "y": 5})
        await a.expect("Error", {"error": "Not a start point: (5, 5)"})
        await a.send("SetStatus", {"ready": False})
        await a.expect("Error", {"error": "Game already running"})
        await a.send("SelectedCard", {"card": "MoveI", "register": 1})
        await a.expect("Error", {"error": "Not in the programming phase"})
        # a newcomer opens a fresh lobby in swc serve (spec 10.1), with a new client ID
        fresh, id_fresh = await hello(door.port)
        assert id_fresh == id_late + 1
        await fresh.send("SendChat", {"message": "anyone?", "to": -1})
        await fresh.expect("ReceivedChat", {"message": "anyone?", "from": id_fresh, "isPrivate": False})
        # a disconnect in the game: the other wins
        await b.aclose()
        for wire in (a, late):
            await wire.expect("ConnectionUpdate", {"clientID": id_b, "isConnected": False, "action": "Remove"})
            await wire.expect("GameFinished", {"clientID": id_a})
            await wire.expect_closed()


async def test_all_ai_lobby_server_chooses_the_map_and_single_game_refuses_latecomers():
    async with running_door(single_game=True, seed=5) as door:
        a, id_a = await join(door.port, "A", 1)
        b, id_b = await join(door.port, "B", 2)
        await a.send("SetStatus", {"ready": True})
        await b.send("SetStatus", {"ready": True})
        for wire in (a, b):
            await wire.expect("PlayerStatus", {"clientID": id_a, "ready": True}) if wire is b else None
        seen = []
        while True:
            kind, body = await b.recv()
            seen.append(kind)
            if kind == "GameStarted":
                break
        assert seen[-2] == "MapSelected"
        late = await Wire.connect(door.port)
        await late.expect("HelloClient")
        await late.send("HelloServer", {"group": "g", "isAI": True, "protocol": "Version 1.0"})
        await late.expect("Error", {"error": "Game already running"})
        await late.expect_closed()


async def test_lobby_disconnect_and_selector_moves_on():
    async with running_door() as door:
        a, id_a = await join(door.port, "A", 1, is_ai=False)
        b, id_b = await join(door.port, "B", 2, is_ai=False)
        await a.recv()  # PlayerAdded of B
        await a.send("SetStatus", {"ready": True})
        await a.expect("PlayerStatus")
        await a.expect("SelectMap")
        await b.send("SetStatus", {"ready": True})
        await b.expect("PlayerStatus", {"clientID": id_a, "ready": True})
        await b.expect("PlayerStatus", {"clientID": id_b, "ready": True})
        await a.aclose()
        await b.expect("ConnectionUpdate", {"clientID": id_a, "isConnected": False, "action": "Remove"})
        await b.expect("SelectMap", {"availableMaps": MAPS})


async def silent_player(port, name, figure):
    """Joins, readies, takes its start point when asked, then never sends anything again."""
    wire, client_id = await join(port, name, figure)
    await wire.send("SetStatus", {"ready": True})
    return wire, client_id


async def test_timer_fills_registers_of_a_silent_player_and_auto_plays(autojump_clock):
    async with running_door(map="Death Trap", setup_timeout=0.05, timer=0.2, play_card_timeout=0.05) as door:
        quiet, quiet_id = await silent_player(door.port, "Q", 1)
        async with trio.open_nursery() as nursery:
            reports = []

            async def bot():
                reports.append(await RoboRallyBot(greedy=True, seed=3).play("127.0.0.1", door.port))

            nursery.start_soon(bot)
            got = []
            while True:
                message = await quiet.recv(timeout=20)
                assert message is not None
                got.append(message)
                if message[0] == "GameFinished" or sum(1 for m in got if m[0] == "TimerEnded") >= 3:
                    break
            nursery.cancel_scope.cancel()
        ended = [body for kind, body in got if kind == "TimerEnded"]
        assert ended and all(body["clientIDs"] == [quiet_id] for body in ended)
        assert [kind for kind, _ in got].count("CardsYouGotNow") >= 1
        assert {"clientID": quiet_id, "x": 11, "y": 1} == next(b for k, b in got if k == "StartingPointTaken")
        assert any(kind == "CardPlayed" and body["clientID"] == quiet_id for kind, body in got)
        assert not any(kind == "Error" for kind, _ in got)


async def test_a_client_that_never_answers_alive_is_removed():
    async with running_door(alive_interval=0.3, map="Dizzy Highway") as door:
        a, id_a = await join(door.port, "A", 1)
        b, id_b = await join(door.port, "B", 2)
        await a.expect("PlayerAdded", {"clientID": id_b, "name": "B", "figure": 2})
        got = []

        async def answer_alive():
            while True:
                message = await b.recv(timeout=5)
                if message is None:
                    return
                got.append(message)
                if message[0] == "Alive":
                    await b.send("Alive")
                if message[0] == "ConnectionUpdate":
                    return

        async with trio.open_nursery() as nursery:
            nursery.start_soon(answer_alive)
            await a.expect("Alive")  # a does not answer
        assert ("ConnectionUpdate", {"clientID": id_a, "isConnected": False, "action": "Remove"}) in got
        assert sum(1 for kind, _ in got if kind == "Alive") >= 1


async def run_bots(port, count, greedy=True, seed=0):
    reports = [None] * count

    async def one(index):
        reports[index] = await RoboRallyBot(greedy=greedy, seed=seed * 10 + index).play("127.0.0.1", port)

    async with trio.open_nursery() as nursery:
        for index in range(count):
            nursery.start_soon(one, index)
            await trio.sleep(0.01)  # connection order = client ID order
    return reports


@pytest.mark.parametrize("players", [2, 3, 4, 6])
async def test_greedy_bots_finish_on_dizzy_highway(players):
    async with running_door(map="Dizzy Highway", single_game=True, timer=0.05, min_players=players) as door:
        with trio.fail_after(60):
            reports = await run_bots(door.port, players, seed=players)
        assert all(r.finished for r in reports)
        winner = reports[0].winner
        assert all(r.winner == winner for r in reports) and winner is not None
        assert not [e for r in reports for e in r.errors]


@pytest.mark.parametrize("name", MAPS[1:])
async def test_random_bots_play_the_other_maps_without_errors(name):
    async with running_door(map=name, single_game=True, timer=0.05, programming_limit=2.0, min_players=3) as door:
        reports = []
        with trio.move_on_after(1.5):
            reports = await run_bots(door.port, 3, greedy=False, seed=len(name))
        assert not [e for r in reports if r for e in r.errors]


async def test_many_games_at_once_and_a_broken_client_beside_them(tmp_path):
    async with running_door(map="Dizzy Highway", min_players=2, timer=0.05, log_dir=str(tmp_path)) as door:
        results = []

        lobby_lock = trio.Lock()

        async def game(seed):
            bots = [RoboRallyBot(greedy=True, seed=seed * 10 + seat) for seat in range(2)]
            async with trio.open_nursery() as games:
                async with lobby_lock:  # the two bots of one game fill one lobby, even under load
                    for bot in bots:
                        games.start_soon(bot.play, "127.0.0.1", door.port)
                        await trio.sleep(0.01)
                    while not all(bot.board is not None for bot in bots):
                        await trio.sleep(0.01)
            results.append([bot.report for bot in bots])

        async def vandal():
            wire = await Wire.connect(door.port)
            await wire.expect("HelloClient")
            for _ in range(50):
                await wire.send_raw(b"{broken\n")
            await wire.send_raw(b'{"messageType":"SelectedCard","messageBody":{"card":1}}\n')
            await wire.aclose()

        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                for seed in range(5):
                    nursery.start_soon(game, seed)
                    nursery.start_soon(vandal)
        assert len(results) == 5
        for reports in results:
            assert all(r.finished for r in reports) and reports[0].winner == reports[1].winner
        await trio.sleep(0.2)
        logs = sorted(tmp_path.glob("*.jsonl"))
        assert len(logs) == 5
        header = json.loads(logs[0].read_text().splitlines()[0])
        assert header["map"] == "Dizzy Highway" and header["winner"] in header["players"]


async def test_troublemakers_get_what_the_spec_says_and_games_beside_them_finish(autojump_clock):
    """A mid-game disconnect, a client that never answers Alive, one that stays silent under the
    timer, and a stream of malformed lines, while other games run on the same door (on trio's
    mock clock: the Alive interval and the timer are virtual, whatever the machine's load)."""
    async with running_door(map="Dizzy Highway", min_players=3, alive_interval=0.5, timer=0.1) as door:
        outcome = {}

        async def group(nursery, bots, extra=None):
            """Start the bots (and an extra coroutine that joins as a player) as one lobby."""
            for bot in bots:
                nursery.start_soon(bot.play, "127.0.0.1", door.port)
                await trio.sleep(0.01)
            if extra is not None:
                nursery.start_soon(extra)
            while not all(bot.board is not None for bot in bots):
                await trio.sleep(0.01)

        class Quitter(RoboRallyBot):
            def on_YourCards(self, body):
                raise SystemExit  # leaves the game mid-way: its connection closes

        class Deaf(RoboRallyBot):
            alive_seen = None

            def on_Alive(self, body):
                if self.board is None:
                    super().on_Alive(body)
                else:
                    self.alive_seen = trio.current_time()  # in the game it stops answering

            def on_CurrentPlayer(self, body):
                pass  # nor takes a start point: the game waits until the Alive rule removes it

        async def quitter():
            bot = Quitter(greedy=True, seed=99)
            try:
                await bot.play("127.0.0.1", door.port)
            except SystemExit:
                outcome["quitter_id"] = bot.me

        async def silent():
            wire, client_id = await join(door.port, "Quiet", 6)
            await wire.send("SetStatus", {"ready": True})
            seen = []
            while True:
                message = await wire.recv(timeout=20)
                if message is None:
                    break
                seen.append(message)
                if message[0] == "Alive":
                    await wire.send("Alive")
                if message == ("CurrentPlayer", {"clientID": client_id}) and not any(k == "YourCards" for k, _ in seen):
                    await wire.send("SetStartingPoint", {"x": 1, "y": 8})
                if message[0] == "GameFinished":
                    break
            outcome["silent"] = (client_id, seen)

        async def vandal():
            wire = await Wire.connect(door.port)
            await wire.expect("HelloClient")
            for _ in range(200):
                await wire.send_raw(b"\x00\x01 not json at all\r\n")
            outcome["vandal"] = [await wire.recv() for _ in range(200)]

        clean_a = [RoboRallyBot(greedy=True, seed=s) for s in (1, 2, 3)]
        with_quitter = [RoboRallyBot(greedy=True, seed=s) for s in (4, 5)]
        with_silent = [RoboRallyBot(greedy=True, seed=s) for s in (6, 7)]
        deaf = Deaf(greedy=True, seed=11)
        with_deaf = [deaf, RoboRallyBot(greedy=True, seed=12), RoboRallyBot(greedy=True, seed=13)]
        clean_b = [RoboRallyBot(greedy=True, seed=s) for s in (8, 9, 10)]
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                await group(nursery, clean_a)
                nursery.start_soon(vandal)
                nursery.start_soon(quitter)
                await trio.sleep(0.05)
                await group(nursery, with_quitter)
                await group(nursery, with_silent, extra=silent)
                await group(nursery, with_deaf)
                await group(nursery, clean_b)
        assert outcome["quitter_id"] and not deaf.report.finished and deaf.alive_seen is not None
        for bot in clean_a + clean_b + with_quitter + with_silent + with_deaf[1:]:
            assert bot.report.finished and not bot.report.errors, bot.report
        for players in (clean_a, with_quitter, with_deaf[1:], clean_b):
            assert players[0].report.winner in {b.me for b in players}
        assert outcome["vandal"] == [("Error", {"error": "Malformed JSON"})] * 200
        quiet_id, seen = outcome["silent"]
        assert ("TimerEnded", {"clientIDs": [quiet_id]}) in seen
        assert seen[-1][0] == "GameFinished"
        assert not [m for m in seen if m[0] == "Error"]


async def test_connection_limit_and_hello_timeout(autojump_clock):
    async with running_door(max_connections=2, hello_timeout=0.2) as door:
        first = await Wire.connect(door.port)
        await first.expect("HelloClient")
        second = await Wire.connect(door.port)
        await second.expect("HelloClient")
        await second.send("HelloServer", {"group": "g", "isAI": True, "protocol": "Version 1.0"})
        await second.expect("Welcome")
        third = await Wire.connect(door.port)
        assert await third.recv() is None  # refused: closed without a word
        assert await first.recv(timeout=2) is None  # never said HelloServer: closed after 0.2 s
        await trio.sleep(0.3)
        await second.send("SendChat", {"message": "still here", "to": -1})
        await second.expect("ReceivedChat", {"message": "still here", "from": 1, "isPrivate": False})
