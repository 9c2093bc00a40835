"""Render page 1 of the Russian scoresheet PDF of the golden Classic match to docs/screenshots/scoresheet-ru.png.

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

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "scoresheet-ru.png"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = played_db(Path(tmp) / "luza.db", ("classic",))
        store = Store(db, readonly=True)
        pdf = Path(tmp) / "sheet.pdf"
        pdf.write_bytes(render(build(load(store, 1)), "ru"))
        store.close()
        OUT.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["pdftoppm", "-png", "-r", "110", "-f", "1", "-l", "1", "-singlefile", str(pdf),
                        str(OUT.with_suffix(""))], check=True)
    print(OUT)


if __name__ == "__main__":
    main()
