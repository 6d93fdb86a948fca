"""What the tournament needs to know of a game: its type, its seats per game, the runner's options.

Everything comes from the registry and the game family's seat adapter (the module the runner
plays the family with): the Software-Challenge games have two seats; a ReversiXT game as many as
its map has players (the classic two-player map by default); a Robo Rally game as many as
``--seats`` (2-6, default 2). Options a family does not know are an error, not ignored.
"""

from __future__ import annotations

from swc_local.games import registry
from swc_local.tools import families


def resolve(name: str, options: dict, seats: int | None = None) -> tuple[str, int, dict]:
    """(game type, seats per game, runner options) or ValueError with a one-line reason."""
    game = registry.entry(name)
    if game is None:
        raise ValueError(registry.unknown_game_message(name))
    adapter = families.family(game.family).adapter
    options = {key: value for key, value in options.items() if value is not None}
    foreign = [key for key in options if key not in getattr(adapter, "OPTIONS", ())]
    if foreign:
        raise ValueError(f"--{foreign[0].replace('_', '-')}: not an option of {game.name}")
    problem = adapter.check_options(game.game_type, options) if hasattr(adapter, "check_options") else None
    if problem:
        raise ValueError(problem)
    fewest, most = game.seats
    if hasattr(adapter, "seat_count"):
        fixed = adapter.seat_count(options)
        if seats is not None and seats != fixed:
            raise ValueError(f"--seats {seats}: {game.name} with this map has {fixed} seats")
        return game.game_type, fixed, options
    if seats is None:
        return game.game_type, fewest, options
    if not fewest <= seats <= most:
        accepted = f"{fewest}" if fewest == most else f"{fewest} to {most}"
        raise ValueError(f"--seats {seats}: a {game.name} game has {accepted} seats")
    return game.game_type, seats, options


def loads_positions(name: str) -> bool:
    """True for the games whose runner can start from a replay position (``load_game``)."""
    game = registry.entry(name)
    return game is not None and "load_game" in getattr(families.family(game.family).adapter, "OPTIONS", ())


def times_moves(name: str) -> bool:
    """True for the games whose moves the runner times (the XML games' observer; see
    :mod:`swc_local.tools.xml_match`): per-bot think times and ``--bot-timeout`` need it."""
    return loads_positions(name)  # the same family: the Software-Challenge games
