"""hardware/BOM.md adds up: each line's total is quantity × price, the subtotals are the sums of their lines,
and the stated total is the sum of the subtotals."""

from __future__ import annotations

import re
from pathlib import Path

BOM = Path(__file__).resolve().parents[2] / "hardware" / "BOM.md"


def test_the_bill_of_materials_adds_up() -> None:
    text = BOM.read_text()
    subtotals = []
    checked = 0
    for section in re.split(r"^## ", text, flags=re.M)[1:]:
        lines = 0.0
        for qty, each, total in re.findall(
            r"^\| \d+ \|[^\n]*\| (\d+) \|[^|\n]*\| ([\d.]+) \| ([\d.]+) \|$", section, re.M
        ):
            assert abs(int(qty) * float(each) - float(total)) < 0.005, (qty, each, total)
            lines += float(total)
            checked += 1
        stated = re.search(r"\*\*[a-z ]*subtotal\*\* \|[ |]*\*\*([\d.]+)\*\*", section)
        if stated:
            assert abs(float(stated.group(1)) - lines) < 0.005, section.splitlines()[0]
            subtotals.append(lines)
    assert len(subtotals) == 2
    assert checked == len(re.findall(r"^\| \d+ \|", text, re.M)) == 25  # every part line was read
    total = re.search(r"about (\d+) USD\*\* \(([\d.]+) \+ ([\d.]+)\)", text)
    assert total is not None
    assert abs(float(total.group(2)) + float(total.group(3)) - sum(subtotals)) < 0.005
    assert int(total.group(1)) == round(sum(subtotals))
