"""Schema versions of the hub's SQLite store, applied in order; the version lives in PRAGMA user_version.

A migration is appended, never edited, once released: a database made by any earlier hub is brought up to date
on open. `inputs` is the append-only log (triggers refuse UPDATE and DELETE); its row id is the global cursor.
"""

from __future__ import annotations

import sqlite3

from hub.errors import SchemaError

MIGRATIONS: tuple[str, ...] = (
    # 1: the first schema
    """
    CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created_ms INTEGER NOT NULL
    );
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        table_id TEXT NOT NULL REFERENCES tables(id),
        variant TEXT NOT NULL,
        players TEXT NOT NULL,            -- JSON [name, name]
        options TEXT NOT NULL,            -- JSON object
        status TEXT NOT NULL CHECK (status IN ('live', 'ended')),
        started_ms INTEGER NOT NULL,
        ended_ms INTEGER,
        last_state TEXT                   -- JSON scoreboard after the last commit (for `luza replay` to verify)
    );
    CREATE INDEX matches_by_table ON matches(table_id, status);
    CREATE TABLE inputs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,  -- the global cursor: never reused
        table_id TEXT NOT NULL,
        match_id INTEGER REFERENCES matches(id),
        source TEXT NOT NULL,             -- mqtt | serial | referee
        device TEXT,
        boot INTEGER,
        seq INTEGER,
        at_ms INTEGER NOT NULL,           -- event time on the hub clock
        received_ms INTEGER NOT NULL,     -- when the hub received it
        record TEXT NOT NULL,             -- JSON, hub.vocab.inputs.input_to_record
        UNIQUE (device, boot, seq)        -- a redelivered sensor event is a constraint hit, not a second row
    );
    CREATE INDEX inputs_by_match ON inputs(match_id, id);
    CREATE TRIGGER inputs_no_update BEFORE UPDATE ON inputs
        BEGIN SELECT RAISE(ABORT, 'inputs are append-only: add a correcting input instead'); END;
    CREATE TRIGGER inputs_no_delete BEFORE DELETE ON inputs
        BEGIN SELECT RAISE(ABORT, 'inputs are append-only: add a correcting input instead'); END;
    CREATE TABLE devices (
        id TEXT PRIMARY KEY,
        table_id TEXT,
        role TEXT,
        state TEXT,                       -- online | lost | offline | error | unknown
        boot INTEGER,
        fw TEXT,
        ip TEXT,
        error TEXT,
        last_seen_ms INTEGER,
        battery REAL,
        rssi REAL,
        outbox INTEGER,
        dropped INTEGER,
        uptime_ms INTEGER,
        heap INTEGER
    );
    CREATE TABLE rejected (
        id INTEGER PRIMARY KEY,
        received_ms INTEGER NOT NULL,
        source TEXT NOT NULL,
        topic TEXT,
        device TEXT,
        code TEXT NOT NULL,
        reason TEXT NOT NULL,
        size INTEGER NOT NULL,            -- the payload's full size; `payload` keeps at most 4 KiB of it
        payload BLOB
    );
    CREATE INDEX rejected_by_device ON rejected(device, code);
    CREATE TABLE clocks (
        device TEXT NOT NULL,
        boot INTEGER NOT NULL,
        offset_ms INTEGER NOT NULL,       -- hub time = device time + offset
        updated_ms INTEGER NOT NULL,
        PRIMARY KEY (device, boot)
    );
    """,  # noqa: E501
    # 2: the settings in force when a match started (hub.service.snapshot),
    # so a replay uses them, not today's luza.toml
    """
    ALTER TABLE matches ADD COLUMN settings TEXT;  -- JSON hub.service.snapshot.settings_snapshot; NULL before v2
    CREATE INDEX matches_by_started ON matches(started_ms);
    """,  # noqa: E501
    # 3: a referee action's uid is unique per table, with the first answer it got (a re-send gets that answer)
    """
    CREATE TABLE action_uids (
        table_id TEXT NOT NULL,
        uid TEXT NOT NULL,
        match_id INTEGER,                 -- the match it applied to (new_match: the match it started)
        cursor INTEGER,                   -- the input row it was stored as; NULL if it was refused
        refusal TEXT,                     -- JSON {en, ru, field, code} of a refusal, NULL if it was taken
        stored_ms INTEGER NOT NULL,
        PRIMARY KEY (table_id, uid)
    );
    INSERT OR IGNORE INTO action_uids(table_id, uid, match_id, cursor, stored_ms)
        SELECT table_id, json_extract(record, '$.uid'), match_id, id, received_ms FROM inputs
        WHERE source = 'referee' AND json_valid(record) AND json_extract(record, '$.uid') IS NOT NULL
        ORDER BY id;
    """,
    # 4: damage stays local — a match whose stored rows cannot be read is set aside (quarantined), and
    # rejected payloads are counted per (device, code) with only a bounded sample kept in `rejected`
    """
    CREATE TABLE quarantine (
        match_id INTEGER PRIMARY KEY REFERENCES matches(id),
        table_id TEXT NOT NULL,
        cursor INTEGER,                   -- the first row that cannot be read (NULL: the match row itself)
        reason TEXT NOT NULL,
        at_ms INTEGER NOT NULL
    );
    CREATE TABLE rejected_counts (
        device TEXT NOT NULL,             -- '' when the payload names no configured device
        code TEXT NOT NULL,
        count INTEGER NOT NULL,
        last_ms INTEGER NOT NULL,
        PRIMARY KEY (device, code)
    );
    INSERT INTO rejected_counts(device, code, count, last_ms)
        SELECT coalesce(device, ''), code, count(*), max(received_ms) FROM rejected GROUP BY 1, 2;
    """,
    # 5: the same (device, boot, seq) arriving with different content is kept beside the first, as a conflict
    """
    CREATE TABLE conflicts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id TEXT NOT NULL,
        match_id INTEGER REFERENCES matches(id),
        device TEXT NOT NULL,
        boot INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        first_id INTEGER NOT NULL,        -- the stored input (inputs.id) it contradicts
        received_ms INTEGER NOT NULL,
        content TEXT NOT NULL,            -- JSON: what the node said this time (kind, t, synced, fields)
        UNIQUE (device, boot, seq, content)
    );
    CREATE INDEX conflicts_by_match ON conflicts(match_id, id);
    """,
    # 6: end-to-end delivery — seqs a node answered it no longer holds
    # (a `resend` it cannot fill): final holes
    """
    CREATE TABLE gone_events (
        device TEXT NOT NULL,
        boot INTEGER NOT NULL,
        first_seq INTEGER NOT NULL,
        last_seq INTEGER NOT NULL,
        at_ms INTEGER NOT NULL,           -- when the node said so
        PRIMARY KEY (device, boot, first_seq)
    );
    """,
    # 7: referee access — the PINs (made by hub/web/auth.py outside the migrations before v7, hence IF NOT
    # EXISTS) and the referee's established devices, which a lockout of other client addresses does not stop
    """
    CREATE TABLE IF NOT EXISTS pins (
        table_id TEXT PRIMARY KEY,
        salt BLOB NOT NULL,
        hash BLOB NOT NULL,               -- scrypt(pin, salt, n, r, p); the PIN itself is never stored
        n INTEGER NOT NULL, r INTEGER NOT NULL, p INTEGER NOT NULL,
        set_ms INTEGER NOT NULL           -- a new PIN revokes the tokens and the devices issued under the old one
    );
    CREATE TABLE referee_devices (
        table_id TEXT NOT NULL,
        device TEXT NOT NULL,             -- sha256 of the device cookie (the cookie itself is never stored)
        pin_set_ms INTEGER NOT NULL,      -- the PIN it signed in under
        created_ms INTEGER NOT NULL,
        last_ms INTEGER NOT NULL,
        PRIMARY KEY (table_id, device)
    );
    """,  # noqa: E501
    # 8: order never comes from a wall clock alone (hub.ingest.clockmap, hub.ingest.timebase) — a boot's clock
    # offset keeps the uptime of the sample it came from (drift is tracked from it), and the hub's timeline at
    # its last commit is kept, so a hub that starts with its clock behind never dates anything below what it
    # has stored. Sensor records from here on carry `up` (the node's uptime) and `off`
    # (the offset used): at_ms = up + off.
    """
    ALTER TABLE clocks ADD COLUMN up_ms INTEGER;  -- uptime of the sample offset_ms came from; NULL before v8
    CREATE TABLE hub_clock (
        name TEXT PRIMARY KEY,            -- 'high_water': the hub's timeline at its last commit (Unix ms)
        value INTEGER NOT NULL
    );
    INSERT INTO hub_clock(name, value)
        SELECT 'high_water', coalesce(max(v), 0) FROM (
            SELECT max(received_ms) AS v FROM inputs UNION ALL SELECT max(started_ms) FROM matches
            UNION ALL SELECT max(ended_ms) FROM matches);
    """,
    # 9: over-the-air updates — the node's last update progress or result (its status's `ota` object, JSON)
    """
    ALTER TABLE devices ADD COLUMN ota TEXT;
    """,
    # 10: the player registry (hub/store/players.py) — a match names its players by id as well as by name; a
    # duplicate merged into another keeps its row (`merged_into`), so an id ever stored still resolves. The
    # facts of each match for the statistics (hub/stats/), a cache keyed by the match's last input and the
    # code's version: always recomputable from the inputs, never typed in.
    """
    CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,               -- as entered, either alphabet (Иван Петров)
        name_en TEXT NOT NULL,            -- the Latin spelling (given, or romanised from `name`)
        nickname TEXT NOT NULL DEFAULT '',
        club TEXT NOT NULL DEFAULT '',
        photo TEXT,                       -- an optional photo: a data: URL (png, jpeg, webp), NULL if none
        search TEXT NOT NULL,             -- hub.translit.search_key of name, name_en and nickname
        created_ms INTEGER NOT NULL,
        merged_into INTEGER REFERENCES players(id),  -- a duplicate: the player it was merged into
        merged_ms INTEGER
    );
    CREATE INDEX players_by_merge ON players(merged_into);
    ALTER TABLE matches ADD COLUMN player_ids TEXT;  -- JSON [id or null, id or null]; NULL: names only
    CREATE TABLE match_facts (
        match_id INTEGER PRIMARY KEY REFERENCES matches(id),
        cursor INTEGER NOT NULL,          -- the match's last input when the facts were made
        version INTEGER NOT NULL,         -- hub.stats.facts.VERSION of the code that made them
        facts TEXT NOT NULL               -- JSON hub.stats.facts.match_facts
    );
    """,
)

LATEST = len(MIGRATIONS)


def version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection) -> int:
    """Bring the schema up to LATEST, one transaction per step; returns the version reached."""
    current = version(conn)
    if current > LATEST:
        raise SchemaError(f"database schema v{current} is newer than this hub (v{LATEST}); upgrade luza")
    for n in range(current, LATEST):
        # executescript commits first; wrap each step so a failed step leaves the previous version intact
        try:
            conn.executescript(f"BEGIN IMMEDIATE;\n{MIGRATIONS[n]}\nPRAGMA user_version = {n + 1};\nCOMMIT;")
        except sqlite3.Error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    return version(conn)
