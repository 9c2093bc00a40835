"""Every SQL statement and every table lives in `hub/store/` (issue 21, "one home per fact").

The rest of the project asks the store's repositories (hub/store/*.py: `Store`, `pins`, `history`, `suspects`,
`gaps`, `files`, ...) through typed methods; it never writes SQL, opens a database connection or runs a
statement itself. This test reads every module of the project's packages outside hub/store/ with `ast` and
fails on:
- a string literal (an f-string's text parts joined) that reads as SQL: SELECT ... FROM, INSERT INTO, UPDATE
  ... SET, DELETE FROM, CREATE/DROP TABLE|INDEX|TRIGGER|VIEW, ALTER TABLE, PRAGMA name, or a literal that
  starts with one of those keywords; docstrings are prose and are not read;
- a call of `.execute`, `.executemany`, `.executescript`, `.create_function`, `.create_aggregate` or
  `sqlite3.connect` (lower-case SQL passed through a variable is still caught there).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("hub", "shared_rules", "luza_wire", "firmware")
HOME = ROOT / "hub" / "store"

# Files that still hold SQL, each with why it has not moved yet. Strict: a file listed here that no longer
# holds any fails `test_a_pending_file_still_holds_sql`, so the list cannot outlive the SQL.
PENDING: dict[str, str] = {}  # none left (the Router's cursor query is Store.last_input_id)

STATEMENT = re.compile(
    r"\bSELECT\b[\s\S]+\bFROM\b|\bINSERT\s+(?:OR\s+[A-Z]+\s+)?INTO\b|\bREPLACE\s+INTO\b"
    r"|\bUPDATE\s+\w+\s+SET\b"
    r"|\bDELETE\s+FROM\b|\b(?:CREATE|DROP)\s+(?:UNIQUE\s+)?(?:TABLE|INDEX|TRIGGER|VIEW)\b|\bALTER\s+TABLE\b"
    r"|\bPRAGMA\s+\w+"
)
LEADING = re.compile(
    r"^\s*(?:SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|PRAGMA|WITH|REPLACE|BEGIN|COMMIT"
    r"|ROLLBACK|VACUUM)\b"
)
CALLS = {"execute", "executemany", "executescript", "create_function", "create_aggregate"}


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string nodes that are docstrings."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                out.add(id(first.value))
    return out


def _texts(tree: ast.AST) -> list[tuple[int, str]]:
    """Every string literal outside docstrings (an f-string as its text parts joined by '?'), with its
    line."""
    skip = _docstrings(tree)
    parts: set[int] = set()
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            pieces = [
                v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "?"
                for v in node.values
            ]
            parts.update(id(v) for v in node.values)
            out.append((node.lineno, "".join(pieces)))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip | parts:
            out.append((node.lineno, node.value))
    return out


def sql_in(source: str, name: str = "<source>") -> list[str]:
    """Where `source` holds SQL: 'line N: ...' for each literal or call found."""
    tree = ast.parse(source, name)
    found = [
        f"line {line}: {text.strip()[:70]!r}"
        for line, text in _texts(tree)
        if STATEMENT.search(text) or LEADING.match(text)
    ]
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            attr, owner = node.func.attr, node.func.value
            if attr in CALLS or (attr == "connect" and isinstance(owner, ast.Name) and owner.id == "sqlite3"):
                found.append(f"line {node.lineno}: .{attr}(...)")
    return sorted(found, key=lambda s: int(s.split()[1].rstrip(":")))


def outside_home() -> list[Path]:
    return [
        p
        for package in PACKAGES
        for p in sorted((ROOT / package).rglob("*.py"))
        if HOME not in p.parents and ".venv" not in p.parts and "node_modules" not in p.parts
    ]


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_the_scan_covers_the_project() -> None:
    files = {_rel(p) for p in outside_home()}
    assert len(files) > 100
    assert {
        "hub/web/auth.py",
        "hub/export/history.py",
        "hub/ingest/delivery.py",
        "hub/deploy/backup.py",
    } <= files
    assert not any(f.startswith("hub/store/") for f in files)


@pytest.mark.parametrize("path", outside_home(), ids=_rel)
def test_no_sql_outside_hub_store(path: Path) -> None:
    if _rel(path) in PENDING:
        pytest.skip(f"pending: {PENDING[_rel(path)]}")
    found = sql_in(path.read_text(), str(path))
    assert not found, (
        f"{_rel(path)} holds SQL; move it into a repository in hub/store/ and call that: " + "; ".join(found)
    )


def test_every_pending_file_still_holds_sql() -> None:
    """An entry of PENDING (empty today) comes off as soon as its file holds no SQL."""
    for name in sorted(PENDING):
        path = ROOT / name
        assert path.is_file(), f"{name} is gone: take it off PENDING"
        assert sql_in(path.read_text(), name), f"{name} holds no SQL any more: take it off PENDING"


def test_the_home_holds_the_sql() -> None:
    """The checker is not blind: the store's own modules are full of what it looks for."""
    for name in (
        "database.py",
        "migrations.py",
        "pins.py",
        "history.py",
        "suspects.py",
        "gaps.py",
        "files.py",
    ):
        assert sql_in((HOME / name).read_text(), name), name


@pytest.mark.parametrize(
    "source",
    [
        'q = "SELECT name FROM tables WHERE id = ?"\n',
        'q = f"SELECT {cols} FROM devices ORDER BY id"\n',
        'q = ("INSERT OR IGNORE INTO gone_events(device) "\n     "VALUES (?)")\n',
        "q = \"UPDATE matches SET status = 'ended'\"\n",
        'q = "DELETE FROM referee_devices WHERE table_id = ?"\n',
        'q = "CREATE TABLE pins (table_id TEXT)"\n',
        'q = "PRAGMA user_version"\n',
        "def f(db, q):\n    return db.execute(q)\n",
        'import sqlite3\nconn = sqlite3.connect("x.db")\n',
        'def f(conn):\n    conn.create_function("fold", 1, str.casefold)\n',
    ],
)
def test_the_checker_sees_sql(source: str) -> None:
    assert sql_in(source), source


@pytest.mark.parametrize(
    "source",
    [
        '"""Checked with `PRAGMA integrity_check`, then SELECT name FROM sqlite_master."""\n',
        'def f():\n    """Switched to journal_mode DELETE before it gets its name."""\n',
        'status = "HTTP_201_CREATED"\n',
        'text = "select a variant from the list"\n',
        "import sqlite3\ntry:\n    pass\nexcept sqlite3.Error:\n    pass\n",
    ],
)
def test_the_checker_leaves_prose_alone(source: str) -> None:
    assert not sql_in(source), source


SCHEMA = re.compile(r"\b(?:CREATE|DROP)\s+(?:UNIQUE\s+)?(?:TABLE|INDEX|TRIGGER|VIEW)\b|\bALTER\s+TABLE\b")


@pytest.mark.parametrize("path", sorted(HOME.glob("*.py")), ids=_rel)
def test_tables_are_made_only_by_the_migrations(path: Path) -> None:
    """Every table, index and trigger comes from hub/store/migrations.py (a schema version), never from a
    repository that makes its own on first use."""
    made = [f"line {line}" for line, text in _texts(ast.parse(path.read_text())) if SCHEMA.search(text)]
    assert bool(made) == (path.name == "migrations.py"), f"{_rel(path)}: {made}"
