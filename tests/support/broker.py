"""The tests' real Mosquitto broker is the product's own private broker (hub.broker)."""

from hub.broker import Mosquitto, free_port

__all__ = ["Mosquitto", "free_port"]
