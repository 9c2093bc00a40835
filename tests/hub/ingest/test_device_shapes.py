"""The device's shapes stay one fact: the store's `DeviceRow` is the `devices` table's columns, the registry's
row is that and its snapshot is `Device`'s fields plus `online`, and a row saved and read back restores the
same snapshot (the update's status included)."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

from hub import configfile
from hub.ingest.registry import Device, DeviceSnapshot, OtaStatus, Registry
from hub.store.database import Store
from hub.store.devices import DEVICE_FIELDS, DeviceRow

CFG = configfile.parse({"tables": [{"id": "t1", "pockets": {"p1": [1, 2]}, "cues": {"c0": 0}}]})


def test_device_fields_are_the_devices_tables_columns(tmp_path: Path) -> None:
    Store(tmp_path / "luza.db").close()
    with sqlite3.connect(tmp_path / "luza.db") as conn:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(devices)")]
    assert columns == ["id", *DEVICE_FIELDS]
    assert list(DEVICE_FIELDS) == list(DeviceRow.__annotations__)


def test_the_snapshot_is_the_devices_fields_and_online() -> None:
    r = Registry(CFG)
    snap = r.snapshot("t1")[0]
    fields = [f.name for f in dataclasses.fields(Device)]
    assert list(snap) == [*fields, "online"] == list(DeviceSnapshot.__annotations__)
    assert list(r.row("p1")) == list(DEVICE_FIELDS)


def test_a_saved_row_restores_the_snapshot(tmp_path: Path) -> None:
    r = Registry(CFG)
    ota: OtaStatus = {"st": "fetch", "r": "0.1.0-aa", "to": "0.1.0", "n": 3, "of": 40}
    r.on_status("p1", "online", 7, "0.0.9", "10.0.0.5", None, 100, ota)
    tele = {"bat": 3.8, "rssi": -60, "ob": 2, "drop": 0, "up": 9000, "heap": 80000, "bu1": 4}
    r.on_tele("p1", 7, tele, 150)
    r.on_rejected("p1", "malformed")
    store = Store(tmp_path / "luza.db")
    with store.transaction():
        store.save_device("p1", r.row("p1"))
    assert store.devices()["p1"]["ota"] == '{"st": "fetch", "r": "0.1.0-aa", "to": "0.1.0", "n": 3, "of": 40}'
    again = Registry(CFG, store.devices(), store.rejected_counts()).snapshot("t1")
    before = {d["id"]: d for d in r.snapshot("t1")}
    p1 = next(d for d in again if d["id"] == "p1")
    # telemetry's counters are not stored: a restart waits for the next report
    assert {**p1, "counters": before["p1"]["counters"]} == {**before["p1"], "rejected": {}}
    assert p1["ota"] == ota and p1["counters"] == {}
