"""Device entry point: the loader (the device's /main.py, firmware/loader.py) calls `main(cfg_path)` after it
has picked the build to run (the committed one, or a new one on its trial; docs/firmware.md, "Updates").

Builds the ESP32 board (the drivers in firmware/drivers/ behind the board interface of firmware/node.py),
picks the transport from /config.json (Wi-Fi + MQTT over our non-blocking client, firmware/mqtt.py, or USB
serial JSON lines when `serial.enabled`) and runs the node forever.
"""

import asyncio
import gc
import time

import machine

from firmware import config
from firmware.clock import Clock
from firmware.mqtt import MqttTransport
from firmware.node import Node
from firmware.outbox import DirStore
from firmware.transport import SerialTransport, StaticNet, WlanNet

CONFIG_PATH = "/config.json"
OUTBOX_DIR = "/ob"
LED_PIN = 2  # the DevKit's blue LED
WDT_MS = 8000  # the detector loop feeds it every few ms; a hung loop or a stuck socket resets the node
EDGE_CHECK_MS = 2  # how often wait_edges looks at the ring (the beam IRQ is hard: it cannot wake asyncio)
COLOUR_TIMER = 0  # the hardware timer that paces colour readings (one TCS34725 per node)


class DeviceBoard:
    """The board interface on an ESP32 DevKit (see firmware/node.py)."""

    def __init__(self, cfg, log=print):
        self.cfg = cfg
        self.log = log
        self.wdt = machine.WDT(timeout=WDT_MS)
        self.led_pin = machine.Pin(LED_PIN, machine.Pin.OUT)
        self._beams = None
        self._ring = None
        self._i2c = None
        self._colour_used = False
        self._colour_timer = None
        self._accel = None
        self._battery = None

    def ticks_us(self):
        return time.ticks_us()

    def attach_beams(self, pockets, ring, active_low):
        from firmware.drivers.beams import BeamPins

        if self._beams is not None:
            self._beams.detach()
            self._beams = None
        self._ring = ring
        if ring is not None and pockets:
            self._beams = BeamPins(pockets, ring, active_low)

    def beam_levels(self, slot):
        """(upper, lower) of a pocket slot now, 1 = blocked: the detector starts from what the pins say."""
        if self._beams is None:
            return (0, 0)
        lv = self._beams.levels()
        return (lv[2 * slot], lv[2 * slot + 1])

    async def wait_edges(self, ms):
        waited = 0
        while waited < ms and not (self._ring is not None and len(self._ring)):
            await asyncio.sleep_ms(EDGE_CHECK_MS)
            waited += EDGE_CHECK_MS

    def _bus(self, section):
        if self._i2c is None:
            s = self.cfg[section]
            self._i2c = machine.I2C(
                0, sda=machine.Pin(s["sda"]), scl=machine.Pin(s["scl"]), freq=s.get("freq", 400000)
            )
        return self._i2c

    def colour(self, slot):
        from firmware.drivers.tcs34725 import TCS34725

        if self._colour_used:  # the TCS34725 has one fixed address (0x29): one sensor per I2C bus
            self.log("colour: only one TCS34725 per node is supported; slot %d reads no colour" % (slot,))
            return None
        c = self.cfg["colour"]
        try:
            sensor = TCS34725(self._bus("colour"), c["gain"], c["atime_ms"])
        except OSError as exc:
            self.log("colour sensor unavailable: %s" % (exc,))
            return None
        self._colour_used = True
        return sensor

    def sample_colour(self, sensor, log, ms):
        """Read `sensor` every `ms` into `log` on a hardware timer. Its callback is soft: the scheduler runs
        it between bytecodes, also while the asyncio loop waits on a socket, so a ball's colour is read while
        the ball is in the throat however late the detector loop comes round to it."""

        def tick(_timer):
            try:
                rgbc = sensor.read()
            except OSError:  # an I2C hiccup: this reading is lost, the next one comes in `ms`
                log.errors += 1
                rgbc = None
            log.put(time.ticks_us(), rgbc)

        self.stop_colour()
        self._colour_timer = machine.Timer(COLOUR_TIMER)
        self._colour_timer.init(mode=machine.Timer.PERIODIC, period=ms, callback=tick)

    def stop_colour(self):
        if self._colour_timer is not None:
            self._colour_timer.deinit()
            self._colour_timer = None

    def accel(self):
        from firmware.drivers.accel import open_accel

        if self._accel is None:
            cue = self.cfg["cue"]
            self._accel = open_accel(self._bus("cue"), cue)
            self._accel.arm_wake(int(cue["release_g"] * 1000))
        return self._accel

    async def light_sleep(self, ms):
        import esp32

        esp32.wake_on_ext0(machine.Pin(self.cfg["cue"]["int_pin"], machine.Pin.IN), esp32.WAKEUP_ANY_HIGH)
        self.wdt.feed()
        machine.lightsleep(ms if ms < WDT_MS - 1000 else WDT_MS - 1000)  # wake before the watchdog bites
        await asyncio.sleep_ms(0)

    def led(self, on):
        self.led_pin.value(1 if on else 0)

    def feed(self):
        self.wdt.feed()

    def reset(self):
        machine.reset()

    def heap(self):
        return gc.mem_free()

    def battery(self):
        if self.cfg.get("role") != "cue":
            return None
        if self._battery is None:
            from firmware.drivers.battery import Battery

            self._battery = Battery(self.cfg["cue"]["battery_pin"], self.cfg["cue"]["battery_divider"])
        return round(self._battery.volts(), 2)


def _quiet(_msg):
    pass  # serial mode: stdout carries the JSON lines, so log lines would be framing errors at the hub


def main(cfg_path=CONFIG_PATH):
    cfg, errors = config.load(cfg_path)
    for err in errors:
        print("config error: " + err)
    serial = isinstance(cfg.get("serial"), dict) and cfg["serial"].get("enabled") is True
    if serial:
        transport = SerialTransport()
        net = StaticNet(ip="usb", rssi=None)
        log = _quiet
    else:
        wifi = cfg["wifi"]
        b = cfg["broker"]
        net = WlanNet(wifi["ssid"], wifi["password"], wifi.get("hostname") or cfg.get("device"))
        transport = MqttTransport(b["host"], b["port"], b["user"] or None, b["password"] or None, b["tls"])
        log = print
    board = DeviceBoard(cfg, log)
    node = Node(board, transport, net, DirStore(OUTBOX_DIR), Clock(), cfg_path=cfg_path, log=log)
    asyncio.run(node.run())
