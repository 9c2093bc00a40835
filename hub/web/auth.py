"""Referee access: per-table PINs (scrypt hashes in the hub's SQLite file), bearer tokens, wrong-PIN lockout.

PINs live in the `pins` table of the hub's database (created here if missing, so `luza pin set` works on a
database of any schema version, with or without a running hub). A PIN is 4..12 digits; there is no default.
Tokens are random, kept in memory (a hub restart asks the panel for the PIN again), valid for one table.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

SCRYPT = {"n": 2**14, "r": 8, "p": 1}  # ~16 MiB, a few tens of ms: slow for a guesser, fine for a panel
SCHEMA = """CREATE TABLE IF NOT EXISTS pins (
    table_id TEXT PRIMARY KEY,
    salt BLOB NOT NULL,
    hash BLOB NOT NULL,
    n INTEGER NOT NULL, r INTEGER NOT NULL, p INTEGER NOT NULL,
    set_ms INTEGER NOT NULL
)"""


class PinError(ValueError):
    """A PIN that cannot be set (not 4..12 digits); `en`/`ru` say what is accepted."""

    def __init__(self, en: str, ru: str) -> None:
        super().__init__(en)
        self.en, self.ru = en, ru


def check_pin_format(pin: str) -> None:
    if not (isinstance(pin, str) and pin.isdigit() and pin.isascii() and 4 <= len(pin) <= 12):
        raise PinError("a PIN is 4 to 12 digits", "PIN — от 4 до 12 цифр")


def _hash(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(pin.encode(), salt=salt, n=n, r=r, p=p, dklen=32, maxmem=64 * 1024 * 1024)


class PinStore:
    """The `pins` table of one database file; a connection per call (any thread, any process)."""

    def __init__(self, db: str | Path) -> None:
        self.db = str(db)
        self._cache: dict[str, tuple[float, bool]] = {}
        self._ready = False

    def _conn(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.db, timeout=5)
        if not self._ready:  # once per store: the table may be missing in a database made before it existed
            conn.execute(SCHEMA)
            conn.commit()
            self._ready = True
        return conn

    def set(self, table: str, pin: str) -> None:
        check_pin_format(pin)
        salt = secrets.token_bytes(16)
        digest = _hash(pin, salt, **SCRYPT)
        with contextlib.closing(self._conn()) as conn, conn:
            conn.execute("INSERT INTO pins(table_id, salt, hash, n, r, p, set_ms) VALUES (?, ?, ?, ?, ?, ?, ?) "
                         "ON CONFLICT(table_id) DO UPDATE SET salt = excluded.salt, hash = excluded.hash, "
                         "n = excluded.n, r = excluded.r, p = excluded.p, set_ms = excluded.set_ms",
                         (table, salt, digest, SCRYPT["n"], SCRYPT["r"], SCRYPT["p"], int(time.time() * 1000)))
        self._cache.pop(table, None)

    def _row(self, table: str) -> tuple[bytes, bytes, int, int, int, int] | None:
        conn = self._conn()
        try:
            return conn.execute("SELECT salt, hash, n, r, p, set_ms FROM pins WHERE table_id = ?",
                                (table,)).fetchone()
        finally:
            conn.close()

    def is_set(self, table: str, max_age_s: float = 2.0) -> bool:
        """Is a PIN set for `table`? (cached for a moment: the state envelope asks on every change)"""
        now = time.monotonic()
        hit = self._cache.get(table)
        if hit is not None and now - hit[0] < max_age_s:
            return hit[1]
        found = self._row(table) is not None
        self._cache[table] = (now, found)
        return found

    def set_ms(self, table: str) -> int | None:
        row = self._row(table)
        return int(row[5]) if row else None

    def verify(self, table: str, pin: str) -> bool | None:
        """True/False; None if no PIN is set for the table."""
        row = self._row(table)
        if row is None:
            return None
        salt, digest, n, r, p, _ = row
        if not isinstance(pin, str) or len(pin) > 64:
            return False
        return hmac.compare_digest(_hash(pin, salt, n, r, p), digest)


@dataclass
class Token:
    table: str
    label: str
    expires: float
    pin_set_ms: int | None  # the PIN it was issued under: a new PIN revokes it


class Tokens:
    """Bearer tokens, each for one table."""

    def __init__(self, ttl_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl_s, self.clock = ttl_s, clock
        self._tokens: dict[str, Token] = {}
        self._lock = threading.Lock()

    def issue(self, table: str, label: str, pin_set_ms: int | None) -> str:
        token = secrets.token_urlsafe(24)
        now = self.clock()
        with self._lock:
            self._tokens = {k: t for k, t in self._tokens.items() if t.expires > now}
            self._tokens[token] = Token(table, label, now + self.ttl_s, pin_set_ms)
        return token

    def get(self, token: str) -> Token | None:
        with self._lock:
            t = self._tokens.get(token)
        if t is None or t.expires <= self.clock():
            return None
        return t


@dataclass
class _Attempts:
    wrong: list[float] = field(default_factory=list)
    locked_until: float = 0.0
    lockouts: int = 0


class Lockout:
    """Wrong PINs per table: `attempts` within `window_s` lock the table's token exchange, longer each time."""

    def __init__(self, attempts: int, window_s: float, lockout_s: float, max_s: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.attempts, self.window_s, self.lockout_s, self.max_s = attempts, window_s, lockout_s, max_s
        self.clock = clock
        self._tables: dict[str, _Attempts] = {}
        self._lock = threading.Lock()

    def retry_after(self, table: str) -> int:
        """Seconds until the table may try again (0 = now)."""
        with self._lock:
            a = self._tables.get(table)
            left = (a.locked_until - self.clock()) if a else 0.0
        return max(0, int(left + 0.999))

    def wrong(self, table: str) -> int:
        """Count a wrong PIN; the lockout in seconds it starts (0 if none)."""
        now = self.clock()
        with self._lock:
            a = self._tables.setdefault(table, _Attempts())
            a.wrong = [t for t in a.wrong if now - t < self.window_s] + [now]
            if len(a.wrong) < self.attempts:
                return 0
            span = min(self.max_s, self.lockout_s * 2 ** a.lockouts)
            a.lockouts += 1
            a.wrong = []
            a.locked_until = now + span
            return max(1, int(span + 0.999))

    def right(self, table: str) -> None:
        with self._lock:
            self._tables.pop(table, None)
