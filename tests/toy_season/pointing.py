"""Where a person points in the toy: the token, then the field it goes to."""

from __future__ import annotations

from swc_local.games.pointing import cell

from tests.toy_season import view
from tests.toy_season.rules import LENGTH


def steps(game, move) -> list[dict]:
    return [cell(move.start), cell(move.end)]


def boxes(game) -> dict[str, list[float]]:
    return {str(x): view.box(x) for x in range(LENGTH)}
