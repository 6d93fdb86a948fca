"""What the server's door plays a ReversiXT game with, found through the registry
(``registry.entry("reversixt").rules``): a map (:func:`load_map`) and a :class:`Referee` per game."""

from .mapfile import GameMap, MapError, load_map
from .referee import Referee

__all__ = ["GameMap", "MapError", "Referee", "load_map"]
