"""Replay files: writing them at room end, reading them, and starting rooms from one of their states.

Format (version 1).  A replay is the observer's stream of one game, byte for byte as an
observing admin received it, closed like a stream the server ends::

    <protocol swcReplay="1" gameType="swc_2019_piranhas" roomId="..." seed="1234"
              red="Alice" blue="Bob" [loadGameFile="..." turnToLoad="N"]
              [unfinished="server stopped (SIGTERM)"]>
      <room roomId="..."><data class="memento"><state .../></data></room>   (one per state)
      ...
      <room roomId="..."><data class="result">...</data></room>
      <left roomId="..."/>
    </protocol>

Spec-conformance notes (spec §7, ``saveReplay``/``loadGameFile``/``turnToLoad``):

* The official server wrote its replay through an internal loop-back observer; ours is the same
  stream, so everything an observer gets is in it (states, observer errors, result, ``left``) and
  nothing else: a room that was paused at its end has no final state, as on the wire.  The
  header is a set of attributes on the root, where every reader of an observer stream (ours, the
  official loader, a third-party viewer) ignores them; ``seed`` is the room's board seed
  (``plugin.new_game(random.Random(seed))`` rebuilds the start board).
* A game the server stopped (SIGTERM/SIGINT) is written with the states so far and ``<left>``,
  no result, and ``unfinished`` says why.
* A room that never sent a state (cancelled before it started) writes no file.
* The file is written synchronously when the room closes, in the same step that queues the
  result: by the time any client has read the result, the replay is complete on disk.
* Loading (``loadGameFile`` + ``turnToLoad``): the official server copied the state whose
  ``turn`` attribute equals N.  Here a state counts as "turn N" when the game rebuilt from it
  has ``turn == N`` (the state after N moves, with its side to move), so any game plugin works.
  A turn that is not in the file, or a position that is already decided, is refused at start-up
  instead of producing broken rooms.  Files without our header (official replays) are read too;
  their game type is taken from the state's class.  Rooms of another game type start normally,
  but a replay of another game than the one asked for (``swc match GAME``, ``swc serve --game``)
  is refused at start-up.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from swc_local.games import registry
from swc_local.games.plugin import GamePlugin, RunningGame
from swc_local.protocol.element import Element, escape_attribute, parse

log = logging.getLogger("swc.replay")

FORMAT_VERSION = "1"


class ReplayError(ValueError):
    """A replay file cannot be read or does not hold what was asked for."""


# -- reading ---------------------------------------------------------------------------------


@dataclass
class Replay:
    """One replay file: the header attributes and the observer's messages in order."""

    header: dict[str, str]
    messages: list[Element]
    plugin: GamePlugin
    path: Path | None = None
    _states: list[Element] | None = field(default=None, repr=False)

    @property
    def game_type(self) -> str:
        return self.plugin.game_type

    @property
    def seed(self) -> int | None:
        value = self.header.get("seed")
        return int(value) if value is not None and value.lstrip("-").isdigit() else None

    @property
    def names(self) -> tuple[str, str]:
        return (self.header.get("red", "Unknown"), self.header.get("blue", "Unknown"))

    @property
    def states(self) -> list[Element]:
        """Every memento's ``<state>``, in order, repeats (a re-sent state after ``step``) removed."""
        if self._states is None:
            states: list[Element] = []
            last = None
            for message in self.messages:
                data = message.find("data") if message.tag == "room" else None
                if data is not None and data.get("class") == "memento" and data.find("state") is not None:
                    state = data.find("state")
                    rendered = state.render()
                    if rendered != last:
                        states.append(state)
                    last = rendered
            self._states = states
        return self._states

    @property
    def result(self) -> Element | None:
        """The ``<data class="result">`` element, or None (cancelled or cut short)."""
        for message in self.messages:
            data = message.find("data") if message.tag == "room" else None
            if data is not None and data.get("class") == "result":
                return data
        return None

    def game_at(self, turn: int) -> RunningGame:
        """A fresh game in the recorded state after ``turn`` moves; ReplayError if absent."""
        turns = []
        for state in self.states:
            game = self.plugin.game_from_state(state)
            if game.turn == turn:
                return game
            turns.append(game.turn)
        span = f"turns {turns[0]}..{turns[-1]}" if turns else "no states"
        raise ReplayError(f"turn {turn} is not in the replay ({span})")


def plugin_for_state(state: Element) -> GamePlugin | None:
    return registry.plugin_for_state(state)


def read_replay(path: str | Path) -> Replay:
    """Parse a replay file (ours or an official one)."""
    path = Path(path)
    try:
        root = parse(path.read_bytes())
    except OSError as error:
        raise ReplayError(f"cannot read {path}: {error}") from None
    except Exception as error:  # expat errors, no root
        raise ReplayError(f"{path} is not an XML replay: {error}") from None
    messages = list(root.children)
    plugin = registry.get(registry.resolve(root.get("gameType") or ""))
    if plugin is None:
        for message in messages:
            data = message.find("data")
            if data is not None and data.find("state") is not None:
                plugin = plugin_for_state(data.find("state"))
                break
    if plugin is None:
        raise ReplayError(f"{path}: unknown game type {root.get('gameType')!r} and no state of a known game")
    return Replay(dict(root.attrs), messages, plugin, path)


# -- loading a position ----------------------------------------------------------------------


def position_factory(path: str | Path, turn: int, game: str | None = None):
    """A ``game_factory`` for :class:`swc_local.server.app.Server`: every new room of the replay's game
    starts from the state after ``turn`` moves (``loadGameFile``/``turnToLoad``).

    ``game`` is the game the caller asked for (``swc match GAME``, ``swc serve --game``): a replay of
    another game is refused instead of leaving every room at its usual start."""
    replay = read_replay(path)
    asked = registry.get(registry.resolve(game)) if game else None
    if game and (asked is None or asked.game_type != replay.game_type):
        raise ReplayError(f"{path} is a replay of {replay.game_type}, not of {asked.game_type if asked else game}: "
                          f"load a replay of {asked.game_type if asked else game}")
    start = replay.game_at(turn)
    if start.outcome() is not None:
        raise ReplayError(f"the game is already decided at turn {turn}; load an earlier turn")
    state = start.state_element()
    plugin = replay.plugin

    def factory(room_plugin: GamePlugin, _rng) -> RunningGame | None:
        if room_plugin.game_type != plugin.game_type:
            return None
        return plugin.game_from_state(state)

    factory.turn = turn  # type: ignore[attr-defined]
    log.info("new %s rooms start from %s at turn %d", plugin.game_type, path, turn)
    return factory


# -- writing ---------------------------------------------------------------------------------

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def header(room, extra: dict[str, str] | None = None) -> dict[str, str]:
    names = [slot.display_name for slot in room.slots]
    attrs = {
        "swcReplay": FORMAT_VERSION,
        "gameType": room.plugin.game_type,
        "roomId": room.id,
        "seed": str(room.rng_seed),
        "red": names[0],
        "blue": names[1],
    }
    attrs.update(extra or {})
    return attrs


def replay_bytes(attrs: dict[str, str], history: list[bytes | str | Element]) -> bytes:
    """The file's bytes: the root with the header, the observer messages, the closing tag."""
    parts = ["<protocol" + "".join(f' {k}="{escape_attribute(v)}"' for k, v in attrs.items()) + ">"]
    out = [parts[0].encode("utf-8")]
    for item in history:
        if isinstance(item, Element):
            item = item.render(1)
        out.append(item.encode("utf-8") if isinstance(item, str) else bytes(item))
    out.append(b"\n</protocol>\n")
    return b"".join(out)


class ReplayWriter:
    """Turns on recording for every new room and writes its replay when the room closes."""

    def __init__(self, directory: str | Path, extra_header: dict[str, str] | None = None) -> None:
        self.directory = Path(directory)
        self.extra_header = extra_header or {}
        self.paths: dict[str, Path] = {}  # room id -> file written

    def attach(self, lobby) -> None:
        lobby.room_listeners.append(self.watch)

    def watch(self, room) -> None:
        room.recording = True
        on_over = room.on_over

        def over(closed_room) -> None:
            try:
                self.write(closed_room)
            except Exception:  # a full disk must not break the room's ending
                log.exception("room %s: writing the replay failed", closed_room.id)
            on_over(closed_room)

        room.on_over = over

    def file_name(self, room) -> str:
        names = "_vs_".join(_UNSAFE.sub("-", slot.display_name) for slot in room.slots)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        return f"{room.plugin.game_type}_{names}_{stamp}_{room.id[:8]}.xml"

    def write(self, room) -> Path | None:
        history = list(room.history)
        if not any(b"memento" in (h if isinstance(h, bytes) else str(h).encode()) for h in history):
            return None
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.directory / self.file_name(room)
        extra = dict(self.extra_header)
        if getattr(room, "unfinished", None):  # stopped by a shutdown: moves so far, no result
            extra["unfinished"] = room.unfinished
        path.write_bytes(replay_bytes(header(room, extra), history))
        self.paths[room.id] = path
        log.info("room %s: replay written to %s", room.id, path)
        return path
