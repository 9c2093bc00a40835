"""Damage stays where it is: the hub checks its database at start and rebuilds what can be rebuilt.

A Raspberry Pi's SD card can tear a 4 KiB page (a power cut mid-write, a failing card). One torn page used to
make `luza serve` refuse to start ("restore a backup"), so no event of the match in play was stored, though
most of the time everything was recoverable. `check_and_repair` runs `PRAGMA quick_check` before the store is
opened and, on damage, goes as far as it has to:

1. `REINDEX`: an index whose entries are wrong is rebuilt from its table in place (no data is touched).
2. `VACUUM INTO` a fresh file: every table is read and written anew (new indexes, no torn free pages). The
   fresh file takes the database's name; the damaged one is kept beside it as
   `<db>.damaged-<YYYYmmdd-HHMMSS>`.
3. Neither works (a torn page holding table rows): the hub runs on the file as it is; each match whose stored
   rows cannot be read is set aside (`Store.quarantine_match`, as for a damaged row) and listed in the alert.

What it did is a `Repair`; the hub shows its `alert()` on every table and logs it. A file that is not a
database at all, or whose list of matches itself cannot be read,
still stops the hub with the one-line "restore a backup".
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path

from hub.store.database import Store
from hub.vocab.alerts import StoreChecked

log = logging.getLogger("luza.store")

REINDEXED, REBUILT, DAMAGED = "reindexed", "rebuilt", "damaged"  # Repair.action
CORRUPT_CODES = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)
MAX_PROBLEMS = 20  # lines of quick_check kept (one torn page can give hundreds)


def is_damage(exc: BaseException) -> bool:
    """Is this error a damaged database file (not a locked one, not a full disk)?"""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in CORRUPT_CODES
    low = str(exc).lower()
    return "malformed" in low or "not a database" in low


@dataclass
class Repair:
    """What the start-up check found and did."""

    problems: list[str]  # quick_check's first lines
    action: str  # reindexed | rebuilt | damaged
    kept: str | None = None  # the damaged file, kept beside the rebuilt one
    why: str = ""  # why a cheaper step did not do (REINDEX's or VACUUM's error)
    seconds: float = 0.0
    set_aside: list[int] = field(default_factory=list)  # matches that cannot be read (action damaged)

    def alert(self) -> StoreChecked:
        """The hub alert shown on every table until the hub restarts."""
        first = self.problems[0] if self.problems else "?"
        if self.action == REINDEXED:
            en = (
                f"the database had a damaged index ({first}); it was rebuilt from the tables at start and "
                "nothing was lost"
            )
            ru = f"в базе был повреждён индекс ({first}); при старте он перестроен, ничего не потеряно"
        elif self.action == REBUILT:
            en = (
                f"the database was damaged ({first}); the hub copied everything into a fresh file at start "
                f"and scores on; the damaged file is kept as {self.kept}"
            )
            ru = (
                f"база была повреждена ({first}); при старте хаб переписал всё в новый файл и считает "
                f"дальше; повреждённый файл сохранён как {self.kept}"
            )
        else:
            ids = ", ".join(map(str, self.set_aside)) or "none"
            en = (
                f"the database is damaged ({first}) and could not be rebuilt ({self.why}); the hub scores "
                f"on, matches that cannot be read are set aside ({ids}); copy luza.db off the card and "
                "restore a backup when the club is closed"
            )
            ru = (
                f"база повреждена ({first}) и не восстанавливается ({self.why}); хаб считает дальше, "
                f"нечитаемые партии отложены ({'; '.join(map(str, self.set_aside)) or 'нет'}); скопируйте "
                "luza.db и восстановите резервную копию, когда клуб закрыт"
            )
        return StoreChecked(
            kind="store_repaired" if self.action != DAMAGED else "store_damaged",
            severity="warning" if self.action != DAMAGED else "error",
            action=self.action,
            kept=self.kept,
            set_aside=list(self.set_aside),
            problems=self.problems[:5],
            en=en,
            ru=ru,
        )


def quick_check(conn: sqlite3.Connection) -> list[str]:
    """The problems `PRAGMA quick_check` finds ([] if none); an error while checking is itself one."""
    try:
        rows = conn.execute(f"PRAGMA quick_check({MAX_PROBLEMS})").fetchall()
    except sqlite3.DatabaseError as exc:
        if not is_damage(exc):
            raise
        return [str(exc)]
    lines = [line for (text,) in rows for line in str(text).splitlines() if line.strip()]
    lines = [line for line in lines if not line.startswith("*** in database")]
    return [] if lines == ["ok"] else lines[:MAX_PROBLEMS]


def check_and_repair(path: str | Path) -> Repair | None:
    """Check the database at `path` (the hub holds its lock); repair it if it is damaged. None: it is whole.

    Raises sqlite3.DatabaseError only for a file that is not a database at all."""
    path = Path(path)
    if str(path) == ":memory:" or not path.exists() or path.stat().st_size == 0:
        return None
    started = time.monotonic()
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        problems = quick_check(conn)
        if not problems:
            return None
        if problems == ["file is not a database"]:
            raise sqlite3.DatabaseError("file is not a database")
        log.error("the database %s is damaged: %s", path, "; ".join(problems[:3]))
        repair = _reindex(conn, problems) or _rebuild(conn, path, problems)
    finally:
        conn.close()
    if repair.action == REBUILT:
        _swap(path, repair)
    repair.seconds = time.monotonic() - started
    log.log(
        logging.WARNING if repair.action != DAMAGED else logging.ERROR,
        "%s (%.1f s)",
        repair.alert().en,
        repair.seconds,
    )
    return repair


def _reindex(conn: sqlite3.Connection, problems: list[str]) -> Repair | None:
    """Rebuild every index in place; a Repair if that made the file whole."""
    try:
        conn.execute("REINDEX")
    except sqlite3.DatabaseError as exc:
        if not is_damage(exc):
            raise
        log.warning("REINDEX could not repair it (%s); copying the database into a fresh file", exc)
        return None
    left = quick_check(conn)
    if left:
        log.warning("REINDEX left damage (%s); copying the database into a fresh file", "; ".join(left[:3]))
        return None
    return Repair(problems, REINDEXED)


def _rebuild(conn: sqlite3.Connection, path: Path, problems: list[str]) -> Repair:
    """`VACUUM INTO` a fresh file beside the database (swapped in by `_swap`),
    or the reason it cannot be done."""
    fresh = Path(f"{path}.rebuilding")
    fresh.unlink(missing_ok=True)
    try:
        conn.execute("VACUUM INTO ?", (str(fresh),))
        # everything of the WAL is in the fresh file now;
        # empty it, so the damaged file can be kept as one piece
        busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        if busy:
            raise sqlite3.OperationalError("the damaged file's write-ahead log could not be emptied")
    except sqlite3.DatabaseError as exc:
        fresh.unlink(missing_ok=True)
        if not is_damage(exc) and not isinstance(exc, sqlite3.OperationalError):
            raise
        return Repair(problems, DAMAGED, why=str(exc))
    check = sqlite3.connect(fresh)
    try:
        left = quick_check(check)
    finally:
        check.close()
    if left:
        fresh.unlink(missing_ok=True)
        return Repair(problems, DAMAGED, why=f"the fresh copy is not whole either: {left[0]}")
    return Repair(problems, REBUILT, kept=f"{path}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")


def _swap(path: Path, repair: Repair) -> None:
    """Put the fresh file in the database's place, keeping the damaged one beside it under `repair.kept`.

    The damaged file gets its new name by a hard link first and the fresh one replaces it atomically, so a
    crash at any point leaves a database at `path` (the damaged one: the next start does it again)."""
    assert repair.kept is not None
    kept = Path(repair.kept)
    try:
        os.link(path, kept)
    except OSError:  # a file system without hard links: a copy
        import shutil

        shutil.copy2(path, kept)
    for suffix in ("-wal", "-shm"):  # the WAL is empty (checkpointed); it belongs to the damaged file
        side = Path(f"{path}{suffix}")
        if side.exists():
            os.replace(side, f"{kept}{suffix}")
    os.replace(f"{path}.rebuilding", path)
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def unreadable_matches(conn: sqlite3.Connection) -> dict[int, tuple[int | None, str]]:
    """{match id: (first unreadable cursor or None, why)} of the matches whose stored inputs cannot be read.

    Reads every stored input once (only after damage that could not be rebuilt): a row on a torn page fails.
    The cursors come from the index `inputs_by_match` alone, so the first row that fails is named."""
    out: dict[int, tuple[int | None, str]] = {}
    for (match_id,) in conn.execute("SELECT id FROM matches ORDER BY id").fetchall():
        cursor = None
        try:
            ids = [
                i
                for (i,) in conn.execute(
                    "SELECT id FROM inputs INDEXED BY inputs_by_match WHERE match_id = ? ORDER BY id",
                    (match_id,),
                )
            ]
            for cursor in ids:
                conn.execute("SELECT length(record) FROM inputs WHERE id = ?", (cursor,)).fetchone()
        except sqlite3.DatabaseError as exc:
            if not is_damage(exc):
                raise
            where = f"stored input {cursor}" if cursor is not None else "its list of inputs"
            out[match_id] = (cursor, f"{where} is on a damaged page of the database ({exc})")
    return out


def set_aside(store: Store, repair: Repair, now_ms: int) -> None:
    """After damage that could not be rebuilt: quarantine every match whose stored inputs cannot be read
    (listed in `repair.set_aside`), so the hub revives only what it can read and the tables show why."""
    already = store.quarantined()
    for match_id, (cursor, why) in unreadable_matches(store.conn).items():
        m = store.match(match_id)
        if m is not None and match_id not in already:
            log.error("match %d is set aside (quarantined): %s", match_id, why)
            store.quarantine_match(m, cursor, why, now_ms)
        repair.set_aside.append(match_id)
