"""What MicroPython has and CPython lacks, so the pure firmware logic imports on both.

`const` is MicroPython's compile-time constant (identity on CPython). The ticks functions wrap like
MicroPython's (period 2**30 on the ESP32 and the WebAssembly port), so a trace near the wrap point gives the
same results on both: always subtract ticks with `ticks_diff`, never with `-`.
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


try:
    from time import ticks_add, ticks_diff, ticks_ms, ticks_us  # type: ignore[attr-defined]  # MicroPython's

    MICROPYTHON = True
except ImportError:  # CPython: the same wrapping arithmetic as MicroPython's
    import time as _time

    _monotonic = _time.monotonic  # type: ignore[attr-defined]  # (CPython only; the stubs describe MicroPython)
    MICROPYTHON = False
    _MASK = (1 << 30) - 1
    _HALF = 1 << 29

    def ticks_ms():
        return int(_monotonic() * 1000) & _MASK

    def ticks_us():
        return int(_monotonic() * 1000000) & _MASK

    def ticks_add(t, delta):
        return (t + delta) & _MASK

    def ticks_diff(a, b):
        """a - b in ticks, signed, correct across the wrap for |a - b| < 2**29."""
        return ((a - b + _HALF) & _MASK) - _HALF


TICKS_PERIOD = 1 << 30  # the same on both: MicroPython's small-int range on 32-bit ports


def isqrt(n):
    """Integer square root (floor) without floats, so the strike path allocates nothing on MicroPython."""
    if n <= 0:
        return 0
    x = n
    y = (x + 1) >> 1
    while y < x:
        x = y
        y = (x + n // x) >> 1
    return x
