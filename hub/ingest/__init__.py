"""Layer 4 — ingest: MQTT and serial transports, payload validation, the device registry and its health
alerts, node clock mapping and re-sync, and the checks an event's time must pass."""
