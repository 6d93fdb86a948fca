"""The result record of one game, the same for every game of every family.

``swc match``, its ``--json``/``--csv`` output, the pytest fixtures, tournaments and the viewer
all read games through these two classes, so they are plain data: no trio, no sockets, nothing
that cannot go through :func:`json.dumps` (:meth:`GameResult.to_dict`) and come back
(:meth:`GameResult.from_dict`).

Ranks are the one number every family has: 1 is best, equal ranks share a place (a draw in a
two-player game).  ``score`` keeps the game's own score parts as text, as its server reports them
(XML games: "Gewinner" points and the game's fragments; ReversiXT: stones; Robo Rally:
checkpoints and reboots).  ``cause`` is the server's cause (``REGULAR``, ``LEFT``,
``SOFT_TIMEOUT``, ``HARD_TIMEOUT``, ``RULE_VIOLATION``, ``DISQUALIFIED``, ``STUCK`` for a
ship the 2024 server ends ``regular="false"`` because it cannot move ...), ``ROUND_LIMIT`` for
every seat of a Robo Rally game the runner stopped without a winner, or the runner's
own when the seat's command never played: ``CRASHED`` (it exited before it joined),
``NEVER_JOINED`` (it did not join within its start timeout), ``CANNOT_START`` (exit 126/127 or
no such program); or the sandbox's when one of its limits ended the command
(:data:`swc_local.tools.sandbox.LIMIT_CAUSES`: ``MEMORY_LIMIT``, ``CPU_TIME_LIMIT``,
``PROCESS_LIMIT``), before it joined or during the game: the seat is ranked last.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields

REGULAR = "REGULAR"
STUCK = "STUCK"  # not regular by the server's word, yet no rule broken (protocol/modern.py violation_cause)
ROUND_LIMIT = "ROUND_LIMIT"  # a Robo Rally game with no winner after the runner's rounds: a result (tools/roborally_match.py)
CRASHED = "CRASHED"
NEVER_JOINED = "NEVER_JOINED"
CANNOT_START = "CANNOT_START"
ABSENT_CAUSES = (CRASHED, NEVER_JOINED, CANNOT_START)  # the seat's command never played


@dataclass(frozen=True)
class SeatResult:
    name: str  # the player's name in the run (player1, or a tournament bot name)
    seat: str  # the game's own seat label: red/blue, ONE/TWO, "1".."8", a Robo Rally client id
    rank: int  # 1 = best; equal ranks share a place
    score: tuple[str, ...]  # the game's score parts as the server reports them
    cause: str
    reason: str | None = None  # the rule text, the command's last stderr lines, why
    exit_code: int | None = None
    log: str | None = None  # where the command's output was kept

    @property
    def regular(self) -> bool:
        return self.cause == REGULAR


@dataclass(frozen=True)
class GameResult:
    game: str  # game type from the registry (swc_2019_piranhas, reversixt, roborally, ...)
    index: int  # 0-based number of the game in its run
    seed: int  # the board seed of this game
    seats: tuple[SeatResult, ...]  # in seat order
    duration: float  # seconds
    replay: str | None = None
    error: str | None = None  # set when the game has no result (then ranks are meaningless)
    score_names: tuple[str, ...] = ()  # what the score parts are ("Gewinner", "stones", ...)
    # per seat name, the observed seconds per move (XML games; the table's ms/move column)
    move_times: dict[str, tuple[float, ...]] = field(default_factory=dict, compare=False)
    # the family's own result object (an XML Result message, ...): not part of the record
    raw: object = field(default=None, compare=False, repr=False)

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def regular(self) -> bool:
        return self.error is None and all(seat.regular for seat in self.seats)

    def seat_of(self, name: str) -> SeatResult:
        """The seat ``name`` played (KeyError if that player did not play this game)."""
        for seat in self.seats:
            if seat.name == name:
                return seat
        raise KeyError(name)

    def to_dict(self) -> dict:
        record = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("seats", "raw", "move_times")}
        record["seats"] = [asdict(seat) | {"score": list(seat.score)} for seat in self.seats]
        record["score_names"] = list(self.score_names)
        return record

    @classmethod
    def from_dict(cls, d: dict) -> "GameResult":
        known = {f.name for f in fields(SeatResult)}
        seats = tuple(
            SeatResult(**({k: v for k, v in seat.items() if k in known} | {"score": tuple(seat["score"])}))
            for seat in d["seats"]
        )
        return cls(
            game=d["game"], index=d["index"], seed=d["seed"], seats=seats, duration=d["duration"],
            replay=d.get("replay"), error=d.get("error"), score_names=tuple(d.get("score_names", ())),
        )


def ranks_from_points(points: list[float]) -> list[int]:
    """Competition ranks, highest points first: [2, 0] -> [1, 2], [1, 1] -> [1, 1]."""
    return [1 + sum(other > mine for other in points) for mine in points]


def absent_last(ranks: list[int], absent: set[int]) -> list[int]:
    """The ranks with the seats in ``absent`` (their commands never played) placed last, shared,
    and the others in their own order before them: a missing player never ranks above one that
    played, whatever the stand-in in its seat did."""
    present = [i for i in range(len(ranks)) if i not in absent]
    order = ranks_from_points([-ranks[i] for i in present])
    out = [0] * len(ranks)
    for i, rank in zip(present, order):
        out[i] = rank
    for i in absent:
        out[i] = len(present) + 1
    return out
