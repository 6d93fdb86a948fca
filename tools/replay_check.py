"""``swc replay``: print a replay move by move, and re-run its moves against the rules.

Spec-conformance notes (choices where the spec is silent):

* The move that led to a state is read from the state's ``<lastMove>`` (both classic games carry
  one) and decoded by the game itself; a state without one is matched by trying every legal move
  of the previous position.  So the check needs nothing game-specific beyond the plugin contract.
* Re-running starts from the first recorded state (a replay of a loaded position starts at that
  turn).  The first disagreement is reported and the check stops there: a recorded move the rules
  refuse, a move whose result differs from the recorded state, a game that goes on although the
  rules say it is over, or a result that differs from the one the rules give.
* Results ended by a fault (``LEFT``, timeouts, ``RULE_VIOLATION``) are not decided by the rules;
  for those only the state-derived score parts (after "Gewinner") are compared.
* Both result layouts are read: classic ``<score>`` children, and the 2022+ ``<scores><entry>``
  with ``<winner team/>``; sides are called RED/BLUE in classic games and ONE/TWO in modern ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TextIO

from swc_local.client.messages import parse as parse_message
from swc_local.games.plugin import MODERN, TEAM_DIALECTS, GamePlugin, InvalidMove, MalformedMove, RunningGame
from swc_local.protocol.element import Element
from swc_local.server.xml.replay import Replay


@dataclass
class CheckReport:
    moves_checked: int = 0
    disagreement: str | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.disagreement is None


def move_text(state: Element) -> str:
    """A one-line form of the state's ``<lastMove>`` with everything in it (a Blokus piece's
    ``position`` too), or '' at the start."""
    last = state.find("lastMove")
    if last is None:
        return ""
    attrs = " ".join(f"{k}={v}" for k, v in last.attrs.items() if k != "class")
    children = ", ".join(_element_text(child) for child in last.children)
    return " ".join(part for part in (attrs, children) if part)


def _element_text(element: Element) -> str:
    inner = [f"{k}={v}" for k, v in element.attrs.items()] + [_element_text(child) for child in element.children]
    return element.tag + "(" + " ".join(inner) + ")"


def sides(plugin: GamePlugin) -> tuple[str, str]:
    """What the two seats are called on the wire of this game's dialect."""
    return ("ONE", "TWO") if getattr(plugin, "dialect", None) in TEAM_DIALECTS else ("RED", "BLUE")


def _side(game: RunningGame, plugin: GamePlugin | None = None) -> str:
    return sides(plugin)[game.current_seat] if plugin is not None else ("RED", "BLUE")[game.current_seat]


def print_replay(replay: Replay, out: TextIO) -> None:
    """Header, then every state with the move that led to it, then the result."""
    h = replay.header
    first, second = sides(replay.plugin) if replay.plugin.dialect in TEAM_DIALECTS else ("red", "blue")
    print(f"{replay.game_type}: {replay.names[0]} ({first}) vs {replay.names[1]} ({second}), room {h.get('roomId', '?')}, seed {h.get('seed', '?')}", file=out)
    if "loadGameFile" in h:
        print(f"started from {h['loadGameFile']} at turn {h.get('turnToLoad')}", file=out)
    previous: RunningGame | None = None
    for state in replay.states:
        game = replay.plugin.game_from_state(state)
        print("", file=out)
        if previous is not None:
            print(f"{_side(previous, replay.plugin)} moves: {move_text(state) or '?'}", file=out)
        print(replay.plugin.describe(game), file=out)
        previous = game
    print("", file=out)
    print(result_text(replay.result, replay.plugin), file=out)


def score_tuples(result: Element) -> list[tuple[str, str | None, list[str]]]:
    """(cause, reason, parts) per seat, in either dialect's layout; the 2025+ envelope writes no
    cause, :func:`swc_local.client.messages.parse` derives it from the winner's reason."""
    typed = parse_message(Element("room", {"roomId": ""}, [result]))
    return [(score.cause, score.reason, list(score.parts)) for score in typed.scores]


def result_names(result: Element) -> tuple[str, str]:
    """The display names of a 2022+ result's ``<player name team/>`` entries ("" when absent)."""
    names = ["", ""]
    scores = result.find("scores")
    for entry in scores.findall("entry") if scores is not None else ():
        player = entry.find("player")
        if player is not None and player.get("team") in ("ONE", "TWO"):
            names[("ONE", "TWO").index(player.get("team"))] = player.get("name") or ""
    return names[0], names[1]


def result_text(result: Element | None, plugin: GamePlugin | None = None) -> str:
    if result is None:
        return "no result (cancelled, or the replay is cut short)"
    lines = ["result:"]
    names = ("red ", "blue") if plugin is None or plugin.dialect not in TEAM_DIALECTS else sides(plugin)
    for color, (cause, reason, parts) in zip(names, score_tuples(result)):
        lines.append(f"  {color} {cause} [{' '.join(parts)}]" + (f" {reason!r}" if reason else ""))
    winners = result.findall("winner")
    for winner in winners:  # 2021 names both players of a tie
        team = winner.find("color")  # 2021: <color class="team">ONE</color>
        side = winner.get("color") or winner.get("team") or (team.text if team is not None else None)
        name = winner.get("displayName") or winner.get("name")
        lines.append(f"  winner: {name} ({side})" if name is not None else f"  winner: {side}")
    if not winners:
        lines.append("  no winner")
    return "\n".join(lines)


def _recorded_move(game: RunningGame, state: Element, plugin: GamePlugin) -> object | None:
    """The state's ``<lastMove>`` as a move: its class when that is one of the game's move
    classes (Blokus: ``sc.plugin2021.SkipMove``, ...), else ``move``."""
    last = state.find("lastMove")
    if last is None:
        return None
    data_class = last.get("class") if last.get("class") in plugin.move_classes else "move"
    attrs = {"class": data_class, **{k: v for k, v in last.attrs.items() if k != "class"}}
    try:
        return game.decode_move(Element("data", attrs, last.children))
    except MalformedMove:
        return None


def _step(replay: Replay, game: RunningGame, state: Element) -> tuple[RunningGame | None, str | None]:
    """The game after the move that leads to ``state``, or a disagreement."""
    plugin = replay.plugin
    expected = state.render()
    move = _recorded_move(game, state, plugin)
    candidates = [move] if move is not None else plugin.legal_moves(game)
    where = f"turn {game.turn} ({_side(game, plugin)} to move)"
    for candidate in candidates:
        trial = plugin.copy_game(game)
        try:
            trial.apply(trial.current_seat, candidate)
        except (InvalidMove, MalformedMove) as error:
            if move is not None:
                return None, f"{where}: the rules refuse the recorded move {move_text(state)}: {getattr(error, 'reason', error)}"
            continue
        if trial.state_element().render() == expected:
            return trial, None
        if move is not None:
            return None, f"{where}: the recorded move {move_text(state)} gives a different state than the one recorded"
    return None, f"{where}: no legal move leads to the recorded state of turn {state.get('turn', '?')}"


def _expected_scores(game: RunningGame) -> list[tuple[str, str | None, list[str]]] | None:
    outcome = game.outcome()
    if outcome is None:
        return None
    scores = []
    for seat in (0, 1):
        points = 1 if outcome.winner is None else (2 if outcome.winner == seat else 0)
        scores.append(("REGULAR", outcome.reason, [str(points), *game.score_parts(seat)]))
    return scores


def check_replay(replay: Replay) -> CheckReport:
    """Re-run the recorded moves from the first recorded state; stop at the first disagreement."""
    report = CheckReport()
    states = replay.states
    if not states:
        report.disagreement = "the replay holds no state"
        return report
    plugin = replay.plugin
    game = plugin.game_from_replay(states)
    for state in states[1:]:
        if game.outcome() is not None:
            report.disagreement = f"turn {game.turn}: the rules say the game is over, but the replay goes on"
            return report
        game, problem = _step(replay, game, state)
        if problem:
            report.disagreement = problem
            return report
        report.moves_checked += 1
    recorded = replay.result
    if recorded is None:
        report.notes.append("no result recorded")
        return report
    scores = score_tuples(recorded)
    if plugin.dialect == MODERN:  # 2025+ reasons name the players: take the names the result shows
        game.set_display_names(result_names(recorded))
    if all(cause == "REGULAR" for cause, _, _ in scores):
        expected = _expected_scores(game)
        if expected is None:
            report.disagreement = f"turn {game.turn}: the replay ends with a result, but by the rules the game goes on"
        elif expected != scores:
            report.disagreement = f"result: recorded {scores}, the rules give {expected}"
        return report
    for seat, (cause, _, parts) in enumerate(scores):
        if cause != "REGULAR":
            report.notes.append(f"{('red', 'blue')[seat]} ended the game by a fault ({cause}); not re-checked")
        if parts[1:] != game.score_parts(seat):
            report.disagreement = f"result: recorded parts {parts[1:]} for {('red', 'blue')[seat]}, the final state gives {game.score_parts(seat)}"
            return report
    return report


def main(path, check: bool, out: TextIO) -> int:
    """``swc replay FILE [--check]`` for an XML replay: print it, or check it (exit 1 on a
    disagreement, 2 when the file cannot be read)."""
    import logging

    from swc_local.server.xml.replay import ReplayError, read_replay

    try:
        replay = read_replay(path)
    except ReplayError as error:
        logging.getLogger("swc").error("%s", error)
        return 2
    if not check:
        print_replay(replay, out)
        return 0
    report = check_replay(replay)
    for note in report.notes:
        print(f"note: {note}", file=out)
    if report.ok:
        print(f"ok: {report.moves_checked} moves and the result agree with the rules", file=out)
        return 0
    print(f"disagreement after {report.moves_checked} agreeing moves: {report.disagreement}", file=out)
    return 1
