"""The virtual table: trace generator (traces.py) and virtual nodes that run the real firmware logic."""
