"""The wiring diagrams in hardware/, drawn from the pin map (firmware/pins.py) that the firmware, `luza
provision` and the virtual table read too.

`pins(role)` lists a role's signal wires with their GPIO from `firmware.pins` (and `slot_pins()` the beam pins
per slot of a node serving several pockets); `svg(role)` draws the diagram a person wires by. Every wire
carries `data-signal` and `data-gpio`, so tests/deploy/test_pinmaps.py can read the numbers back out of the
committed files and compare them with the pin map.

    python -m hub.deploy.pinmaps hardware/     # regenerate hardware/pocket-node.svg and hardware/cue-node.svg
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from firmware import pins as gpio
from luza_wire import protocol


@dataclass(frozen=True)
class Pin:
    """One signal wire: ESP32 GPIO -> a part's pin."""

    signal: str  # stable id, e.g. "pocket.upper", "colour.sda", "slot3.lower"
    gpio: int
    part: str  # the part it goes to (English / Russian)
    part_pin: str
    colour: str  # wire colour in the drawing


def pins(role: str) -> list[Pin]:
    """The signal wires of a node role, from the pin map. A signal is named like the firmware's setting it is
    (`pocket.upper` is pockets[0].upper, `cue.int_pin` is cue.int_pin)."""
    if role == "pocket":
        return [
            Pin(
                "pocket.upper",
                gpio.POCKET_UPPER,
                "Upper beam receiver / приёмник верхнего луча",
                "OUT",
                "#c0392b",
            ),
            Pin(
                "pocket.lower",
                gpio.POCKET_LOWER,
                "Lower beam receiver / приёмник нижнего луча",
                "OUT",
                "#d35400",
            ),
            Pin("colour.sda", gpio.COLOUR_SDA, "TCS34725 colour sensor / датчик цвета", "SDA", "#2471a3"),
            Pin("colour.scl", gpio.COLOUR_SCL, "TCS34725 colour sensor / датчик цвета", "SCL", "#1e8449"),
        ]
    if role == "cue":
        return [
            Pin("cue.sda", gpio.CUE_SDA, "ADXL345 accelerometer / акселерометр", "SDA", "#2471a3"),
            Pin("cue.scl", gpio.CUE_SCL, "ADXL345 accelerometer / акселерометр", "SCL", "#1e8449"),
            Pin("cue.int_pin", gpio.CUE_INT, "ADXL345 accelerometer / акселерометр", "INT1", "#8e44ad"),
            Pin(
                "cue.battery_pin",
                gpio.CUE_BATTERY,
                "Battery divider 2×100 kΩ / делитель батареи",
                "MID",
                "#b7950b",
            ),
        ]
    raise ValueError(f"role {role!r}: one of {', '.join(protocol.ROLES)}")


def slot_pins() -> list[tuple[int, int, int]]:
    """(slot 1..6, upper GPIO, lower GPIO) for a node serving several pockets."""
    return [(i + 1, up, low) for i, (up, low) in enumerate(gpio.SLOTS)]


POWER = {
    "pocket": [
        "3V3 → VCC of both receivers, both emitters and the TCS34725 (VIN) / питание 3,3 В",
        "GND → GND of every part / общий провод",
        "TCS34725 LED pin: leave open (LED on) / вывод LED не подключать (подсветка включена)",
        "No external pull-ups on the beam inputs: the firmware enables the ESP32's own",
    ],
    "cue": [
        "LOLIN D32: LiPo into its battery socket; it charges over USB and its own 100 kΩ/100 kΩ divider",
        "already feeds GPIO35. Another board: LiPo → TP4056 → switch → VBAT, and the divider shown here",
        "3V3 → ADXL345 VCC and CS (I2C mode); SDO → GND (address 0x53) / питание датчика",
        "GND → GND of every part / общий провод",
    ],
}
BOARD = {"pocket": "ESP32 DevKitC (WROOM-32E)", "cue": "LOLIN D32 (ESP32 WROOM-32, LiPo charger)"}
TITLE = {
    "pocket": "Pocket node (one pocket) / Лузный узел (одна луза)",
    "cue": "Cue node (clip on the cue) / Узел кия (клипса на кие)",
}


def _text(
    x: float, y: float, s: str, size: int = 13, anchor: str = "start", weight: str = "normal", extra: str = ""
) -> str:
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}"'
        f"{extra}>{escape(s)}</text>"
    )


def svg(role: str) -> str:
    """The wiring diagram of a node role (deterministic: the same firmware gives the same bytes)."""
    wires = pins(role)
    row, top = 40, 90
    parts = sorted({w.part for w in wires}, key=[w.part for w in wires].index)
    extra = len(slot_pins()) + 2 if role == "pocket" else 0
    height = top + 60 * len(wires) + 60 + 20 * len(POWER[role]) + 20 * extra + 40
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="960" '
        f'height="{height}" viewBox="0 0 960 {height}" font-family="DejaVu Sans, Arial, sans-serif">',
        f'<rect width="960" height="{height}" fill="#ffffff"/>',
        _text(20, 34, TITLE[role], 20, weight="bold"),
        _text(20, 58, BOARD[role] + "; GPIO numbers from firmware/pins.py"),
        f'<rect x="40" y="{top - 30}" width="220" height="{row * len(wires) + 30}" rx="8" fill="#2c3e50"/>',
        _text(150, top - 10, "ESP32", 14, "middle", "bold", ' fill="#ffffff"'),
    ]
    part_y: dict[str, float] = {}
    y0 = float(top - 10)
    for p in parts:  # the parts stacked on the right, each with its name above its box
        part_y[p] = y0
        y0 += sum(1 for w in wires if w.part == p) * 22 + 10 + 30
    for i, w in enumerate(wires):
        y = top + 15 + i * row
        py = part_y[w.part] + 15 + [x for x in wires if x.part == w.part].index(w) * 22
        out += [
            f'<g data-signal="{w.signal}" data-gpio="{w.gpio}">',
            _text(250, y + 4, f"GPIO{w.gpio}", 13, "end", "bold", ' fill="#ffffff"'),
            f'<circle cx="260" cy="{y}" r="4" fill="{w.colour}"/>',
            f'<polyline points="260,{y} 420,{y} 460,{py:g} 600,{py:g}" fill="none" stroke="{w.colour}" '
            'stroke-width="3"/>',
            _text(608, py + 4, w.part_pin, 12, weight="bold"),
            "</g>",
        ]
    for p in parts:
        n = sum(1 for w in wires if w.part == p)
        out += [
            f'<rect x="600" y="{part_y[p]:g}" width="340" height="{n * 22 + 10}" rx="6" fill="none" '
            'stroke="#555" stroke-width="1.5"/>',
            _text(600, part_y[p] - 6, p, 12),
        ]
    y = int(max(top + row * len(wires), y0)) + 20
    out.append(_text(20, y, "Power / питание", 14, weight="bold"))
    for line in POWER[role]:
        y += 20
        out.append(_text(30, y, "• " + line, 12))
    if role == "pocket":
        y += 34
        out.append(
            _text(
                20,
                y,
                "One node serving several pockets: beam pins per slot / несколько луз на узле",
                14,
                weight="bold",
            )
        )
        for slot, up, low in slot_pins():
            y += 20
            warn = "  (strapping pin: no external pull-up)" if 12 in (up, low) else ""
            warn = "  (not on WROVER boards: PSRAM)" if {16, 17} & {up, low} else warn
            out += [
                f'<g data-signal="slot{slot}.upper" data-gpio="{up}"/>',
                f'<g data-signal="slot{slot}.lower" data-gpio="{low}"/>',
                _text(30, y, f"slot {slot}: upper GPIO{up}, lower GPIO{low}{warn}", 12),
            ]
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write(folder: Path) -> list[Path]:
    written = []
    for role in protocol.ROLES:
        target = folder / f"{role}-node.svg"
        target.write_text(svg(role))
        written.append(target)
    return written


if __name__ == "__main__":
    for path in write(Path(sys.argv[1] if len(sys.argv) > 1 else "hardware")):
        print(f"wrote {path}")
