"""A person's seat of ReversiXT: a client of the binary protocol (spec reversixt.md B-D) on a door
of the table's own (server/web/door_tables.py), with the map the person picked.

The seat's client speaks the protocol through ``protocol/reversixt.py``'s codecs (server/ never
imports client/): GROUP, then MAP, PLAYER, REQUEST, MOVED, DISQ, END_PHASE1, END_GAME as any bot
reads them; it keeps its copy of the game with the rules of ``games/reversixt/`` and offers, on
its REQUEST, exactly the legal moves: phase 1 every square of ``State.legal_targets`` (a choice
square once per player to swap with, a bonus square once for a bomb and once for an overwrite
stone), phase 2 every square that is not a hole.

Conformance notes (choices where the issue and the spec are silent):

* **Timing.** The door's own way is its time limit ``-t`` (``reversixtTimeLimit``) and the group
  exemption of spec D: group 99 is never charged.  A person's client joins as group 99, so it
  has no move deadline while bots keep the table's limit; with ``"timeout": true`` it joins as
  group 0 and is timed like them.  The table's limit is the request's ``time_limit`` (seconds),
  else the house door's ``reversixtTimeLimit`` (default none); the depth is the house door's.
* **Maps.** ``map`` names a bundled map (``classic_2p``, ``quad_4p``); ``map_text`` is an
  uploaded map file's text (at most 64 KiB, checked as the door checks a map: a map the door
  rejects is refused with its load error).  The map fixes the number of seats.
* **Large maps.** A read lists at most :data:`MAX_LISTED` legal moves (``moves_total`` counts
  them all; an index beyond the list is still a legal move): phase 2 on a huge map offers every
  square that is not a hole, which a page cannot frame anyway (such a map is drawn as an image).
* **Nothing to offer.** The door requests a move only from a player that has one (phase 1: a
  legal square or an overwrite stone to use; phase 2: a bomb); a REQUEST this seat finds no move
  for is a defect of the seat: it logs it and leaves (the door then treats it as any client that
  left), instead of waiting for a move nobody can make.
* **A rejected move.** ReversiXT answers a bad move with DISQ and no text; the seat shows
  "disqualified" and the referee's reason as the game's log writes it.  A forged move is the
  body ``{"x": X, "y": Y, "special": S}``, sent as a MOVE frame whatever it is.
"""

from __future__ import annotations

import json
import logging
import struct

import trio

from swc_local.games import registry
from swc_local.games.reversixt.mapfile import BONUS, CHOICE, HOLE, MapError, bundled_maps, parse_map
from swc_local.games.reversixt.rules import SPECIAL_BOMB, SPECIAL_OVERWRITE, State
from swc_local.games.reversixt.notation import move_notation
from swc_local.games.reversixt.view import board_grid
from swc_local.protocol import reversixt as wire

from swc_local.server.web.door_tables import (
    DoorTable, FamilySeat, FamilyTables, check_room, close_table, end_if_abandoned, fill_in_order, house_door,
    new_table, note_started, read_seats, register_seat, seat_answer, seat_id, start_logged,
)
from swc_local.server.web.table_host import PERSONS, TableError

log = logging.getLogger("swc.web.seats")

GAME = "reversixt"
EXEMPT_GROUP = 99  # spec D: never charged (games/reversixt/referee.py's EXEMPT_GROUP)
TIMED_GROUP = 0
MAX_MAP_BYTES = 1 << 16
MAX_LISTED = 10_000
"""At most this many legal moves are listed per read (a bomb on a 1000 x 1000 map has a million
targets); ``moves_total`` says how many there are, and ``{"index": N}`` takes any of them."""


def maps() -> list[dict]:
    """The bundled maps a table can be set for, with their number of players."""
    out = []
    for name, path in bundled_maps().items():
        try:
            out.append({"name": name, "players": parse_map(path.read_bytes()).players})
        except (OSError, MapError):
            continue
    return out


class ReversiSeat(FamilySeat):
    """One person's ReversiXT client: its connection, its copy of the game, its legal moves."""

    def __init__(self, seat_id: str, table: DoorTable, index: int, kind: str, group: int) -> None:
        super().__init__(seat_id, table, index, kind)
        self.group = group
        self.state: State | None = None
        self.me = 0
        self.phase = 1
        self.time_ms: int | None = None
        self.moves: list[tuple[int, int, int]] = []
        self.last_move: dict | None = None
        self.disqualified: list[int] = []

    async def run(self, port: int) -> None:
        try:
            self.stream = await trio.open_tcp_stream("127.0.0.1", port)
        except OSError as error:
            self.finish(f"cannot reach the table's ReversiXT door: {error}")
            return
        reader = wire.FrameReader(server_side=False, max_payload=MAX_MAP_BYTES)
        try:
            await self.send_bytes(wire.encode_group(self.group))
            self.joined.set()
            while not self.over and self.stream is not None:
                data = await self.stream.receive_some(65536)
                if not data:
                    break
                reader.feed(data)
                for frame in reader.frames():
                    self.receive(frame)
        except (trio.BrokenResourceError, trio.ClosedResourceError, wire.FrameError, TableError) as error:
            log.info("seat %s: connection ended (%s)", self.id, error)
        except Exception as error:  # a frame this seat cannot read ends this seat, never the viewer
            log.exception("seat %s: cannot go on", self.id)
            self.closed_reason = f"this seat failed: {type(error).__name__}"
        finally:
            self.finish("the server closed the connection" if self.closed_reason is None else self.closed_reason)

    def receive(self, frame: wire.Frame) -> None:
        """One server frame, read as the reference clients read it (client/reversixt_bot.py)."""
        if frame.type == wire.MAP:
            try:
                self.state = State.initial(parse_map(frame.payload))
            except MapError as error:
                self.closed_reason = f"cannot read the map: {error}"
        elif frame.type == wire.PLAYER:
            self.me = frame.payload[0]
        elif frame.type == wire.REQUEST:
            self.time_ms, _depth = wire.decode_request(frame.payload)
            self.moves = self.legal_moves()
            self.your_turn, self.turn_since, self.error = True, trio.current_time(), None
            if not self.moves:  # the door skips a player without a move (spec C.2): a defect, never a wait
                log.error("seat %s: REQUEST in phase %d with no legal move to offer; the seat leaves", self.id, self.phase)
                self.closed_reason = f"no legal move to offer in phase {self.phase} (a defect, logged): this seat left"
                self.your_turn, self.over = False, True
        elif frame.type == wire.MOVED:
            move, player = wire.decode_moved(frame.payload)
            self.apply(player, move)
            self.last_move = {"player": player, "x": move.x, "y": move.y, "special": move.special}
        elif frame.type == wire.DISQ:
            player = frame.payload[0]
            self.disqualified.append(player)
            if self.state is not None:
                self.state.disqualified.add(player)
            if player == self.me:
                self.error = "the server disqualified this seat (DISQ)"
                self.your_turn, self.moves = False, []
        elif frame.type == wire.END_PHASE1:
            self.phase = 2
        elif frame.type == wire.END_GAME:
            self.result = self.scores()
            self.your_turn, self.moves, self.over = False, [], True
        self.touch()

    def apply(self, player: int, move: wire.Move) -> None:
        state = self.state
        if state is None:
            return
        if self.phase == 1:
            flips = state.check_placement(player, move.x, move.y, move.special)
            state.place(player, move.x, move.y, move.special, flips or [])
        else:
            state.bomb(player, move.x, move.y)

    def legal_moves(self) -> list[tuple[int, int, int]]:
        """(x, y, special) of every legal answer to this REQUEST, by the game's own rules."""
        state, me = self.state, self.me
        if state is None:
            return []
        width = state.game_map.width
        if self.phase == 2:
            if state.bombs[me] <= 0:
                return []
            return [(i % width, i // width, 0) for i, code in enumerate(state.squares) if code != HOLE]
        out = []
        for square in sorted(state.legal_targets(me)):
            x, y, code = square % width, square // width, state.squares[square]
            if code == CHOICE:
                out += [(x, y, player) for player in range(1, state.players + 1)]
            elif code == BONUS:
                out += [(x, y, SPECIAL_BOMB), (x, y, SPECIAL_OVERWRITE)]
            else:
                out.append((x, y, 0))
        return out

    def move_text(self, move: tuple[int, int, int]) -> str:
        """The move in the game's notation (games/reversixt/notation.py), as the pages and
        ``swc replay`` write it."""
        x, y, special = move
        return move_notation((self.me, x, y, special), self.state, bomb=self.phase == 2)

    def choice_name(self, move: tuple[int, int, int]) -> str | None:
        x, y, special = move
        if self.phase == 2 or self.state is None:
            return None
        code = self.state.squares[y * self.state.game_map.width + x]
        if code == BONUS:
            return "bomb" if special == SPECIAL_BOMB else "overwrite stone"
        if code == CHOICE:
            return "keep my colour" if special == self.me else f"swap with player {special}"
        return None

    def scores(self) -> dict:
        state = self.state
        if state is None:
            return {}
        return {str(p): (None if p in state.disqualified else state.stones(p)) for p in range(1, state.players + 1)}

    async def send_request(self, body: bytes) -> None:
        """JSON ``{"index": N}`` (a legal move) or ``{"x": X, "y": Y, "special": S}`` (sent as it is)."""
        data = _json_object(body)
        if "index" in data:
            index = data["index"]
            if not self.your_turn:
                raise TableError("it is not this seat's turn")
            if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(self.moves):
                raise TableError(f"no legal move {index!r} (0..{len(self.moves) - 1})")
            x, y, special = self.moves[index]
        else:
            try:
                x, y, special = (data[k] for k in ("x", "y", "special"))
                frame = wire.encode_move(x, y, special)
            except (KeyError, TypeError, ValueError, struct.error):
                raise TableError('a move is JSON {"index": N} or {"x": X, "y": Y, "special": S} (0..65535, 0..255)') from None
        frame = wire.encode_move(x, y, special)
        self.your_turn, self.moves, self.error = False, [], None
        self.touch()
        await self.send_bytes(frame)

    def json(self) -> dict:
        data = self.base_json()
        state = self.state
        data.update(
            turn=None, phase=self.phase, player=self.me or self.index + 1,
            to_move=None if data["over"] else (self.table.labels[self.index] if self.your_turn else None),
            last_move_wire=self.last_move, disqualified=self.disqualified, scores=self.result,
            stock=({"overwrites": state.overwrites[self.me], "bombs": state.bombs[self.me]}
                   if state is not None and self.me else None),
            clock={"deadline_ms": (self.time_ms or None) if self.group != EXEMPT_GROUP else None,
                   "waiting_ms": int((trio.current_time() - self.turn_since) * 1000)
                   if self.your_turn and self.turn_since is not None else None},
        )
        if self.your_turn:
            listed = self.moves[:MAX_LISTED]
            data["moves"] = [{"index": i, "text": self.move_text(m), "cells": [f"{m[0]},{m[1]}"],
                              "choice": self.choice_name(m), "x": m[0], "y": m[1], "special": m[2]}
                             for i, m in enumerate(listed)]
            data["moves_total"] = len(self.moves)
            data["cells"] = self.cells(listed)
        return data

    def cells(self, moves) -> dict[str, list[float]] | None:
        """``"x,y"`` -> the square's box in the picture, for the squares of ``moves``."""
        if self.state is None:
            return None
        grid = board_grid(self.state.game_map)[0]
        return {f"{x},{y}": [*grid.corner(x, y), grid.cell, grid.cell] for x, y, _ in moves}


def _json_object(body: bytes) -> dict:
    try:
        data = json.loads(body.decode("utf-8", "replace") or "{}")
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise TableError('a move is JSON {"index": N} or {"x": X, "y": Y, "special": S}')
    return data


def read_map(request: dict):
    """(name, the map's bytes, GameMap) of the request: a bundled map's name or an uploaded text."""
    text = request.get("map_text")
    if text is not None:
        if not isinstance(text, str) or len(text.encode("utf-8")) > MAX_MAP_BYTES:
            raise TableError(f"map_text: a map file's text of at most {MAX_MAP_BYTES} bytes")
        data, name = text.encode("utf-8"), "uploaded.map"
    else:
        name = request.get("map", "classic_2p")
        path = bundled_maps().get(name.removesuffix(".map")) if isinstance(name, str) else None
        if path is None:
            raise TableError(f"map: one of {', '.join(bundled_maps())} (or \"map_text\": an uploaded map), not {name!r}"[:300])
        data, name = path.read_bytes(), path.name
    try:
        return name, parse_map(data)
    except MapError as error:
        raise TableError(f"the map cannot be played: {error}") from None


def door_settings(tables, name: str, request: dict):
    from swc_local.server.reversixt.door import DoorSettings

    house = house_door(tables, GAME)
    base = house.settings if house is not None else DoorSettings()
    limit = request.get("time_limit", base.time_limit)
    if not isinstance(limit, (int, float)) or isinstance(limit, bool) or not 0 <= limit <= 3600:
        raise TableError("time_limit: seconds per move, 0 (none) to 3600")
    replay_dir = base.replay_dir
    server = getattr(tables, "house", None)
    if replay_dir is None and server is not None and server.settings.save_replay:
        replay_dir = server.settings.replay_dir
    return DoorSettings(host="127.0.0.1", port=0, map_path=name, time_limit=float(limit), depth=base.depth,
                        replay_dir=replay_dir, timing=base.timing, write_timeout=base.write_timeout)


async def create(tables, request: dict) -> dict:
    """A ReversiXT table: its own door with the map, then its seats joined in order."""
    from swc_local.server.reversixt.door import ReversiDoor

    check_room(tables)
    entry = registry.entry(GAME)
    name, game_map = read_map(request)
    seats = read_seats(request, game_map.players, tables, entry)
    settings = door_settings(tables, name, request)
    timed = request.get("timeout") is True
    labels = [str(k + 1) for k in range(game_map.players)]
    table = new_table(tables, GAME, entry.title, labels, (k for k, _ in seats))
    table.door = ReversiDoor(settings, game_map)
    tables.tables[table.id] = table
    persons: dict[int, ReversiSeat] = {}
    for index, (kind, _) in enumerate(seats):
        if kind in PERSONS:
            seat = ReversiSeat(seat_id(), table, index, kind, TIMED_GROUP if timed else EXEMPT_GROUP)
            persons[index] = seat
            register_seat(tables, seat)
    await tables.nursery.start(_run_table, tables, table, entry, seats, persons)
    start_logged(table, f"ReversiXT on {name}")
    return {"table": table.id, "game": GAME, "map": name, "game_id": None, "time_limit": settings.time_limit,
            "seats": [seat_answer(table, i, kind, persons.get(i)) for i, (kind, _) in enumerate(seats)],
}


async def _run_table(tables, table: DoorTable, entry, seats, persons: dict[int, ReversiSeat],
                     task_status=trio.TASK_STATUS_IGNORED) -> None:
    """The table's door from its start to its game's end; then the door closes."""
    from swc_local.server.reversixt.door import watch_for_viewer

    door = table.door
    try:
        with table.scope:
            async with trio.open_nursery() as nursery:
                await nursery.start(door.run)
                watch_for_viewer(door, tables.book)
                task_status.started()

                door.game_listeners.append(lambda game_id, referee: note_started(tables, table, persons))
                done = trio.Event()
                door.on_finished.append(lambda _finished: done.set())
                nursery.start_soon(end_if_abandoned, table, persons,
                                   lambda: door.games_started > 0, nursery.cancel_scope)
                await fill_in_order(tables, table, entry, seats, persons,
                                    lambda k: door.waiting_count() >= k or door.games_started > 0)
                await done.wait()
                nursery.cancel_scope.cancel()
    finally:
        close_table(table, persons)


def offer() -> dict:
    """What the start page offers for a ReversiXT table: the bundled maps (or an upload), the seats."""
    entry = registry.entry(GAME)
    return {"game": entry.game_type, "title": entry.title, "maps": maps(), "upload": True, "seats": list(entry.seats)}


TABLES = FamilyTables(GAME, create, offer)
"""What this family lends the viewer for persons' tables (the viewer's table host, server/web/table_host.py)."""


__all__ = ["ReversiSeat", "create", "offer", "TABLES", "maps"]
