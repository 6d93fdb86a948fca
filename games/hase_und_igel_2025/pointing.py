"""Where a person points in Hase und Igel 2025: the field an advance reaches, then each card
played on the way (a choice); eating a salad, carrots and falling back are one choice each."""

from __future__ import annotations

from swc_local.games.hare_track import track_boxes
from swc_local.games.hase_und_igel_2025.state import Advance, EatSalad, ExchangeCarrots
from swc_local.games.pointing import cell, choice


def steps(game, move) -> list[dict]:
    hare = game.state.hares[game.current_seat]
    if isinstance(move, Advance):
        return [cell(hare.position + move.distance)] + [choice(f"card {card}") for card in move.cards]
    if isinstance(move, EatSalad):
        return [choice("eat a salad")]
    if isinstance(move, ExchangeCarrots):
        return [choice(f"carrots {move.amount:+d}")]
    return [choice("fall back to the last hedgehog")]


def boxes(game) -> dict[str, list[float]]:
    return track_boxes(len(game.state.track))
