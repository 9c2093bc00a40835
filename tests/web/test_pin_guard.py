"""Locked, not lockable (issue 18, item 5): the PIN check is serialised per table, wrong PINs lock the client
address that sent them (exponential back-off), the referee's established device still signs in, and every
failed attempt is counted in /metrics. Bursts of real concurrent requests against a real `luza serve --http`,
from several loopback addresses (127.0.0.x); the rules themselves on
hub.web.pinguard.PinGuard with a real PIN store."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from hub.web.auth import PinStore
from hub.web.pinguard import LOCKED, OK, WRONG, PinGuard
from hub.web.settings import WebSettings
from tests.support.config import write_luza_toml
from tests.web.test_serve_http import ENV, ROOT, ServeHttp, free_port

PIN = "80427"
TABLES = (
    {"id": "t1", "pockets": {"p1": [1, 2, 3, 4, 5, 6]}},
    {"id": "t2", "pockets": {"p2": [1, 2, 3, 4, 5, 6]}},
)
BURST = 200


def client(port: int, address: str) -> httpx.AsyncClient:
    """An HTTP client whose connections come from `address`
    (any 127.0.0.x reaches the server on 127.0.0.1)."""
    transport = httpx.AsyncHTTPTransport(local_address=address, limits=httpx.Limits(max_connections=BURST))
    return httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", transport=transport, timeout=60)


async def guess(c: httpx.AsyncClient, pin: str, **kw: object) -> httpx.Response:
    return await c.post("/api/tables/t1/token", json={"pin": pin, "label": "probe"}, **kw)  # type: ignore[arg-type]


def pin_metrics(port: int) -> dict[str, float]:
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
    return {
        m.group(1): float(m.group(2))
        for m in re.finditer(r'^luza_pin_attempts_total\{result="(\w+)",table="t1"\} ([\d.]+)$', text, re.M)
    }


@pytest.fixture
def served(tmp_path: Path) -> Iterator[int]:
    db = tmp_path / "luza.db"
    conf = write_luza_toml(tmp_path / "luza.toml", f"mqtt://127.0.0.1:{free_port()}", db, TABLES)  # no broker
    done = subprocess.run(
        [sys.executable, "-m", "hub.cli", "pin", "set", "--config", str(conf), "--table", "t1", "--pin", PIN],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    port = free_port()
    serve = ServeHttp(conf, port)
    yield port
    assert serve.stop() == 0
    assert "Traceback" not in "".join(serve.lines)


def test_a_burst_of_concurrent_guesses_gets_at_most_the_allowed_evaluations(served: int) -> None:
    port = served

    async def main() -> None:
        async with client(port, "127.0.0.1") as attacker, client(port, "127.0.0.2") as referee:
            wrong = [f"{n:05d}" for n in range(BURST)]
            answers = await asyncio.gather(*(guess(attacker, pin) for pin in wrong))
            codes = [r.status_code for r in answers]
            # today's main evaluated every guess that passed the check before the
            # first hash (a burst: hundreds)
            assert codes.count(401) == 4 and codes.count(429) == BURST - 4, sorted(set(codes))
            # the right PIN waits too, from that address
            assert (await guess(attacker, PIN)).status_code == 429
            r = await guess(referee, PIN)  # another address: not locked out
            assert r.status_code == 200 and r.cookies.get("luza_device")

    asyncio.run(main())
    counts = pin_metrics(port)
    # 5 evaluated wrong, the rest refused unheard
    assert counts == {"ok": 1, "wrong": 5, "locked": BURST - 5 + 1}


def test_many_addresses_lock_new_devices_but_not_the_referees_established_one(served: int) -> None:
    port = served

    async def main() -> None:
        async with client(port, "127.0.0.9") as phone:
            # the referee's phone: now an established device
            assert (await guess(phone, PIN)).status_code == 200
            for k in range(5):  # five attacker addresses, five wrong guesses each, all at once: 25 > 20
                async with client(port, f"127.0.0.{20 + k}") as attacker:
                    codes = [
                        r.status_code
                        for r in await asyncio.gather(*(guess(attacker, "1111") for _ in range(8)))
                    ]
                    assert codes.count(401) <= 4
            async with client(port, "127.0.0.30") as newcomer:
                r = await guess(newcomer, PIN)
                assert r.status_code == 429 and int(r.headers["retry-after"]) > 0  # new devices wait
            # the referee's phone (its device cookie) still signs in, even from an attacker's address (a NAT)
            assert (await guess(phone, PIN)).status_code == 200
            async with client(port, "127.0.0.20") as shared:
                r = await guess(
                    shared, PIN, headers={"Cookie": f"luza_device={phone.cookies['luza_device']}"}
                )
                assert r.status_code == 200

    asyncio.run(main())


# ------------------------------------------------------------------ the rules, on PinGuard itself


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def make_guard(db: Path, clock: Clock, table_attempts: int) -> PinGuard:
    pins = PinStore(db)
    pins.set("t1", PIN)
    settings = WebSettings(pin_attempts=3, pin_table_attempts=table_attempts, lockout_s=60, lockout_max_s=900)
    return PinGuard(settings, pins, clock)


@pytest.fixture
def guard(tmp_path: Path) -> PinGuard:
    return make_guard(tmp_path / "luza.db", Clock(), 50)


def test_the_lockout_is_per_address_and_doubles(tmp_path: Path) -> None:
    clock = Clock()
    guard = make_guard(tmp_path / "luza.db", clock, 50)

    async def main() -> None:
        a = [(await guard.attempt("t1", "0000", "10.0.0.5", None, False)) for _ in range(4)]
        assert [v.result for v in a] == [WRONG, WRONG, LOCKED, LOCKED] and a[2].retry_after == 60
        assert (await guard.attempt("t1", PIN, "10.0.0.6", None, False)).result == OK  # another address
        clock.t += 61  # the first lockout is over
        for _ in range(3):
            last = await guard.attempt("t1", "0000", "10.0.0.5", None, False)
        assert last.result == LOCKED and last.retry_after == 120  # doubled

    asyncio.run(main())
    assert guard.snapshot() == {("t1", WRONG): 6, ("t1", LOCKED): 1, ("t1", OK): 1}
    assert guard.summary("t1")["failed"] == 7 and guard.summary("t1")["locked_addresses"] == 1


def test_many_addresses_together_lock_new_devices_for_the_table(tmp_path: Path) -> None:
    guard = make_guard(tmp_path / "luza.db", Clock(), 5)
    guard.pins.remember_device("t1", "referee-phone")

    async def main() -> None:
        for k in range(5):
            assert (await guard.attempt("t1", "0000", f"10.0.1.{k}", None, False)).result == WRONG
        # a new device waits
        assert (await guard.attempt("t1", PIN, "10.0.1.99", None, False)).result == LOCKED
        assert (await guard.attempt("t1", PIN, "10.0.1.0", "referee-phone", False)).result == OK
        # a valid token: established
        assert (await guard.attempt("t1", PIN, "10.0.1.1", None, True)).result == OK

    asyncio.run(main())
    assert guard.summary("t1")["new_devices_locked"] is True


def test_a_stolen_device_cookie_buys_no_more_guesses_and_a_new_pin_clears_the_lockouts(
    guard: PinGuard,
) -> None:
    guard.pins.remember_device("t1", "cookie-1")
    assert guard.pins.is_device("t1", "cookie-1") and not guard.pins.is_device("t1", "cookie-2")

    async def main() -> None:
        for _ in range(3):  # the device's own wrong PINs: counted, and then the device is forgotten
            assert (await guard.attempt("t1", "0000", "10.0.0.7", "cookie-1", False)).result == WRONG
        assert not guard.pins.is_device("t1", "cookie-1")
        for _ in range(3):
            await guard.attempt("t1", "0000", "10.0.0.8", None, False)
        assert (await guard.attempt("t1", PIN, "10.0.0.8", None, False)).result == LOCKED
        guard.pins.set("t1", "97531")  # `luza pin set`: the club's way out
        assert (await guard.attempt("t1", "97531", "10.0.0.8", None, False)).result == OK

    asyncio.run(main())


def test_a_new_pin_forgets_the_devices(tmp_path: Path) -> None:
    pins = PinStore(tmp_path / "luza.db")
    pins.set("t1", PIN)
    pins.remember_device("t1", "cookie-1")
    assert pins.is_device("t1", "cookie-1")
    pins.set("t1", "13579")
    assert not pins.is_device("t1", "cookie-1")


def test_pins_made_outside_the_migrations_by_an_older_hub_are_kept_at_v7(tmp_path: Path) -> None:
    import sqlite3

    from hub.store import migrations

    db = tmp_path / "luza.db"
    old = PinStore(db)
    old.set("t1", PIN)  # v7 on a fresh file; now rebuild the v6 layout an older hub left behind
    conn = sqlite3.connect(db, isolation_level=None)
    row = conn.execute("SELECT * FROM pins").fetchone()
    conn.executescript(
        "DROP TABLE referee_devices; DROP TABLE hub_clock; ALTER TABLE clocks DROP COLUMN up_ms; "
        "ALTER TABLE devices DROP COLUMN ota; DROP TABLE match_facts; DROP TABLE players; "
        "ALTER TABLE matches DROP COLUMN player_ids; PRAGMA user_version = 6;"
    )  # v7..v10 gone
    assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'referee_devices'").fetchone() is None
    conn.close()
    again = PinStore(db)
    assert again.verify("t1", PIN) is True  # migrated on first use: the table made by auth.py stays as it was
    conn = sqlite3.connect(db)
    assert (
        migrations.version(conn) == migrations.LATEST and conn.execute("SELECT * FROM pins").fetchone() == row
    )
    conn.close()
