"""Beam inputs: a pin interrupt per beam writes (code, ticks_us) into the pocket logic's `EdgeRing`.

The handler is a hard IRQ: it only reads the pin, reads the clock and stores two ints into preallocated arrays
(no allocation, no locks: the ring has one writer, the IRQ, and one reader, the main loop).
"""

from time import ticks_us

from machine import Pin


class BeamPins:
    """Attach IRQs for `pockets` (config entries with `upper`/`lower` GPIOs); slot = index in the list."""

    def __init__(self, pockets, ring, active_low=True):
        self.ring = ring
        self.pins = []
        inv = 1 if active_low else 0  # level 1 = blocked: an active-low receiver reads 0 when blocked
        self.inv = inv
        for slot, p in enumerate(pockets):
            for beam, key in ((0, "upper"), (1, "lower")):
                pin = Pin(p[key], Pin.IN, Pin.PULL_UP)
                pin.irq(
                    self._handler(ring, slot << 2 | beam << 1, inv),
                    Pin.IRQ_RISING | Pin.IRQ_FALLING,
                    hard=True,
                )
                self.pins.append(pin)

    @staticmethod
    def _handler(ring, base, inv):
        # One closure per pin, made once at start-up; calling it allocates nothing.
        def irq(pin):
            ring.put(base | (pin.value() ^ inv), ticks_us())

        return irq

    def levels(self):
        """Current levels (1 = blocked), two per slot (upper, lower), for seeding the detector at boot."""
        return [pin.value() ^ self.inv for pin in self.pins]

    def detach(self):
        for pin in self.pins:
            pin.irq(handler=None)
        self.pins = []
