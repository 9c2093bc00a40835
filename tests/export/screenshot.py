"""Render page 1 of the Russian scoresheet PDF of the golden Classic match to
docs/screenshots/scoresheet-ru.png, and of the Free race to 2 frames with a handicap
(tests/export/matchkit.py, play_free_race) to scoresheet-race-ru.png.

Run: `python -m tests.export.screenshot` (needs WeasyPrint and poppler's pdftoppm: scripts/setup --dev).
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from hub.export import build, load
from hub.export.pdf import render
from hub.store.database import Store
from tests.export.conftest import played_db

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
OUT = SHOTS / "scoresheet-ru.png"
SHEETS = {"classic": OUT, "race": SHOTS / "scoresheet-race-ru.png"}


def main() -> None:
    for script, out in SHEETS.items():
        with tempfile.TemporaryDirectory() as tmp:
            db = played_db(Path(tmp) / "luza.db", (script,))
            store = Store(db, readonly=True)
            pdf = Path(tmp) / "sheet.pdf"
            pdf.write_bytes(render(build(load(store, 1)), "ru"))
            store.close()
            out.parent.mkdir(parents=True, exist_ok=True)
            subprocess.run(
                [
                    "pdftoppm",
                    "-png",
                    "-r",
                    "110",
                    "-f",
                    "1",
                    "-l",
                    "1",
                    "-singlefile",
                    str(pdf),
                    str(out.with_suffix("")),
                ],
                check=True,
            )
        print(out)


if __name__ == "__main__":
    main()
