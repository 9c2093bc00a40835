"""The rules benchmark runs and prints one line per registered variant (figures are not asserted)."""

from __future__ import annotations

import pytest

from shared_rules import VARIANTS
from tests.bench import rules as bench


def test_benchmark_prints_every_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--matches", "3", "--repeat", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:2] == ["variant", "matches"]
    assert sorted(line.split()[0] for line in lines[1:]) == sorted(VARIANTS)
    assert all(float(line.split()[4].replace(",", "")) > 0 for line in lines[1:])
