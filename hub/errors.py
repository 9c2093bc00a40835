"""One line, never a traceback: what `luza` prints for an error a person can cause, and its exit code.

`describe(exc, db)` turns the errors that bad input gives (a database that is missing, read-only, corrupt or
locked; an unreadable config; another hub on the same database) into one sentence with an exit code
(docs/hub.md "Exit codes"). `hub.cli.main` uses it for any exception a command lets through, so no command can
end in a stack trace; `LUZA_DEBUG=1` prints the trace as well.
"""

from __future__ import annotations

import sqlite3
from typing import Any

OK, FAILED, BAD_INPUT, IN_USE, INTERNAL, INTERRUPTED = 0, 1, 2, 3, 70, 130


class SchemaError(RuntimeError):
    """The database is newer than this hub, or not a Luza database."""


class InUse(RuntimeError):
    """Another hub holds this database (hub.store.dblock); the message names it."""


class NotWritable(RuntimeError):
    """The database (or its folder) cannot be written by this user; the message says what to change."""


def describe(exc: BaseException, db: str | None = None) -> tuple[str, int]:
    """(one line in English and Russian, exit code) for `exc`."""
    from hub.config import ConfigError

    where = f"the database {db}" if db else "the database"
    if isinstance(exc, InUse):
        return str(exc), IN_USE
    if isinstance(exc, (ConfigError, NotWritable)):
        return str(exc), BAD_INPUT
    if isinstance(exc, SchemaError):
        return f"{where}: {exc}", BAD_INPUT
    if isinstance(exc, sqlite3.Error):
        return _sqlite(exc, where)
    if isinstance(exc, (FileNotFoundError, PermissionError, IsADirectoryError, NotADirectoryError)):
        name = f" {exc.filename}" if exc.filename else ""
        return f"cannot open{name}: {exc.strerror} / не удаётся открыть{name}", BAD_INPUT
    if isinstance(exc, OSError):
        return f"system error: {exc.strerror or exc} / системная ошибка", FAILED
    if isinstance(exc, RecursionError):
        return "the input is nested too deeply / входные данные вложены слишком глубоко", BAD_INPUT
    return (f"internal error ({type(exc).__name__}: {str(exc)[:200]}); set LUZA_DEBUG=1 for details / "
            f"внутренняя ошибка", INTERNAL)


def _sqlite(exc: sqlite3.Error, where: str) -> tuple[str, int]:
    text = str(exc)
    low = text.lower()
    if "locked" in low or "busy" in low:
        return (f"{where} is locked by another program ({text}); stop it or try again / "
                f"база данных занята другой программой", IN_USE)
    if "readonly" in low or "read-only" in low:
        return (f"{where} is read-only ({text}); give the hub's user write access to the file and its folder / "
                f"база данных только для чтения: дайте права на запись файлу и его папке", BAD_INPUT)
    if "unable to open" in low:
        return (f"cannot open {where} ({text}); check that its folder exists and is writable / "
                f"не удаётся открыть базу данных: проверьте, что папка существует и доступна для записи", BAD_INPUT)
    if "not a database" in low or "malformed" in low or "corrupt" in low:
        return (f"{where} is damaged or not a Luza database ({text}); restore a backup (luza backup) or move it "
                f"away / база данных повреждена или это не база Luza: восстановите копию", BAD_INPUT)
    if "full" in low:
        return f"{where}: the disk is full ({text}); free some space / диск заполнен: освободите место", FAILED
    return f"{where}: {text} / ошибка базы данных", FAILED


def disk_full_alert(exc: sqlite3.Error) -> dict[str, Any] | None:
    """The hub alert for a commit refused because the disk (or the database's size limit) is full, or because
    the disk refused a write (an I/O error: a file-size limit, a failing SD card), else None."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF == sqlite3.SQLITE_IOERR:
        return {"kind": "disk_error", "scope": "hub", "severity": "error",
                "en": f"the hub cannot write its database ({exc}): scoring is paused and nothing is lost; check the "
                      "disk (free space, the SD card) and it resumes by itself",
                "ru": f"хаб не может записать базу ({exc}): счёт приостановлен, ничего не потеряно; проверьте диск "
                      "(свободное место, SD-карту) — счёт продолжится сам"}
    if code != sqlite3.SQLITE_FULL and "full" not in str(exc).lower():
        return None
    return {"kind": "disk_full", "scope": "hub", "severity": "error",
            "en": "the hub's disk is full: scoring is paused and nothing is lost; free some space and it resumes "
                  "by itself", "ru": "диск хаба заполнен: счёт приостановлен, ничего не потеряно; освободите место "
                                     "— счёт продолжится сам"}
