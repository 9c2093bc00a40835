"""End-to-end delivery on the node: events leave the outbox on the hub's `stored` mark, not on the broker's
PUBACK; re-sent after a reconnect or a timeout; `resend` answered with the gone seqs. The same vectors on
CPython and the real MicroPython; the link with a loopback transport that acknowledges
(PUBACK) but whose "hub" is silent."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from tests.firmware import delivery_vectors as vectors
from tests.firmware import link_delivery_scenario, mp

VECTORS_SRC = (Path(__file__).parent / "delivery_vectors.py").read_text()
LINK_SRC = (Path(__file__).parent / "link_delivery_scenario.py").read_text()
NODE_SRC = (Path(__file__).parent / "node_scenario.py").read_text()


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return vectors.run_all(str(tmp_path_factory.mktemp("dv")))


def test_an_event_leaves_the_outbox_on_the_hubs_mark_not_when_sent(results: dict[str, Any]) -> None:
    r = results["mark"]
    assert r["first"] == list(range(1, 11)) and r["depth_after_send"] == 10
    assert r["released"] == [6, 4, 0] and r["again"] == []
    assert r["depth"] == 0 and r["unconfirmed"] == 0 and r["writes"] == 0  # normal play never touches flash


def test_after_a_reconnect_every_unconfirmed_event_goes_again_in_order(results: dict[str, Any]) -> None:
    assert results["reconnect"] == {"after_reconnect": [3, 4, 5, 6], "resent": 3}


def test_a_silent_hub_gets_copies_after_a_timeout_that_doubles(results: dict[str, Any]) -> None:
    r = results["timeout"]
    assert r["fired"] == [False, True, False, True, False, True, True]  # 10 s, then 20 s, then 40 s (the cap)
    assert r["timeouts"] == 4 and r["resent"] == 12
    # confirmed: nothing waits, the timeout starts over
    assert r["quiet"] is False and r["wait_reset"] == 10000


def test_resend_sends_what_is_held_and_answers_what_is_gone(results: dict[str, Any]) -> None:
    r = results["resend"]
    assert r["gone"] == [[2, 4]] and r["again"] == [5, 6, 7, 8, 9, 10]
    assert r["future"] == [] and r["other"] == [[1, 3]]
    assert r["answers"] == [[7, 1, 2, 8, [[2, 4]], 4], [0, 1, 9, 15, [], 2], [0, 0, 1, 3, [[1, 3]], 0]]
    assert r["counted"] == 6


def test_unconfirmed_events_in_flight_are_bounded(results: dict[str, Any]) -> None:
    assert results["bounded"] == {"first": [1, 2, 3, 4], "second": [5, 6], "unconfirmed": 4}


def test_an_event_the_hub_already_has_is_released_without_sending(results: dict[str, Any]) -> None:
    assert results["presorted"] == {"sent": [4, 5, 6], "released": 3, "depth": 3}


def test_unconfirmed_events_in_flash_segments_are_sent_and_released_in_order(results: dict[str, Any]) -> None:
    r = results["flash"]
    assert r["in_flash"] >= 5 and r["sent"] == list(range(1, 31))
    assert r["mid"] == 13 and r["resent"] == list(range(18, 31))
    assert r["depth"] == 0 and r["left"] == []  # every segment deleted once its entries were confirmed


def test_an_earlier_boots_events_reloaded_from_flash_are_released_by_that_boots_mark(
    results: dict[str, Any],
) -> None:
    r = results["reboot"]
    assert r["sent"] == [[1, s] for s in range(1, 9)] + [[2, 1], [2, 2]]
    assert r["after_old"] == 2 and r["depth"] == 0 and r["mark1"] == 8


def test_a_resent_event_carries_the_bytes_of_its_first_send(results: dict[str, Any]) -> None:
    r = results["restamp"]
    # recorded at uptime 300, synced at uptime 0
    assert r["unsynced_u"] == 1 and r["first_t"] == [1_700_000_000_300]
    assert r["same_bytes"] is True and r["resent"] == 2


@pytest.mark.micropython
def test_delivery_vectors_identical_under_real_micropython(results: dict[str, Any]) -> None:
    mp.require()
    code = "import delivery_vectors, json\nprint(json.dumps(delivery_vectors.run_all('/dv')))"
    got = mp.run_json(code, mp.FIRMWARE, extra={"delivery_vectors.py": VECTORS_SRC})
    assert got == json.loads(json.dumps(results))


# ------------------------------------------------------------------ the link, on a loopback transport

LINK_EXPECTED = {
    "kept": 5,
    "after_mark": 2,
    "evts": [1, 2, 3, 4, 5, 4, 5],
    "depth": 0,
    "gone": [[1, 3]],
    "held": 2,
    "rejected": 0,
    "released": 5,
    "downs": 1,
}


def test_link_keeps_pubacked_events_until_stored_and_resends_them_after_a_reconnect(tmp_path: Path) -> None:
    assert asyncio.run(link_delivery_scenario.scenario(str(tmp_path))) == LINK_EXPECTED


@pytest.mark.micropython
def test_link_delivery_identical_under_real_micropython() -> None:
    mp.require()
    code = (
        "import json, link_delivery_scenario\nr = await "
        "link_delivery_scenario.scenario('/ld')\nprint(json.dumps(r))"
    )
    got = mp.run_json(
        code,
        mp.FIRMWARE,
        extra={"link_delivery_scenario.py": LINK_SRC, "node_scenario.py": NODE_SRC},
        async_=True,
    )
    assert got == LINK_EXPECTED
