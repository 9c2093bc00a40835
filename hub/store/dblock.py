"""One hub per database: `luza serve` holds an exclusive lock on `<db>.hub-lock` while it runs.

Two hubs writing one store would both fold the same inputs and publish diverging scores, so a second hub is
refused with a message naming the first one (its pid and command line, written in the lock file). The lock is
an advisory `flock`: the kernel drops it when the holder dies, so a killed hub never blocks the next one.
Readers (`luza replay`, `luza matches`, the web layer's own connections) do not take it.
"""

from __future__ import annotations

import fcntl
import os
import sys
import time
from pathlib import Path
from typing import IO

from hub.errors import InUse, NotWritable


class DbLock:
    """`acquire()` or raise InUse; `release()` (idempotent)."""

    def __init__(self, db: str | Path) -> None:
        self.db = str(db)
        self.path = Path(f"{db}.hub-lock")
        self._file: IO[str] | None = None

    def acquire(self) -> DbLock:
        try:
            f = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 (held open while the hub runs)
        except OSError as exc:
            raise NotWritable(
                f"the database {self.db} cannot be written: its lock file {self.path} cannot be "
                f"created ({exc.strerror}); give the hub's user write access to the database and "
                f"its folder / база данных недоступна для записи: дайте права на запись"
            ) from None
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            f.seek(0)
            holder = f.read().strip() or "another process"
            f.close()
            raise InUse(
                f"another hub is already running on the database {self.db}: {holder}; stop it first, "
                f"or give this one another store.path / на этой базе уже работает другой хаб: "
                f"{holder}"
            ) from None
        except OSError:
            f.close()
            raise
        f.seek(0)
        f.truncate()
        f.write(
            f"pid {os.getpid()} ({' '.join(sys.argv)[:200]}), since "
            f"{time.strftime('%Y-%m-%d %H:%M:%S', time.localtime())}\n"
        )
        f.flush()
        self._file = f
        return self

    def release(self) -> None:
        if self._file is not None:
            # closing drops the flock; the file stays (removing it would race a new holder)
            self._file.close()
            self._file = None
