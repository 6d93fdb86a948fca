"""Opening books: the fixed, reusable starts of a tournament (``--openings FILE``).

As cutechess-cli plays ``-openings file=... -repeat`` and fishtest its books, every opening is
played as one block: a game pair with the seats swapped (in a multi-player game, the block's
rotations), so "v2 vs v1" runs on the same starts every time. A book is a text file, one opening
a line (blank lines and ``#`` comments are skipped):

- ``1234``: a board seed (every game; the board the game's own generator makes from it);
- ``PATH@TURN``: the position after ``TURN`` moves of the XML replay ``PATH`` (the Software-
  Challenge games that load positions, as ``swc match --load-game PATH --turn TURN``); ``PATH``
  alone means ``PATH@plies``; relative paths are relative to the book's folder.

``--openings DIR`` takes every replay in the folder (``*.xml``, ``*.xml.gz``, sorted by name) at
``plies``. Options after the file: ``order=sequential`` (the book's order, the default) or
``order=random`` (shuffled once with the tournament seed, stored with the tournament, so
``--resume`` plays the same order), ``plies=N`` (default 8, as cutechess's ``plies=`` it is the
depth into the replay; only for replay positions).

``swc tournament openings OUT`` writes a book: ``--count N`` board seeds (from ``--seed``), or
with ``--from DIR`` the positions at ``--plies`` of the replays in DIR (a match's ``--replays``),
skipping games already decided there.

Conformance notes: a book shorter than the pairs played is cycled (as cutechess does); without
``--games-per-pairing`` a book run plays each opening once per pairing. A replay position keeps
the board seed of its block for nothing but the key (the board is the replay's).
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from pathlib import Path

REPLAY_SUFFIXES = (".xml", ".xml.gz")
DEFAULT_PLIES = 8
ORDERS = ("sequential", "random")


class BookError(ValueError):
    """A book that cannot be read or used (one line naming the file, line and what is accepted)."""


@dataclass(frozen=True)
class Opening:
    seed: int | None = None  # a board seed
    replay: str | None = None  # or an XML replay's absolute path ...
    turn: int | None = None  # ... and the turn to start from

    @property
    def label(self) -> str:
        return f"seed {self.seed}" if self.replay is None else f"{self.replay}@{self.turn}"

    def board_seed(self, tournament_seed: int, block: int) -> int:
        if self.seed is not None:
            return self.seed
        return random.Random(f"swc-tournament/{tournament_seed}/{block}").getrandbits(31)

    def options(self) -> dict:
        """The runner options that start a game here (none for a board seed)."""
        return {} if self.replay is None else {"load_game": self.replay, "turn": self.turn}

    def to_dict(self) -> dict:
        return {key: value for key, value in asdict(self).items() if value is not None}


def parse_options(items: list[str]) -> tuple[Path, str, int | None]:
    """``FILE [order=...] [plies=N]`` as given to ``--openings``: (path, order, plies)."""
    path, order, plies = Path(items[0]), "sequential", None
    for item in items[1:]:
        key, sep, value = item.partition("=")
        if key == "order" and sep:
            if value not in ORDERS:
                raise BookError(f"--openings order={value!r}: accepted are {', '.join(ORDERS)}")
            order = value
        elif key == "plies" and sep:
            if not value.isdigit():
                raise BookError(f"--openings plies={value!r}: expected a whole number of moves, e.g. plies=8")
            plies = int(value)
        else:
            raise BookError(f"--openings {item!r}: after the file, accepted are order=sequential|random and plies=N")
    return path, order, plies


def read_book(path: Path, plies: int | None = None) -> list[Opening]:
    """The openings of a book file or a folder of replays, in their order."""
    if path.is_dir():
        replays = sorted(p for p in path.iterdir() if p.name.endswith(REPLAY_SUFFIXES))
        if not replays:
            raise BookError(f"--openings {path}: the folder holds no replays (*.xml, *.xml.gz)")
        return [Opening(replay=str(p.resolve()), turn=DEFAULT_PLIES if plies is None else plies) for p in replays]
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise BookError(f"--openings {path}: cannot read the book ({getattr(error, 'strerror', None) or error})") from None
    openings = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.lstrip("-").isdigit():
            if plies is not None:
                raise BookError(f"--openings {path}: plies= is for replay positions; line {number} is a board seed")
            openings.append(Opening(seed=int(line) & 0x7FFFFFFF))
            continue
        name, at, turn = line.rpartition("@") if "@" in line else (line, "", "")
        if at and not turn.isdigit():
            raise BookError(f"--openings {path} line {number}: {raw.strip()!r}: expected a seed, REPLAY or REPLAY@TURN")
        replay = (path.parent / name).resolve()
        if not replay.is_file():
            raise BookError(f"--openings {path} line {number}: no such replay {name!r}")
        openings.append(Opening(replay=str(replay), turn=int(turn) if at else DEFAULT_PLIES if plies is None else plies))
    if not openings:
        raise BookError(f"--openings {path}: the book holds no openings (one seed or REPLAY@TURN a line)")
    return openings


def ordered(openings: list[Opening], order: str, seed: int) -> list[Opening]:
    """The book in playing order: as written, or shuffled once with the tournament seed."""
    if order == "sequential":
        return list(openings)
    shuffled = list(openings)
    random.Random(f"swc-tournament/{seed}/openings").shuffle(shuffled)
    return shuffled


def check_positions(openings: list[Opening], game: str, can_load: bool) -> None:
    """BookError for a replay position the game cannot start from (a non-XML game, another
    game's replay, a turn at which the game is already decided)."""
    positions = [o for o in openings if o.replay is not None]
    if not positions:
        return
    if not can_load:
        raise BookError(f"--openings: {game} cannot start from replay positions; give a book of board seeds")
    from swc_local.server.xml.replay import ReplayError, position_factory

    for opening in positions:
        try:
            position_factory(opening.replay, opening.turn, game)
        except (ReplayError, OSError, ValueError) as error:
            raise BookError(f"--openings {opening.label}: {error}") from None


def write_seeds(count: int, seed: int) -> list[str]:
    rng = random.Random(f"swc-openings/{seed}")
    return [str(rng.getrandbits(31)) for _ in range(count)]


def write_positions(folder: Path, plies: int, count: int | None, game: str | None = None) -> list[str]:
    """``REPLAY@PLIES`` lines for the replays in ``folder`` that are not decided by then."""
    from swc_local.server.xml.replay import ReplayError, position_factory

    lines = []
    for replay in sorted(p for p in folder.iterdir() if p.name.endswith(REPLAY_SUFFIXES)):
        try:
            position_factory(replay, plies, game)
        except (ReplayError, OSError, ValueError):
            continue
        lines.append(f"{replay.resolve()}@{plies}")
        if count is not None and len(lines) == count:
            break
    return lines
