"""Clip-on accelerometers on I2C, read from their FIFO in batches: ADXL345 or LIS3DH at +-16 g.

`drain(detector)` reads every sample waiting in the FIFO and feeds `detector.sample(t, x, y, z)` (mg, ticks_us
reconstructed from the read time and the output data rate) without allocating; `read()` returns the same
samples as a list of tuples for code that prefers one. `arm_wake(mg)` sets the activity interrupt used to
wake the ESP32 from light sleep.

Register facts from the datasheets (Analog Devices ADXL345 rev. G; ST LIS3DH DocID17530):
  ADXL345 (0x53): DEVID 0x00 = 0xE5; THRESH_ACT 0x24 (62.5 mg/LSB); ACT_INACT_CTL 0x27; BW_RATE 0x2C
    (0x0A 100 Hz .. 0x0F 3200 Hz); POWER_CTL 0x2D (measure 0x08); INT_ENABLE 0x2E (activity 0x10, watermark
    0x02); INT_MAP 0x2F; DATA_FORMAT 0x31 (FULL_RES 0x08, range 0..3 = 2..16 g; 3.9 mg/LSB in full
    resolution); DATAX0 0x32 (6 bytes, little endian); FIFO_CTL 0x38 (stream 0x80 | watermark);
    FIFO_STATUS 0x39 (entries).
  LIS3DH (0x18/0x19): WHO_AM_I 0x0F = 0x33; CTRL_REG1 0x20 (ODR << 4 | XYZ enable 0x07; 0x9 = 1344 Hz);
    CTRL_REG3 0x22; CTRL_REG4 0x23 (BDU 0x80, FS 16 g 0x30, HR 0x08; 12 mg/digit at 16 g, 12-bit left
    justified); CTRL_REG5 0x24 (FIFO_EN 0x40); INT1_CFG 0x30; INT1_THS 0x32 (186 mg/LSB at 16 g);
    OUT_X_L 0x28 (| 0x80 auto-increment); FIFO_CTRL_REG 0x2E (stream 0x80); FIFO_SRC_REG 0x2F (level 0x1F).
"""

from time import ticks_add, ticks_us

_ADXL_RATES = {100: 0x0A, 200: 0x0B, 400: 0x0C, 800: 0x0D, 1600: 0x0E, 3200: 0x0F}
_ADXL_RANGES = {2: 0, 4: 1, 8: 2, 16: 3}
_LIS_RATES = {
    100: (0x5, 100),
    200: (0x6, 200),
    400: (0x7, 400),
    800: (0x9, 1344),
    1600: (0x9, 1344),
    3200: (0x9, 1344),
}  # (ODR code, real Hz): high-resolution mode tops out at 1344 Hz
_LIS_FS = {2: (0x00, 1), 4: (0x10, 2), 8: (0x20, 4), 16: (0x30, 12)}  # (CTRL_REG4 bits, mg per digit in HR)


def _s16(lo, hi):
    v = lo | hi << 8
    return v - 65536 if v & 0x8000 else v


class _FifoAccel:
    """Shared FIFO timing: the newest sample was taken ~now, each older one a period earlier."""

    def __init__(self, i2c, addr, odr_hz):
        self.i2c = i2c
        self.addr = addr
        self.period_us = 1000000 // odr_hz
        self._one = bytearray(1)
        self._xyz = bytearray(6)
        self.x = self.y = self.z = 0  # the last sample, mg (attributes, not a tuple: nothing allocated)
        self.overruns = 0

    def _w(self, reg, value):
        self._one[0] = value
        self.i2c.writeto_mem(self.addr, reg, self._one)

    def _r(self, reg):
        self.i2c.readfrom_mem_into(self.addr, reg, self._one)
        return self._one[0]

    def _entries(self):
        raise NotImplementedError  # each sensor reads its own FIFO level

    def _sample(self):
        raise NotImplementedError

    def drain(self, detector):
        """Feed every waiting sample to `detector.sample(t, x, y, z)`; returns how many."""
        n = self._entries()
        t = ticks_add(ticks_us(), -(n - 1) * self.period_us)
        for _ in range(n):
            self._sample()
            detector.sample(t, self.x, self.y, self.z)
            t = ticks_add(t, self.period_us)
        return n

    def read(self):
        """The waiting samples as [(t, x, y, z), ...] (allocates; `drain` does not)."""
        out = []

        class _Sink:
            @staticmethod
            def sample(t, x, y, z):
                out.append((t, x, y, z))

        self.drain(_Sink)
        return out


class ADXL345(_FifoAccel):
    def __init__(self, i2c, odr_hz=1600, range_g=16, addr=0x53, watermark=16):
        super().__init__(i2c, addr, odr_hz)
        if self._r(0x00) != 0xE5:
            raise OSError("ADXL345 not found at 0x%02x; check wiring (SDO low = 0x53, high = 0x1D)" % addr)
        if odr_hz not in _ADXL_RATES or range_g not in _ADXL_RANGES:
            raise ValueError("ADXL345 odr_hz %r / range_g %r not supported" % (odr_hz, range_g))
        self._w(0x2D, 0x00)  # standby while configuring
        self._w(0x31, 0x08 | _ADXL_RANGES[range_g])  # full resolution: 3.9 mg/LSB at any range
        self._w(0x2C, _ADXL_RATES[odr_hz])
        self._w(0x38, 0x80 | (watermark & 0x1F))  # FIFO stream mode
        self._w(0x2F, 0x00)  # all interrupts on INT1
        self._w(0x2E, 0x02)  # watermark interrupt
        self._w(0x2D, 0x08)  # measure

    def _entries(self):
        n = self._r(0x39) & 0x3F
        if n >= 32:
            self.overruns += 1  # FIFO was full: older samples were lost
        return n

    def _sample(self):
        b = self._xyz
        self.i2c.readfrom_mem_into(self.addr, 0x32, b)
        # 3.9 mg/LSB = 39/10, integer arithmetic (no floats on the sample path)
        self.x = _s16(b[0], b[1]) * 39 // 10
        self.y = _s16(b[2], b[3]) * 39 // 10
        self.z = _s16(b[4], b[5]) * 39 // 10

    def arm_wake(self, mg):
        """Activity interrupt on INT1 above `mg` (AC-coupled, all axes), to wake from light sleep."""
        self._w(0x24, max(1, min(255, mg * 10 // 625)))
        self._w(0x27, 0xF0)
        self._w(0x2E, 0x12)


class LIS3DH(_FifoAccel):
    def __init__(self, i2c, odr_hz=1600, range_g=16, addr=0x18):
        if odr_hz not in _LIS_RATES or range_g not in _LIS_FS:
            raise ValueError("LIS3DH odr_hz %r / range_g %r not supported" % (odr_hz, range_g))
        code, real_hz = _LIS_RATES[odr_hz]
        super().__init__(i2c, addr, real_hz)
        if self._r(0x0F) != 0x33:
            raise OSError("LIS3DH not found at 0x%02x; check wiring (SA0 low = 0x18, high = 0x19)" % addr)
        fs_bits, self._mg_per_digit = _LIS_FS[range_g]
        self._w(0x20, code << 4 | 0x07)
        self._w(0x23, 0x80 | fs_bits | 0x08)  # block data update, full scale, high resolution
        self._w(0x24, 0x40)  # FIFO enable
        self._w(0x2E, 0x80)  # stream mode

    def _entries(self):
        src = self._r(0x2F)
        if src & 0x40:
            self.overruns += 1
        return src & 0x1F

    def _sample(self):
        b = self._xyz
        self.i2c.readfrom_mem_into(self.addr, 0x28 | 0x80, b)
        k = self._mg_per_digit
        self.x = (_s16(b[0], b[1]) >> 4) * k
        self.y = (_s16(b[2], b[3]) >> 4) * k
        self.z = (_s16(b[4], b[5]) >> 4) * k

    def arm_wake(self, mg):
        """INT1 on any axis above `mg` (high event), to wake from light sleep."""
        self._w(0x22, 0x40)  # IA1 on INT1
        self._w(0x32, max(1, min(127, mg // 186)))
        self._w(0x30, 0x2A)  # OR of X/Y/Z high events


def open_accel(i2c, cue):
    """The accelerometer named by config `cue.sensor`."""
    if cue["sensor"] == "lis3dh":
        return LIS3DH(i2c, cue["odr_hz"], cue["range_g"])
    return ADXL345(i2c, cue["odr_hz"], cue["range_g"])
