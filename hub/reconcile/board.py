"""The screen-facing scoreboard: `TableSession.scoreboard()` enriched with what a screen shows without knowing
the rules (docs/web-api.md, "Scoreboard"). Everything here is derived from the session and the rules engine's
own facts (ball colours and values, Star's sequence, Classic's decider, 100 points' control ball); nothing is
decided here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hub.reconcile.notices import POCKET_NAMES
from shared_rules.outcome import Effect, EffectKind, Outcome
from shared_rules.state import State
from shared_rules.variant import VARIANTS, Variant

HISTORY = 10  # committed steps shown in `history`
SPOT_NAMES: dict[str, tuple[str, str]] = {
    "foot_spot": ("on the foot spot", "на заднюю отметку"),
    "centre_spot": ("on the centre spot", "на центральную отметку"),
    "head_spot": ("on the head spot", "на переднюю отметку"),
    "spotting_line": ("on the spotting line from the foot spot", "на линию от задней отметки"),
    "toward_centre": ("from the foot spot toward the centre", "от задней отметки к центру"),
    "foot_rail": ("next to the foot rail behind the pyramid", "к заднему борту за пирамидой"),
    "house": ("in hand, from the house", "с руки из дома"),
    "anywhere": ("in hand, anywhere", "с руки с любого места"),
}
STEP_NAMES: dict[str, tuple[str, str]] = {
    "lag": ("the lag", "розыгрыш очерёдности"),
    "choose": ("the choice", "выбор"),
    "interference": ("the interference", "вмешательство"),
    "concede": ("the concession", "сдачу партии"),
    "decide": ("the referee's decision", "решение судьи"),
}


def balls(variant: Any) -> dict[str, dict[str, Any]]:
    """Every ball of the variant: colour class, points on a shelf, the label to draw."""
    return {str(b): {"colour": variant.colour_of(b).value, "value": variant.ball_value(b),
                     "label": variant.ball_label(b)} for b in variant.BALLS}


def _effect(e: Effect) -> dict[str, Any]:
    r = e.reason
    return {"kind": e.kind.value, "player": e.player, "ball": e.ball, "amount": e.amount, "spot": e.spot,
            "detail": e.detail, "cite": r.cite(), "en": r.en, "ru": r.ru}


def _deltas(out: Outcome) -> list[int]:
    d = [0, 0]
    for e in out.of_kind(EffectKind.SCORE):
        if e.player in (0, 1) and e.amount:
            d[int(e.player)] += int(e.amount)
    return d


def _placed(state: State) -> list[dict[str, Any]]:
    out = []
    for ball, spot in state.placed:
        en, ru = SPOT_NAMES.get(spot, (spot, spot))
        out.append({"ball": ball, "spot": spot, "en": f"ball {ball}: {en}", "ru": f"шар {ball}: {ru}"})
    return out


def sections() -> tuple[str, ...]:
    """The scoreboard's per-variant sections: one for each registered variant with facts of its own for the
    screens (`Variant.board_facts`); the section of the match's variant is filled, the others are null."""
    return tuple(name for name, cls in VARIANTS.items() if cls.board_facts is not Variant.board_facts)


def _history(session: Any) -> list[dict[str, Any]]:
    outcomes = session.match.outcomes  # one per step the engine accepted, in order
    ok = session.last_played(min(HISTORY, len(outcomes)))  # only the rows shown: flat in the match's length
    start = len(outcomes) - len(ok)
    scores = list(session.scores_before(start, _deltas))
    rows: list[dict[str, Any]] = []
    for st, out in zip(ok, outcomes[start:], strict=False):
        d = _deltas(out)
        scores = [scores[0] + d[0], scores[1] + d[1]]
        shooter = getattr(st.played, "shooter", None)
        rows.append({"number": st.shot.number if st.shot is not None else None,
                     "kind": "shot" if st.shot is not None else (st.action.kind if st.action else "?"),
                     "shooter": shooter, "scores": list(scores), "deltas": d,
                     "fouls": [e.detail for e in out.of_kind(EffectKind.FOUL)],
                     "reasons": [{"en": r.text("en"), "ru": r.text("ru")} for r in dict.fromkeys(out.reasons)]})
    return rows[-HISTORY:]


def _undo(session: Any) -> dict[str, Any] | None:
    """What `undo` would take back: the latest step that is not void (TableSession._undo -> Timeline.void_last)."""
    step = next((s for s in reversed(session.steps) if not s.voided), None)
    if step is None:
        return None
    if step.shot is not None:
        n = step.shot.number
        return {"number": n, "kind": "shot", "en": f"Undo shot {n}", "ru": f"Отменить удар {n}"}
    kind = step.action.kind if step.action else "?"
    en, ru = STEP_NAMES.get(kind, (kind, kind))
    return {"number": None, "kind": kind, "en": f"Undo {en}", "ru": f"Отменить {ru}"}


def _question(q: Mapping[str, Any], variant: Any, needs: list[Mapping[str, Any]]) -> dict[str, Any]:
    out = dict(q)
    opts = [str(o) for o in q.get("options") or ()]
    out["choices"] = [{"value": o, "label": option_label(o, variant)} for o in opts]
    need = next((n for n in needs if str(q.get("id", "")).startswith(f"need:{n.get('kind')}:{n.get('player')}:")),
                None)  # an engine need (a choice that takes a ball names the balls it may take)
    out["balls"] = list(need.get("balls") or ()) if need else [int(o) for o in opts if o.isdigit()]
    return out


OPTION_LABELS: dict[str, tuple[str, str]] = {
    "foul": ("Foul", "Штраф"), "no_foul": ("No foul", "Без штрафа"),
    "return": ("Hanging ball: put it back", "Зависший шар: вернуть"), "count": ("Count it", "Засчитать"),
    "new_shot": ("A new shot", "Новый удар"),
    "take_ball": ("Take a ball", "Взять шар"), "give_back": ("Give the shot back", "Вернуть удар"),
    "blue": ("Blue", "Синий"), "yellow": ("Yellow", "Жёлтый"), "black": ("Black", "Чёрный"),
    "green": ("Green", "Зелёный"), "red": ("Red", "Красный"), "ivory": ("Ivory", "Белый"),
}


def option_label(option: str, variant: Any = None) -> dict[str, str]:
    """A question option as the panel labels it (ball numbers and seats as themselves)."""
    if option.isdigit():
        return {"en": f"Ball {option}", "ru": f"Шар {option}"}
    en, ru = OPTION_LABELS.get(option, (option.replace("_", " "), option.replace("_", " ")))
    return {"en": en, "ru": ru}


ENRICHED = ("balls", "points_left", "target", "to_win", "placed", "effects", "deltas", "history", "undo", "pockets",
            "clock", "player_ids")  # and the variants' `sections()`


def plain(board: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The session's own scoreboard inside an enriched one (what the store keeps and `luza replay` checks)."""
    if board is None:
        return None
    enriched = {*ENRICHED, *sections()}
    out = {k: v for k, v in board.items() if k not in enriched}
    out["questions"] = [{k: v for k, v in q.items() if k not in ("choices", "balls")}
                        for q in board.get("questions") or ()]
    return out


def enrich(board: Mapping[str, Any], session: Any, started_ms: int | None = None,
           ended_ms: int | None = None, player_ids: Sequence[int | None] = (None, None)) -> dict[str, Any]:
    """A copy of `board` (the session's scoreboard) with the screen fields of docs/web-api.md (`player_ids`: the
    players' registry ids, hub/store/players.py)."""
    match = session.match
    variant = match.variant
    state: State = match.state
    out = dict(board)
    values = {b: variant.ball_value(b) for b in variant.BALLS}
    on_table = board.get("on_table") or state.on_table
    target = int(variant.options.get("target", 0) or 0)
    scores = board.get("scores") or list(state.scores)
    last = match.outcomes[-1] if match.outcomes else Outcome()
    out.update({
        "balls": balls(variant),
        "points_left": sum(values.get(int(b), 0) for b in on_table),
        "target": target,
        "to_win": [max(0, target - int(s)) for s in scores] if target else None,
        **{name: variant.board_facts(state) if name == variant.name else None for name in sections()},
        "placed": _placed(state),
        "effects": [_effect(e) for e in last.effects],
        "deltas": _deltas(last),
        "history": _history(session),
        "undo": _undo(session),
        "questions": [_question(q, variant, board.get("needs") or []) for q in board.get("questions") or ()],
        "pockets": {str(p): {"en": en, "ru": ru} for p, (en, ru) in POCKET_NAMES.items()},
        "clock": {"started_ms": started_ms, "ended_ms": ended_ms},
        "player_ids": list(player_ids),
    })
    return out
