"""``--sandbox``/``--no-sandbox`` and the limits' flags, the same on ``swc match`` and ``swc tournament``.

``--sandbox`` alone sandboxes every player, ``--sandbox NAME`` (repeatable) the players named
(``player1``, a tournament bot's name), ``--no-sandbox`` none.  Without either flag a player runs
sandboxed when it came from a client archive (:func:`swc_local.tools.sandbox.default_sandbox`)
and unsandboxed when it is a plain command.
The limits' defaults and where they come from: :mod:`swc_local.tools.sandbox`.
"""

from __future__ import annotations

import argparse

from swc_local.tools.players import expand
from swc_local.tools.sandbox import Limits, default_sandbox, preflight

DEFAULTS = Limits()
EVERY = "every player"  # --sandbox without a name


def add_sandbox_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sandbox", action="append", nargs="?", const=EVERY, metavar="PLAYER",
                        help="run the players' commands in a sandbox (bubblewrap): no network but the game's port, "
                             "the system read-only, the home hidden, limits on memory, processes and CPU time; "
                             "alone: every player, with a name (repeatable): that player "
                             "(default: client archives sandboxed, plain commands not)")
    parser.add_argument("--no-sandbox", action="store_true", help="run no player in a sandbox, archives included")
    parser.add_argument("--memory-limit", type=int, default=DEFAULTS.memory_mb, metavar="MB",
                        help=f"a sandboxed player's resident memory in MiB (default {DEFAULTS.memory_mb})")
    parser.add_argument("--process-limit", type=int, default=DEFAULTS.processes, metavar="N",
                        help=f"a sandboxed player's processes and threads (default {DEFAULTS.processes})")
    parser.add_argument("--cpu-limit", type=int, default=DEFAULTS.cpu_seconds, metavar="SECONDS",
                        help=f"CPU seconds of each process of a sandboxed player (default {DEFAULTS.cpu_seconds})")


def sandbox_choice(args: argparse.Namespace, names: list[str]) -> bool | frozenset[str] | None:
    """What the flags chose: True (every player), False (none), the names given, or None (each
    player's default); ValueError (one line) for both flags or a name no player has."""
    if args.sandbox and args.no_sandbox:
        raise ValueError("give --sandbox or --no-sandbox, not both")
    if args.no_sandbox:
        return False
    if not args.sandbox:
        return None
    if EVERY in args.sandbox:
        return True
    for name in args.sandbox:
        if name not in names:
            raise ValueError(f"--sandbox {name}: no such player ({', '.join(names)}); put GAME before the flag")
    return frozenset(args.sandbox)


def chosen(choice: bool | frozenset[str] | None, name: str, command: object) -> bool:
    """Whether player ``name`` runs sandboxed under the flags' ``choice``."""
    if choice is None:
        return default_sandbox(command)
    if isinstance(choice, bool):
        return choice
    return name in choice


def limits_of(args: argparse.Namespace) -> Limits:
    return Limits(memory_mb=args.memory_limit, processes=args.process_limit, cpu_seconds=args.cpu_limit)


def sandbox_problem(limits: Limits, commands: list) -> str | None:
    """One line when the limits are no limits or a sandboxed command cannot run sandboxed here
    (before the first game: the run never falls back to running a bot unsandboxed)."""
    problem = limits.problem()
    if problem:
        return problem
    for command in commands:
        problem = preflight(expand(command))
        if problem:
            return f"--sandbox: {problem}"
    return None
