"""A person's seat of Robo Rally: a client of "Protokoll Version 1.0" (spec roborally.md §3-§5)
on a door of the table's own (server/web/door_tables.py), with the course the person picked.

The seat's client speaks JSON lines through ``protocol/roborally.py``'s codec (server/ never
imports client/): ``HelloServer`` (``isAI`` false), ``PlayerValues``, ``SetStatus``, then in the
game the person's own choices: ``SetStartingPoint`` on its setup turn, ``SelectedCard`` register
by register from its ``YourCards`` hand, ``SelectedDamage`` on ``PickDamage`` and
``RebootDirection`` after its ``Reboot``.  Everything the server says is kept as a client knows
it; every ``Error`` the server sends is shown with its own text.

Conformance notes (choices where the issue and the spec are silent):

* **Timing.** The door's own way is its settings (spec §10): a table with a person has no setup
  limit and no programming limit (both off, as the door's defaults), and waits an hour
  (:data:`PERSON_WAIT`) for a person's damage pick and reboot direction instead of the door's
  5 s and 2 s; the protocol's own 30-second programming timer (it starts when the first player
  has filled five registers) stays, and the page shows it.  With ``"timeout": true`` the table
  keeps the house door's times.
* **Questions.** Each question the door asks (the start point, programming, a damage pick, the
  reboot direction) stays offered until it is answered or the door moves past it (the
  programming's end, the round's end for a direction, ``DrawDamage`` for a pick the server made
  after its wait), in whatever order the door asks them.  Two open at once (a ``Reboot``, then a
  ``PickDamage`` for its damage, spec §5.8, §5.9): the newest is offered first, since the game
  waits for it, and the older one is offered again once it is answered; the direction may come
  until the round ends (spec §5.8).
* **Damage picks.** ``PickDamage`` names the piles but not how many cards each holds, and the
  door refuses a pick that asks a pile for more than it holds (spec §5.9); the seat offers the
  picks the table's own game accepts (its piles, read from the table's door in this process).
  A refused pick asks again, as the door keeps waiting.
* ``PlayCard`` is sent by the seat's client on its ``CurrentPlayer`` of the activation phase,
  with the register's card (``CurrentCards``): it is no choice, and the server would play it
  after ``playCardTimeout`` anyway.
* Players are numbered by client ID, which is the join order on the table's door (seat 1 is
  client 1); the figure is the first free one from the client ID on, as the reference bots pick.
* A raw protocol message (``{"message": {"messageType": ..., "messageBody": ...}}``) is sent as
  it is, so a script can send anything a client could and read the server's ``Error``.
"""

from __future__ import annotations

import itertools
import json
import logging

import trio

from swc_local.games import registry, svg
from swc_local.games.roborally.board import CLOCKWISE, COUNTERCLOCKWISE, board_from_game_map
from swc_local.games.roborally.view import CELL, MARGIN
from swc_local.protocol.roborally import (
    DIRECTIONS, MAP_NAMES, PROTOCOL_VERSION, CodecError, Incoming, LineDecoder, LineTooLong, decode_server_line,
    encode_client,
)

from swc_local.server.web.door_tables import (
    DoorTable, FamilySeat, FamilyTables, check_room, close_table, end_if_abandoned, fill_in_order, house_door,
    new_table, note_started, read_seats, register_seat, seat_answer, seat_id, start_logged,
)
from swc_local.server.web.table_host import PERSONS, TableError

log = logging.getLogger("swc.web.seats")

GAME = "roborally"
PERSON_WAIT = 3600.0  # seconds a table with a person waits for a damage pick or a reboot direction
REGISTERS = 5
ASKED_BY = {"start": "SetStartingPoint", "program": "SelectedCard", "damage": "SelectedDamage",
            "reboot": "RebootDirection"}
"""The questions the door asks a seat, and the message that answers each."""
DAMAGE_REFUSED = "Invalid damage selection"


class RoboSeat(FamilySeat):
    """One person's Robo Rally client: its hand, registers, the step it is asked for."""

    def __init__(self, seat_id: str, table: DoorTable, index: int, kind: str, name: str) -> None:
        super().__init__(seat_id, table, index, kind)
        self.name = name
        self.me = 0
        self.phase = -1
        self.figures: set[int] = set()
        self.figure_sent = False
        self.board = None
        self.positions: dict[int, tuple[int, int]] = {}
        self.robot: tuple[int, int, str] | None = None  # (x, y, facing) as the messages tell it
        self.hand: list[str] = []
        self.registers: list[str | None] = [None] * REGISTERS
        self.pending: dict[int, str | None] = {}
        self.finished_selection = False
        self.timer_since: float | None = None
        self.questions: list[str] = []  # "start", "program", "damage", "reboot": asked, not yet answered
        self.damage: tuple[int, list[str]] | None = None
        self.active_cards: dict[int, str] = {}
        self.current: int | None = None
        self.checkpoints: dict[int, int] = {}
        self.winner: int | None = None
        self.log: list[str] = []  # the last messages, as the page lists them
        self.out: list[bytes] = []

    # -- the wire ---------------------------------------------------------------------------------

    async def run(self, port: int) -> None:
        try:
            self.stream = await trio.open_tcp_stream("127.0.0.1", port)
        except OSError as error:
            self.finish(f"cannot reach the table's Robo Rally door: {error}")
            return
        decoder = LineDecoder(decode=decode_server_line)
        try:
            while not self.over and self.stream is not None:
                data = await self.stream.receive_some(65536)
                if not data:
                    break
                news = False
                for event in decoder.feed(data):
                    if isinstance(event, Incoming):
                        self.receive(event.type, event.body)
                        news |= event.type != "Alive"
                    else:
                        log.info("seat %s: unreadable line from the server (%s)", self.id, event.error)
                if self.out:
                    data, self.out = b"".join(self.out), []
                    await self.send_bytes(data)
                if news:  # an Alive alone changes nothing the page shows
                    self.touch()
        except (trio.BrokenResourceError, trio.ClosedResourceError, LineTooLong, TableError) as error:
            log.info("seat %s: connection ended (%s)", self.id, error)
        except Exception as error:  # a message this seat cannot read ends this seat, never the viewer
            log.exception("seat %s: cannot go on", self.id)
            self.closed_reason = f"this seat failed: {type(error).__name__}"
        finally:
            self.finish("the server closed the connection" if self.closed_reason is None else self.closed_reason)

    def send(self, message_type: str, body: dict) -> None:
        self.out.append(encode_client(message_type, body))

    def note(self, text: str) -> None:
        self.log = (self.log + [text])[-12:]

    def receive(self, kind: str, body: dict) -> None:
        """One server message, read as the course's clients read it (spec §3)."""
        handler = getattr(self, "on_" + kind, None)
        if handler is not None:
            handler(body)

    def on_HelloClient(self, body: dict) -> None:
        self.send("HelloServer", {"group": "swc-local seat", "isAI": False, "protocol": PROTOCOL_VERSION})

    def on_Welcome(self, body: dict) -> None:
        self.me = body["clientID"]
        self.joined.set()
        self.offer_figure()

    def offer_figure(self) -> None:
        free = [f % 7 for f in range(self.me, self.me + 7) if f % 7 not in self.figures]
        if free:
            self.figures.add(free[0])
            self.send("PlayerValues", {"name": self.name, "figure": free[0]})

    def on_Alive(self, body: dict) -> None:
        self.send("Alive", {})

    def on_PlayerAdded(self, body: dict) -> None:
        self.figures.add(body["figure"])
        if body["clientID"] == self.me:
            self.send("SetStatus", {"ready": True})

    def on_Error(self, body: dict) -> None:
        text = str(body.get("error"))
        if text.startswith("Figure") and self.phase < 0:
            self.offer_figure()
            return
        self.error = text
        self.pending.clear()
        self.note(f"Error: {text}")
        if text == DAMAGE_REFUSED and self.damage is not None:  # the door keeps waiting for a pick (spec §5.9)
            self.ask("damage")

    def on_GameStarted(self, body: dict) -> None:
        self.board = board_from_game_map(self.table.course, body["gameMap"])

    def on_ActivePhase(self, body: dict) -> None:
        self.phase = body["phase"]
        if self.phase == 2:  # a new round: a reboot direction not sent by now is the server's default
            self.registers, self.pending, self.finished_selection, self.timer_since = [None] * REGISTERS, {}, False, None
            self.settle("reboot", "damage")
        if self.phase == 3:
            self.settle("start", "program")

    def on_CurrentPlayer(self, body: dict) -> None:
        self.current = body["clientID"]
        if self.current != self.me:
            self.settle("start")
            return
        if self.phase == 0:
            self.ask("start")
        elif self.phase == 3 and self.me in self.active_cards:
            self.send("PlayCard", {"card": self.active_cards[self.me]})

    def on_StartingPointTaken(self, body: dict) -> None:
        self.positions[body["clientID"]] = (body["x"], body["y"])
        if body["clientID"] == self.me:
            self.robot = (body["x"], body["y"], self.board.antenna[2] if self.board is not None else "right")
            self.settle("start")

    def on_Movement(self, body: dict) -> None:
        self.positions[body["clientID"]] = (body["x"], body["y"])
        if body["clientID"] == self.me and self.robot is not None:
            self.robot = (body["x"], body["y"], self.robot[2])

    def on_PlayerTurning(self, body: dict) -> None:
        if body["clientID"] == self.me and self.robot is not None:
            turn = CLOCKWISE if body["rotation"] == "clockwise" else COUNTERCLOCKWISE
            self.robot = (self.robot[0], self.robot[1], turn[self.robot[2]])

    def on_YourCards(self, body: dict) -> None:
        self.hand = list(body["cardsInHand"])
        self.ask("program")

    def on_CardSelected(self, body: dict) -> None:
        if body["clientID"] != self.me:
            return
        register = body["register"]
        card = self.pending.pop(register, None)
        old = self.registers[register - 1]
        if old is not None:
            self.hand.append(old)
        self.registers[register - 1] = None
        if body["filled"] and card is not None:
            if card in self.hand:
                self.hand.remove(card)
            self.registers[register - 1] = card

    def on_SelectionFinished(self, body: dict) -> None:
        if body["clientID"] == self.me:
            self.finished_selection = True
            self.settle("program")

    def on_TimerStarted(self, body: dict) -> None:
        self.timer_since = trio.current_time()

    def on_TimerEnded(self, body: dict) -> None:
        self.timer_since = None
        if self.me in body.get("clientIDs", []):
            self.note("the timer ended: the empty registers were filled from the pile")
        self.settle("program")

    def on_CardsYouGotNow(self, body: dict) -> None:
        cards = iter(body["cards"])
        self.registers = [card if card is not None else next(cards, None) for card in self.registers]
        self.hand = []

    def on_CurrentCards(self, body: dict) -> None:
        self.active_cards = {entry["clientID"]: entry["card"] for entry in body["activeCards"]}

    def on_PickDamage(self, body: dict) -> None:
        self.damage = (body["count"], list(body["availablePiles"]))
        self.ask("damage")

    def on_DrawDamage(self, body: dict) -> None:
        if body["clientID"] == self.me:  # the pick is made (by the person, or by the server after its wait)
            self.note("damage: " + ", ".join(body["cards"]))
            self.settle("damage")

    def on_Reboot(self, body: dict) -> None:
        self.positions.pop(body["clientID"], None)
        if body["clientID"] == self.me:
            if self.robot is not None:  # it stands on the reboot point facing top (spec §5.8)
                self.robot = (self.robot[0], self.robot[1], "top")
            self.note("your robot reboots: pick its direction")
            self.ask("reboot")

    def on_CheckPointReached(self, body: dict) -> None:
        self.checkpoints[body["clientID"]] = body["number"]
        if body["clientID"] == self.me:
            self.note(f"checkpoint {body['number']} reached")

    def on_GameFinished(self, body: dict) -> None:
        self.winner = body["clientID"]
        self.result = {"winner": self.winner, "you_won": self.winner == self.me, "checkpoints": self.checkpoints}
        self.settle(*ASKED_BY)

    @property
    def step(self) -> str | None:
        """The question offered now: the newest one still open, the one the door waits on (a
        damage pick stops the game; the reboot direction it asked before may come until the
        round ends, so it is offered again once the pick is sent)."""
        return self.questions[-1] if self.questions else None

    def ask(self, step: str) -> None:
        """The door asked ``step``: it stays offered until answered or the door moves past it."""
        if step in self.questions:
            self.questions.remove(step)
        self.questions.append(step)
        if step != "program":
            self.error = None
        self._turn()

    def settle(self, *steps: str) -> None:
        """``steps`` are answered, or the door no longer waits for them."""
        self.questions = [step for step in self.questions if step not in steps]
        self._turn()

    def _turn(self) -> None:
        self.your_turn = bool(self.questions)
        if not self.your_turn:
            self.turn_since = None
        elif self.turn_since is None:
            self.turn_since = trio.current_time()

    # -- moves ------------------------------------------------------------------------------------

    def moves(self) -> list[dict]:
        """The messages this step allows, by the protocol's checks (spec §5.1, §5.3, §5.8, §5.9)."""
        if self.step == "start" and self.board is not None:
            taken = set(self.positions.values())
            return [{"text": f"start at ({x}, {y})", "cells": [f"{x},{y}"],
                     "message": ("SetStartingPoint", {"x": x, "y": y})}
                    for x, y in self.board.start_points if (x, y) not in taken]
        if self.step == "program" and not self.finished_selection:
            out = []
            for card in dict.fromkeys(self.hand):
                for register in range(1, REGISTERS + 1):
                    if self.registers[register - 1] is None and register not in self.pending and not (card == "Again" and register == 1):
                        out.append({"text": f"{card} into register {register}", "card": card, "register": register,
                                    "message": ("SelectedCard", {"card": card, "register": register})})
            for register, card in enumerate(self.registers, 1):
                if card is not None:
                    out.append({"text": f"take {card} out of register {register}", "card": None, "register": register,
                                "message": ("SelectedCard", {"card": None, "register": register})})
            return out
        if self.step == "damage" and self.damage is not None:
            count, piles = self.damage
            held = self.pile_sizes()
            return [{"text": "take " + ", ".join(pick), "cards": list(pick),
                     "message": ("SelectedDamage", {"cards": list(pick)})}
                    for pick in itertools.combinations_with_replacement(piles, count)
                    if held is None or all(pick.count(pile) <= held.get(pile, 0) for pile in piles)]
        if self.step == "reboot":
            return [{"text": f"face {d}", "direction": d, "message": ("RebootDirection", {"direction": d})}
                    for d in DIRECTIONS]
        return []

    def pile_sizes(self) -> dict[str, int] | None:
        """The damage piles' sizes in the table's own game (the wire never says them), or None."""
        door = getattr(self.table.door, "door", None)
        room = next(iter(getattr(door, "rooms", ())), None)
        return dict(room.game.piles) if room is not None else None

    async def send_request(self, body: bytes) -> None:
        """JSON ``{"index": N}`` (one of :meth:`moves`) or ``{"message": {...}}`` (sent as it is)."""
        try:
            data = json.loads(body.decode("utf-8", "replace") or "{}")
        except ValueError:
            data = None
        if not isinstance(data, dict) or not ("index" in data or "message" in data):
            raise TableError('a move is JSON {"index": N} or {"message": {"messageType": ..., "messageBody": {...}}}')
        if "message" in data:
            message = data["message"]
            if not isinstance(message, dict):
                raise TableError('"message" is one protocol message: {"messageType": ..., "messageBody": {...}}')
            line = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8") + b"\n"
            self.error = None
            self.touch()
            await self.send_bytes(line)
            return
        moves, index = self.moves(), data["index"]
        if not self.your_turn or not moves:
            raise TableError("it is not this seat's turn")
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(moves):
            raise TableError(f"no legal move {index!r} (0..{len(moves) - 1})")
        kind, message = moves[index]["message"]
        if kind == "SelectedCard":
            self.pending[message["register"]] = message["card"]
        else:  # a start point, a damage pick, a direction: one answer, that question is done
            self.settle(*(step for step, answer in ASKED_BY.items() if answer == kind))
        self.error = None
        self.touch()
        try:
            line = encode_client(kind, message)
        except CodecError as error:
            raise TableError(str(error)) from None
        await self.send_bytes(line)

    # -- what the page and a script read ----------------------------------------------------------

    def json(self) -> dict:
        data = self.base_json()
        timer = self.table.timer
        left = None
        if self.timer_since is not None:
            left = max(0, int((self.timer_since + timer - trio.current_time()) * 1000))
        data.update(
            turn=None, client_id=self.me, phase=self.phase, asked=self.step, hand=self.hand, registers=self.registers,
            finished_selection=self.finished_selection, damage=({"count": self.damage[0], "piles": self.damage[1]}
                                                                if self.step == "damage" else None),
            to_move=None if data["over"] else (self.table.labels[self.index] if self.your_turn else None),
            notes=self.log, course=self.table.course, winner=self.winner,
            robot=dict(zip(("x", "y", "facing"), self.robot)) if self.robot is not None else None,
            checkpoints=self.checkpoints.get(self.me, 0),
            clock={"deadline_ms": None, "timer_ms_left": left,
                   "timer_s": timer,
                   "waiting_ms": int((trio.current_time() - self.turn_since) * 1000)
                   if self.your_turn and self.turn_since is not None else None},
        )
        if self.your_turn:
            data["moves"] = [{"index": i, **{k: v for k, v in m.items() if k != "message"}}
                             for i, m in enumerate(self.moves())]
            if self.step == "start" and self.board is not None:
                grid = svg.frame(self.board.width, self.board.height, CELL, MARGIN, 2, 0)[0]
                data["cells"] = {f"{x},{y}": [*grid.corner(x, y), grid.cell, grid.cell] for x, y in self.board.start_points}
        return data


def door_settings(tables, course: str, count: int, timed: bool):
    from swc_local.server.roborally.settings import RoboRallySettings

    house = house_door(tables, GAME)
    base = house.settings if house is not None else RoboRallySettings()
    log_dir = base.log_dir if house is not None else None
    server = getattr(tables, "house", None)
    if log_dir is None and server is not None and server.settings.save_replay:
        log_dir = server.settings.replay_dir
    fields = dict(host="127.0.0.1", port=0, map=course, min_players=count, single_game=True, log_dir=log_dir,
                  seed=tables.rng.getrandbits(31), protocols=base.protocols, alive_interval=base.alive_interval,
                  timer=base.timer, play_card_timeout=base.play_card_timeout, setup_timeout=base.setup_timeout,
                  programming_limit=base.programming_limit, pick_damage_timeout=base.pick_damage_timeout,
                  reboot_direction_wait=base.reboot_direction_wait, write_timeout=base.write_timeout)
    if not timed:
        fields.update(setup_timeout=0.0, programming_limit=0.0, pick_damage_timeout=PERSON_WAIT,
                      reboot_direction_wait=PERSON_WAIT)
    return RoboRallySettings(**fields)


async def create(tables, request: dict) -> dict:
    """A Robo Rally table: its own door with the course, then its seats joined in order."""
    from swc_local.server.roborally.door import RoboRallyDoor

    check_room(tables)
    entry = registry.entry(GAME)
    course = request.get("course", request.get("map", MAP_NAMES[0]))
    if course not in MAP_NAMES:
        raise TableError(f"course: one of {', '.join(MAP_NAMES)}, not {course!r}"[:300])
    fewest, most = entry.seats
    count = request.get("robots", len(request["seats"]) if isinstance(request.get("seats"), list) else 2)
    if not isinstance(count, int) or isinstance(count, bool) or not fewest <= count <= most:
        raise TableError(f"robots: {fewest} to {most}")
    seats = read_seats(request, count, tables, entry)
    names = request.get("names")
    if not (isinstance(names, list) and len(names) == count and all(isinstance(n, str) and n for n in names)):
        names = [kind for kind, _ in seats]
    timed = request.get("timeout") is True
    settings = door_settings(tables, course, count, timed)
    table = new_table(tables, GAME, entry.title, [str(k + 1) for k in range(count)], (k for k, _ in seats))
    table.course, table.timer, table.timed = course, settings.timer, timed
    table.door = RoboRallyDoor(settings)
    tables.tables[table.id] = table
    persons: dict[int, RoboSeat] = {}
    for index, (kind, _) in enumerate(seats):
        if kind in PERSONS:
            persons[index] = seat = RoboSeat(seat_id(), table, index, kind, names[index][:60])
            register_seat(tables, seat)
    await tables.nursery.start(_run_table, tables, table, entry, seats, persons)
    start_logged(table, f"Robo Rally on {course}")
    return {"table": table.id, "game": GAME, "course": course, "game_id": None,
            "seats": [seat_answer(table, i, kind, persons.get(i)) for i, (kind, _) in enumerate(seats)]}


async def _run_table(tables, table: DoorTable, entry, seats, persons: dict[int, RoboSeat],
                     task_status=trio.TASK_STATUS_IGNORED) -> None:
    """The table's door from its start to its game's end (the door returns after it: one game)."""
    from swc_local.server.roborally.door import watch_for_viewer

    door = table.door
    try:
        with table.scope:
            async with trio.open_nursery() as nursery:
                await nursery.start(door.run)
                watch_for_viewer(door, tables.book)
                task_status.started()

                door.switchboard.room_listeners.append(lambda room: note_started(tables, table, persons))
                nursery.start_soon(end_if_abandoned, table, persons,
                                   lambda: bool(door.switchboard.rooms or door.finished_rooms), nursery.cancel_scope)
                await fill_in_order(tables, table, entry, seats, persons,
                                    lambda k: door.switchboard.next_id > k)
    finally:
        close_table(table, persons)


def offer() -> dict:
    """What the start page offers for a Robo Rally table: the courses, the robots' range."""
    entry = registry.entry(GAME)
    return {"game": entry.game_type, "title": entry.title, "courses": list(MAP_NAMES), "seats": list(entry.seats)}


TABLES = FamilyTables(GAME, create, offer)
"""What this family lends the viewer for persons' tables (the viewer's table host, server/web/table_host.py)."""


__all__ = ["RoboSeat", "create", "offer", "TABLES", "GAME"]
