"""The device drivers under the real MicroPython with a fake `machine` (pins, ADC, I2C register devices).

The drivers import `machine` and MicroPython's `time.ticks_us`, so they run only there; the fakes implement
the same small surface (tests/firmware/fake_machine.py). Register values come from the datasheets cited in
each driver's docstring.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.micropython

FAKE = (Path(__file__).parent / "fake_machine.py").read_text()

SNIPPETS = {
    "beams": """
from machine import Pin
from firmware import edges, pocket
from firmware.drivers.beams import BeamPins
ring = edges.EdgeRing(16)
bp = BeamPins([{"pocket": 2, "upper": 25, "lower": 26}, {"pocket": 5, "upper": 27, "lower": 14}], ring, True)
print(sorted(Pin.pins), [Pin.pins[p].hard for p in (25, 26, 27, 14)], Pin.pins[25].trigger)
# active low: a blocked beam reads 0. A ball through pocket 5 (slot 1): upper, lower, upper clears, lower clears
for pin, level in ((27, 0), (14, 0), (27, 1), (14, 1)):
    Pin.drive(pin, level)
print([ring.codes[i] for i in range(len(ring))])
beams = [pocket.PocketBeam(2, debounce_ms=0), pocket.PocketBeam(5, debounce_ms=0)]
times = [ring.times[i] for i in range(4)]
print(ring.drain(beams), len(ring))
import time
beams[1].poll(time.ticks_add(times[-1], 10))
d = beams[1].take()
print(d[0], d[1], beams[0].take())
print(bp.levels())
bp.detach()
print(Pin.pins[25].handler, bp.pins)
""",  # noqa: E501
    "tcs34725": """
from machine import RegisterDevice, le16
from firmware.drivers.tcs34725 import TCS34725
dev = RegisterDevice(0x29, {0x80 | 0x12: 0x44, 0x80 | 0x13: 0x00})
s = TCS34725(dev, gain=16, atime_ms=24)
print(dev.writes)
print(s.read())
dev.regs[0x80 | 0x13] = 0x01
dev.reads[0x80 | 0x20 | 0x14] = lambda n: le16(4000) + le16(1500) + le16(1300) + le16(900)
print(s.read())
try:
    TCS34725(RegisterDevice(0x29, {0x80 | 0x12: 0x00}))
except OSError as e:
    print("OSError", e)
try:
    TCS34725(RegisterDevice(0x29, {0x80 | 0x12: 0x4D}), gain=8)
except ValueError as e:
    print("ValueError", e)
""",
    "adxl345": """
from machine import RegisterDevice, le16
from firmware.drivers.accel import ADXL345
fifo = [(100, -200, 256), (-1, 0, 4096), (2000, 3, -4096)]
dev = RegisterDevice(0x53, {0x00: 0xE5})
dev.reads[0x39] = lambda n: bytes([len(fifo)]) + bytes(n - 1)
dev.reads[0x32] = lambda n: b"".join(le16(v) for v in fifo.pop(0))
a = ADXL345(dev, odr_hz=1600, range_g=16)
print(dev.writes)
class Sink:
    got = []
    def sample(self, t, x, y, z):
        Sink.got.append((t, x, y, z))
sink = Sink()
print(a.drain(sink), [g[1:] for g in Sink.got])
ts = [g[0] for g in Sink.got]
import time
print([time.ticks_diff(ts[i + 1], ts[i]) for i in range(2)], a.period_us)
print(a.drain(sink), a.read())
dev.reads[0x39] = lambda n: bytes([32]) + bytes(n - 1)
dev.reads[0x32] = lambda n: bytes(6)
print(len(a.read()), a.overruns)
a.arm_wake(500)
print(dev.writes[-3:])
try:
    ADXL345(RegisterDevice(0x53, {0x00: 0x00}))
except OSError as e:
    print("OSError", e)
""",
    "lis3dh": """
from machine import RegisterDevice, le16
from firmware.drivers.accel import LIS3DH, open_accel
fifo = [(100 << 4, -(200 << 4), 83 << 4)]
dev = RegisterDevice(0x18, {0x0F: 0x33})
dev.reads[0x2F] = lambda n: bytes([len(fifo) | (0x40 if False else 0)]) + bytes(n - 1)
dev.reads[0x28 | 0x80] = lambda n: b"".join(le16(v) for v in fifo.pop(0))
a = open_accel(dev, {"sensor": "lis3dh", "odr_hz": 1600, "range_g": 16})
print(type(a).__name__, dev.writes, a.period_us)
print([s[1:] for s in a.read()])
""",
    "battery": """
from machine import ADC
from firmware.drivers.battery import Battery
b = Battery(35, 2.0)
print(b.adc.atten_set == ADC.ATTN_11DB, b.volts())
""",
}


@pytest.fixture(scope="module")
def outputs():
    from tests.firmware import mp

    mp.require()
    names = list(SNIPPETS)
    results = mp.run_batch([SNIPPETS[n] for n in names], files=mp.FIRMWARE, extra={"machine.py": FAKE})
    return {n: r for n, r in zip(names, results, strict=True)}


def lines(outputs, name):
    r = outputs[name]
    assert r.ok, r.error
    return r.stdout.splitlines()


def test_beam_pins_hard_irq_writes_codes_into_ring(outputs):
    out = lines(outputs, "beams")
    assert out[0] == "[14, 25, 26, 27] [True, True, True, True] 3"
    # slot 1 = pocket 5: code = 1 << 2 | beam << 1 | blocked
    assert out[1] == "[5, 7, 4, 6]"
    assert out[2] == "4 0"
    assert out[3] == "1 5 None"  # an IN for pocket 5, nothing for pocket 2
    assert out[4] == "[0, 0, 0, 0]"  # all clear (1 = blocked; pulled up, active low)
    assert out[5] == "None []"


def test_tcs34725_configures_and_decodes(outputs):
    out = lines(outputs, "tcs34725")
    # ATIME = 256 - 10 steps of 2.4 ms; CONTROL gain 16x = 2; ENABLE PON, then PON|AEN
    assert out[0] == "[(129, b'\\xf6'), (143, b'\\x02'), (128, b'\\x01'), (128, b'\\x03')]"
    assert out[1] == "None"  # no finished integration yet
    assert out[2] == "(1500, 1300, 900, 4000)"  # (r, g, b, c)
    assert out[3].startswith("OSError TCS34725 not found at 0x29 (ID register 0x00)")
    assert out[4] == "ValueError TCS34725 gain must be 1, 4, 16 or 60, got 8"


def test_adxl345_fifo_samples_in_mg_with_reconstructed_times(outputs):
    out = lines(outputs, "adxl345")
    assert out[0] == (
        "[(45, b'\\x00'), (49, b'\\x0b'), (44, b'\\x0e'), (56, b'\\x90'), (47, b'\\x00'), "
        "(46, b'\\x02'), (45, b'\\x08')]"
    )
    assert out[1] == "3 [(390, -780, 998), (-4, 0, 15974), (7800, 11, -15975)]"  # 3.9 mg/LSB, floor division
    assert out[2] == "[625, 625] 625"
    assert out[3] == "0 []"
    assert out[4] == "32 1"  # a full FIFO is an overrun: counted
    assert out[5] == "[(36, b'\\x08'), (39, b'\\xf0'), (46, b'\\x12')]"  # 500 mg / 62.5 = 8; activity on
    assert out[6].startswith("OSError ADXL345 not found at 0x53")


def test_lis3dh_through_open_accel(outputs):
    out = lines(outputs, "lis3dh")
    assert out[0] == "LIS3DH [(32, b'\\x97'), (35, b'\\xb8'), (36, b'@'), (46, b'\\x80')] 744"
    assert out[1] == "[(1200, -2400, 996)]"  # 12 mg/digit at 16 g, 12-bit left-justified


def test_battery_volts_through_divider(outputs):
    assert lines(outputs, "battery") == ["True 3.9"]
