"""`verify`: re-check an export file with the rules engine, without the database it came from.

Two independent checks:
1. The evidence: the file's stored inputs (records, times, sources), with its match header and settings
   snapshot, are folded again through a TableSession; every derived part of the file (provenance, engine log,
   shots with their balls, fouls, effects, scores and reasons, the result) must come out the same. A changed
   score, ball, reason or input shows up as the first places where the file and the replay differ.
2. The engine log: `engine_log` (every frame's engine inputs, `luza-race`) is replayed through the pure rules
   engine alone (shared_rules.race.Race.from_log); it must reach the file's frame score, the winner, and every
   frame's scores and winner.

This checks that the file is consistent with the rules, not who wrote it: someone who rewrites the inputs and
re-derives everything with Luza produces a consistent file of a different match. Who wrote it is the
signature's part (hub/export/signing.py, `luza verify --key/--fingerprint`). The evidence status is re-derived
from the inputs too (`evidence_of`): holes in a node's seqs within the match, whatever the file's own
`verification.evidence` says.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from hub.export.document import Evidence, ExportDoc, MatchHeader, StoredInput
from hub.export.model import FORMAT, VERSION, VOLATILE, ExportError, Source, build, evidence, snapshot_of
from hub.service.rebuild import differences
from hub.store import gaps
from shared_rules.errors import RulesError
from shared_rules.race import Race

INPUT_FIELDS = ("cursor", "source", "at_ms", "received_ms", "record")


@dataclass
class Verdict:
    ok: bool
    match_id: object = None
    shots: int = 0
    scores: list[int] = field(default_factory=list)
    frames: list[int] = field(default_factory=list)  # the frame score of a race (frames won by each seat)
    problems: list[str] = field(default_factory=list)  # where the file departs from the replay (first ones)
    race_to: int = 1

    def score(self) -> str:
        """`8:3`, or for a race `race to 3, frames 2:1, last frame 8:3`."""
        last = f"{self.scores[0]}:{self.scores[1]}" if len(self.scores) == 2 else "-"
        if self.race_to == 1 or len(self.frames) != 2:
            return last
        return f"race to {self.race_to}, frames {self.frames[0]}:{self.frames[1]}, last frame {last}"


def read(path: str | Path) -> dict[str, object]:
    """Load an export file; ExportError with a one-line reason if it is not one. Only its header is checked
    (`check_header`): `verify` checks the rest against the replay, so it stays plain JSON here."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ExportError(f"no such file: {path}", f"нет файла: {path}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ExportError(
            f"{path} is not a readable JSON file ({exc})", f"{path}: не читается как JSON ({exc})"
        ) from None
    check_header(doc)
    return cast(dict[str, object], doc)  # check_header: a JSON object


def check_header(doc: object) -> None:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ExportError(
            f"not a {FORMAT} file (format field missing or different)",
            f"это не файл {FORMAT} (поле format отсутствует или другое)",
        )
    if doc.get("version") != VERSION:
        raise ExportError(
            f"{FORMAT} version {doc.get('version')!r} is not readable by this luza (reads {VERSION})",
            f"версия {doc.get('version')!r} не поддерживается (поддерживается {VERSION})",
        )
    for key, kind in (("match", dict), ("inputs", list), ("engine_log", dict)):
        if not isinstance(doc.get(key), kind):
            raise ExportError(f"{key}: missing or not a {kind.__name__}", f"{key}: нет или неверный тип")


def source_of(doc: Mapping[str, object]) -> Source:
    """The parts of a file an export is built from (everything else must follow from them). Only that the
    members are there is checked: their values go into the fold as the file has them, and a value that is
    wrong shows as a difference from the replay (or a refused input), a header the session cannot start
    with as an ExportError from `verify`."""
    check_header(doc)
    listed, match = doc["inputs"], doc["match"]
    assert isinstance(listed, list) and isinstance(match, dict)  # check_header
    inputs: list[StoredInput] = []
    for i, e in enumerate(listed):
        if not isinstance(e, Mapping) or any(k not in e for k in INPUT_FIELDS):
            raise ExportError(
                f"inputs[{i}]: needs {', '.join(INPUT_FIELDS)}",
                f"inputs[{i}]: нужны поля {', '.join(INPUT_FIELDS)}",
            )
        inputs.append(cast(StoredInput, {k: e[k] for k in INPUT_FIELDS}))
    for key in ("id", "table", "variant", "players", "options"):
        if key not in match:
            raise ExportError(f"match.{key}: missing", f"match.{key}: отсутствует")
    settings = doc.get("settings")
    return Source(
        cast(MatchHeader, dict(match)),
        snapshot_of(dict(settings) if isinstance(settings, Mapping) else None),
        inputs,
    )


def verify(doc: Mapping[str, object], limit: int = 20) -> Verdict:
    """Re-derive the file from its inputs and replay its engine log; a Verdict with the places that differ."""
    check_header(doc)
    src = source_of(doc)
    problems: list[str] = []
    try:
        again = build(src)
    except (ValueError, KeyError, TypeError, IndexError) as exc:  # a header the session cannot start with
        raise ExportError(
            f"the match cannot be replayed: {getattr(exc, 'en', exc)}",
            f"партию нельзя пересчитать: {getattr(exc, 'ru', exc)}",
        ) from None
    mine = {k: v for k, v in doc.items() if k not in VOLATILE}
    theirs: dict[str, object] = {k: v for k, v in again.items() if k not in VOLATILE}
    if _before_time_limit(doc):
        theirs.update(_without_time_limit(again))
    if _before_shot_clock(doc):
        theirs["shots"] = [{k: v for k, v in s.items() if k not in SHOT_CLOCK_KEYS} for s in again["shots"]]
    problems += [f"the file says {_side(d)}" for d in differences(theirs, mine)]
    problems += _engine_log(doc)
    result = again["result"]
    return Verdict(
        not problems,
        src.match.get("id"),
        result["shots"],
        result["scores"],
        result["frames"],
        problems[:limit],
        int(again["race"]["race_to"]),
    )


TIME_LIMIT_KEYS = ("time_limit_min", "time_rule", "time_called", "deadline_ms")  # general A-G6 (issue 22)


def _before_time_limit(doc: Mapping[str, object]) -> bool:
    """A file exported before races had a time limit: its race has no `time_rule`
    (it verifies without them)."""
    race = doc.get("race")
    return isinstance(race, Mapping) and "time_rule" not in race


def _without_time_limit(again: ExportDoc) -> dict[str, object]:
    """The replay's `race` and `engine_log` without the time-limit fields
    a file made before them cannot have."""
    log = dict(again["engine_log"])
    log.pop("time_called", None)
    race = log["race"]
    assert isinstance(race, Mapping)  # Race.to_log: RaceRules.to_dict()
    log["race"] = {k: v for k, v in race.items() if k not in TIME_LIMIT_KEYS}
    return {
        "race": {k: v for k, v in again["race"].items() if k not in TIME_LIMIT_KEYS},
        "engine_log": log,
    }


SHOT_CLOCK_KEYS = ("shot_ms", "shot_clock")  # derived shot times (issue 22): files made before them have none


def _before_shot_clock(doc: Mapping[str, object]) -> bool:
    """A file exported before shot times were exported:
    none of its shots has `shot_ms` (it verifies without)."""
    shots = doc.get("shots")
    return (
        isinstance(shots, list)
        and bool(shots)
        and not any(isinstance(s, Mapping) and "shot_ms" in s for s in shots)
    )


def _side(diff: str) -> str:
    """`path: replay != file` -> `path: <file>, the replay gives <replay>`."""
    path, _, rest = diff.partition(": ")
    replay, _, file = rest.partition(" != ")
    return f"{path}: {file}, the replay gives {replay}"


def _engine_log(doc: Mapping[str, object]) -> list[str]:
    """The engine log alone (a `luza-race` log: every frame's inputs), through the pure rules engine, must
    reach the file's frame score, winner and every frame's scores and winner."""
    try:
        race = Race.from_log(doc["engine_log"])
    except RulesError as exc:
        return [f"engine_log does not replay: {exc.en}"]
    raw = doc.get("result")
    res: Mapping[str, object] = raw if isinstance(raw, Mapping) else {}
    out = []
    if list(race.frame.state.scores) != res.get("scores"):
        out.append(
            f"engine_log reaches scores {list(race.frame.state.scores)}, result.scores says "
            f"{res.get('scores')}"
        )
    if list(race.score) != res.get("frames"):
        out.append(
            f"engine_log reaches the frame score {list(race.score)}, result.frames says {res.get('frames')}"
        )
    if race.winner != res.get("winner"):
        out.append(f"engine_log's winner is {race.winner}, result.winner says {res.get('winner')}")
    listed = doc.get("frames")
    frames: list[object] = listed if isinstance(listed, list) else []
    if len(frames) != len(race.frames):
        out.append(f"engine_log has {len(race.frames)} frame(s), the file lists {len(frames)}")
    for k, (m, f) in enumerate(zip(race.frames, frames, strict=False), 1):
        given = f.get("result") if isinstance(f, Mapping) else None
        got: Mapping[str, object] = given if isinstance(given, Mapping) else {}
        if list(m.state.scores) != got.get("scores") or m.state.winner != got.get("winner"):
            out.append(
                f"frame {k}: engine_log reaches {list(m.state.scores)} (winner {m.state.winner}), the file "
                f"says {got.get('scores')} (winner {got.get('winner')})"
            )
    return out


def evidence_of(inputs: object) -> Evidence:
    """The evidence block re-derived from the file's inputs: per (device, boot), the seqs missing between the
    first and the last of the match. (The hub also counts a seq stored outside the match as not missing, so a
    file can only show more holes than the hub saw, never fewer.)"""
    seqs: dict[tuple[str, int], list[int]] = {}
    for e in inputs if isinstance(inputs, list) else ():
        rec = e.get("record") if isinstance(e, Mapping) else None
        if isinstance(rec, Mapping) and rec.get("type") == "sensor":
            d, b, q = rec.get("device"), rec.get("boot"), rec.get("seq")
            if isinstance(d, str) and isinstance(b, int) and isinstance(q, int):
                seqs.setdefault((d, b), []).append(q)
    holes: list[gaps.Gap] = []
    for (d, b), found in sorted(seqs.items()):
        found.sort()
        holes += [(d, b, lo, hi) for lo, hi in gaps._ranges(found, found[0], found[-1])]
    return evidence(holes)
