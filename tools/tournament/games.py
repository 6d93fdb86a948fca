"""What the tournament needs to know of a game: its type, its seats per game, the runner's options.

The Software-Challenge games have two seats; a ReversiXT game has as many seats as its map has
players (the classic two-player map by default); a Robo Rally game as many as ``--seats`` (2-6,
default 2).
"""

from __future__ import annotations

from swc_local.games import registry

REVERSIXT = "reversixt"
ROBORALLY = "roborally"


def game_names() -> list[str]:
    return [*registry.game_types(), REVERSIXT, ROBORALLY]


def resolve(name: str, *, map_name: str | None = None, seats: int | None = None,
            max_rounds: int | None = None) -> tuple[str, int, dict]:
    """(game type, seats per game, runner options) or ValueError with a one-line reason."""
    game = registry.resolve(name)
    if game not in game_names():
        raise ValueError(f"unknown game {name!r}; known: {', '.join(game_names())}")
    if seats is not None and game != ROBORALLY:
        raise ValueError(f"--seats {seats}: only for roborally (the seats of {game} are fixed)")
    if max_rounds is not None and game != ROBORALLY:
        raise ValueError(f"--max-rounds {max_rounds}: only for roborally")
    options: dict = {}
    if game == REVERSIXT:
        from swc_local.games.reversixt.mapfile import MapError, load_map
        from swc_local.server.reversixt_door import DEFAULT_MAP

        try:
            players = load_map(map_name or DEFAULT_MAP).players
        except (OSError, MapError) as error:
            raise ValueError(f"--map {map_name!r}: not a ReversiXT map ({error})") from None
        if map_name:
            options["map"] = map_name
        return game, players, options
    if game == ROBORALLY:
        seats = 2 if seats is None else seats
        if not 2 <= seats <= 6:
            raise ValueError(f"--seats {seats}: a Robo Rally game has 2 to 6 seats")
        if map_name:
            options["map"] = map_name
        if max_rounds is not None:
            options["max_rounds"] = max_rounds
        return game, seats, options
    if map_name:
        raise ValueError(f"--map {map_name!r}: only for reversixt and roborally")
    return game, 2, options
