"""Where a person points in Hase und Igel 2018: the field an advance reaches, then each card
played on the way (a choice); a move that is no advance (eat a salad, carrots, fall back, skip)
is one choice."""

from __future__ import annotations

from swc_local.games.hare_track import track_boxes
from swc_local.games.pointing import cell, choice

_ACTIONS = {"eatSalad": "eat a salad", "fallBack": "fall back to the last hedgehog", "skip": "skip"}


def steps(game, move) -> list[dict]:
    player = (game.state.red, game.state.blue)[game.current_seat]
    found = []
    for action in move.actions:
        if action.kind == "advance":
            found.append(cell(player.index + action.value))
        elif action.kind == "card":
            value = f" {action.value:+d}" if action.card == "TAKE_OR_DROP_CARROTS" else ""
            found.append(choice(f"card {action.card}{value}"))
        elif action.kind == "exchangeCarrots":
            found.append(choice(f"carrots {action.value:+d}"))
        else:
            found.append(choice(_ACTIONS.get(action.kind, action.kind)))
    return found


def boxes(game) -> dict[str, list[float]]:
    return track_boxes(len(game.state.board))
