"""The server's commands of ``swc``: ``serve``, and each family's own commands (the drop-ins
``reversixt`` and ``roborally``), which its ServerFamily offers (``add_commands``, ``passthrough``).

``swc serve``'s flags are the house's (address, passphrase, seed, replays) and every door's
settings section's (server/sections.py), in the order of server/doors.py; nothing here
names a family.

The ``swc`` command itself is :mod:`swc_local.tools.cli`, which adds the bot author's commands;
this module never imports tools/ or client/, so ``python -m swc_local.server`` runs the server
alone. argparse (standard library) parses the arguments and the standard ``logging`` module
writes the log, one line per connection, room start and room end.
"""

from __future__ import annotations

import argparse
import copy
import difflib
import logging
import os
import re
import signal
import sys
from pathlib import Path

log = logging.getLogger("swc")


def serve_command(args: argparse.Namespace, command_resolver=None) -> int:
    """``swc serve``; ``command_resolver`` reads the viewer's command seats (``swc`` lends the
    tools' archive resolution, tools/cli.py: this module never imports tools/)."""
    from swc_local.server.app import run
    from swc_local.server.config import ConfigError
    from swc_local.server.door import CannotListen

    try:
        settings = serve_settings(args)
    except ConfigError as error:
        return _fail(str(error))
    try:
        signum = run(settings, command_resolver, opponents=getattr(args, "opponents", None))
        if signum is not None:  # SIGINT, SIGTERM, SIGHUP: the shell's convention (server/shutdown.py)
            return 128 + signum
    except KeyboardInterrupt:
        log.info("stopped")
        return 128 + signal.SIGINT
    except CannotListen as error:  # any door's port: one plain line, the same wording for every door
        return usage_error("swc serve", str(error), help=False)
    except OSError as error:  # the address itself (not one door's port): --host or local sets it
        return usage_error("swc serve", f"cannot listen on {settings.host} ({error.strerror or error}); "
                                        "--host HOST (server.properties: local) sets the address", help=False)
    return 0


def serve_settings(args: argparse.Namespace):
    """What ``swc serve ARGS`` runs with: the file, every section's flags over it (a flag wins),
    then every section's ``swc serve`` defaults and checks; a ConfigError's text is one whole
    line (naming the flag, or the file and line)."""
    from swc_local.server.config import ConfigError, load_settings, located, sections

    settings = None
    try:
        settings = load_settings(
            Path(args.properties) if args.properties else None,
            host=args.host,
            password=args.password,
            seed=args.seed,
            save_replay=True if args.save_replay else None,
            replay_dir=args.replay_dir,
        )
        for section in sections():
            fields = section.flags(args, settings.section(section.name).model_dump())
            settings = settings.with_section(section.name, section.model.model_validate(fields))
    except ConfigError as error:
        raise ConfigError(located(error, settings.sources if settings is not None else {})) from None
    settings = settings.model_copy(update={"free_ports": asks_for_free_ports(settings)})
    for section in sections():  # each section's text is whole already (flag, or file:line)
        settings = settings.with_section(section.name, section.serve(settings.section(section.name), settings, args))
    refuse_public_default_passphrase(settings, getattr(args, "allow_default_passphrase", False))
    return settings


def asks_for_free_ports(settings) -> bool:
    """Whether a section asks every door whose port is not given for a free one (its
    ``asks_for_free_ports``: the XML door's port 0, as tests start ``swc serve --port 0``)."""
    from swc_local.server.config import sections

    return settings.free_ports or any(section.asks_for_free_ports(settings.section(section.name)) for section in sections())


def refuse_public_default_passphrase(settings, allowed: bool) -> None:
    """Off loopback, the default passphrase (public in every copy of this project) would open
    every page and the admin requests to anyone: ConfigError unless ``allowed`` (issue 34)."""
    from swc_local.server.config import DEFAULT_PASSWORD, ConfigError
    from swc_local.server.web.auth import is_loopback

    if settings.password == DEFAULT_PASSWORD and not is_loopback(settings.host) and not allowed:
        where = settings.sources.get("password")
        source = f"{where}: " if where else ""
        raise ConfigError(f"{source}password is the public default {DEFAULT_PASSWORD!r} while listening on "
                          f"{settings.host}: set a passphrase (--password, server.properties) "
                          "or give --allow-default-passphrase")


def _fail(message: str) -> int:
    """A setting the server cannot start with: one plain line, exit 2."""
    return usage_error("swc serve", message)


def usage_error(prog: str, message: str, help: bool = True) -> int:
    """A command line that cannot run: one plain line on stderr (no timestamp, no traceback: it is
    for the person who typed it, not a log), ``PROG: error: MESSAGE; see PROG --help`` as argparse's
    own errors read (:class:`OneLineParser`); exit status 2. ``help=False`` for an error the help
    cannot fix (a command that turned out not to play)."""
    print(f"{prog}: error: {message}" + (f"; see {prog} --help" if help else ""), file=sys.stderr, flush=True)
    return 2


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (``swc serve: error: argument --port: ...``), exit 2,
    and an unknown option gets the closest known options of the command it was given to
    (``unrecognized arguments: --prot 1 (did you mean --port?)``), named by that command and
    pointing to its help (``swc match: error: ...; see swc match --help``): argparse itself
    reports it from the top parser, whose help lists no option of the subcommand."""

    def parse_args(self, args=None, namespace=None):
        argv = list(sys.argv[1:] if args is None else args)
        namespace, extras = self.parse_known_args(argv, namespace)
        if extras:
            command = _parsers_on_path(self, argv)[-1]
            command.error(f"unrecognized arguments: {' '.join(extras)}{did_you_mean(self, argv, extras)}")
        return namespace

    def error(self, message: str):
        choice = re.search(r"invalid choice: '(.*?)' \(choose from (.*)\)$", message)
        if choice:  # a mistyped subcommand or choice: the closest of the accepted ones
            accepted = re.findall(r"'([^']*)'", choice.group(2))
            close = difflib.get_close_matches(choice.group(1), accepted, n=1, cutoff=0.6)
            message += f" (did you mean {close[0]}?)" if close else ""
        self.exit(2, f"{self.prog}: error: {message}; see {self.prog} --help\n")


def _subcommands(parser: argparse.ArgumentParser) -> dict:
    return next((a.choices for a in parser._actions if isinstance(a, argparse._SubParsersAction)), {})


def _parsers_on_path(parser: argparse.ArgumentParser, argv: list[str]) -> list[argparse.ArgumentParser]:
    """The parser and the subcommand parsers that the words of ``argv`` chose (``admin prepare``)."""
    path = [parser]
    for word in argv:
        chosen = _subcommands(path[-1]).get(word)
        if chosen is not None:
            path.append(chosen)
    return path


def did_you_mean(parser: argparse.ArgumentParser, argv: list[str], extras: list[str]) -> str:
    """`` (did you mean --port?)`` for the first unknown option close to one of the command's own."""
    known = list(dict.fromkeys(
        option for p in _parsers_on_path(parser, argv) for action in p._actions for option in action.option_strings))
    for extra in extras:
        if extra.startswith("-"):
            close = difflib.get_close_matches(extra.split("=", 1)[0], known, n=2, cutoff=0.6)
            if close:
                return f" (did you mean {' or '.join(close)}?)"
    return ""


def share_options(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Let every subcommand also take its parents' options after its own name where that is
    unambiguous: ``swc admin prepare piranhas --port 1`` as ``swc admin --port 1 prepare piranhas``,
    ``swc serve -v`` as ``swc -v serve``.

    A parent's option is copied into each child that has no option of the same spelling, with
    the default SUPPRESS, so the child sets it only when it is given there (argparse copies the
    child's namespace over the parent's); the copy is hidden from the child's --help. argparse
    has no public way to re-add an existing action, hence ``_add_action``."""
    own = [a for a in parser._actions if a.option_strings
           and not isinstance(a, (argparse._HelpAction, argparse._VersionAction))]
    for child in set(_subcommands(parser).values()):
        taken = set(child._option_string_actions)
        for action in own:
            if not taken.intersection(action.option_strings):
                shared = copy.copy(action)
                shared.default, shared.help, shared.required = argparse.SUPPRESS, argparse.SUPPRESS, False
                child._add_action(shared)
        share_options(child)
    return parser


def add_commands(commands, opponents=None) -> None:
    """``serve``, the ReversiXT drop-in ``reversixt`` and the Robo Rally drop-in ``roborally``.

    ``opponents`` (``rungs(entry)``, ``command(entry, rung)``: server/app.py ``Server``) are the
    reference bots the viewer's tables seat; ``swc`` (tools/cli.py) hands in the client layer's,
    ``python -m swc_local.server`` none (its tables offer no bot seats)."""
    from swc_local.server.config import sections
    from swc_local.server.doors import all_doors

    serve = commands.add_parser("serve", help="run the game server")
    serve.add_argument("--host", help="address to listen on (default 127.0.0.1; local=false in the properties: 0.0.0.0)")
    serve.add_argument("--properties", help="server.properties file (default: ./server.properties if it exists)")
    serve.add_argument("--password", help="admin passphrase (overrides the properties file)")
    serve.add_argument("--allow-default-passphrase", action="store_true",
                       help="start off loopback with the public default passphrase examplepassword anyway")
    serve.add_argument("--seed", type=int, help="seed for reproducible boards")
    serve.add_argument("--save-replay", action="store_true", help="write a replay file for every game (saveReplay)")
    serve.add_argument("--replay-dir", help="directory for replays (replayDir, default ./replays)")
    for section in sections():  # every door's flags, from its own settings section
        section.add_flags(serve.add_argument_group(section.title))
    serve.set_defaults(run=serve_command, opponents=opponents)
    for family in all_doors():  # a family's own commands (its drop-in server), from its ServerFamily
        if family.add_commands is not None:
            family.add_commands(commands)


def passthrough() -> dict:
    """Commands whose arguments another parser reads verbatim (the leading words -> its
    ``main(rest)``): each family's ``passthrough``, e.g. ``swc reversixt`` (the reference's flags)."""
    from swc_local.server.doors import all_doors

    commands: dict = {}
    for family in all_doors():
        commands.update(family.passthrough)
    return commands


def run_command(parser: argparse.ArgumentParser, argv: list[str], passthrough_commands: dict | None = None) -> int:
    """Parse ``argv`` (or hand it to a pass-through command), set up the log, run the command."""
    try:
        return _dispatch(parser, argv, passthrough() if passthrough_commands is None else passthrough_commands)
    except BaseException as error:
        if not _closed_stdout(error):
            raise
    # ``swc replay FILE | head``: the reader is gone, so stop quietly as Unix tools do on SIGPIPE;
    # stdout goes to /dev/null so the interpreter's last flush cannot complain either.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 128 + signal.SIGPIPE


def _closed_stdout(error: BaseException) -> bool:
    """A BrokenPipeError (alone or in trio's exception group) is the reader of stdout leaving."""
    if isinstance(error, BaseExceptionGroup):
        rest = error.split(BrokenPipeError)[1]
        return rest is None
    return isinstance(error, BrokenPipeError)


def _dispatch(parser: argparse.ArgumentParser, argv: list[str], passthrough: dict) -> int:
    for words, handler in passthrough.items():
        if tuple(argv[: len(words)]) == words:
            return handler(argv[len(words):])
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    return args.run(args)


def new_parser() -> tuple[argparse.ArgumentParser, object]:
    """The bare ``swc`` parser and its subcommand table, for each module's ``add_commands``."""
    parser = OneLineParser(prog="swc", description="A local Software-Challenge game server and tools.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debugging detail")
    parser.add_argument("--version", action="version", version=f"swc {_version()}")
    return parser, parser.add_subparsers(dest="command", required=True)


def _version() -> str:
    """The installed distribution's version (pyproject.toml's), "unknown" from a bare source tree."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("swc-local")
    except PackageNotFoundError:
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    """The server's own commands only (``python -m swc_local.server``); ``swc`` is tools/cli.py."""
    parser, commands = new_parser()
    add_commands(commands)
    share_options(parser)
    return run_command(parser, sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
