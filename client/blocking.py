"""A blocking wrapper for scripts that do not want to write ``async``.

:class:`Portal` runs one trio event loop in a background thread; :func:`blocking` wraps any
object of this package so that its coroutine methods become plain calls and its async
iterators become plain iterators::

    from swc_local.client.blocking import connect_admin, connect_client

    with connect_client("localhost", 13050, game="piranhas") as client:
        client.join()
        for message in client:
            ...

Why our own portal rather than ``trio.from_thread.run``: that refuses to run when the calling
thread is itself inside *any* trio loop, so a synchronous helper could not be used from an
async test (pytest-trio); scheduling through the trio token with a
``concurrent.futures.Future`` works from every thread (the caller's own loop simply blocks).
"""

from __future__ import annotations

import concurrent.futures
import functools
import inspect
import threading

import trio

__all__ = ["Portal", "blocking", "connect_client", "connect_admin"]


class Portal:
    """A trio loop in a daemon thread; ``call`` runs a coroutine function there and waits."""

    def __init__(self, name: str = "swc-trio") -> None:
        self._ready = threading.Event()
        self._token: trio.lowlevel.TrioToken | None = None
        self._nursery: trio.Nursery | None = None
        self._stop: trio.Event | None = None
        self._thread = threading.Thread(target=trio.run, args=(self._main,), name=name, daemon=True)
        self._thread.start()
        self._ready.wait()

    async def _main(self) -> None:
        self._token = trio.lowlevel.current_trio_token()
        self._stop = trio.Event()
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            self._ready.set()
            await self._stop.wait()
            nursery.cancel_scope.cancel()

    @property
    def running(self) -> bool:
        return self._thread.is_alive() and self._stop is not None and not self._stop.is_set()

    def _submit(self, make_coroutine, timeout: float | None):
        if not self.running:
            raise RuntimeError("the portal is closed")
        future: concurrent.futures.Future = concurrent.futures.Future()

        async def runner() -> None:
            try:
                future.set_result(await make_coroutine())
            except trio.Cancelled:
                future.set_exception(RuntimeError("the portal was closed while the call ran"))
                raise
            except BaseException as error:  # noqa: BLE001 -- handed to the caller
                future.set_exception(error)

        self._token.run_sync_soon(lambda: self._nursery.start_soon(runner))
        return future.result(timeout)

    def call(self, async_fn, *args, timeout: float | None = None, **kwargs):
        """Run ``await async_fn(*args, **kwargs)`` in the portal's loop and return its value."""
        return self._submit(lambda: async_fn(*args, **kwargs), timeout)

    def start(self, async_fn, *args, timeout: float | None = None):
        """``nursery.start(async_fn, *args)`` in the portal's loop: a background task that
        reports a value through ``task_status``; returns that value."""
        return self._submit(lambda: self._nursery.start(async_fn, *args), timeout)

    def close(self) -> None:
        """Cancel everything still running in the loop and stop the thread."""
        if self.running:
            self._token.run_sync_soon(self._stop.set)
        self._thread.join(timeout=10)

    def __enter__(self) -> Portal:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class _Blocking:
    """Forwards attribute access; coroutine methods run through the portal."""

    def __init__(self, target: object, portal: Portal, owns_portal: bool) -> None:
        self._target = target
        self._portal = portal
        self._owns_portal = owns_portal

    def __getattr__(self, name: str):
        value = getattr(self._target, name)
        if inspect.iscoroutinefunction(value):
            return functools.partial(self._portal.call, value)
        if inspect.isasyncgenfunction(value):
            return lambda *a, **k: self._iterate(value(*a, **k))
        return value

    def _iterate(self, iterator):
        while True:
            try:
                yield self._portal.call(iterator.__anext__)
            except StopAsyncIteration:
                return

    def __iter__(self):
        return self._iterate(self._target)

    def close(self) -> None:
        try:
            if self._portal.running:
                self._portal.call(self._target.close)
        finally:
            if self._owns_portal:
                self._portal.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def blocking(target: object, portal: Portal, owns_portal: bool = False) -> _Blocking:
    """Wrap ``target`` (a Client or Admin created in ``portal``'s loop)."""
    return _Blocking(target, portal, owns_portal)


def connect_client(host: str = "localhost", port: int = 13050, game=None, portal: Portal | None = None):
    """A blocking :class:`swc_local.client.client.Client` (its own portal unless one is given)."""
    from swc_local.client.client import Client

    return _connect(Client.connect, (host, port, game), portal)


def connect_admin(host: str = "localhost", port: int = 13050, password: str = "examplepassword", portal: Portal | None = None):
    """A blocking :class:`swc_local.client.admin.Admin`."""
    from swc_local.client.admin import Admin

    return _connect(Admin.connect, (host, port, password), portal)


def _connect(connect, args: tuple, portal: Portal | None):
    """Run ``connect(*args)`` in a portal; a portal made here is closed again if that fails."""
    own = portal is None
    portal = portal or Portal()
    try:
        return blocking(portal.call(connect, *args), portal, own)
    except BaseException:
        if own:
            portal.close()
        raise
