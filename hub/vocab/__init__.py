"""Layer 1 — the vocabulary: the inputs a match is made of (`SensorInput`, `RefereeAction` and their record
codec), the referee action models and their checks, a shot's evidence, and the alerts and questions the hub
raises. Every stage above (store, reconcile, ingest, service, web) speaks it; it imports only the hub's base
modules, the rules engine and the wire contract."""
