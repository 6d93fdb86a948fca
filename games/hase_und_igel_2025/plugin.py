"""The Hase und Igel 2025 plugin object the registry hands to the server (``PLUGIN``).

Why separate from the game: the server needs per-game-type facts (names, timeouts, score columns,
which ``<data class>`` values are moves) before any game exists, and bots need legal moves and a
reference random player without touching the server.

Spec-conformance notes:
- ``legal_moves`` is the server's sensible-move list (spec §4.7), the list socha 3.7.2's
  ``possible_moves()`` reproduces; the validator accepts more (``advance 0``, negative distances).
- The score fragments are ``Siegpunkte`` (SUM), ``Feldnummer`` and ``Karotten`` (AVERAGE); the
  ``Karotten`` column is "lower is better" on the official server, which the XML does not show.
- ``data_classes`` lists the plugin's other aliases (state, hare, card): a ``<data>`` of such a
  class is no move.
"""

from __future__ import annotations

from swc_local.games.hase_und_igel_2025 import rules, track, xmlmap
from swc_local.games.hase_und_igel_2025.xmlgame import HaseUndIgel2025Game
from swc_local.games.hase_und_igel_2025.state import TEAMS, State
from swc_local.games.plugin import ScoreFragment, XmlPlugin
from swc_local.protocol.element import Element


class HaseUndIgel2025Plugin(XmlPlugin):
    """The ``swc_2025_hase_und_igel`` game type (its facts: games/hase_und_igel_2025/entry.py)."""

    game_class = HaseUndIgel2025Game
    score_fragments = (
        ScoreFragment("Siegpunkte", "SUM"),
        ScoreFragment("Feldnummer", "AVERAGE"),
        ScoreFragment("Karotten", "AVERAGE"),
    )
    move_classes = frozenset(xmlmap.MOVE_CLASSES)
    data_classes = frozenset({"state", "sc.plugin2025.GameState", "player", "sc.plugin2025.Hare",
                              "card", "sc.plugin2025.Card"})
    error_echoes_move = True  # the invalid-move error carries <originalMessage> (captured)

    def recognizes_state(self, state: Element) -> bool:
        """A 2025 state: ``<hare>`` children and a ``<board>`` of 65 ``<field>`` (other seasons
        also call their state class ``state``)."""
        board = state.find("board")
        return (state.find("hare") is not None and board is not None
                and len(board.findall("field")) == track.SIZE)

    def describe(self, game: HaseUndIgel2025Game) -> str:
        return describe(game.state, game.names)


def describe(state: State, names: tuple[str, str] = ("", "")) -> str:
    """A small text board: who is to move, both hares, the track with the hares on it."""
    lines = [f"turn {state.turn}, {TEAMS[state.seat]} to move"
             + (" (game over)" if rules.is_over(state) else "")]
    for seat, hare in enumerate(state.hares):
        name = f" {names[seat]}" if names[seat] else ""
        last = "-" if hare.last_action is None else str(hare.last_action)
        lines.append(f"{hare.team}{name}: field {hare.position} carrots {hare.carrots} "
                     f"salads {hare.salads} cards [{', '.join(hare.cards)}] last {last}")
    cells = []
    for index, kind in enumerate(state.track):
        mark = "".join(mark for mark, hare in zip("AB", state.hares) if hare.position == index)
        cells.append(f"{index:2}:{track.LETTERS[kind]}{mark:<2}")
    for row in range(0, len(cells), 13):
        lines.append(" ".join(cells[row:row + 13]))
    lines.append("0 start K carrots H hare S salad I hedgehog M market 1/2 position Z goal; "
                 "A/B: hare ONE/TWO")
    return "\n".join(lines)
