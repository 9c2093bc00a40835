"""The wiring diagrams and pin tables in hardware/ say the same GPIO numbers as the firmware's defaults."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from firmware.config import DEFAULTS
from hub.deploy import pinmaps
from hub.virtual.table import PINS

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"


def firmware_pins(role: str) -> dict[str, int]:
    """What the firmware uses, read straight from DEFAULTS (and the multi-pocket slot table)."""
    if role == "cue":
        return {f"cue.{k}": DEFAULTS["cue"][k] for k in ("sda", "scl", "int_pin", "battery_pin")}
    out = {"pocket.upper": DEFAULTS["pockets"][0]["upper"], "pocket.lower": DEFAULTS["pockets"][0]["lower"],
           "colour.sda": DEFAULTS["colour"]["sda"], "colour.scl": DEFAULTS["colour"]["scl"]}
    for i, (up, low) in enumerate(PINS, 1):
        out[f"slot{i}.upper"], out[f"slot{i}.lower"] = up, low
    return out


def svg_pins(path: Path) -> dict[str, int]:
    found: dict[str, int] = {}
    for el in ET.parse(path).iter():
        if "data-signal" in el.attrib:
            assert el.attrib["data-signal"] not in found, f"{path.name}: {el.attrib['data-signal']} drawn twice"
            found[el.attrib["data-signal"]] = int(el.attrib["data-gpio"])
            labels = [t.text for t in el.iter("{http://www.w3.org/2000/svg}text")]
            if labels:  # the number a person reads is the same as the machine-readable one
                assert f"GPIO{el.attrib['data-gpio']}" in labels
    return found


@pytest.mark.parametrize("role", pinmaps.ROLES)
def test_the_diagrams_match_the_firmware(role: str) -> None:
    assert svg_pins(HARDWARE / f"{role}-node.svg") == firmware_pins(role)


@pytest.mark.parametrize("role", pinmaps.ROLES)
def test_the_committed_diagrams_are_current(role: str) -> None:
    committed = (HARDWARE / f"{role}-node.svg").read_text()
    assert committed == pinmaps.svg(role), "regenerate: python -m hub.deploy.pinmaps hardware"


def test_the_wiring_tables_match_the_firmware() -> None:
    """hardware/wiring.md's pin tables: rows `| <signal> | GPIO<n> | ...`."""
    text = (HARDWARE / "wiring.md").read_text()
    rows = dict(re.findall(r"^\|\s*`([a-z0-9_.]+)`\s*\|\s*GPIO(\d+)\s*\|", text, re.M))
    want = {**firmware_pins("pocket"), **firmware_pins("cue")}
    assert {k: int(v) for k, v in rows.items()} == want


def test_a_changed_pin_would_be_caught(tmp_path: Path) -> None:
    broken = (HARDWARE / "pocket-node.svg").read_text().replace('data-gpio="33"', 'data-gpio="34"', 1)
    (tmp_path / "p.svg").write_text(broken)
    with pytest.raises(AssertionError):
        assert svg_pins(tmp_path / "p.svg") == firmware_pins("pocket")
