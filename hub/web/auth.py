"""Referee and club access: per-table PINs and the club's PIN (scrypt hashes in the hub's SQLite file), bearer
tokens, established devices, and wrong-PIN lockouts (per client address;
see hub.web.pinguard for how they combine).

The club's PIN (the club role: device actions on the club view, the heavy exports) is kept like a table's,
under the key `CLUB`, which no table id can be (a table id is 1-32 of a-z, 0-9 and '-'); its tokens are tokens
"of the table" `CLUB`, so they never pass a table's check and a table's never pass the club's.

PINs live in the `pins` table and devices in `referee_devices` (schema v7, kept by hub/store/pins.py; a
database of an older schema is migrated on first use, so `luza pin set` works with or without a running hub).
A PIN is 4..12 digits; there is no default. Tokens are random, kept in memory (a hub restart asks the panel
for the PIN again), valid for one table. A device is a random cookie the browser got with its first token;
only its sha256 is stored, with the PIN it was issued under (a new PIN forgets every device).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path

from hub.errors import MALFORMED, Refusal
from hub.store.pins import PinRow, Pins

CLUB = "*club"  # the key of the club's PIN, tokens, lockouts and devices (never a table id)
SCRYPT = {"n": 2**14, "r": 8, "p": 1}  # ~16 MiB, a few tens of ms: slow for a guesser, fine for a panel
MAX_DEVICES = 20  # established devices kept per table (the least recently used gives way)
MAX_KEYS = 4096  # client addresses a Lockout remembers (the quiet ones give way first)


class PinError(Refusal):
    """A PIN that cannot be set (not 4..12 digits); `en`/`ru` say what is accepted."""

    def __init__(self, en: str, ru: str) -> None:
        super().__init__(en, ru, "pin", MALFORMED)


def check_pin_format(pin: str) -> None:
    if not (isinstance(pin, str) and pin.isdigit() and pin.isascii() and 4 <= len(pin) <= 12):
        raise PinError("a PIN is 4 to 12 digits", "PIN — от 4 до 12 цифр")


def _device_hash(device: str) -> str:
    return hashlib.sha256(device.encode()).hexdigest()


def _hash(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(pin.encode(), salt=salt, n=n, r=r, p=p, dklen=32, maxmem=64 * 1024 * 1024)


class PinStore:
    """Per-table PINs of one database file (kept by hub.store.pins); a connection per call (any thread, any
    process)."""

    def __init__(self, db: str | Path) -> None:
        self.db = str(db)
        self._pins = Pins(db)
        self._cache: dict[str, tuple[float, bool]] = {}

    def set(self, table: str, pin: str) -> None:
        check_pin_format(pin)
        salt = secrets.token_bytes(16)
        digest = _hash(pin, salt, **SCRYPT)
        now_ms = int(time.time() * 1000)
        self._pins.set(table, PinRow(salt, digest, SCRYPT["n"], SCRYPT["r"], SCRYPT["p"], now_ms))
        self._cache.pop(table, None)

    def is_set(self, table: str, max_age_s: float = 2.0) -> bool:
        """Is a PIN set for `table`? (cached for a moment: the state envelope asks on every change)"""
        now = time.monotonic()
        hit = self._cache.get(table)
        if hit is not None and now - hit[0] < max_age_s:
            return hit[1]
        found = self._pins.get(table) is not None
        self._cache[table] = (now, found)
        return found

    def set_ms(self, table: str) -> int | None:
        row = self._pins.get(table)
        return row.set_ms if row else None

    # ------------------------------------------------------------ established devices

    def remember_device(self, table: str, device: str) -> None:
        """A device that just signed in with the right PIN
        (kept under the PIN it used; MAX_DEVICES per table)."""
        self._pins.remember_device(table, _device_hash(device), int(time.time() * 1000), MAX_DEVICES)

    def is_device(self, table: str, device: str | None) -> bool:
        """Did this device sign in to `table` under its current PIN?"""
        if not device or len(device) > 100:
            return False
        return self._pins.is_device(table, _device_hash(device))

    def forget_device(self, table: str, device: str) -> None:
        self._pins.forget_device(table, _device_hash(device))

    def verify(self, table: str, pin: str) -> bool | None:
        """True/False; None if no PIN is set for the table."""
        row = self._pins.get(table)
        if row is None:
            return None
        if not isinstance(pin, str) or len(pin) > 64:
            return False
        return hmac.compare_digest(_hash(pin, row.salt, row.n, row.r, row.p), row.hash)


@dataclass
class Token:
    table: str
    label: str
    expires: float
    pin_set_ms: int | None  # the PIN it was issued under: a new PIN revokes it
    used: float = 0.0  # when it was issued or last presented (Tokens' clock): is someone acting on the table?


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
            self._tokens[token] = Token(table, label, now + self.ttl_s, pin_set_ms, now)
        return token

    def get(self, token: str) -> Token | None:
        """The live token (None if unknown or expired); presenting it counts as a use (`last_use`)."""
        now = self.clock()
        with self._lock:
            t = self._tokens.get(token)
            if t is None or t.expires <= now:
                return None
            t.used = now
        return t

    def last_use(self, table: str, exclude: Collection[str] = ()) -> Token | None:
        """The live token for `table` issued or presented most recently, other than the `exclude`d ones: who
        else is acting on the table, and when (`luza demo`'s script stands by while a person is)."""
        now = self.clock()
        with self._lock:
            mine = [
                t
                for k, t in self._tokens.items()
                if t.table == table and t.expires > now and k not in exclude
            ]
        return max(mine, key=lambda t: t.used, default=None)


@dataclass
class _Attempts:
    wrong: list[float] = field(default_factory=list)
    locked_until: float = 0.0
    lockouts: int = 0


class Lockout:
    """Wrong PINs per key (a table and a client address, or a whole table): `attempts` within `window_s` lock
    the key for `lockout_s`, doubling with each further lockout up to `max_s`; a right PIN clears the key. At
    most MAX_KEYS keys are remembered (many addresses cannot make it grow without end)."""

    def __init__(
        self,
        attempts: int,
        window_s: float,
        lockout_s: float,
        max_s: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.attempts, self.window_s, self.lockout_s, self.max_s = attempts, window_s, lockout_s, max_s
        self.clock = clock
        self._keys: dict[str, _Attempts] = {}
        self._lock = threading.Lock()

    def retry_after(self, key: str) -> int:
        """Seconds until `key` may try again (0 = now)."""
        with self._lock:
            a = self._keys.get(key)
            left = (a.locked_until - self.clock()) if a else 0.0
        return max(0, int(left + 0.999))

    def locked(self, prefix: str) -> int:
        """How many keys starting with `prefix` are locked now."""
        now = self.clock()
        with self._lock:
            return sum(1 for k, a in self._keys.items() if k.startswith(prefix) and a.locked_until > now)

    def wrong(self, key: str) -> int:
        """Count a wrong PIN; the lockout in seconds it starts (0 if none)."""
        now = self.clock()
        with self._lock:
            a = self._keys.get(key)
            if a is None:
                self._make_room(now)
                a = self._keys[key] = _Attempts()
            a.wrong = [t for t in a.wrong if now - t < self.window_s] + [now]
            if len(a.wrong) < self.attempts:
                return 0
            span = min(self.max_s, self.lockout_s * 2 ** min(a.lockouts, 30))
            a.lockouts += 1
            a.wrong = []
            a.locked_until = now + span
            return max(1, int(span + 0.999))

    def _make_room(self, now: float) -> None:
        if len(self._keys) < MAX_KEYS:
            return
        quiet = [
            k
            for k, a in self._keys.items()
            if a.locked_until <= now and not any(now - t < self.window_s for t in a.wrong)
        ]
        for k in (
            quiet or sorted(self._keys, key=lambda k: self._keys[k].locked_until)[: len(self._keys) // 4]
        ):
            del self._keys[k]

    def right(self, key: str) -> None:
        with self._lock:
            self._keys.pop(key, None)

    def clear(self, prefix: str) -> None:
        """Forget every key starting with `prefix` (a new PIN for the table)."""
        with self._lock:
            for k in [k for k in self._keys if k.startswith(prefix)]:
                del self._keys[k]
