"""``swc roborally``: the drop-in for the course server (``swc roborally-bot`` is in client/bot.py).

The flags are those of spec roborally.md §10; every time is in seconds and may be fractional
(``--timer 0.5``) so that test scripts run fast. One game per run, then the process exits.
"""

from __future__ import annotations

import argparse
import logging

import trio

from swc_local.protocol.roborally import MAP_NAMES
from swc_local.server.roborally.settings import RoboRallySettings
from swc_local.server.sections import port_argument

log = logging.getLogger("swc.roborally")


def _positive(text: str) -> float:
    value = float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError("must be > 0")
    return value


def _non_negative(text: str) -> float:
    value = float(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be >= 0")
    return value


def _players(text: str) -> int:
    value = int(text)
    if not 2 <= value <= 6:
        raise argparse.ArgumentTypeError("must be 2..6")
    return value


def add_timing_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--min-players", "--MinPlayer", dest="min_players", type=_players, default=2, help="players needed to start (default 2)")
    parser.add_argument("--map", choices=MAP_NAMES, help="fix the map (no SelectMap); default: the first ready human chooses")
    parser.add_argument("--seed", type=int, help="seed for every shuffle and the random map")
    parser.add_argument("--alive-interval", type=_positive, default=5.0, help="seconds between Alive messages (default 5)")
    parser.add_argument("--timer", type=_positive, default=30.0, help="programming timer after the first finished player (default 30)")
    parser.add_argument("--play-card-timeout", type=_non_negative, default=5.0, help="wait for PlayCard (default 5; 0 plays at once)")
    parser.add_argument("--pick-damage-timeout", type=_non_negative, default=5.0, help="wait for SelectedDamage (default 5)")
    parser.add_argument("--reboot-direction-wait", type=_non_negative, default=2.0, help="grace for RebootDirection at round end (default 2)")
    parser.add_argument("--setup-timeout", type=_non_negative, default=0.0, help="limit per start point choice (default 0: none)")
    parser.add_argument("--programming-limit", type=_non_negative, default=0.0, help="overall programming limit (default 0: none)")
    parser.add_argument("--log-dir", help="write every game's messages as JSON lines into this directory")


def settings_from_args(args: argparse.Namespace, **overrides):
    fields = dict(
        min_players=args.min_players, map=args.map, seed=args.seed, alive_interval=args.alive_interval, timer=args.timer,
        play_card_timeout=args.play_card_timeout, pick_damage_timeout=args.pick_damage_timeout,
        reboot_direction_wait=args.reboot_direction_wait, setup_timeout=args.setup_timeout,
        programming_limit=args.programming_limit, log_dir=args.log_dir,
    )
    if getattr(args, "host", None):
        fields["host"] = args.host
    if getattr(args, "port", None) is not None:
        fields["port"] = args.port
    if getattr(args, "protocol", None):
        fields["protocols"] = tuple(args.protocol)
    fields.update(overrides)
    return RoboRallySettings(**fields)


def _serve(args: argparse.Namespace) -> int:
    from swc_local.server.roborally.door import RoboRallyDoor

    settings = settings_from_args(args, single_game=True)
    try:
        trio.run(RoboRallyDoor(settings).run)
    except KeyboardInterrupt:
        log.info("stopped")
    except OSError as error:
        log.error("cannot listen on %s:%d: %s", settings.host, settings.port, error)
        return 1
    except BaseExceptionGroup as group:
        if group.subgroup(KeyboardInterrupt) is not None:
            return 0
        oserror = group.subgroup(OSError)
        if oserror is not None:
            log.error("cannot listen on %s:%d: %s", settings.host, settings.port, oserror.exceptions[0])
            return 1
        raise
    return 0


def add_commands(commands) -> None:
    serve = commands.add_parser("roborally", help="run one Robo Rally game (course protocol 1.0), then exit")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=port_argument, default=52020, help="TCP port (default 52020)")
    serve.add_argument("--protocol", action="append", help="accepted protocol string (repeatable; default 'Version 1.0')")
    add_timing_flags(serve)
    serve.set_defaults(run=_serve)
