# ruff: noqa: UP031, RUF012  (MicroPython code: %-formatting, plain class attributes)
"""A fake `machine` module for running the drivers under the real MicroPython (no GPIO or I2C here).

Copied into MicroPython's /lib as machine.py by tests/firmware/test_drivers.py. Same small surface the drivers
use: Pin (value, irq), ADC (atten, read_uv), I2C-like register devices (readfrom_mem_into, writeto_mem).
"""


class Pin:
    IN = 1
    OUT = 3
    PULL_UP = 1
    IRQ_RISING = 1
    IRQ_FALLING = 2
    pins = {}

    def __init__(self, ident, mode=IN, pull=None):
        self.ident = ident
        self.level = 1 if pull == Pin.PULL_UP else 0
        self.handler = None
        self.trigger = 0
        self.hard = False
        Pin.pins[ident] = self

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = v
        return None

    def irq(self, handler=None, trigger=3, hard=False):
        self.handler = handler
        self.trigger = trigger
        self.hard = hard

    @classmethod
    def drive(cls, ident, level):
        """The outside world changes the pin: set the level and run its interrupt handler."""
        pin = cls.pins[ident]
        pin.level = level
        if pin.handler is not None:
            pin.handler(pin)


class ADC:
    ATTN_11DB = 3
    uv = 1950000

    def __init__(self, pin):
        self.pin = pin
        self.atten_set = None

    def atten(self, a):
        self.atten_set = a

    def read_uv(self):
        return ADC.uv


class RegisterDevice:
    """An I2C device as a register map; `reads` maps a register to a function returning the bytes to read."""

    def __init__(self, addr, regs=None):
        self.addr = addr
        self.regs = regs or {}
        self.writes = []
        self.reads = {}

    def writeto_mem(self, addr, reg, buf):
        assert addr == self.addr, "wrong I2C address 0x%02x" % addr
        self.writes.append((reg, bytes(buf)))

    def readfrom_mem_into(self, addr, reg, buf):
        assert addr == self.addr, "wrong I2C address 0x%02x" % addr
        if reg in self.reads:
            data = self.reads[reg](len(buf))
        else:
            data = bytes([self.regs.get(reg, 0)]) + bytes(len(buf) - 1)
        for i in range(len(buf)):
            buf[i] = data[i]


def le16(v):
    v &= 0xFFFF
    return bytes([v & 0xFF, v >> 8])
