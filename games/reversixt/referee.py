"""The referee of one ReversiXT game: turn order, phases, time accounts, verdicts, log, results.

Pure and clock-free: the glue (``server/reversixt/game.py``) tells it what arrived and how long
the answer took; it answers with what happened (a :class:`Verdict`: a move to show everyone, or
a disqualification), which the glue turns into frames, and keeps the move log (``log_game.txt``)
and the result file's text exactly as the reference server writes them. No wire format here:
the frames belong to ``protocol/reversixt.py`` (tests/packaging/test_layers.py keeps it so).

Conformance notes (``shared/spec/reversixt.md`` C.2, D, G, all from the captures):
- the move counter counts turns (valid moves and disqualifications for a bad answer, not a
  failed send); it starts at 1 instead of 0 when player 1 cannot place at the very start
  (``rules_phase2_after_p2``/``_p3``, ``rules_no_moves_at_all``, ``rules_bombs_transitions``);
- phase 2 starts with the first player still in after the one who made the last phase-1 turn
  (placement or disqualification), player 1 when nobody placed;
- the time account gets L added at every request and loses the whole milliseconds an answer
  took; group 99 is never charged; an answer with dt > account is a timeout;
- disqualified players keep their stones on the board, score nothing, show ``disq.``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .mapfile import GameMap, render_rows
from .rules import State

EXEMPT_GROUP = 99


@dataclass
class Verdict:
    """What one answer led to: the move everyone is shown (``x, y, special, player``; special is
    0 for a bomb) or who is out (with the log's reason)."""

    moved: tuple[int, int, int, int] | None = None
    disqualified: int | None = None
    reason: str = ""


@dataclass
class Referee:
    game_map: GameMap
    groups: list[int]  # group of player k at index k - 1
    time_limit_ms: int = 0  # 0: no limit
    depth: int = 1
    map_name: str = ""
    port: int = 0
    time_limit_text: float = 0.0
    state: State = field(init=False)
    phase: int = field(init=False, default=1)
    finished: bool = field(init=False, default=False)
    accounts: list[int] = field(init=False)
    log: list[str] = field(init=False, default_factory=list)
    move_number: int = field(init=False, default=0)
    _current: int = field(init=False, default=0)  # player of the last turn (0: none yet)
    _started: bool = field(init=False, default=False)
    moves: list[tuple[int, int, int, int]] = field(init=False, default_factory=list)  # replay: player, x, y, s

    def __post_init__(self) -> None:
        self.state = State.initial(self.game_map)
        self.accounts = [0] * (self.game_map.players + 1)
        self.log.append(f"Starting game with map {self.map_name}\nServer is listening on port {self.port}\n\n")
        self.log.append(self.game_map.render() + "\n")
        self.log.append("".join(f"Player {k} is group {g}\n" for k, g in enumerate(self.groups, 1)) + "\n")
        self.log.append(f"timelimit {self.time_limit_text:f}, depthlimit {self.depth}\n\n")

    @property
    def players(self) -> int:
        return self.game_map.players

    @property
    def timed(self) -> bool:
        return self.time_limit_ms > 0

    def exempt(self, player: int) -> bool:
        return self.groups[player - 1] == EXEMPT_GROUP

    # ---- turn order ----------------------------------------------------------------------

    def _after(self, player: int, wanted) -> int | None:
        n = self.players
        for step in range(1, n + 1):
            candidate = (player - 1 + step) % n + 1
            if candidate not in self.state.disqualified and wanted(candidate):
                return candidate
        return None

    def next_action(self) -> tuple[str, int]:
        """("request", player), ("end_phase1", 0) or ("end_game", 0). Call until a request."""
        if self.finished:
            return ("end_game", 0)
        if len(self.state.in_game()) <= 1:
            self._finish(with_scores=False)
            return ("end_game", 0)
        if self.phase == 1:
            if not self._started:
                self._started = True
                if not self.state.can_place(1):
                    self.move_number = 1
            nxt = self._after(self._current, self.state.can_place)
            if nxt is not None:
                return ("request", nxt)
            self.phase = 2
            self._log_scores("reached terminal phase")
            return ("end_phase1", 0)
        nxt = self._after(self._current, lambda p: self.state.bombs[p] > 0)
        if nxt is not None and self.state.has_bomb_target():
            return ("request", nxt)
        self._finish(with_scores=True)
        return ("end_game", 0)

    def _finish(self, *, with_scores: bool) -> None:
        self.finished = True
        if with_scores:
            self._log_scores("reached final phase")
        else:
            self.log.append("reached final phase\n")

    def _log_scores(self, title: str) -> None:
        lines = [title, "", "Scores:"]
        for p in range(1, self.players + 1):
            lines.append(f"Player {p}: disqualified" if p in self.state.disqualified else f"Player {p}: {self.points(p)} points")
        self.log.append("\n".join(lines) + "\n\n")

    # ---- one turn ------------------------------------------------------------------------

    def request(self, player: int) -> tuple[int, int]:
        """The REQUEST's (time in ms, depth) for ``player``; adds L to its account first."""
        if self.timed:
            self.accounts[player] += self.time_limit_ms
        return self.accounts[player], self.depth

    def deadline_ms(self, player: int) -> int | None:
        """How long the glue may wait for the answer (account + 100 ms), None: for ever."""
        if not self.timed or self.exempt(player):
            return None
        return self.accounts[player] + 100

    def answer(self, player: int, x: int, y: int, special: int, elapsed_s: float) -> Verdict:
        """A complete MOVE from the player to move, ``elapsed_s`` after its REQUEST."""
        if self.timed and not self.exempt(player):
            if elapsed_s * 1000 > self.accounts[player]:
                return self.fault(player, "timeout during move")
            self.accounts[player] -= int(elapsed_s * 1000)
        left = self.accounts[player]
        state = self.state
        if self.phase == 1:
            flips = state.check_placement(player, x, y, special)
            if flips is None:
                return self.fault(player, f"invalid move: ({x},{y},{special}). time left: {left} msecs")
            state.place(player, x, y, special, flips)
            shown = special
        else:
            if not state.bomb(player, x, y):
                return self.fault(player, f"invalid move: ({x},{y},{special}). time left: {left} msecs")
            shown = 0
        self.log.append(f"move {self.move_number}: player {player} moved ({x},{y},{special}). time left: {left} msecs\n")
        self.moves.append((player, x, y, shown))
        self.move_number += 1
        self._current = player
        return Verdict(moved=(x, y, shown, player))

    def fault(self, player: int, reason: str) -> Verdict:
        """A bad answer (or none) on the player's own turn: a turn that disqualifies."""
        verdict = self.disqualify(player, reason)
        self.move_number += 1
        self._current = player
        return verdict

    def disqualify(self, player: int, reason: str) -> Verdict:
        """Out of the game (also for a failed send, which is no turn)."""
        state = self.state
        state.disqualified.add(player)
        over = " ".join(str(state.overwrites[p] & 0xFF) for p in range(1, 9))
        bombs = " ".join(str(state.bombs[p] & 0xFF) for p in range(1, 9))
        gm = self.game_map
        board = render_rows(gm.width, gm.height, state.squares) + [t.text() for t in gm.transitions]
        self.log.append(
            f"disqualified player {player} ({reason})\n\nCurrent map:\n\n"
            f"overrides: {over}\nbombs:     {bombs} (power {gm.strength})\n" + "\n".join(board) + "\n\n"
        )
        return Verdict(disqualified=player, reason=reason)

    # ---- results -------------------------------------------------------------------------

    def points(self, player: int) -> int:
        return 0 if player in self.state.disqualified else self.state.stones(player)

    def result_text(self, map_basename: str) -> str:
        lines = [map_basename]
        for p in range(1, self.players + 1):
            time = f"{self.accounts[p]} msecs" if self.timed else "inf"
            status = "disq." if p in self.state.disqualified else "ok"
            lines.append(f"{self.groups[p - 1]}\t{self.points(p)}\t{time}\t{status}")
        return "\n".join(lines) + "\n"

    def ranking(self) -> list[tuple[int, int, int]]:
        """(rank, player, points), best first; equal points share a rank; disqualified last."""
        order = sorted(range(1, self.players + 1), key=lambda p: (p in self.state.disqualified, -self.points(p), p))
        ranked = []
        for position, p in enumerate(order, 1):
            if ranked and (p in self.state.disqualified) == (ranked[-1][1] in self.state.disqualified) and self.points(p) == ranked[-1][2]:
                ranked.append((ranked[-1][0], p, self.points(p)))
            else:
                ranked.append((position, p, self.points(p)))
        return ranked
