"""The PIN check of the token exchange: serialised per table, locked per client address, never lockable for
the referee's established device.

Why: guesses sent together all passed the old lockout check before the first hash ran (a burst of 1,000
evaluated 468), and five wrong PINs from anyone locked the table for everyone, the referee included.

- **Serialised per table**: one PIN evaluation per table at a time (an asyncio lock on the app's loop; the
  scrypt hash runs in a thread). The lockout is checked again under the lock, so a burst of N guesses from one
  address gets at most `pin_attempts` evaluations; the rest are refused (429) without a hash.
- **Per client address**: `pin_attempts` wrong PINs within `pin_window_s` lock that address out of that table
  for `lockout_s`, doubling with each further lockout up to `lockout_max_s`. Other addresses go on.
- **Many addresses**: `pin_table_attempts` wrong PINs for a table from all new devices together within the
  window lock the table for new devices (the same back-off); the referee's established device is not stopped.
- **Established device**: one that holds a valid token for the table (`Authorization: Bearer`), or the device
  cookie it got with its first token under the current PIN (hub.web.auth.PinStore.is_device). It skips the
  lockouts; its own wrong PINs are counted, and `pin_attempts` of them forget the device.
- A new PIN (`luza pin set`) clears the table's lockouts (the club's way out) and forgets its devices.
- Every outcome is counted per table (ok, wrong, locked): `/metrics` and the club view show them.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypedDict

from hub.web.auth import Lockout, PinStore
from hub.web.settings import WebSettings

OK, WRONG, LOCKED, NO_PIN = "ok", "wrong", "locked", "no_pin"


class AccessSummary(TypedDict):
    """A table's PIN attempts as the club view shows them (`access` of each table on /ws/club)."""

    failed: int  # wrong + refused
    wrong: int  # PINs evaluated and wrong
    refused: int  # refused unheard while locked
    last_failed_ms: int | None  # wall time of the last failed attempt
    locked_addresses: int  # client addresses locked out of the table now
    new_devices_locked: bool  # the table is locked for new devices


@dataclass(frozen=True)
class Verdict:
    """The outcome of one PIN attempt: OK, WRONG, LOCKED (with `retry_after` seconds) or NO_PIN."""

    result: str
    retry_after: int = 0


class PinGuard:
    """Every PIN attempt of one web app goes through `attempt`."""

    def __init__(
        self, settings: WebSettings, pins: PinStore, clock: Callable[[], float] = time.monotonic
    ) -> None:
        s = settings
        self.pins = pins
        self.by_address = Lockout(s.pin_attempts, s.pin_window_s, s.lockout_s, s.lockout_max_s, clock)
        self.new_devices = Lockout(s.pin_table_attempts, s.pin_window_s, s.lockout_s, s.lockout_max_s, clock)
        self.devices = Lockout(s.pin_attempts, s.pin_window_s, s.lockout_s, s.lockout_max_s, clock)
        self.counts: Counter[tuple[str, str]] = Counter()  # (table, ok | wrong | locked) -> attempts
        self.last_failed_ms: dict[str, int] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._epoch: dict[str, int | None] = {}  # the PIN's set_ms each table's lockouts belong to
        self._count_lock = threading.Lock()
        self.on_change: Callable[[], None] | None = (
            None  # called after a failed attempt (the club view is told)
        )

    def _lock(self, table: str) -> asyncio.Lock:
        lock = self._locks.get(table)
        if lock is None:
            lock = self._locks[table] = asyncio.Lock()
        return lock

    def _wait(self, table: str, client: str, established: bool) -> int:
        """Seconds this attempt must wait (0: it may be evaluated now)."""
        epoch = self.pins.set_ms(table)
        if self._epoch.setdefault(table, epoch) != epoch:  # a new PIN: the club's way out of every lockout
            self._epoch[table] = epoch
            self.by_address.clear(f"{table}\0")
            self.new_devices.right(table)
        if established:
            return 0
        return max(self.by_address.retry_after(f"{table}\0{client}"), self.new_devices.retry_after(table))

    async def attempt(self, table: str, pin: str, client: str, device: str | None, token_ok: bool) -> Verdict:
        """Check `pin` for `table` from `client` (its address), `device` (its cookie, if any) and `token_ok`
        (it holds a valid token for the table). At most one evaluation per table at a time."""
        established = token_ok or await asyncio.to_thread(self.pins.is_device, table, device)
        wait = self._wait(table, client, established)
        if wait:  # refused before queueing: a locked address's burst costs no hash and holds no one up
            return self._count(table, Verdict(LOCKED, wait), evaluated=False)
        async with self._lock(table):
            wait = self._wait(table, client, established)
            if wait:
                return self._count(table, Verdict(LOCKED, wait), evaluated=False)
            ok = await asyncio.to_thread(self.pins.verify, table, pin)  # scrypt: off the event loop
            if ok is None:
                return Verdict(NO_PIN)
            if ok:
                self.by_address.right(f"{table}\0{client}")
                if device:
                    self.devices.right(f"{table}\0{device}")
                return self._count(table, Verdict(OK))
            return self._count(table, self._wrong(table, client, None if token_ok else device, established))

    def _wrong(self, table: str, client: str, device: str | None, established: bool) -> Verdict:
        """Count a wrong PIN where it belongs; the verdict says whether it started a lockout."""
        if established:
            if device is not None and self.devices.wrong(f"{table}\0{device}"):
                self.pins.forget_device(table, device)  # a stolen cookie buys `pin_attempts` guesses, no more
            return Verdict(WRONG)
        locked = self.by_address.wrong(f"{table}\0{client}")
        self.new_devices.wrong(table)
        return Verdict(LOCKED, locked) if locked else Verdict(WRONG)

    def _count(self, table: str, verdict: Verdict, evaluated: bool = True) -> Verdict:
        """Count an attempt: `ok` or `wrong` if its PIN was evaluated, `locked` if it was refused unheard."""
        kind = LOCKED if not evaluated else OK if verdict.result == OK else WRONG
        with self._count_lock:
            self.counts[(table, kind)] += 1
            if kind != OK:
                self.last_failed_ms[table] = int(time.time() * 1000)
        if kind != OK and self.on_change is not None:
            self.on_change()
        return verdict

    def summary(self, table: str) -> AccessSummary:
        """What the club view shows for a table: failed attempts (wrong,
        refused while locked), locked addresses."""
        with self._count_lock:
            wrong, locked = self.counts[(table, WRONG)], self.counts[(table, LOCKED)]
            last = self.last_failed_ms.get(table)
        return AccessSummary(
            failed=wrong + locked,
            wrong=wrong,
            refused=locked,
            last_failed_ms=last,
            locked_addresses=self.by_address.locked(f"{table}\0"),
            new_devices_locked=self.new_devices.retry_after(table) > 0,
        )

    def snapshot(self) -> dict[tuple[str, str], int]:
        """{(table, result): attempts} for /metrics."""
        with self._count_lock:
            return dict(self.counts)
