"""Layer 3 — reconciliation: referee actions and sensor inputs turned into shot reports for the rules engine,
the questions asked when evidence cannot settle a fact, and the scoreboard built from a table session."""
