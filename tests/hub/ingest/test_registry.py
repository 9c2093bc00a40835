"""The device registry: birth and Last Will, telemetry, rejections counted per device and kind."""

from __future__ import annotations

from hub import configfile
from hub.ingest.registry import Registry

CFG = configfile.parse({"tables": [{"id": "t1", "pockets": {"p1": [1, 2]}, "cues": {"c0": 0}}]})


def test_configured_devices_start_unknown() -> None:
    r = Registry(CFG)
    snap = {d["id"]: d for d in r.snapshot()}
    assert snap["p1"]["state"] == "unknown" and snap["p1"]["table_id"] == "t1" and snap["c0"]["role"] == "cue"
    assert not snap["p1"]["online"]


def test_birth_will_and_rebirth() -> None:
    r = Registry(CFG)
    assert r.on_status("p1", "online", 3, "1.2", "10.0.0.5", None, 100) is True
    assert r.on_status("p1", "online", 3, "1.2", "10.0.0.5", None, 110) is False  # retained repeat
    assert r.on_status("p1", "lost", None, "", "", None, 200) is False  # Last Will
    d = r.get("p1")
    assert d is not None and d.state == "lost" and not d.online and d.boot == 3 and d.fw == "1.2"
    assert r.on_status("p1", "online", 4, "1.3", "", None, 300) is True  # rebooted
    assert r.current_boot("p1") == 4


def test_telemetry_fields() -> None:
    r = Registry(CFG)
    r.on_tele("p1", 2, {"bat": 3.7, "rssi": -61, "ob": 4, "drop": 1, "up": 5000, "heap": 90000}, 77)
    row = r.row("p1")
    assert (row["battery"], row["rssi"], row["outbox"], row["dropped"], row["uptime_ms"], row["heap"]) == (
        3.7,
        -61,
        4,
        1,
        5000,
        90000,
    )
    assert row["state"] == "online" and row["last_seen_ms"] == 77 and row["boot"] == 2


def test_telemetry_neither_hides_a_birth_nor_outlives_a_goodbye() -> None:
    """Telemetry comes on a connection of its own (hub.ingest.mqtt), so it may overtake a birth or trail a
    goodbye; a birth is what the node's status says (the hub sends it the time), and a report received before
    a goodbye does not bring the node back."""
    r = Registry(CFG)
    assert r.on_status("p1", "online", 3, "1.2", "", None, 100) is True
    r.on_tele("p1", 4, {"up": 10}, 205)  # the rebooted node's first report overtakes its birth
    assert r.on_status("p1", "online", 4, "1.2", "", None, 210) is True
    assert r.on_status("p1", "offline", 4, "", "", None, 300) is False
    r.on_tele("p1", 4, {"bat": 3.5}, 295)  # received before the goodbye, handled after it
    d = r.get("p1")
    assert d is not None and d.state == "offline" and d.battery == 3.5
    r.on_tele("p1", 4, {"bat": 3.4}, 400)  # one received after it: the node is up after all
    assert r.get("p1").state == "online"  # type: ignore[union-attr]
    assert r.on_status("p1", "lost", None, "", "", None, 500) is False  # its link drops ...
    r.on_tele("p1", 4, {"bat": 3.4}, 510)  # ... and comes back: the report overtakes the birth again
    assert r.on_status("p1", "online", 4, "1.2", "", None, 520) is True


def test_rejections_counted_first_one_flagged() -> None:
    r = Registry(CFG, rejected={"p1": {"malformed": 2}})
    assert r.on_rejected("p1", "malformed") is False  # already seen before the restart
    assert r.on_rejected("p1", "oversized") is True
    assert r.on_rejected("p1", "oversized") is False
    assert r.on_rejected(None, "bad_topic") is True
    snap = {d["id"]: d for d in r.snapshot()}
    assert snap["p1"]["rejected"] == {"malformed": 3, "oversized": 2}
    assert snap[""]["rejected"] == {"bad_topic": 1}


def test_stored_rows_restore_state() -> None:
    r = Registry(CFG, stored={"p1": {"state": "online", "boot": 9, "fw": "2.0"}, "ghost": {"state": "lost"}})
    assert r.current_boot("p1") == 9
    assert r.get("ghost") is not None and r.get("ghost").table_id is None  # type: ignore[union-attr]


def test_a_flood_of_made_up_ids_is_bounded() -> None:
    from hub.ingest.registry import MAX_STRANGERS

    r = Registry(CFG)
    for i in range(MAX_STRANGERS + 50):
        r.on_rejected(f"x{i}", "unknown_device")
    snap = r.snapshot()
    assert len(snap) <= MAX_STRANGERS + 3  # + the configured p1 and c0, + the catch-all
    assert {d["id"]: d for d in snap}[""]["rejected"]["unknown_device"] == 50


def test_a_tables_snapshot_is_its_devices_only_and_a_copy() -> None:
    """A table's state carries its devices (made after every input): only that table's, and changing the copy
    changes nothing in the registry."""
    two = configfile.parse(
        {
            "tables": [
                {"id": "t1", "pockets": {"p1": [1, 2]}, "cues": {"c0": 0}},
                {"id": "t2", "pockets": {"q1": [1, 2]}},
            ]
        }
    )
    r = Registry(two)
    r.on_rejected("p1", "malformed")
    r.on_tele("p1", 2, {"bat": 3.7, "rssi": -61, "ob": 4, "drop": 1, "up": 5000, "heap": 90000}, 77)
    t1 = r.snapshot("t1")
    assert [d["id"] for d in t1] == ["c0", "p1"] and [d["id"] for d in r.snapshot("t2")] == ["q1"]
    assert t1 == [d for d in r.snapshot() if d["table_id"] == "t1"]
    p1 = t1[1]
    assert p1["online"] and p1["battery"] == 3.7 and p1["rejected"] == {"malformed": 1}
    p1["rejected"]["malformed"] = 99
    assert r.snapshot("t1")[1]["rejected"] == {"malformed": 1}
