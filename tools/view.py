"""``swc view FILE...``: open replays and logs in the browser viewer, without a game server.

Takes every file kind ``swc replay`` reads: XML replays of all six XML games (ours and the
official servers' ``.xml``/``.xml.gz``), ReversiXT move logs (ours and the reference server's
``log_game.txt``) and Robo Rally game logs (``.jsonl``). It serves the same pages and API as
``swc serve``'s viewer (server/web/) until Ctrl-C; more files can be dropped on the start page.

``swc view --archives DIR`` adds the archives page (``/archives``, tools/archive_page.py): upload
a team's ZIP, name it, set its extra parameters, run the contest's test on it and rate it on its
game's ladder as ``swc rate`` does (``--ladder FILE``: another Elo table, as ``swc rate --ladder``).

A ``swc tournament`` database (``swc view course.db``) gets its run page (``/tournament/t1``):
standings, crosstable, the LLR and Elo after every pair, irregular ends and every game, each
opening in the viewer; a running tournament's page follows the database as it is written.
``swc view --leagues DIR`` also offers ``/tournament/new``: a league of the contest's formats
started from the page with the admin passphrase (tools/tournament/launch.py).
"""

from __future__ import annotations

import argparse
import functools
import logging
import sys
from pathlib import Path

import trio

from swc_local.client.connection import port_argument

log = logging.getLogger("swc.view")


def add_commands(commands) -> None:
    view = commands.add_parser("view", help="show replays and game logs in the browser (no game server needed)")
    view.add_argument("files", nargs="*", type=Path, metavar="FILE", help="XML replay (.xml, .xml.gz), ReversiXT log_game.txt, Robo Rally .jsonl or a swc tournament database")
    view.add_argument("--archives", type=Path, metavar="DIR",
                      help="the archives page (/archives): upload, name and test client archives, kept in DIR (changes need --password)")
    view.add_argument("--ladder", type=Path, metavar="FILE",
                      help="the ladder's Elo table the archives page rates against (default: the calibrated one; "
                           "as swc rate --ladder)")
    view.add_argument("--leagues", type=Path, metavar="DIR", help="offer /tournament/new: start leagues of the contest's formats from the page (admin passphrase), their databases in DIR")
    view.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; elsewhere pages ask for --password)")
    view.add_argument("--port", type=port_argument, default=13080, help="port of the viewer (default 13080; 0: any free port)")
    view.add_argument("--password", help="passphrase the pages ask for when --host is not loopback")
    view.set_defaults(run=_view)


def load_files(paths: list[Path]):
    """A book holding one finished record per file; ValueError naming the first file that fails."""
    from swc_local.server.web.book import GameBook
    from swc_local.server.families import record_readers
    from swc_local.server.web.files import MAX_UPLOAD_BYTES, open_bytes

    from swc_local.tools.tournament.page import is_database

    book = GameBook()
    for path in paths:
        if is_database(path):  # a tournament: tournament_sources() reads it
            continue
        try:
            data = path.read_bytes()
        except OSError as error:
            raise ValueError(f"cannot read {path}: {error.strerror or error}") from None
        book.add(open_bytes(data, path.name, record_readers(), limit=max(MAX_UPLOAD_BYTES, len(data))))
    return book


def tournament_sources(paths: list[Path], book) -> dict:
    """The run page's source of every tournament database among ``paths`` (``t1``, ``t2``, ...);
    ValueError naming a database that holds no tournament."""
    from swc_local.tools.tournament.db import DatabaseError
    from swc_local.tools.tournament.page import TournamentSource, is_database

    def add(record) -> None:  # the source runs in a worker thread; the book lives in trio's
        trio.from_thread.run_sync(book.add, record)

    sources = {}
    for path in paths:
        if is_database(path):
            try:
                sources[f"t{len(sources) + 1}"] = TournamentSource(path, book, add)
            except DatabaseError as error:
                raise ValueError(str(error)) from None
    return sources


def launcher(folder: Path, sources: dict, book):
    """The page's tournament starter: its leagues' run pages join ``sources``."""
    from swc_local.tools.tournament.launch import Launcher
    from swc_local.tools.tournament.page import TournamentSource

    def add(record) -> None:
        trio.from_thread.run_sync(book.add, record)

    return Launcher(folder, sources, lambda db: TournamentSource(db, book, add))


async def serve_book(book, host: str, port: int, password: str | None, *, tournaments: dict | None = None,
                     archives: Path | None = None, leagues: Path | None = None, ladder: Path | None = None,
                     task_status=trio.TASK_STATUS_IGNORED) -> None:
    from swc_local.server.families import FAMILIES
    from swc_local.server.web.context import WebContext
    from swc_local.server.web.auth import Gate
    from swc_local.server.web.door import WebDoor
    from swc_local.server.web.files import family_readers, upload_readers

    # 5 passphrase checks a second per peer; an uploaded file is read as swc serve reads one
    context = WebContext(book, Gate(host, password), readers=family_readers(FAMILIES), upload_readers=upload_readers(FAMILIES))
    context.tournaments = dict(tournaments or {})
    context.tournament_starter = launcher(leagues, context.tournaments, book) if leagues is not None else None
    try:
        async with trio.open_nursery() as nursery:  # the door, and the archives' ratings
            if archives is not None:
                from swc_local.tools import archive_page

                context.extra_routes = archive_page.routes(context, archives, nursery, ladder)
            door = WebDoor(context, host, port)
            await nursery.start(door.run)
            print(f"viewer on {door.url}/", flush=True)
            if archives is not None:
                print(f"  {door.url}/archives  archives: {archives}", flush=True)
            for tid, source in context.tournaments.items():
                print(f"  {door.url}/tournament/{tid}  tournament: {source.path}", flush=True)
            for record in book.records.values():
                print(f"  {door.url}/game/{record.id}  {record.title}: {record.source}", flush=True)
            if leagues is not None:
                print(f"  {door.url}/tournament/new  start a league (databases in {leagues})", flush=True)
            task_status.started(door)
    finally:
        if context.tournament_starter is not None:  # the leagues it started stop with it (--resume goes on)
            context.tournament_starter.close()


def _view(args: argparse.Namespace) -> int:
    from swc_local.server.web.auth import is_loopback
    from swc_local.server.web.files import FileError

    from swc_local.server.cli import usage_error

    if not 0 <= args.port <= 65535:
        return usage_error("swc view", f"--port must be 0..65535, not {args.port}")
    if not is_loopback(args.host) and not args.password:
        return usage_error("swc view", f"--host {args.host} is not loopback: give --password for the pages to ask for")
    if not args.files and args.archives is None and args.leagues is None:
        return usage_error("swc view", "give the files to show (replays, logs, tournament databases), "
                                       "--archives DIR for the archives page or --leagues DIR")
    if args.ladder is not None and args.archives is None:
        return usage_error("swc view", f"--ladder {args.ladder}: only with --archives DIR (the archives page rates against it)")
    if args.ladder is not None and not args.ladder.is_file():
        return usage_error("swc view", f"--ladder {args.ladder}: no such file")
    if args.leagues is not None and not args.leagues.is_dir():
        return usage_error("swc view", f"--leagues {args.leagues}: no such folder (the leagues' databases go there)")
    try:
        book = load_files(args.files)
        tournaments = tournament_sources(args.files, book)
    except (ValueError, FileError) as error:
        return usage_error("swc view", str(error))
    try:
        trio.run(_serve_until_signalled, book, args.host, args.port, args.password, tournaments, args.archives,
                 args.leagues.resolve() if args.leagues else None, args.ladder)
    except KeyboardInterrupt:
        pass
    except OSError as error:
        log.error("cannot listen on %s:%d: %s", args.host, args.port, error.strerror or error)
        return 1
    except BaseExceptionGroup as group:
        leaf = group
        while isinstance(leaf, BaseExceptionGroup):
            leaf = leaf.exceptions[0]
        if isinstance(leaf, KeyboardInterrupt):
            return 0
        if isinstance(leaf, OSError):
            log.error("cannot listen on %s:%d: %s", args.host, args.port, leaf.strerror or leaf)
            return 1
        raise
    return 0


async def _serve_until_signalled(book, host: str, port: int, password: str | None, tournaments=None,
                                 archives: Path | None = None, leagues: Path | None = None,
                                 ladder: Path | None = None) -> None:
    import signal

    async with trio.open_nursery() as nursery:
        await nursery.start(functools.partial(serve_book, tournaments=tournaments, archives=archives, leagues=leagues,
                                              ladder=ladder),
                            book, host, port, password)
        with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
            async for _ in signals:
                log.info("stopped")
                nursery.cancel_scope.cancel()
                return


if __name__ == "__main__":
    from swc_local.server.cli import new_parser, run_command

    parser, commands = new_parser()
    add_commands(commands)
    sys.exit(run_command(parser, ["view", *sys.argv[1:]], {}))
