"""Heavy exports (every match as one zip, any PDF): only for the club, one at a time, streamed.

Who: the club role, `Authorization: Bearer <token>` with a token from the club's PIN (`POST /api/club/token`;
the PIN is set with `luza pin set --club`). A referee's token is for their table's match, not for the club's
archive: it gets 401, as does a phone on the club Wi-Fi without a token.

One at a time: a second heavy export while one runs answers 429 with `Retry-After` and "busy, try again in N
s" (N from the running one's progress). Streamed: the zip is written one match at a time by a thread of its
own into a queue of a few chunks that the response drains,
so memory holds one match's file, whatever the count;
a client that goes away stops the thread at the next match. Bounded: a zip holds at most `MAX_ZIP[format]`
matches (413 beyond: narrow the dates).
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hub.web.auth import CLUB
from hub.web.errors import ApiError

if TYPE_CHECKING:
    from hub.web.context import WebContext

MAX_ZIP = {"pdf": 100, "json": 5000, "csv": 5000, "html": 5000}  # matches in one zip
ITEM_S = {"pdf": 3.0, "json": 0.05, "csv": 0.05, "html": 0.05}  # a guess per match before the first is done
AHEAD = 4  # chunks the producing thread may be ahead of the client


@dataclass
class Job:
    total: int
    guess_s: float
    started: float = field(default_factory=time.monotonic)
    done: int = 0

    def left_s(self) -> int:
        per = (time.monotonic() - self.started) / self.done if self.done else self.guess_s
        return max(1, min(3600, math.ceil(per * max(1, self.total - self.done))))


def unauthorized() -> ApiError:
    return ApiError(
        401,
        "unauthorized",
        "this export is for the club: sign in with the club PIN (POST /api/club/token; set it on the "
        "hub with `luza pin set --club`) and send Authorization: Bearer <token>",
        "эта выгрузка — для клуба: войдите с PIN клуба (POST /api/club/token; задаётся на хабе: "
        "`luza pin set --club`) и передайте Authorization: Bearer <токен>",
        "authorization",
        {"WWW-Authenticate": "Bearer"},
    )


def too_many(count: int, fmt: str) -> ApiError:
    most = MAX_ZIP.get(fmt, 0)
    return ApiError(
        413,
        "too_large",
        f"{count} matches are more than one {fmt} zip holds ({most}); narrow since/until",
        f"{count} партий — больше, чем помещается в один zip {fmt} ({most}); сузьте since/until",
        "since",
    )


class Gate:
    """Who may run a heavy export (`allowed(token)`), and the one that runs."""

    def __init__(self, allowed: Callable[[str], bool] = lambda token: False) -> None:
        self.allowed = allowed
        self.job: Job | None = None
        self._lock = threading.Lock()

    def authorize(self, authorization: str | None) -> None:
        scheme, _, value = (authorization or "").partition(" ")
        if scheme.lower() != "bearer" or not value.strip() or not self.allowed(value.strip()):
            raise unauthorized()

    def begin(self, total: int, fmt: str) -> Job:
        """Start a job of `total` matches, or ApiError 429 (another runs) / 413 (too many for one zip)."""
        if total > MAX_ZIP.get(fmt, 0):
            raise too_many(total, fmt)
        with self._lock:
            if self.job is not None:
                n = self.job.left_s()
                raise ApiError(
                    429,
                    "busy",
                    f"another export is being made: busy, try again in {n} s",
                    f"идёт другая выгрузка: занято, повторите через {n} с",
                    None,
                    {"Retry-After": str(n)},
                )
            self.job = Job(total, ITEM_S.get(fmt, 1.0))
            return self.job

    def end(self, job: Job) -> None:
        with self._lock:
            if self.job is job:
                self.job = None

    async def stream(self, job: Job, chunks: Callable[[], Iterator[bytes]]) -> AsyncIterator[bytes]:
        """The bytes of `chunks()` made on a thread of their own; the job ends when that thread does."""
        loop = asyncio.get_running_loop()
        out: asyncio.Queue[bytes | BaseException | None] = asyncio.Queue()
        room = threading.Semaphore(AHEAD)
        stop = threading.Event()

        def put(item: bytes | BaseException | None) -> None:
            try:
                loop.call_soon_threadsafe(out.put_nowait, item)
            except RuntimeError:  # the server stopped (its loop is closed): nobody reads any more
                stop.set()

        def produce() -> None:
            try:
                for chunk in chunks():
                    while not room.acquire(timeout=0.5):
                        if stop.is_set():
                            return
                    if stop.is_set():
                        return
                    put(chunk)
                put(None)
            except BaseException as exc:  # the response ends short; the log says why
                put(exc)
            finally:
                self.end(job)

        threading.Thread(target=produce, name="luza heavy export", daemon=True).start()
        try:
            while True:
                item = await out.get()
                if item is None:
                    return
                if isinstance(item, BaseException):
                    raise item
                room.release()
                yield item
        finally:
            stop.set()


def club_gate(web: WebContext) -> Gate:
    """The web app's gate: a live token of the club role (see the module's docstring)."""
    return Gate(lambda value: web.bearer(f"Bearer {value}", CLUB) is not None)
