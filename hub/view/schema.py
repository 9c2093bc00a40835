"""The JSON Schema of the table view (`TableView`), written into docs/table-view.schema.json.

    python -m hub.view.schema            # print it
    python -m hub.view.schema --write    # write docs/table-view.schema.json

`VERSION` is the view's version. Every version's schema has its hash recorded in `HASHES`: a change to the
view that does not bump `VERSION` (and record the new hash) fails tests/hub/view/test_schema.py, and so does a
docs/table-view.schema.json that is not what this module generates.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Mapping
from pathlib import Path

from hub.view.table import TableView

VERSION = 5
HASHES = {  # VERSION -> sha256 of the schema's content (`content_hash`), one line per version ever published
    1: "9f60226abd9b2273065beec27b69529d5486abf055c1a8b007f290fd5a8df734",
    2: "c97625d0ebc2b5efbe7e4e666533b8408f87be5bb41ff4c4bf147d1216d6a923",  # the match's race (RaceView)
    # the match's shot_clock (ShotClockView, issue 22)
    3: "25a6343f1460ceb428ff2491374cf88b7ce9341be76d34b626316da36ded6898",
    4: "960ecc78057a22781d314a97e46a8abf874cebaf0cd08597da07a38b6ba2ea56",  # the match's `player_ids`
    # the race's match time limit (RaceView time_limit_min, time_rule, deadline_ms, time_called; A-G6)
    5: "0bda4aa035525a5545dbd3f38481779967cbde25e4b37c5bf86d41244bbbc1a8",
}
FILE = Path(__file__).resolve().parents[2] / "docs" / "table-view.schema.json"
DIALECT = "https://json-schema.org/draft/2020-12/schema"


# A JSON Schema document is arbitrary JSON (nested keywords, `$defs`, `anyOf`...): hashed and written, never
# read field by field here, so `dict[str, object]`.


def content() -> dict[str, object]:
    """The schema pydantic derives from the models: what the hub writes (serialisation mode)."""
    return TableView.model_json_schema(mode="serialization")


def content_hash(schema: Mapping[str, object] | None = None) -> str:
    """The sha256 of the schema's content, written canonically (sorted keys, no spaces)."""
    text = json.dumps(
        content() if schema is None else schema, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return hashlib.sha256(text.encode()).hexdigest()


def problems(
    version: int = VERSION, hashes: dict[int, str] = HASHES, schema: Mapping[str, object] | None = None
) -> list[str]:
    """What is wrong with the version bookkeeping ([] if nothing): the schema's content must have the hash
    recorded for `version`, and `version` must be the last one recorded."""
    digest = content_hash(schema)
    out = []
    if hashes and max(hashes) != version:
        out.append(f"VERSION is {version}, but the last version in HASHES is {max(hashes)}")
    if hashes.get(version) != digest:
        out.append(
            f"the table view's schema is not the one recorded for version {version} "
            f"({hashes.get(version) or 'none'}): a changed view needs a new version; set VERSION = "
            f'{version + 1}, add {version + 1}: "{digest}" to HASHES (hub/view/schema.py) and run '
            "`python -m hub.view.schema --write`"
        )
    return out


def document() -> dict[str, object]:
    """The schema document: the dialect, an id and a title naming the version, then the content."""
    body = content()
    return {
        "$schema": DIALECT,
        "$id": f"https://luza.example/schemas/table-view-{VERSION}.json",
        "title": f"Luza table view (version {VERSION})",
        "description": "One table as it leaves the hub: the retained MQTT luza/v1/<table>/state, the "
        "WebSocket `state` message (with its `type`), GET /api/tables/{table}/state. See docs/web-api.md.",
        **{k: v for k, v in body.items() if k not in ("title", "description")},
    }


def render() -> str:
    return json.dumps(document(), ensure_ascii=False, indent=2) + "\n"


def main(argv: list[str]) -> int:
    if argv == ["--write"]:
        FILE.write_text(render(), encoding="utf-8")
        print(f"wrote {FILE} (table view version {VERSION}, content {content_hash()[:12]})")
        return 0
    if argv:
        print("usage: python -m hub.view.schema [--write]", file=sys.stderr)
        return 2
    sys.stdout.write(render())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
