"""The Luza hub: ingest, reconciliation, store, service and command line."""
