"""The outbox on scripted traces (normal play, long outage, reboot, spill while in flight, power cut) on
CPython, and the same vectors under the real MicroPython giving identical results."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware.outbox import DirStore, Outbox, next_boot
from tests.firmware import mp
from tests.firmware import outbox_vectors as vectors

VECTORS_SRC = (Path(__file__).parent / "outbox_vectors.py").read_text()


@pytest.fixture(scope="module")
def cpython_results(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return vectors.run_all(str(tmp_path_factory.mktemp("ob")))


def test_normal_play_never_writes_flash(cpython_results: dict) -> None:
    r = cpython_results["normal"]
    assert r["writes"] == 0
    assert r["depths"] == [1] * 30
    assert r["depth"] == 0 and r["dropped"] == 0


def test_long_outage_spills_in_batches_and_drops_oldest_segment_only_when_full(cpython_results: dict) -> None:
    r = cpython_results["outage"]
    # 3 segments x 100 entries of flash: 400 events keep the newest 300, the oldest whole segment went.
    assert r["dropped"] == 100
    assert r["depth"] == 300 and r["count"] == 300
    assert r["first"] == [100, 101, 102] and r["last"] == [397, 398, 399]
    assert r["ordered"]
    assert r["files"] == 3
    assert r["writes"] < 400 / 20  # batched: far fewer flash writes than events
    assert r["left"] == 0  # every segment deleted once drained


def test_reboot_reloads_segments_in_order_and_bumps_boot(cpython_results: dict) -> None:
    r = cpython_results["reboot"]
    assert r["boots"] == [1, 2]
    assert r["depth_after_boot"] == 25
    # At-least-once: entries acked but not yet deleted come back (the hub de-duplicates), order holds.
    assert r["out"] == [*list(range(25)), 100]
    assert r["new_oid_fresh"]


def test_ack_finds_an_entry_that_spilled_while_in_flight(cpython_results: dict) -> None:
    r = cpython_results["inflight"]
    assert r["acked"] == [True, True, True]
    assert r["stale"] is False
    assert r["out"] == list(range(3, 12))
    assert r["depth"] == 0


def test_outage_spills_by_age_so_a_power_cut_loses_at_most_spill_ms(cpython_results: dict) -> None:
    r = cpython_results["aged"]
    assert r["spills"] == 5  # one batch per 10 s of a 60 s outage
    assert r["in_flash"] == 55 and r["in_ram"] == 5
    # one append per spill (+1 where a batch crossed into a new segment)
    assert r["writes"] <= r["spills"] + 1


def test_torn_last_line_is_skipped(cpython_results: dict) -> None:
    assert cpython_results["torn"] == {"oids": [1, 2], "seqs": [0, 1]}


def test_clock_vectors(cpython_results: dict) -> None:
    r = cpython_results["clock"]
    assert r["before"] == [0, False]
    assert r["up_after_wrap"] == 1200  # across the 2**30 ticks wrap
    assert r["stamped"] == [1_700_000_000_250, True]
    assert r["restamped_t"] == 1_700_000_000_000 and r["restamped_u"] is None
    assert r["other_boot_kept"]
    assert r["adj1"] == 50 and r["syncs"] == 2


def test_ram_only_outbox_drops_oldest_and_counts(tmp_path: Path) -> None:
    ob = Outbox(DirStore(str(tmp_path / "ram")), ram_max=5, seg_max=0)
    for i in range(8):
        ob.put(vectors.ev(i))
    assert ob.dropped == 3 and ob.depth == 5
    assert vectors.drain(ob) == [3, 4, 5, 6, 7]
    assert ob.writes == 0


def test_boot_counter_survives_a_torn_file(tmp_path: Path) -> None:
    store = DirStore(str(tmp_path / "b"))
    assert [next_boot(store) for _ in range(3)] == [1, 2, 3]
    store.write("boot", b"\xff\x00")
    assert next_boot(store) == 1


def test_flash_order_kept_across_many_segments_and_partial_acks(tmp_path: Path) -> None:
    ob = Outbox(DirStore(str(tmp_path / "m")), ram_max=7, seg_entries=5, seg_max=50)
    out: list[int] = []
    n = 0
    for rnd in range(20):  # interleave puts with partial, windowed drains
        for _ in range(rnd % 9):
            ob.put(vectors.ev(n))
            n += 1
        for oid, entry in ob.window(3)[: rnd % 3]:
            out.append(vectors.seq_of(entry))
            ob.ack(oid)
    out += vectors.drain(ob)
    assert out == list(range(n))
    assert ob.dropped == 0 and ob.depth == 0


@pytest.mark.micropython
def test_vectors_identical_under_real_micropython(cpython_results: dict) -> None:
    mp.require()
    code = "import outbox_vectors, json\nprint(json.dumps(outbox_vectors.run_all('/ob')))"
    got = mp.run_json(code, mp.FIRMWARE, extra={"outbox_vectors.py": VECTORS_SRC})
    assert got == json.loads(json.dumps(cpython_results))


class FailingStore(DirStore):
    """Flash that fails (full, worn out) after `ok` appends."""

    def __init__(self, root: str, ok: int) -> None:
        super().__init__(root)
        self.ok = ok

    def append(self, name: str, data: bytes) -> None:
        if self.ok <= 0:
            raise OSError(28, "no space left on device")
        self.ok -= 1
        super().append(name, data)


def test_failing_flash_keeps_events_in_ram_and_counts_what_it_must_drop(tmp_path: Path) -> None:
    ob = Outbox(FailingStore(str(tmp_path / "f"), ok=1), ram_max=10, seg_entries=100, seg_max=5)
    for i in range(30):
        ob.put(vectors.ev(i))  # first spill (11 entries) lands, the later ones fail
    assert ob.flash_errors >= 1
    assert ob.depth == 11 + 10 and ob.dropped == 30 - 21
    out = vectors.drain(ob)
    assert out[:11] == list(range(11)) and out[11:] == list(range(20, 30))  # the newest RAM entries survive
