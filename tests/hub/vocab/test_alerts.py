"""The hub's alerts are typed where the fact is found (hub/vocab/alerts.py): a commit refused by the disk
gives its model, and the JSON /healthz sends of a hub-wide alert has the model's fields, `kind` first as it
always had (docs/hub.md, "Hub alerts")."""

from __future__ import annotations

import sqlite3

import pytest
from pydantic import ValidationError

from hub.ingest.timebase import behind_alert
from hub.vocab.alerts import ClockBehind, DiskAlert, HubWide, disk_full_alert
from hub.web.context import health_alert


def io_error() -> sqlite3.OperationalError:
    exc = sqlite3.OperationalError("disk I/O error")
    exc.sqlite_errorcode = sqlite3.SQLITE_IOERR_WRITE
    return exc


def test_a_refused_write_is_a_typed_disk_alert_and_other_errors_are_none() -> None:
    full = disk_full_alert(sqlite3.OperationalError("database or disk is full"))
    assert isinstance(full, DiskAlert) and full.kind == "disk_full" and full.severity == "error"
    assert full.scope == "hub" and "disk is full" in full.en and "диск хаба заполнен" in full.ru
    failing = disk_full_alert(io_error())
    assert isinstance(failing, DiskAlert) and failing.kind == "disk_error" and "disk I/O error" in failing.en
    assert disk_full_alert(sqlite3.OperationalError("database is locked")) is None


def test_an_alert_is_checked_when_it_is_built() -> None:
    with pytest.raises(ValidationError):
        ClockBehind(kind="clock_behind", severity="loud", behind_ms=1, en="e", ru="r")
    with pytest.raises(ValidationError):
        DiskAlert(kind="disk_full", severity="error", en="e", ru="r", behind_ms=1)  # a field it does not have


@pytest.mark.parametrize("alert", [disk_full_alert(io_error()), behind_alert(12_000)], ids=lambda a: a.kind)
def test_healthz_gives_a_hub_alert_with_its_models_fields_kind_first(alert: HubWide) -> None:
    out = health_alert(alert)
    assert out == alert.model_dump(mode="json")  # every field of the model, nothing else
    assert list(out)[:3] == ["kind", "scope", "severity"] and list(out)[-2:] == ["en", "ru"]
    assert list(alert.model_dump(mode="json"))[:3] == ["severity", "en", "ru"]  # the table view's order
