"""The tests' luza.toml: one description of a hub's settings, parsed in process (`luza_config`) or written as
the file a hub process reads (`write_luza_toml`), so the two never drift apart.

    cfg = luza_config(broker.url, db, client_id="luza-hub-faults")
    toml = write_luza_toml(tmp_path / "luza.toml", broker.url, db, client_id="luza-hub-faults")

The differences between the tests' configs are the arguments: which tables (`VIRTUAL_T1` is the virtual
table's nodes, hub.virtual.table; `SCRIPTED_T1` the scripted nodes of tests/hub/nodes.py; `SPARE_T2` a table
without nodes), the broker client id, and whether the hub reconnects after a second
(`reconnect_s`, None: the defaults).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hub import config, configfile

Table = Mapping[str, Any]
VIRTUAL_T1: Table = {
    "id": "t1",
    "pockets": {"pockets-123": [1, 2, 3], "pockets-456": [4, 5, 6]},
    "cues": {"cue-a": 0, "cue-b": 1},
}
SCRIPTED_T1: Table = {
    "id": "t1",
    "pockets": {"p-head": [1, 2], "p-mid": [3, 4], "p-foot": [5, 6]},
    "cues": {"cue-a": 0, "cue-b": 1},
}
SPARE_T2: Table = {"id": "t2", "pockets": {"t2-p": [1, 2, 3, 4, 5, 6]}}


def luza_settings(
    broker_url: str,
    db: Path,
    tables: Sequence[Table] = (VIRTUAL_T1,),
    client_id: str = "luza-hub-test",
    reconnect_s: float | None = 1,
    **sections: Any,
) -> dict[str, Any]:
    """The raw settings (what tomllib would read from the file); `sections` add or replace whole sections."""
    broker: dict[str, Any] = {"url": broker_url, "client_id": client_id}
    if reconnect_s is not None:
        broker |= {"reconnect_min_s": reconnect_s, "reconnect_max_s": reconnect_s}
    return {"broker": broker, "store": {"path": str(db)}, "tables": [dict(t) for t in tables], **sections}


def luza_config(
    broker_url: str,
    db: Path,
    tables: Sequence[Table] = (VIRTUAL_T1,),
    client_id: str = "luza-hub-test",
    reconnect_s: float | None = 1,
    **sections: Any,
) -> config.Config:
    """The settings parsed as the hub parses luza.toml."""
    return configfile.parse(luza_settings(broker_url, db, tables, client_id, reconnect_s, **sections))


def write_luza_toml(
    path: Path,
    broker_url: str,
    db: Path,
    tables: Sequence[Table] = (VIRTUAL_T1,),
    client_id: str = "luza-hub-test",
    reconnect_s: float | None = 1,
    **sections: Any,
) -> Path:
    """The settings written as a luza.toml at `path` (returned), for `luza serve` or a hub process."""
    path.write_text(
        toml_text(luza_settings(broker_url, db, tables, client_id, reconnect_s, **sections)), encoding="utf-8"
    )
    return path


def toml_text(settings: Mapping[str, Any]) -> str:
    """TOML for the settings' shape: sections of plain values, arrays of tables, inline tables within them."""
    out: list[str] = []
    for name, body in settings.items():
        for section in body if isinstance(body, list) else [body]:
            out.append(f"[[{name}]]" if isinstance(body, list) else f"[{name}]")
            out.extend(f"{key(k)} = {value(v)}" for k, v in section.items())
            out.append("")
    return "\n".join(out)


def key(k: str) -> str:
    bare = k.replace("-", "").replace("_", "").isalnum() and k.isascii()
    return k if bare else json.dumps(k)


def value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{key(k)} = {value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, Sequence):
        return "[" + ", ".join(value(x) for x in v) + "]"
    raise TypeError(f"no TOML for {v!r}")
