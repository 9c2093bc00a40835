"""Export benchmark: a 200-shot Classic match played through the hub, exported in each format; then
`luza export --all` over 1,000 matches.

Run: `python -m tests.bench.export [--matches N] [--repeat R]`

The long match is played through a real Hub (no broker) into a real SQLite store on a fixed clock: a
break, 193 called shots that miss (the turn passes each time), then six called balls made (75 points). For
`--all`, the stored match rows and inputs of a 9-shot Classic match are copied 1,000 times (sensor rows get a
new boot so their unique key holds), and the whole store is exported to a zip. The best of `--repeat` runs is
reported (the machine is shared). Targets (issue 9): < 1 s per match for JSON/CSV/HTML,
< 3 s for PDF. Nothing asserts a time.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from hub.export import build, load
from hub.export.files import FORMATS, export_all, render
from hub.export.pdf import available
from hub.store.database import Store
from tests.export.conftest import played_db
from tests.export.matchkit import PLAYERS, Clock, Table, open_hub

MISSES = 193


def long_match(db: Path) -> int:
    """Play the 200-shot Classic match; returns its shot count."""
    clock = Clock()
    hub = open_hub(db, clock, None)
    try:
        t = Table(hub, clock)
        t.births()
        hub.new_match("t1", "classic", PLAYERS)
        t.ref("lag", winner=0)
        t.wait(5000)
        t.shot(0, [5])
        hub.wait_idle()
        t.ref("identify", item="pk-56/1/1", ball=1)
        for i in range(MISSES):  # seat 0 after the break (a ball fell: Иван plays on), then alternate
            t.shot(i % 2, [], call=(15, 3))
        for ball, pocket in ((15, 3), (14, 2), (13, 4), (12, 6), (11, 3), (10, 5)):
            t.shot(0, [pocket], call=(ball, pocket))
        t.ref("end_match")
        hub.wait_idle()
        return int(hub.stats["referee"])
    finally:
        hub.stop()


def best(fn: object, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def copy_matches(db: Path, n: int) -> None:
    """Make `n` copies of match 1 (rows and inputs), each with its own sensor boot number."""
    store = Store(db)
    conn = store.conn
    with store.transaction():
        for k in range(1, n):
            cur = conn.execute(
                "INSERT INTO matches(table_id, variant, players, options, status, started_ms, ended_ms, "
                "last_state, settings) SELECT table_id, variant, players, options, status, started_ms + ?, "
                "ended_ms + ?, last_state, settings FROM matches WHERE id = 1",
                (k * 60_000, k * 60_000),
            )
            conn.execute(
                "INSERT INTO inputs(table_id, match_id, source, device, boot, seq, at_ms, received_ms, "
                "record) SELECT table_id, ?, source, device, boot + ?, seq, at_ms, received_ms, record FROM "
                "inputs WHERE match_id = 1 ORDER BY id",
                (cur.lastrowid, k),
            )
    store.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--matches", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "long.db"
        start = time.perf_counter()
        long_match(db)
        store = Store(db, readonly=True)
        src = load(store, 1)
        doc = build(src)
        shots = len(doc["shots"])
        print(
            f"200-shot match: {shots} shots, {len(src.inputs)} inputs, played through the hub in "
            f"{time.perf_counter() - start:.1f} s"
        )
        print(
            "  build (fold + replay, no file): "
            f"{best(lambda: build(load(store, 1)), args.repeat) * 1000:.0f} ms"
        )
        for fmt in FORMATS:
            if fmt == "pdf" and not available():
                print("  pdf: skipped (WeasyPrint not installed)")
                continue
            data = render(doc, fmt)
            t = best(lambda fmt=fmt: render(build(load(store, 1)), fmt), args.repeat if fmt != "pdf" else 2)
            print(f"  {fmt:<4}: {t * 1000:6.0f} ms per match, end to end ({len(data) / 1024:.0f} KiB)")
        store.close()

        many = played_db(Path(tmp) / "many.db", ("classic",))
        copy_matches(many, args.matches)
        store = Store(many, readonly=True)
        for fmt in ("json", "csv"):
            start = time.perf_counter()
            zipped = export_all(store, fmt)
            count, data = zipped.count, zipped.data
            took = time.perf_counter() - start
            print(
                f"--all over {count} matches ({fmt}): {took:.1f} s, {took / count * 1000:.1f} ms per match, "
                f"zip {len(data) / 1024:.0f} KiB"
            )
        store.close()


if __name__ == "__main__":
    main()
