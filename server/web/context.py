"""What every route of the viewer works on: :class:`WebContext` (the book of games, the gate, the
limits, the readers, the feeds and the persons' tables), which build_app puts on the application
and each route finds there (answers.py ``context_of``), and a step as the API sends it."""

from __future__ import annotations

import logging
from importlib import resources

import trio

from .auth import Gate
from .book import GameBook, GameRecord
from .live import Feeds, StepCache
from .settings import WebSettings

log = logging.getLogger("swc.web")

ASSETS = {
    "viewer.js": "text/javascript; charset=utf-8",
    "list.js": "text/javascript; charset=utf-8",
    "result_table.js": "text/javascript; charset=utf-8",
    "seat_common.js": "text/javascript; charset=utf-8",
    "seat.js": "text/javascript; charset=utf-8",
    "seat_family.js": "text/javascript; charset=utf-8",
    "play_family.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
    "favicon.svg": "image/svg+xml",
}
PAGES = ("index.html", "game.html", "login.html", "seat.html", "seat_family.html")


def _load_assets() -> dict[str, bytes]:
    folder = resources.files(__package__) / "static"
    return {name: (folder / name).read_bytes() for name in (*ASSETS, *PAGES)}


def default_renderer(game_type: str, state: object, last_move: object | None, previous: object | None = None) -> str:
    from swc_local.games.views import render

    return render(game_type, state, last_move, previous)


class WebContext:
    """What the routes need: the book, the gate, "play from here" (``play_from(record, index) ->
    dict``, lent by a door's family, server/door.py's ``share_with_viewer``; None in ``swc
    view``), the limits (the viewer's settings section, server/web/settings.py), and how files
    are read: every family's reader by name (``readers``, server/web/files.py's
    ``family_readers``) and the families' own ways of reading an upload (``upload_readers``); a
    running door's family may put its own limits on its readers (``share_with_viewer``)."""

    def __init__(self, book: GameBook, gate: Gate, play_from=None, renderer=default_renderer,
                 upload_limit: int | None = None, limits: WebSettings | None = None,
                 readers: dict | None = None, upload_readers: dict | None = None) -> None:
        self.book = book
        self.gate = gate
        self.play_from = play_from
        self.renderer = renderer
        self.readers = dict(readers or {})
        self.upload_readers = dict(upload_readers or {})
        self.limits = limits = limits or WebSettings()
        self.upload_limit = upload_limit or limits.max_upload_bytes
        book.uploads_kept, book.uploads_kept_bytes = limits.uploads_kept, limits.uploads_kept_bytes
        self.assets = _load_assets()
        self.feeds = Feeds()
        self.steps = StepCache()
        self.open_streams = [0]  # event streams open now (a list: shared with the generators)
        self.streams_by_peer: dict[str, int] = {}
        self.uploads_reading = 0  # upload bodies being read now (at most UPLOADS_AT_ONCE)
        self._reading: trio.Lock | None = None
        self.tables = None  # every family's persons' tables (server/web/table_host.py); None in swc view
        # pages a layer above lends the viewer, as it lends tournament sources (swc view --archives:
        # tools/archive_page.py); they sit behind the same gate as every page
        self.extra_routes: list = []
        # tournaments lent by whoever starts the viewer (server/ never imports tools/): the run
        # pages' sources, id -> source (server/web/tournament.py), and the starter of new ones
        # (server/web/tournament_start.py; None: the page answers 404)
        self.tournaments: dict = {}
        self.tournament_starter = None
        self._tournament_reading: trio.Lock | None = None

    @property
    def reading(self) -> trio.Lock:
        if self._reading is None:
            self._reading = trio.Lock()
        return self._reading

    @property
    def tournament_reading(self) -> trio.Lock:
        """One read of a tournament's source at a time (a source reads files)."""
        if self._tournament_reading is None:
            self._tournament_reading = trio.Lock()
        return self._tournament_reading

    def step_json(self, record: GameRecord, index: int, count: int) -> dict:
        """Step ``index`` built once (the cache) for every page and API call that shows it."""
        stable = record.stable(index, count)
        return self.steps.get((record.id, index), lambda: step_json(record, index, count, self.renderer), stable)


def step_json(record: GameRecord, index: int, count: int, renderer) -> dict:
    step = record.step(index)
    previous = record.step(index - 1).state if index > 0 else None
    try:
        svg = renderer(record.game_type, step.state, step.last_move, previous)
    except Exception as error:  # a drawing bug must not break the page: the text board stays
        log.exception("game %s step %d: drawing failed", record.id, index)
        svg = None
        note = f"drawing failed: {type(error).__name__}"
    else:
        note = None
    data = {
        "index": index,
        "count": count,
        "label": step.label,
        "to_move": step.to_move,
        "note": step.note,
        "svg": svg,
        "text": record.text_of(step),  # type: ignore[attr-defined]
        "last_move": _move_json(step.last_move),
    }
    if note:
        data["draw_error"] = note
    wire_state = record.wire_state(index)
    if wire_state is not None:
        data["state"] = wire_state
    return data


def _move_json(move) -> object:
    if move is None or isinstance(move, (int, str, float, bool)):
        return move
    if isinstance(move, (tuple, list)):
        return [_move_json(part) for part in move]
    return str(move)
