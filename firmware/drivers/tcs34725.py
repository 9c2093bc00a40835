"""TCS34725 colour sensor on I2C (address 0x29): RGBC readings for the colour classifier.

Register facts from the TCS3472 datasheet (ams): command bit 0x80, auto-increment 0x20; ENABLE 0x00 (PON 0x01,
AEN 0x02); ATIME 0x01, integration = (256 - ATIME) x 2.4 ms; CONTROL 0x0F gain 1/4/16/60x = 0..3; ID 0x12
(0x44 TCS34721/5, 0x4D TCS34723/7); STATUS 0x13 (AVALID 0x01);
CDATAL 0x14, then R, G, B (16-bit little endian).
"""

_ADDR = 0x29
_CMD = 0x80
_AUTO = 0x20
_ENABLE = 0x00
_ATIME = 0x01
_CONTROL = 0x0F
_ID = 0x12
_STATUS = 0x13
_CDATAL = 0x14
_GAINS = {1: 0, 4: 1, 16: 2, 60: 3}


class TCS34725:
    """`read()` -> (r, g, b, c) of the latest finished integration, or None if none is ready."""

    def __init__(self, i2c, gain=4, atime_ms=24, addr=_ADDR):
        self.i2c = i2c
        self.addr = addr
        self._buf = bytearray(8)
        self._one = bytearray(1)
        ident = self._read8(_ID)
        if ident not in (0x44, 0x4D):
            raise OSError(
                "TCS34725 not found at 0x%02x (ID register 0x%02x); check SDA/SCL wiring" % (addr, ident)
            )
        steps = int(atime_ms / 2.4 + 0.5)
        steps = 1 if steps < 1 else (256 if steps > 256 else steps)
        self._write8(_ATIME, 256 - steps)
        if gain not in _GAINS:
            raise ValueError("TCS34725 gain must be 1, 4, 16 or 60, got %r" % (gain,))
        self._write8(_CONTROL, _GAINS[gain])
        self._write8(_ENABLE, 0x01)  # power on, then enable the ADC (datasheet: 2.4 ms warm-up between)
        from time import sleep_ms

        sleep_ms(3)
        self._write8(_ENABLE, 0x03)

    def _write8(self, reg, value):
        self._one[0] = value
        self.i2c.writeto_mem(self.addr, _CMD | reg, self._one)

    def _read8(self, reg):
        self.i2c.readfrom_mem_into(self.addr, _CMD | reg, self._one)
        return self._one[0]

    def read(self):
        if not self._read8(_STATUS) & 0x01:
            return None
        b = self._buf
        self.i2c.readfrom_mem_into(self.addr, _CMD | _AUTO | _CDATAL, b)
        c = b[0] | b[1] << 8
        return (b[2] | b[3] << 8, b[4] | b[5] << 8, b[6] | b[7] << 8, c)
