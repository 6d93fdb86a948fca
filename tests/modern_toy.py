"""A tiny test-only game on the modern dialect, one per envelope (2022 and 2025).

Each team has a token on a line, starting at 0; a move is ``<data class="move"><from x/><to x/>
</data>`` and advances the own token by 1 or 2.  After six moves (three rounds) the farther
token wins, equal distances draw.  It exercises every path of the modern lobby and rooms that a
real game does (moves, invalid moves, undecodable moves, results, both envelopes) without
depending on any season's rules.  ``register()`` adds both to the game registry for a test.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from swc_local.games import registry
from swc_local.games.plugin import (
    ENVELOPE_2022,
    ENVELOPE_2025,
    MODERN,
    GameHooks,
    InvalidMove,
    MalformedMove,
    Outcome,
    PluginHooks,
    ScoreFragment,
)
from swc_local.protocol.element import Element

TEAMS = ("ONE", "TWO")
LAST_TURN = 6


@dataclass(frozen=True)
class Step:
    start: int
    end: int


class ToyGame(GameHooks):
    def __init__(self, positions: tuple[int, int] = (0, 0), turn: int = 0) -> None:
        self.positions = list(positions)
        self._turn = turn
        self.names = ("", "")

    @property
    def turn(self) -> int:
        return self._turn

    @property
    def current_seat(self) -> int:
        return self._turn % 2

    def set_display_names(self, names: tuple[str, str]) -> None:
        self.names = names

    def decode_move(self, data: Element) -> Step:
        start, end = data.find("from"), data.find("to")
        if start is None or end is None:
            raise MalformedMove("a move needs <from> and <to>")
        try:
            return Step(int(start.get("x", "")), int(end.get("x", "")))
        except ValueError:
            raise MalformedMove("x is not a number", cause="PROTOCOL_ERROR") from None

    def move_text(self, move: Step) -> str:
        return f"Zug von [{move.start}] zu [{move.end}]"

    def apply(self, seat: int, move: object) -> None:
        assert isinstance(move, Step)
        text = self.move_text(move)
        if move.start != self.positions[seat]:
            mistake = "Nur eigene Spielfiguren können gezogen werden"
        elif move.end - move.start not in (1, 2):
            mistake = "%s kann sich nicht um %s bewegen"
        else:
            self.positions[seat] = move.end
            self._turn += 1
            return
        raise InvalidMove(f"{mistake} bei Zug '{text}'", f"InvalidMoveException(mistake={mistake}, move={text})")

    def outcome(self) -> Outcome | None:
        if self._turn < LAST_TURN:
            return None
        one, two = self.positions
        if one == two:
            return Outcome(None, "Beide Spieler sind gleichauf")
        seat = 0 if one > two else 1
        return Outcome(seat, f"{self.names[seat] or TEAMS[seat]} ist weiter gekommen")

    def state_element(self) -> Element:
        tokens = [Element("token", {"team": team, "x": str(x)}) for team, x in zip(TEAMS, self.positions)]
        return Element("state", {"class": "state", "turn": str(self._turn)}, tokens)

    def score_parts(self, seat: int) -> list[str]:
        return [str(self.positions[seat])]

    def winner_element(self, seat: int) -> Element:
        return Element("winner", {"team": TEAMS[seat]})


class ToyPlugin(PluginHooks):
    dialect = MODERN
    display_name = "Toy"
    soft_timeout_ms = 2000
    hard_timeout_ms = 10000
    score_fragments = (ScoreFragment("Siegpunkte", "SUM"), ScoreFragment("Weite", "AVERAGE"))
    move_classes = frozenset({"move"})
    data_classes = frozenset({"state"})
    error_echoes_move = True

    def __init__(self, game_type: str, envelope: str, season: int) -> None:
        self.game_type = game_type
        self.envelope = envelope
        self.season = season

    def new_game(self, rng: random.Random) -> ToyGame:
        return ToyGame()

    def game_from_state(self, state: Element) -> ToyGame:
        positions = tuple(int(token.get("x", "0")) for token in state.findall("token"))
        return ToyGame((positions[0], positions[1]), int(state.get("turn", "0")))

    def legal_moves(self, game: ToyGame) -> list[Step]:
        x = game.positions[game.current_seat]
        return [Step(x, x + 1), Step(x, x + 2)]

    def move_element(self, move: Step) -> Element:
        return Element("data", {"class": "move"}, [Element("from", {"x": str(move.start)}), Element("to", {"x": str(move.end)})])

    def random_move(self, game: ToyGame, rng: random.Random) -> Step | None:
        return rng.choice(self.legal_moves(game))

    def describe(self, game: ToyGame) -> str:
        return f"turn {game.turn}: {game.positions}"


TOY_2022 = ToyPlugin("test_2022_toy", ENVELOPE_2022, 9998)
TOY_2025 = ToyPlugin("test_2025_toy", ENVELOPE_2025, 9999)
PLUGIN = TOY_2022  # registry entries name a module with a PLUGIN; see register()


def register(monkeypatch) -> None:
    """Make both toys known to the registry for one test."""
    monkeypatch.setattr(registry, "GAMES", (*registry.GAMES, *(ToyEntry(plugin) for plugin in (TOY_2022, TOY_2025))))


class ToyEntry(registry.XmlSeason):
    """A registry value for one of the toys (the plugin is built here, not by the value)."""

    def __init__(self, plugin: ToyPlugin) -> None:
        super().__init__()
        self.toy = plugin
        self.game_type = plugin.game_type

    def load_parts(self):
        return registry.Parts(plugin=lambda entry: self.toy)
