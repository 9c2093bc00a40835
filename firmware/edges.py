"""The beam edges' ring: the interrupt handler writes (code, ticks_us), the main loop drains it into the
pocket detectors (firmware/pocket.py). Preallocated, one writer (the IRQ) and one reader (the loop)."""

from array import array


class EdgeRing:
    """A preallocated ring of beam edges: the IRQ side calls `put`, the main loop `get`s.

    `code` = slot << 2 | beam << 1 | level (slot = index of the pocket on this node). When full, new edges
    are dropped and counted in `dropped` (the detector resynchronises on the next edge); nothing allocates.
    """

    def __init__(self, size=64):
        if size < 2 or size & (size - 1):
            raise ValueError("EdgeRing size must be a power of two >= 2, got %r" % (size,))
        self.codes = array("B", bytes(size))
        self.times = array("l", [0] * size)
        self._mask = size - 1
        self.head = 0  # next write (IRQ side only)
        self.tail = 0  # next read (main loop only)
        self.dropped = 0
        self._resynced = 0

    def put(self, code, t):
        """Record one edge. Safe in a hard interrupt handler: ints and preallocated arrays only."""
        h = self.head
        n = (h + 1) & self._mask
        if n == self.tail:
            self.dropped += 1
            return
        self.codes[h] = code
        self.times[h] = t
        self.head = n

    def __len__(self):
        return (self.head - self.tail) & self._mask

    def drain(self, beams):
        """Feed every buffered edge to `beams[slot].feed(beam, level, t)`; returns the number drained."""
        n = 0
        mask = self._mask
        t = 0
        while self.tail != self.head:
            i = self.tail
            code = self.codes[i]
            t = self.times[i]
            beams[code >> 2].feed((code >> 1) & 1, code & 1, t)
            self.tail = (i + 1) & mask
            n += 1
        if self.dropped != self._resynced:  # edges after these were lost: every detector must start afresh
            self._resynced = self.dropped
            for b in beams:
                b.resync(t)
        return n
