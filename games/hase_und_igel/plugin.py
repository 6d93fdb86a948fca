"""The Hase und Igel 2018 plugin object the registry hands to the server (``PLUGIN``).

Why separate from the game: the server needs per-game-type facts (names, timeouts, score columns,
which ``<data class>`` values are moves) before any game exists, and bots need legal moves and a
reference random player without touching the server.

Spec-conformance notes:
- ``data_classes`` lists the XStream aliases and class names of the 2018 plugin that are not
  moves (state, player, board, the single actions, hints): a ``<data>`` of such a class decodes
  fine in the official server but is no move, hence ``NAME hat kein Zug-Objekt gesendet.``.
"""

from __future__ import annotations

from swc_local.games.hase_und_igel import board, rules
from swc_local.games.hase_und_igel.xmlgame import HaseUndIgelGame
from swc_local.games.plugin import ScoreFragment, XmlPlugin

_LETTERS = {board.START: "S", board.CARROT: "c", board.HARE: "H", board.SALAD: "L",
            board.HEDGEHOG: "I", board.POSITION_1: "1", board.POSITION_2: "2", board.GOAL: "Z"}


class HaseUndIgelPlugin(XmlPlugin):
    """The ``swc_2018_hase_und_igel`` game type (its facts: games/hase_und_igel/entry.py)."""

    game_class = HaseUndIgelGame
    score_fragments = (
        ScoreFragment("Gewinner", "SUM"),
        ScoreFragment("\u2205 Feldnummer", "AVERAGE"),
        ScoreFragment("\u2205 Karotten", "AVERAGE"),
    )
    move_classes = frozenset({"move", "sc.plugin2018.Move"})
    error_echoes_move = True  # 18.2.6's invalid-move error echoes the move (capture invalid18)
    data_classes = frozenset({
        "state", "sc.plugin2018.GameState", "player", "sc.plugin2018.Player",
        "board", "sc.plugin2018.Board", "sc.plugin2018.Field",
        "advance", "sc.plugin2018.Advance", "card", "sc.plugin2018.Card",
        "exchangeCarrots", "sc.plugin2018.ExchangeCarrots", "eatSalad", "sc.plugin2018.EatSalad",
        "fallBack", "sc.plugin2018.FallBack", "skip", "sc.plugin2018.Skip",
        "hint", "sc.shared.DebugHint",
    })

    def describe(self, game: HaseUndIgelGame) -> str:
        state = game.state
        lines = [f"turn {state.turn}, {rules.COLORS[state.turn % 2]} to move"]
        for seat, player in enumerate((state.red, state.blue)):
            last = player.last
            last_text = "-" if last is None else " ".join(
                str(x) for x in (last.kind, last.card, last.value) if x is not None)
            lines.append(f"{rules.COLORS[seat]:<4} {game.names[seat]}: field {player.index} "
                         f"carrots {player.carrots} salads {player.salads} "
                         f"cards [{', '.join(player.cards)}] last {last_text}")
        cells = []
        for index, kind in enumerate(state.board):
            mark = ("R" if state.red.index == index else "") + (
                "B" if state.blue.index == index else "")
            cells.append(f"{index:2}{_LETTERS.get(kind, '?')}{mark:<2}")
        for row in range(0, len(cells), 13):
            lines.append(" ".join(cells[row:row + 13]))
        lines.append("S start c carrot H hare L salad I hedgehog 1/2 position Z goal")
        return "\n".join(lines)
