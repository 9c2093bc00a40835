"""The tests' real Mosquitto broker is the product's own private broker (hub.deploy.broker).

`Mosquitto(workdir)` is open (anonymous clients allowed), as most tests expect; `Mosquitto.locked(workdir,
config)` is the appliance's locked-down broker (hub.deploy.broker_config), used by tests/deploy.
"""

from hub.deploy.broker import Mosquitto, free_port

__all__ = ["Mosquitto", "free_port"]
