"""firmware/ota.py (signed manifest, staging, the boot decision) on CPython and the real MicroPython: the same
scenarios (tests/firmware/ota_scenario.py) on each runtime's own file system give the same results."""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path
from typing import Any

import pytest

from firmware import ota
from tests.firmware import ota_scenario

SRC = (Path(__file__).parent / "ota_scenario.py").read_text()


@pytest.fixture(scope="module")
def cpython(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return ota_scenario.main(str(tmp_path_factory.mktemp("ota")))


def test_hmac_is_rfc_2104_as_pythons_hmac_computes_it(cpython: dict[str, Any]) -> None:
    sig = cpython["signatures"]
    # RFC 4231 case 1
    assert sig["rfc4231_1"] == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
    assert sig["rfc4231_2"] == hmac.new(b"Jefe", b"what do ya want for nothing?", hashlib.sha256).hexdigest()
    assert sig["long_key"] == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"  # case 6
    assert sig["key"] == hmac.new(b"s3cret-broker-password", b"luza-ota-1", hashlib.sha256).hexdigest()
    assert sig["same"] == [True, False, False]


def test_manifest_is_taken_only_signed_with_this_nodes_key_for_this_node_and_release(
    cpython: dict[str, Any],
) -> None:
    m = cpython["manifests"]
    assert m["good"] is None and m["kept"] == "0.2.0" and m["cfg"] is None
    assert m["tampered"] == m["other_key"] == "sig"
    for case in (
        "other_node",
        "other_release",
        "no_sig",
        "not_hex",
        "huge",
        "dotdot",
        "abs",
        "hidden",
        "outside",
        "space",
        "cfg_two",
    ):
        assert m[case] == "manifest", case


def test_staging_refuses_a_corrupt_file_and_the_boot_decision_rolls_back_an_unconfirmed_trial(
    cpython: dict[str, Any],
) -> None:
    lc = cpython["lifecycle"]
    assert lc["fresh"] == ["", "/config.json"]
    assert lc["cut_download"] == ["", {"st": "refused", "r": "0.2.0-aa", "to": "0.2.0", "err": "interrupted"}]
    assert lc["corrupt"] == "hash firmware/node.py" and lc["corrupt_slot_gone"] is False
    assert lc["too_long"] == "size firmware/__init__.py"
    assert lc["staged"] is None and lc["staged_report"] == {"st": "staged", "r": "0.2.0-aa", "to": "0.2.0"}
    assert (lc["swap_other"], lc["swap"]) == (False, True)
    assert lc["trial_boot"] == ["/ota/a", "/config.json"] and lc["on_trial"] is True
    assert lc["after_crash"] == ["", "/config.json"] and lc["on_trial_after"] is False
    assert lc["rolled_back"]["st"] == "rolled_back" and lc["rolled_back"]["err"].startswith(
        "crash ImportError"
    )
    assert lc["verify"] is None and lc["commit"] is True
    assert lc["kept"] == {"st": "ok", "r": "0.2.0-aa", "to": "0.2.0"}
    assert lc["next_boot"] == ["/ota/a", "/config.json"] and lc["next_slot"] == "/ota/b"
    assert lc["verify_rotten"] == "hash firmware/node.py"
    assert lc["second_trial"] == ["/ota/b", "/config.json"] and lc["second_unconfirmed"] == [
        "/ota/a",
        "/config.json",
    ]
    assert lc["second_report"]["err"] == "unconfirmed"


def test_a_config_change_is_tried_then_kept_or_dropped_and_a_cut_commit_is_finished(
    cpython: dict[str, Any],
) -> None:
    c = cpython["config"]
    assert c["trial"] == ["", "/ota/config.json"] and c["rollback"] == ["", "/config.json"]
    assert c["staged_gone"] == -1 and json.loads(c["config_kept"]) == {"tele_s": 30}
    assert c["resumed"] == ["", "/config.json"] and json.loads(c["config_new"]) == {"tele_s": 10}
    assert c["report"] == {"st": "ok", "r": "cfg-01", "to": "config"}
    assert cpython["no_room"] == "space"


def test_unreadable_state_runs_the_root_build(tmp_path: Path) -> None:
    from firmware.flash import Flash

    flash = Flash(str(tmp_path))
    flash.write(ota.STATE, b"{torn")
    assert ota.boot(flash)[:2] == ("", "/config.json")
    flash.write(ota.STATE, b'{"good": "/etc"}')
    assert ota.boot(flash)[:2] == ("", "/config.json")


@pytest.mark.micropython
def test_same_scenarios_identical_under_real_micropython(micropython: Any, cpython: dict[str, Any]) -> None:
    code = "import json, ota_scenario\nprint(json.dumps(ota_scenario.main('/t')))"
    got = micropython.run_json(
        code, ("firmware/ota.py", "firmware/flash.py", "firmware/__init__.py"), extra={"ota_scenario.py": SRC}
    )
    assert got == json.loads(json.dumps(cpython))
