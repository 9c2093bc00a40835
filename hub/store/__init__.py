"""Layer 2 — the store: the append-only SQLite database, its migrations, the one-hub lock, and the
integrity records kept beside the evidence (conflicting duplicates, holes in a node's seq)."""
