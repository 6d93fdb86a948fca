"""The web viewer's records of XML games (the six Software-Challenge seasons): their states come
from the observe path. The XML door module (server/xml/door.py) hands them to the viewer.

A live room gets one more observer, :class:`XmlRecord`, beside any admin's connection: it is
handed exactly the bytes an observing admin receives (``GameRoom.to_observers``) and keeps them,
or, for a game that can copy itself cheaply (``snapshot()``), a copy of the room's game at that
memento instead of its bytes (see :meth:`XmlRecord.send` for why).
A replay file (ours or an official one) is that same stream, so both are read by the one parser
here; a state becomes a game with ``plugin.game_from_state`` as ``swc replay`` does.

Conformance notes:

* Repeated identical states (a state re-sent after ``step``) count once, as in ``swc replay``.
* The move that led to a state is the state's ``<lastMove>`` decoded by the game, when it has one.
* A state kept as a snapshot is shown as ``snapshot.state_element()``: the element the room
  rendered that memento from (``tests/web/test_web_snapshots.py`` checks both agree for every game
  that takes snapshots).
* A game an admin cancelled shows as ``CANCELLED`` for both seats, no rank, with who cancelled
  it as the reason, and the scores of the server's result: the wire keeps the official server's
  result (2025+: the leader as winner, REGULAR), which reads as an ordinary end otherwise.
  CANCELLED is the viewer's word, as UNFINISHED is for a game a shutdown stopped; no official
  result carries it.
* The 2025+ result has no ``cause``: a score is then shown as ``REGULAR`` when the winner's
  ``regular`` is not ``false``, and with the winner's ``reason``; when it is ``false`` the
  loser's cause is read from that reason (``STUCK`` for a ship that cannot move).
"""

from __future__ import annotations

import logging
import re
from collections import OrderedDict

from swc_local.games import registry
from swc_local.games.plugin import GamePlugin, seat_labels, shown_name
from swc_local.protocol.element import Element, parse
from swc_local.protocol.modern import violation_cause
from swc_local.protocol.reader import ProtocolError, StreamEnded, StreamReader

from swc_local.server.web.book import GameRecord, SeatRow, Step

log = logging.getLogger("swc.web")

def title_of(game_type: str) -> str:
    """The game's title (its registry row's), or its type when it has none."""
    game = registry.entry(game_type)
    return game.title if game is not None and game.title else game_type


class XmlRecord(GameRecord):
    """One XML game: the observer's messages, each state parsed only when it is asked for."""

    family = "xml"
    can_play_from = True

    def __init__(self, plugin: GamePlugin, source: str, names: tuple[str, str] | None = None, room=None) -> None:
        super().__init__(plugin.game_type, title_of(plugin.game_type), source)
        self.plugin = plugin
        self.room = room  # the live room until it closes
        self.labels = seat_labels(plugin)
        self._names = names
        self._mementos: list[object] = []  # one per distinct state: bytes or element as received, or a snapshot
        self._newest: bytes | None = None  # the newest memento's bytes (a state re-sent is compared to it)
        self._result: bytes | Element | None = None
        self._steps: OrderedDict[int, Step] = OrderedDict()  # the most recently shown, at most STATES_CACHED
        self._elements: OrderedDict[int, Element] = OrderedDict()  # states parsed lately, at most STATES_CACHED
        self._parsed: OrderedDict[int, object] = OrderedDict()  # games read for a next step's note only
        self._last_state: Element | None = None  # the newest state of a file (a state given twice is kept once)
        self._ended = False
        self.unfinished: str | None = None
        self.cancelled: str | None = None  # why an admin cancelled it (the room's cancel_reason)
        self.pace: float | None = None  # seconds a move while the viewer steps the paused room (server/web/pace.py)

    def wire_state(self, index: int) -> str:
        return self.state_element(index).render()

    # -- the observer side (called by the room for every message: must stay cheap) -----------------

    def send(self, message) -> None:
        """A message as the admin observer gets it: only mementos and the result are kept.

        Called on every move of every room, watched or not, so a memento takes a handful of calls.
        Why a snapshot rather than the memento's bytes when the game offers one: keeping each
        move's few KB of bytes alive made the allocator hand the room's next memento and other
        short-lived buffers fresh memory instead of the block just freed (1.4 page faults per
        move instead of none). A copy of the game is a few hundred bytes of small objects; its
        state is rendered only when a page asks for it."""
        if type(message) is bytes and b'class="memento"' in message:
            if message != self._newest:  # else a state re-sent after step: counted once
                self._newest = message
                snapshot = self._take_snapshot() if self.room is not None else None
                self._mementos.append(message if snapshot is None else snapshot)
                self.touch()
            return
        if isinstance(message, str):
            message = message.encode()
        if isinstance(message, Element):
            self._take_element(message)
        elif b'class="memento"' in message:
            self.send(message)
            return
        elif b'class="result"' in message:
            self._result = message
        else:
            return
        self.touch()

    def __setstate__(self, state: dict) -> None:
        """A record read in a child process (server/xml/read_apart.py) plays with the registry's
        own plugin, not the copy its pickle carried."""
        self.__dict__.update(state)
        self.plugin = registry.get(self.plugin.game_type)

    def _take_element(self, message: Element) -> None:
        data = message.find("data") if message.tag == "room" else None
        if data is None:
            return
        kind = data.get("class")
        if kind == "memento" and data.find("state") is not None:
            state = data.find("state")
            if state != self._last_state:
                self._last_state = state  # one tree kept, to compare the next state with
                self._mementos.append(message.render().encode())  # bytes: a parsed tree costs ~50x its text
        elif kind == "result":
            self._result = message

    def _take_snapshot(self) -> object | None:
        """A copy of the live room's game as it is now (the memento just sent shows it), or None."""
        try:
            return self.room.game.snapshot()  # type: ignore[union-attr]
        except AttributeError:  # a stand-in game without the hook (tests): keep the bytes
            return None
        except Exception:  # a bug in one game's copy must not cost the room its move: keep the bytes
            log.exception("room %s: no snapshot of its game, the viewer keeps the memento", self.room.id)  # type: ignore[union-attr]
            return None

    def room_over(self, room) -> None:
        self.unfinished = getattr(room, "unfinished", None)
        self.cancelled = getattr(room, "cancel_reason", None)
        self._names = self._room_names(room)
        self.room = None
        self._ended = True
        if self.book is not None:
            self.book.finished(self)

    # -- reading -------------------------------------------------------------------------------------

    def count(self) -> int:
        return len(self._mementos)

    def step(self, index: int) -> Step:
        step = self._steps.get(index)
        if step is None:
            step = self._steps[index] = self._step(self.state_element(index), index)
            while len(self._steps) > STATES_CACHED:
                self._steps.popitem(last=False)
        else:
            self._steps.move_to_end(index)
        return step

    def steps(self) -> list[Step]:
        return [self.step(index) for index in range(self.count())]

    def stable(self, index: int, count: int) -> bool:
        return True  # a state received never changes

    def stamp(self) -> tuple:
        return (self.version, self.status(), self.names())  # players join without a new state

    def _step(self, state: Element, index: int) -> Step:
        game = self._parsed.pop(index, None) or self.plugin.game_from_state(state)
        last_move = None
        last = state.find("lastMove")
        if last is not None:
            try:
                last_move = game.decode_move(Element("data", dict(last.attrs), list(last.children), last.text))
            except Exception:
                last_move = None
        over = game.outcome() is not None
        to_move = None if over else shown_name(self.names()[game.current_seat], self.labels[game.current_seat])
        note = ""
        if last_move is not None:  # in the game's own notation, with the position it was made in
            before = self._game_at(index - 1) if index > 0 else None
            note = self.plugin.notation(last_move, before)
        elif last is not None:
            note = _move_text(last)
        return Step(game, last_move, f"turn {game.turn}", to_move, note)

    def _game_at(self, index: int) -> object:
        """The game at state ``index``: the shown step's when it is cached (no note needed, so no
        walk back through the states before it)."""
        step = self._steps.get(index)
        if step is not None:
            return step.state
        game = self._parsed.get(index)
        if game is None:  # kept for that step's own turn (stepping backwards asks for it next)
            game = self._parsed[index] = self.plugin.game_from_state(self.state_element(index))
            while len(self._parsed) > 2:
                self._parsed.popitem(last=False)
        return game

    def text_of(self, step: Step) -> str:
        return self.plugin.describe(step.state)

    def state_element(self, index: int) -> Element:
        element = self._elements.get(index)
        if element is None:
            kept = self._mementos[index]
            if isinstance(kept, (bytes, Element)):
                element = _state_of(kept)
            else:
                element = kept.state_element()  # type: ignore[attr-defined]
            self._elements[index] = element
            while len(self._elements) > STATES_CACHED:
                self._elements.popitem(last=False)
        else:
            self._elements.move_to_end(index)
        return element

    def names(self) -> tuple[str, str]:
        if self.room is not None:
            return self._room_names(self.room)
        return self._names or self.labels

    @staticmethod
    def _room_names(room) -> tuple[str, str]:
        return tuple(slot.display_name for slot in room.slots)  # type: ignore[return-value]

    def players_key(self) -> object:
        return self.names()  # the seats never change; a name does when a player joins

    def players(self) -> list[SeatRow]:
        return [SeatRow(name, label) for name, label in zip(self.names(), self.labels)]

    def status(self) -> str:
        if self.room is not None:
            value = self.room.status.value
            if value == "running":
                return "paused" if getattr(self.room, "paused", False) and not self.pace else "running"
            return "waiting" if value == "created" else "finished"
        return "finished" if self._ended or self.source != "live" else "waiting"

    def controls(self) -> list[str]:
        """What the admin lobby's ``pause``/``step``/``cancel`` can do to the live room now:
        a room still waiting for its players can be started (a forced step) or cancelled; a
        paused one stepped, unpaused or cancelled; a running one paused or cancelled."""
        room = self.room
        if room is None:
            return []
        status = room.status.value
        if status == "created":
            return ["start", "cancel"]
        if status != "running":
            return []
        if room.paused and self.pace:  # paced: it runs, slowly; Pause stops the pace, Unpause too
            return ["pause", "unpause", "cancel"]
        return ["step", "unpause", "cancel"] if room.paused else ["pause", "cancel"]

    def control(self, action: str) -> None:
        """The admin lobby's request for ``action``, on the room itself: the same room methods
        its ``<pause>``, ``<step>`` and ``<cancel>`` call, so the room changes exactly as for
        an admin client (and its observers see what they would see then)."""
        if action not in self.controls():
            raise ValueError(f"{action}: not possible now (possible: {', '.join(self.controls()) or 'nothing'})")
        room = self.room
        if self.pace and action in ("pause", "unpause"):  # the pace ends; a pause keeps the room paused
            self.pace = None
            self.touch()
            if action == "unpause":
                room.set_paused(False)
        elif action in ("pause", "unpause"):
            room.set_paused(action == "pause")
        elif action in ("step", "start"):
            room.step(action == "start")  # forced: a start before both players came
        else:
            room.cancel_reason = "cancelled from the viewer"
            room.cancel()

    def progress(self) -> str:
        """The newest state's turn, read from its bytes without parsing them."""
        if self._newest is not None:
            found = _TURN.search(self._newest)
            return f"turn {found.group(1).decode()}" if found else f"state {len(self._mementos)}"
        if not self._mementos:
            return ""
        return f"turn {self.state_element(len(self._mementos) - 1).get('turn', '?')}"

    def result(self) -> list[SeatRow] | None:
        if self._result is None:
            if self._ended and (self.unfinished or self.cancelled):
                cause = "UNFINISHED" if self.unfinished else "CANCELLED"
                return [SeatRow(row.name, row.seat, None, cause, self.unfinished or self.cancelled)
                        for row in self.players()]
            return None
        if not isinstance(self._result, Element):
            self._result = parse(self._result)  # once
        rows = result_rows(self._result.find("data"), self.names(), self.labels)
        if self.cancelled:  # the server's result of a stopped game (scores so far), no winner
            return [SeatRow(row.name, row.seat, None, "CANCELLED", self.cancelled, row.score) for row in rows]
        if any(row.cause == "REGULAR" and not row.reason for row in rows) and self.count():
            # the reason a person reads wherever the result is: the rules' own where the wire
            # gives none (the 2022 envelope's regular scores say reason="")
            reason = self.plugin.end_reason(self.step(self.count() - 1).state)
            for row in rows:
                if row.cause == "REGULAR" and not row.reason:
                    row.reason = reason or None
        return rows


_TURN = re.compile(rb'<state [^>]*?\bturn="(\d+)"')


def _state_of(message: bytes | Element) -> Element:
    element = message if isinstance(message, Element) else parse(message)
    return element.find("data").find("state")


def _move_text(last: Element) -> str:
    """A ``<lastMove>`` the game cannot decode, shown as the XML says it (attributes and children)."""
    attrs = " ".join(f"{k}={v}" for k, v in last.attrs.items() if k != "class")
    children = ", ".join(
        child.tag + "(" + " ".join(f"{k}={v}" for k, v in child.attrs.items()) + ")" for child in last.children
    )
    return " ".join(part for part in (attrs, children) if part)


def result_rows(data: Element, names: tuple[str, str], labels: tuple[str, str]) -> list[SeatRow]:
    """Rank, cause, reason and score parts per seat, from either dialect's result layout."""
    scores = data.find("scores")
    if scores is not None:
        pairs = [(entry.find("player"), entry.find("score")) for entry in scores.findall("entry")]
    else:
        pairs = [(None, score) for score in data.findall("score")]
    winner = data.find("winner")
    winner_side = (winner.get("team") or winner.get("color") or "").upper() if winner is not None else ""
    envelope_2025 = winner is not None and "regular" in winner.attrs
    rows = []
    for seat, (player, score) in enumerate(pairs[:2]):
        name = (player.get("name") if player is not None else None) or names[seat]
        parts = tuple(part.text for part in score.findall("part")) if score is not None else ()
        cause = score.get("cause") if score is not None else None
        reason = score.get("reason") if score is not None else None
        if envelope_2025:
            regular = winner.get("regular") != "false"
            loser = not regular and winner_side != labels[seat].upper()
            cause = cause or (violation_cause(winner.get("reason") or "") if loser else "REGULAR")
            reason = reason or winner.get("reason")
        if winner_side:
            rank = 1 if winner_side == labels[seat].upper() else 2
        elif not envelope_2025 and scores is None and parts:
            rank = 1 if parts[0] == "2" else (2 if parts[0] == "0" else 1)
        else:
            rank = 1
        rows.append(SeatRow(name, labels[seat], rank, cause or "", reason, parts))
    return rows


# -- live rooms ----------------------------------------------------------------------------------


def watch_lobby(lobby, book) -> None:
    """Give every new room of ``lobby`` a viewer record that observes it from its first state."""

    def watch(room) -> None:
        record = XmlRecord(room.plugin, "live", room=room)
        room.observers.append(record)
        room.on_pause = lambda paused: record.touch()  # "paused" on the pages at once
        on_over = room.on_over

        def over(closed_room) -> None:
            try:
                if closed_room.superseded:  # its player sits in a room of another game, same id
                    book.records.pop(record.id, None)
                    book.touch()
                else:
                    record.room_over(closed_room)
            except Exception:
                log.exception("room %s: the viewer could not note its end", closed_room.id)
            on_over(closed_room)

        room.on_over = over
        book.add(record)

    lobby.room_listeners.append(watch)


# -- files -----------------------------------------------------------------------------------------

STATES_CACHED = 4
"""Parsed states and built steps a record keeps (the most recently shown): a record's memory is
its messages' text, not a tree per state (issue 34: an uploaded replay cost ~50x its size)."""
_ROOT = re.compile(rb"<protocol\b[^>]*>")
READ_CHUNK = 1 << 16


def read_xml_replay(data: bytes, source: str, max_message_bytes: int, max_depth: int) -> XmlRecord:
    """A replay (ours or an official server's) read with the game ports' reader and limits."""
    header: dict[str, str] = {}
    root = _ROOT.search(data[:8192])
    if root is not None:
        try:
            header = dict(parse(root.group(0)[:-1] + b"/>").attrs)
        except Exception:
            header = {}
    reader = StreamReader(max_message_bytes, max_depth)
    plugin = registry.get(registry.resolve(header.get("gameType", "")))
    names = (header["red"], header["blue"]) if "red" in header and "blue" in header else None
    record: XmlRecord | None = None
    pending: list[Element] = []  # messages before the game is known (an official replay names it in its first state)

    def take(message: Element) -> None:
        nonlocal plugin, record
        if record is None:
            if plugin is None:
                data_element = message.find("data")
                if data_element is not None and data_element.find("state") is not None:
                    plugin = registry.plugin_for_state(data_element.find("state"))
            if plugin is None:
                pending.append(message)
                return
            record = XmlRecord(plugin, source, names)
            for earlier in pending:
                record._take_element(earlier)
            pending.clear()
        record._take_element(message)  # parsed as it streams: each message is kept as text, its tree dropped

    try:
        for start in range(0, len(data), READ_CHUNK):
            for event in reader.feed(data[start : start + READ_CHUNK]):
                if isinstance(event, StreamEnded):
                    break
                take(event.element)
    except ProtocolError as error:
        raise ValueError(f"{source}: not a readable XML replay ({error})") from None
    if record is None:
        raise ValueError(f"{source}: no state of a known game in it")
    record.unfinished = header.get("unfinished")
    record.cancelled = header.get("cancelled")
    record._ended = True
    record._last_state = None  # only needed while reading
    if not record.count():
        raise ValueError(f"{source}: the replay holds no state")
    if names is None:  # an official replay: the names its states carry (classic: <red displayName>)
        shown = [child.get("displayName") for child in record.state_element(0).children if child.get("displayName")]
        if len(shown) == 2:
            record._names = (shown[0], shown[1])
        elif record._result is not None:
            found = [row.name for row in result_rows(record._result.find("data"), seat_labels(plugin), seat_labels(plugin))]
            if any(n not in seat_labels(plugin) for n in found):
                record._names = (found[0], found[1])
    record.steps()  # every state of a file is checked once, when it is opened
    return record
