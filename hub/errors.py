"""The errors a person can cause, said the same way everywhere.

A refusal (an input the hub will not take: a referee action, a query, a PIN, an export) is a `Refusal`, and
what it says is its `ErrorBody`: code, field, English and Russian text. Every channel gives that one body for
the same refusal (docs/web-api.md "Errors"): REST as `{"error": <body>}` with a status for its code, the
WebSocket as a `{"type": "error", "error": <body>}` message before it closes, the control socket (and so
`luza referee`) as `{"ok": false, "error": <body>}`, and the CLI as one line, `refusal_line(body)`. Refusals
that several channels give (an unknown table, an action not stored in time, a hub that is full, an internal
error) are built here once.

`describe(exc, db)` turns the errors that bad input gives (a database that is missing, read-only, corrupt or
locked; an unreadable config; another hub on the same database) into one sentence with an exit code
(docs/hub.md "Exit codes"). `hub.cli.main` uses it for any exception a command lets through, so no command can
end in a stack trace; `LUZA_DEBUG=1` prints the trace as well.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

OK, FAILED, BAD_INPUT, IN_USE, INTERNAL, INTERRUPTED = 0, 1, 2, 3, 70, 130

# The codes of a refusal (ErrorBody.code). An API maps each to a status (hub/web/errors.py STATUS).
MALFORMED = "malformed"  # a value that cannot be taken as it is; `field` names it
UNKNOWN_TABLE = "unknown_table"  # no such table in luza.toml
NO_MATCH = "no_match"  # the table has no live match for this
REFUSED = "refused"  # the rules or the session refuse it in the current position
UNAVAILABLE = "unavailable"  # the hub could not store or do it now; the same request may be sent again
BUSY = "busy"  # the hub takes no more connections of this kind now
INTERNAL_ERROR = "internal"  # a fault of the hub (logged); nothing was confirmed
NOT_FOUND = "not_found"  # no such thing (a match, a page)
DAMAGED = "damaged"  # part of it is on a torn page of the database (hub.store.integrity)


@dataclass(frozen=True, slots=True)
class ErrorBody:
    """What one refusal says, in every channel alike: its `code` (for a program), the `field` at fault (or None)
    and the text for a person in English and Russian."""  # noqa: E501

    code: str
    en: str
    ru: str
    field: str | None = None

    def as_json(self) -> dict[str, str | None]:
        """The body as JSON: {"code", "en", "ru", "field"} (field null when no one field is at fault)."""
        return {"code": self.code, "en": self.en, "ru": self.ru, "field": self.field}


class Refusal(ValueError):
    """An input the hub will not take, and why. Raised where the input is checked; each channel answers its
    `body`. Subclasses name where it comes from (hub.vocab.checks.RefereeInputError, the export's and the
    history's errors, the PIN's)."""

    def __init__(self, en: str, ru: str | None = None, field: str | None = None, code: str = REFUSED) -> None:
        super().__init__(en)
        self.body = ErrorBody(code, en, ru or en, field)

    @classmethod
    def of(cls, body: ErrorBody) -> Refusal:
        """The refusal that says `body` (for a body built here, raised as the caller's kind of refusal)."""
        return cls(body.en, body.ru, body.field, body.code)

    @property
    def en(self) -> str:
        return self.body.en

    @property
    def ru(self) -> str:
        return self.body.ru

    @property
    def field(self) -> str | None:
        return self.body.field

    @property
    def code(self) -> str:
        return self.body.code


def refusal_line(body: ErrorBody) -> str:
    """The one line the CLI prints for a refusal: the English text, then the Russian one if it differs."""
    return body.en if body.ru == body.en else f"{body.en} / {body.ru}"


def unknown_table(table: object, known: Sequence[str]) -> ErrorBody:
    """A table luza.toml does not have."""
    served = ", ".join(known)
    return ErrorBody(
        UNKNOWN_TABLE,
        f"no table {table!r}; the hub serves {served}",
        f"нет стола {table!r}; хаб обслуживает {served}",
        "table",
    )


def not_stored_in_time(seconds: float) -> ErrorBody:
    """A referee action the hub did not commit within `seconds`: it may still be stored, so the same action
    (the same uid) may be sent again and is applied once."""
    return ErrorBody(
        UNAVAILABLE,
        f"the hub did not store the action within {seconds:g} s; it may still be stored: "
        "send it again with the same uid (it is applied once)",
        f"хаб не сохранил действие за {seconds:g} с; оно могло быть сохранено: отправьте его снова с "
        "тем же uid (оно будет применено один раз)",
    )


def too_many_clients(limit: int) -> ErrorBody:
    """A connection over the channel's limit."""
    return ErrorBody(
        BUSY,
        f"the hub takes at most {limit} connections of this kind; close another one",
        f"хаб принимает не более {limit} таких подключений; закройте одно из них",
    )


INTERNAL_FAULT = ErrorBody(
    INTERNAL_ERROR,
    "internal error of the hub (see its log); nothing was confirmed",
    "внутренняя ошибка хаба (см. журнал); ничего не подтверждено",
)


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
    if isinstance(exc, Refusal):
        return refusal_line(exc.body), BAD_INPUT
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
    return (
        f"internal error ({type(exc).__name__}: {str(exc)[:200]}); set LUZA_DEBUG=1 for details / "
        f"внутренняя ошибка",
        INTERNAL,
    )


def _sqlite(exc: sqlite3.Error, where: str) -> tuple[str, int]:
    text = str(exc)
    low = text.lower()
    if "locked" in low or "busy" in low:
        return (
            f"{where} is locked by another program ({text}); stop it or try again / "
            f"база данных занята другой программой",
            IN_USE,
        )
    if "readonly" in low or "read-only" in low:
        return (
            f"{where} is read-only ({text}); give the hub's user write access to the file and its folder / "
            f"база данных только для чтения: дайте права на запись файлу и его папке",
            BAD_INPUT,
        )
    if "unable to open" in low:
        return (
            f"cannot open {where} ({text}); check that its folder exists and is writable / "
            f"не удаётся открыть базу данных: проверьте, что папка существует и доступна для записи",
            BAD_INPUT,
        )
    if "not a database" in low or "malformed" in low or "corrupt" in low:
        return (
            f"{where} is damaged or not a Luza database ({text}); restore a backup (luza backup) or move it "
            f"away / база данных повреждена или это не база Luza: восстановите копию",
            BAD_INPUT,
        )
    if "full" in low:
        return (
            f"{where}: the disk is full ({text}); free some space / диск заполнен: освободите место",
            FAILED,
        )
    return f"{where}: {text} / ошибка базы данных", FAILED
