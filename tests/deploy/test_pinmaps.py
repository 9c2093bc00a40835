"""One pin map (firmware/pins.py), and everyone says the same GPIO numbers as it: the firmware's defaults,
`luza provision`, the virtual table, the wiring diagrams and tables in hardware/, and the docs."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from firmware import config, pins
from hub.deploy import pinmaps
from hub.deploy.provision import NewNode, node_config
from hub.virtual.table import VirtualTable
from luza_wire import protocol

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "hardware"


def pin_map(role: str) -> dict[str, int]:
    """signal -> GPIO, straight from the pin map."""
    if role == "cue":
        return {
            "cue.sda": pins.CUE_SDA,
            "cue.scl": pins.CUE_SCL,
            "cue.int_pin": pins.CUE_INT,
            "cue.battery_pin": pins.CUE_BATTERY,
        }
    out = {
        "pocket.upper": pins.POCKET_UPPER,
        "pocket.lower": pins.POCKET_LOWER,
        "colour.sda": pins.COLOUR_SDA,
        "colour.scl": pins.COLOUR_SCL,
    }
    for i, (up, low) in enumerate(pins.SLOTS, 1):
        out[f"slot{i}.upper"], out[f"slot{i}.lower"] = up, low
    return out


def svg_pins(path: Path) -> dict[str, int]:
    found: dict[str, int] = {}
    for el in ET.parse(path).iter():
        if "data-signal" in el.attrib:
            assert el.attrib["data-signal"] not in found, (
                f"{path.name}: {el.attrib['data-signal']} drawn twice"
            )
            found[el.attrib["data-signal"]] = int(el.attrib["data-gpio"])
            labels = [t.text for t in el.iter("{http://www.w3.org/2000/svg}text")]
            if labels:  # the number a person reads is the same as the machine-readable one
                assert f"GPIO{el.attrib['data-gpio']}" in labels
    return found


def test_the_pin_map_is_sound() -> None:
    """Six slots of two distinct beam pins each, all real GPIOs; no beam shares a pin with an I2C line."""
    beams = [p for slot in pins.SLOTS for p in slot]
    assert len(pins.SLOTS) == 6 and len(set(beams)) == 12 and set(beams) <= set(pins.GPIOS)
    assert pins.SLOTS[0] == (pins.POCKET_UPPER, pins.POCKET_LOWER)
    assert not {pins.COLOUR_SDA, pins.COLOUR_SCL} & set(beams)
    assert {pins.COLOUR_SDA, pins.COLOUR_SCL, pins.CUE_SDA, pins.CUE_SCL, pins.CUE_INT} & set(
        pins.INPUT_ONLY
    ) == set()


def test_the_firmware_defaults_are_the_pin_map() -> None:
    d = config.DEFAULTS
    assert (d["pockets"][0]["upper"], d["pockets"][0]["lower"]) == pins.SLOTS[0]
    assert (d["colour"]["sda"], d["colour"]["scl"]) == (pins.COLOUR_SDA, pins.COLOUR_SCL)
    assert (d["cue"]["sda"], d["cue"]["scl"], d["cue"]["int_pin"], d["cue"]["battery_pin"]) == (
        pins.CUE_SDA,
        pins.CUE_SCL,
        pins.CUE_INT,
        pins.CUE_BATTERY,
    )


def test_provisioning_wires_the_slots_of_the_pin_map() -> None:
    node = NewNode("t1", "pockets-all", "pocket", pockets=(3, 1, 6, 2, 5, 4))
    site = node_config(node, "pw", ("club", "secret"), ("192.168.4.1", 1883))
    assert [(p["pocket"], p["upper"], p["lower"]) for p in site["pockets"]] == [
        (n, up, low) for n, (up, low) in zip(node.pockets, pins.SLOTS, strict=True)
    ]


def test_the_virtual_table_wires_the_slots_of_the_pin_map(tmp_path: Path) -> None:
    table = VirtualTable(("127.0.0.1", 1), tmp_path, pockets=((1, 2, 3, 4), (5, 6)))  # built, never started
    wired = [[(p["pocket"], p["upper"], p["lower"]) for p in n.cfg["pockets"]] for n in table.pocket_nodes]
    assert wired == [
        [(1, *pins.SLOTS[0]), (2, *pins.SLOTS[1]), (3, *pins.SLOTS[2]), (4, *pins.SLOTS[3])],
        [(5, *pins.SLOTS[0]), (6, *pins.SLOTS[1])],
    ]


@pytest.mark.parametrize("role", protocol.ROLES)
def test_the_diagrams_match_the_pin_map(role: str) -> None:
    assert svg_pins(HARDWARE / f"{role}-node.svg") == pin_map(role)


@pytest.mark.parametrize("role", protocol.ROLES)
def test_the_committed_diagrams_are_current(role: str) -> None:
    committed = (HARDWARE / f"{role}-node.svg").read_text()
    assert committed == pinmaps.svg(role), "regenerate: python -m hub.deploy.pinmaps hardware"


def test_the_wiring_tables_match_the_pin_map() -> None:
    """hardware/wiring.md's pin tables: rows `| <signal> | GPIO<n> | ...`."""
    text = (HARDWARE / "wiring.md").read_text()
    rows = dict(re.findall(r"^\|\s*`([a-z0-9_.]+)`\s*\|\s*GPIO(\d+)\s*\|", text, re.M))
    want = {**pin_map("pocket"), **pin_map("cue")}
    assert {k: int(v) for k, v in rows.items()} == want


# What the prose says a pin is, and the pin map's number for it.
CLAIMS = [
    ("docs/install.md", r"upper receiver OUT → GPIO(\d+)", pins.POCKET_UPPER),
    ("docs/install.md", r"lower receiver OUT →\s+GPIO(\d+)", pins.POCKET_LOWER),
    ("docs/install.md", r"TCS34725 SDA → GPIO(\d+)", pins.COLOUR_SDA),
    ("docs/install.md", r"TCS34725 SDA → GPIO\d+, SCL → GPIO(\d+)", pins.COLOUR_SCL),
    ("docs/install.md", r"ADXL345 SDA → (\d+)", pins.CUE_SDA),
    ("docs/install.md", r"ADXL345 SDA → \d+, SCL → (\d+)", pins.CUE_SCL),
    ("docs/install.md", r"ADXL345 SDA → \d+, SCL → \d+, INT1 → (\d+)", pins.CUE_INT),
    ("hardware/BOM.md", r"battery divider on GPIO(\d+)", pins.CUE_BATTERY),
    ("hardware/wiring.md", r"divider on GPIO(\d+) already", pins.CUE_BATTERY),
    ("hardware/wiring.md", r"INT1 → GPIO(\d+)\)", pins.CUE_INT),
]


@pytest.mark.parametrize(("doc", "pattern", "gpio"), CLAIMS, ids=[f"{c[0]}:{c[1][:24]}" for c in CLAIMS])
def test_the_docs_name_the_pins_of_the_pin_map(doc: str, pattern: str, gpio: int) -> None:
    found = re.findall(pattern, (ROOT / doc).read_text())
    assert found and {int(n) for n in found} == {gpio}, f"{doc}: {pattern} says {found}, the pin map {gpio}"


def test_no_doc_names_a_gpio_the_pin_map_does_not_use() -> None:
    used = {*pin_map("pocket").values(), *pin_map("cue").values()}
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted(HARDWARE.glob("*.md"))]
    stray = [
        f"{d.relative_to(ROOT)}: GPIO{n}"
        for d in docs
        for n in re.findall(r"GPIO ?(\d+)", d.read_text())
        if int(n) not in used
    ]
    assert not stray, "update the doc or firmware/pins.py: " + ", ".join(stray)


def test_a_changed_pin_would_be_caught(tmp_path: Path) -> None:
    broken = (HARDWARE / "pocket-node.svg").read_text().replace('data-gpio="33"', 'data-gpio="34"', 1)
    (tmp_path / "p.svg").write_text(broken)
    with pytest.raises(AssertionError):
        assert svg_pins(tmp_path / "p.svg") == pin_map("pocket")
