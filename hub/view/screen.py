"""What a screen shows without knowing the rules: the ball colours, values and labels, the points left, the
variants' own sections, the balls to put back by hand, the last effects, the recent history, what undo takes
back, the questions' labelled choices, the pocket names, the match clock and the shot clock. Everything here
is derived from the session and the rules engine's own facts; nothing is decided here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict
from weakref import WeakKeyDictionary

from hub.reconcile.table import TableSession
from hub.view.base import Text
from hub.view.engine import EngineFields
from hub.view.match import (
    BallView,
    EffectView,
    HistoryRow,
    MatchClock,
    NeedView,
    Placed,
    ShotClockView,
    UndoView,
)
from hub.view.session import question_view
from hub.view.shot import Choice, QuestionView
from hub.view.shotclock import shot_clock_view
from hub.vocab.notices import POCKET_NAMES, Question
from shared_rules.outcome import Effect, EffectKind, Outcome
from shared_rules.registry import VARIANTS
from shared_rules.state import State
from shared_rules.variant import Variant

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
OPTION_LABELS: dict[str, tuple[str, str]] = {
    "foul": ("Foul", "Штраф"),
    "no_foul": ("No foul", "Без штрафа"),
    "return": ("Hanging ball: put it back", "Зависший шар: вернуть"),
    "count": ("Count it", "Засчитать"),
    "new_shot": ("A new shot", "Новый удар"),
    "take_ball": ("Take a ball", "Взять шар"),
    "give_back": ("Give the shot back", "Вернуть удар"),
    "blue": ("Blue", "Синий"),
    "yellow": ("Yellow", "Жёлтый"),
    "black": ("Black", "Чёрный"),
    "green": ("Green", "Зелёный"),
    "red": ("Red", "Красный"),
    "ivory": ("Ivory", "Белый"),
}
POCKETS = {str(p): Text(en=en, ru=ru) for p, (en, ru) in POCKET_NAMES.items()}


def balls(variant: Variant) -> dict[str, BallView]:
    """Every ball of the variant: colour class, points on a shelf, the label to draw (made once per match's
    variant: they are frozen, and a board is made after every input)."""
    made = _BALLS.get(variant)
    if made is None:
        made = _BALLS[variant] = {
            str(b): BallView(
                colour=variant.colour_of(b).value, value=variant.ball_value(b), label=variant.ball_label(b)
            )
            for b in variant.BALLS
        }
    return made


# a match's variant -> its balls
_BALLS: WeakKeyDictionary[Variant, dict[str, BallView]] = WeakKeyDictionary()


class ScreenFields(TypedDict):
    """MatchView's own fields as `screen_fields` makes them (its variants' sections aside: `section_fields`),
    for the view to validate; `questions` are the session's, labelled. tests/hub/view/test_fields.py keeps the
    keys those of MatchView."""

    balls: dict[str, BallView]
    points_left: int
    target: int
    to_win: list[int] | None
    placed: list[Placed]
    effects: list[EffectView]
    deltas: list[int]
    history: list[HistoryRow]
    undo: UndoView | None
    questions: list[QuestionView]
    pockets: dict[str, Text]
    clock: MatchClock
    shot_clock: ShotClockView


def sections() -> tuple[str, ...]:
    """The scoreboard's per-variant sections: one for each registered variant with facts of its own for the
    screens (`Variant.board_facts`); the section of the match's variant is filled, the others are null."""
    return tuple(name for name, cls in VARIANTS.items() if cls.board_facts is not Variant.board_facts)


def deltas(out: Outcome) -> list[int]:
    """The score change of one outcome, per seat."""
    d = [0, 0]
    for e in out.of_kind(EffectKind.SCORE):
        if e.player in (0, 1) and e.amount:
            d[int(e.player)] += int(e.amount)
    return d


def section_fields(variant: Variant, state: State) -> dict[str, Mapping[str, object] | None]:
    """The match view's per-variant sections (`sections()`, named by variant): `variant`'s facts in its own,
    None in the others. Each variant writes its facts (`Variant.board_facts`); the view validates them
    (StarFacts, HundredFacts, ClassicFacts; a variant registered outside the six: kept as it wrote them)."""
    return {name: variant.board_facts(state) if name == variant.name else None for name in sections()}


def screen_fields(
    s: TableSession,
    engine: EngineFields,
    started_ms: int | None,
    ended_ms: int | None,
    extra_questions: list[QuestionView],
) -> ScreenFields:
    """The MatchView's fields on top of the session's (`engine`: the session's fields, whose scores, balls on
    the table and needs are the position shown)."""
    match = s.match
    variant = match.variant
    state: State = match.state
    values = {b: variant.ball_value(b) for b in variant.BALLS}
    raw = variant.options.get("target")
    target = int(raw) if isinstance(raw, int) else 0  # the points or balls to win, where the variant has one
    scores = engine["scores"]
    last = match.outcomes[-1] if match.outcomes else match.opened  # a frame opens with its handicap, cited
    needs = engine["needs"]
    # as it was: an empty table counts the committed
    on_table = engine["on_table"] or list(state.on_table)
    return {
        "balls": balls(variant),
        "points_left": sum(values.get(b, 0) for b in on_table),
        "target": target,
        "to_win": [max(0, target - int(x)) for x in scores] if target else None,
        "placed": _placed(state),
        "effects": [_effect(e) for e in last.effects],
        "deltas": deltas(last),
        "history": _history(s),
        "undo": _undo(s),
        "questions": [*(_question(q, needs) for q in s.questions), *extra_questions],
        "pockets": POCKETS,
        "clock": MatchClock(started_ms=started_ms, ended_ms=ended_ms),
        "shot_clock": shot_clock_view(s, engine["to_play"], engine["over"]),
    }


def _effect(e: Effect) -> EffectView:
    r = e.reason
    return EffectView(
        kind=e.kind.value,
        player=e.player,
        ball=e.ball,
        amount=e.amount,
        spot=e.spot,
        detail=e.detail,
        cite=r.cite(),
        en=r.en,
        ru=r.ru,
    )


def _placed(state: State) -> list[Placed]:
    out = []
    for ball, spot in state.placed:
        en, ru = SPOT_NAMES.get(spot, (spot, spot))
        out.append(Placed(ball=ball, spot=spot, en=f"ball {ball}: {en}", ru=f"шар {ball}: {ru}"))
    return out


def _history(s: TableSession) -> list[HistoryRow]:
    outcomes = s.match.outcomes  # one per step the engine accepted, in order
    ok = s.last_played(min(HISTORY, len(outcomes)))  # only the rows shown: flat in the match's length
    start = len(outcomes) - len(ok)
    scores = list(s.scores_before(start, deltas))
    rows: list[HistoryRow] = []
    for st, out in zip(ok, outcomes[start:], strict=False):
        d = deltas(out)
        scores = [scores[0] + d[0], scores[1] + d[1]]
        rows.append(
            HistoryRow(
                number=st.shot.number if st.shot is not None else None,
                kind="shot" if st.shot is not None else (st.action.kind if st.action else "?"),
                shooter=getattr(st.played, "shooter", None),
                scores=list(scores),
                deltas=d,
                fouls=[e.detail for e in out.of_kind(EffectKind.FOUL) if e.detail is not None],
                reasons=[Text(en=r.text("en"), ru=r.text("ru")) for r in dict.fromkeys(out.reasons)],
            )
        )
    return rows[-HISTORY:]


def _undo(s: TableSession) -> UndoView | None:
    """What `undo` would take back: the latest step that is not void
    (TableSession._undo -> Timeline.void_last)."""
    step = next((st for st in reversed(s.steps) if not st.voided), None)
    if step is None:
        return None
    if step.shot is not None:
        n = step.shot.number
        return UndoView(number=n, kind="shot", en=f"Undo shot {n}", ru=f"Отменить удар {n}")
    kind = step.action.kind if step.action else "?"
    en, ru = STEP_NAMES.get(kind, (kind, kind))
    return UndoView(number=None, kind=kind, en=f"Undo {en}", ru=f"Отменить {ru}")


def _question(q: Question, needs: list[NeedView]) -> QuestionView:
    """A question with its options labelled, and the balls a choice may take."""
    opts = [str(o) for o in q.options]
    need = next(
        (n for n in needs if q.id.startswith(f"need:{n.kind}:{n.player}:")), None
    )  # an engine need (a choice that takes a ball names the balls it may take)
    return question_view(
        q,
        choices=[Choice(value=o, label=option_label(o)) for o in opts],
        balls=list(need.balls) if need else [int(o) for o in opts if o.isdigit()],
    )


def option_label(option: str) -> Text:
    """A question option as the panel labels it (ball numbers and seats as themselves)."""
    if option.isdigit():
        return Text(en=f"Ball {option}", ru=f"Шар {option}")
    en, ru = OPTION_LABELS.get(option, (option.replace("_", " "), option.replace("_", " ")))
    return Text(en=en, ru=ru)
