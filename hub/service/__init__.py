"""Layer 6 — the running hub: one worker routing inputs to table sessions, group commits, the rebuild of
live state from the store at start, and the local control socket."""
