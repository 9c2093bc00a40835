"""Tearing real pages of a real SQLite file, as a power cut mid-write or a failing SD card does.

`root_page(db, name)` is where an index or table starts (sqlite_master's rootpage); `leaf_pages(db, name)`
lists a b-tree's leaf pages (the `dbstat` table); `tear(db, page)` writes garbage over one page, `miscount(db,
page)` only its header's count of fragmented bytes (a torn write of the page's first bytes). The database must
be closed (no hub on it): the file itself is written.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path


def _conn(db: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{db}?mode=ro", uri=True)


def page_size(db: Path) -> int:
    conn = _conn(db)
    try:
        return int(conn.execute("PRAGMA page_size").fetchone()[0])
    finally:
        conn.close()


def root_page(db: Path, name: str) -> int:
    conn = _conn(db)
    try:
        row = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (name,)).fetchone()
    finally:
        conn.close()
    assert row is not None, f"no {name} in {db}"
    return int(row[0])


def leaf_pages(db: Path, name: str) -> list[int]:
    conn = _conn(db)
    try:
        return [
            int(p)
            for (p,) in conn.execute(
                "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno", (name,)
            )
        ]
    finally:
        conn.close()


def tear(db: Path, page: int, byte: int = 0x5A) -> None:
    """Write `byte` over every byte of `page` (1-based), as a page written half by a dying card."""
    size = page_size(db)
    with open(db, "r+b") as f:
        f.seek((page - 1) * size)
        f.write(bytes([byte]) * size)


def miscount(db: Path, page: int) -> None:
    """Set a b-tree page's count of fragmented free bytes (header byte 7) to a wrong value."""
    size = page_size(db)
    header = 100 if page == 1 else 0
    with open(db, "r+b") as f:
        f.seek((page - 1) * size + header + 7)
        old = f.read(1)[0]
        f.seek((page - 1) * size + header + 7)
        f.write(bytes([(old + 9) % 256]))


def quick_check(db: Path) -> list[str]:
    conn = _conn(db)
    try:
        return [str(r[0]) for r in conn.execute("PRAGMA quick_check")]
    finally:
        conn.close()
