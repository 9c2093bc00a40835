"""ShotAssembler: how time-ordered evidence is cut into shots, and how a shot becomes a ShotReport."""

from __future__ import annotations

from hub.config import ShotTiming
from hub.reconcile.assembler import ShotAssembler
from hub.reconcile.report import ShotContext, build_report, question_id
from hub.vocab.action_types import ShotAmendment
from hub.vocab.evidence import PocketEvidence, ShotEvidence, StrikeEvidence
from hub.vocab.inputs import RefereeAction
from shared_rules.model import Colour, Declaration, DeclarationKind, Foul, Pocket, PocketedBall

T = ShotTiming()


def amendment(kind: str, args: dict[str, object]) -> ShotAmendment:
    """The typed action (hub.vocab.actions) of a shot amendment, checked as the panel's would be."""
    action = RefereeAction(kind, args).action
    assert isinstance(action, ShotAmendment)
    return action


def amend(shot: ShotEvidence, kind: str, args: dict[str, object], at_ms: int) -> None:
    amendment(kind, args).amend(shot, at_ms)


def strike(i: int, t: int, seat: int | None = 0, double: bool = False) -> StrikeEvidence:
    return StrikeEvidence(f"s{i}", t, seat, double)


def pocket(
    i: int, t: int, p: int = 1, colour: Colour | None = None, conf: float | None = None
) -> PocketEvidence:
    return PocketEvidence(f"p{i}", Pocket(p), t, colour, conf)


def kinds(a) -> list[str]:  # type: ignore[no-untyped-def]
    return [f.kind for f in a.findings]


# ---------------------------------------------------------------- cutting shots


def test_a_strike_opens_a_shot_and_the_next_strike_closes_it() -> None:
    asm = ShotAssembler()
    first = asm.strike(strike(1, 1000))
    asm.pocket(pocket(1, 2500))
    second = asm.strike(strike(2, 20000))
    assert first is not None and second is not None
    assert [s.number for s in asm.shots] == [1, 2]
    assert first.closed_at == 20000 and first.closed_by == "strike"
    assert [p.id for p in first.pockets] == ["p1"] and second.pockets == []
    assert asm.open is second


def test_two_strikes_within_50_ms_are_one_stroke() -> None:
    asm = ShotAssembler()
    asm.strike(strike(1, 1000))
    same = asm.strike(strike(2, 1000 + T.double_strike_ms))
    assert len(asm.shots) == 1 and same is asm.shots[0]
    assert [s.id for s in same.extra_strikes] == ["s2"]
    assert asm.strike(strike(3, 1000 + T.double_strike_ms + 1)) is asm.shots[1]  # 1 ms more: a new shot
    assert "double_strike" in kinds(build_report(asm.shots[0], ShotContext("free", 0)))


def test_a_strike_before_the_previous_shot_could_end_is_a_14_2_candidate() -> None:
    asm = ShotAssembler()
    asm.strike(strike(1, 1000))
    quick = asm.strike(strike(2, 1000 + T.min_shot_ms - 1))
    assert quick is not None and quick.early
    asm.pocket(pocket(1, 9000))
    after_pocket = asm.strike(strike(3, 9000 + T.pocket_settle_ms - 1))
    assert after_pocket is not None and after_pocket.early
    calm = asm.strike(strike(4, 30000))
    assert calm is not None and not calm.early
    a = build_report(after_pocket, ShotContext("free", 0))
    assert "early_start" in kinds(a) and Foul.EARLY_START not in a.report.fouls
    after_pocket.answers[question_id("early_start", "s3")] = "foul"
    a = build_report(after_pocket, ShotContext("free", 0))
    assert Foul.EARLY_START in a.report.fouls and "early_start" not in kinds(a)


def test_pocket_events_without_a_strike_open_shots_by_themselves() -> None:
    asm = ShotAssembler()
    one = asm.pocket(pocket(1, 1000))
    same = asm.pocket(pocket(2, 1000 + T.roll_ms))
    other = asm.pocket(pocket(3, 1000 + 2 * T.roll_ms + 1))  # after the shot's balls must have stopped
    assert one is same and other is not one
    assert [s.opened_by for s in asm.shots] == ["pocket", "pocket"]
    assert [p.id for p in one.pockets] == ["p1", "p2"]


def test_a_drop_long_after_a_struck_shot_is_a_late_drop_not_a_ball() -> None:
    asm = ShotAssembler()
    shot = asm.strike(strike(1, 1000))
    assert shot is not None
    asm.pocket(pocket(1, 3000))
    late = asm.pocket(pocket(2, 3000 + T.roll_ms + 1))
    assert late is shot and [p.id for p in shot.late] == ["p2"] and len(shot.pockets) == 1
    a = build_report(shot, ShotContext("free", 0))
    assert len(a.report.pocketed) == 1 and "late_drop" in kinds(a)
    shot.answers[question_id("late_drop", "p2")] = "count"
    a = build_report(shot, ShotContext("free", 0))
    assert len(a.report.pocketed) == 2 and "late_drop" not in kinds(a)


def test_hanging_ball_rule_after_the_referee_closed_the_shot() -> None:
    asm = ShotAssembler()
    shot = asm.strike(strike(1, 1000))
    assert shot is not None
    asm.close(4000, "referee")
    asm.pocket(pocket(1, 4000 + T.hanging_ball_ms))  # fell within 5 s of the end: it counts (§23)
    asm.pocket(pocket(2, 4000 + T.hanging_ball_ms + 1))  # hung 5 s or more: flagged
    assert [p.id for p in shot.pockets] == ["p1"] and [p.id for p in shot.late] == ["p2"]
    assert len(asm.shots) == 1


def test_a_late_drop_the_referee_calls_a_new_shot_opens_one() -> None:
    asm = ShotAssembler(new_shot={"p2"})
    asm.strike(strike(1, 1000))
    shot = asm.pocket(pocket(2, 1000 + T.roll_ms + 5))
    assert shot is asm.shots[1] and shot.opened_by == "pocket" and [p.id for p in shot.pockets] == ["p2"]


def test_a_removed_strike_cuts_nothing() -> None:
    asm = ShotAssembler(voided={"s2"})
    asm.strike(strike(1, 1000))
    assert asm.strike(strike(2, 5000)) is None
    asm.pocket(pocket(1, 6000))
    assert len(asm.shots) == 1 and [p.id for p in asm.shots[0].pockets] == ["p1"]


def test_amendments_for_the_next_shot_wait_for_it() -> None:
    asm = ShotAssembler()
    asm.pending_next.append(
        amendment("declare", {"calls": [{"ball": 5, "pocket": 3, "kind": "object", "method": ""}]})
    )
    shot = asm.strike(strike(1, 1000))
    assert shot is not None and shot.declarations == (Declaration(5, Pocket(3)),) and asm.pending_next == []


# ---------------------------------------------------------------- evidence -> report


def test_free_any_ball_is_one_point_and_yellow_is_ball_0() -> None:
    asm = ShotAssembler()
    shot = asm.strike(strike(1, 1000))
    assert shot is not None
    asm.pocket(pocket(1, 2000, 1, Colour.IVORY))
    asm.pocket(pocket(2, 2500, 6, Colour.YELLOW))
    asm.pocket(pocket(3, 2600, 2))
    r = build_report(shot, ShotContext("free", 1, tuple(range(16)))).report
    assert r.shooter == 1
    assert r.pocketed == (
        PocketedBall(Pocket(1), None, Colour.IVORY),
        PocketedBall(Pocket(6), 0, Colour.YELLOW),
        PocketedBall(Pocket(2), None, None),
    )


def test_a_colour_below_the_confidence_threshold_is_unknown() -> None:
    asm = ShotAssembler()
    shot = asm.pocket(pocket(1, 1000, 1, Colour.YELLOW, conf=T.min_colour_conf - 0.01))
    r = build_report(shot, ShotContext("combined", 0, tuple(range(16)))).report
    assert r.pocketed == (PocketedBall(Pocket(1), None, None),)


def test_classic_a_ball_of_the_called_pocket_is_the_called_ball() -> None:
    asm = ShotAssembler()
    shot = asm.strike(strike(1, 1000))
    assert shot is not None
    amend(shot, "declare", {"calls": [{"ball": 7, "pocket": 3, "kind": "object", "method": ""}]}, 900)
    asm.pocket(pocket(1, 2000, 3))
    asm.pocket(pocket(2, 2100, 5))
    a = build_report(shot, ShotContext("classic", 0, tuple(range(16))))
    assert [b.ball for b in a.report.pocketed] == [7, None]
    assert [(f.kind, f.item, f.pocket, f.other) for f in a.findings] == [
        ("identify", "p2", 5, None),
        ("pocket_mismatch", "p2", 5, 3),
    ]
    amend(shot, "identify", {"item": "p2", "ball": 12}, 3000)
    a = build_report(shot, ShotContext("classic", 0, tuple(range(16))))
    assert [b.ball for b in a.report.pocketed] == [7, 12] and kinds(a) == ["pocket_mismatch"]


def test_classic_yellow_seen_is_the_cue_ball_and_an_alert() -> None:
    asm = ShotAssembler()
    shot = asm.pocket(pocket(1, 1000, 2, Colour.YELLOW))
    a = build_report(shot, ShotContext("classic", 0, tuple(range(16))))
    assert a.report.pocketed[0].ball == 0 and kinds(a) == ["cue_ball_seen"]


def test_hundred_double_call_cue_ball_pocket() -> None:
    asm = ShotAssembler()
    shot = asm.strike(strike(1, 1000))
    assert shot is not None
    amend(
        shot,
        "declare",
        {
            "calls": [
                {"ball": 9, "pocket": 1, "kind": "object", "method": "direct"},
                {"ball": 0, "pocket": 4, "kind": "cue_ball", "method": "off 9"},
            ]
        },
        900,
    )
    asm.pocket(pocket(1, 2000, 4))
    asm.pocket(pocket(2, 2050, 1, Colour.IVORY))
    a = build_report(shot, ShotContext("hundred", 0, (0, 5, 6, 7, 8, 9, 10)))
    assert [b.ball for b in a.report.pocketed] == [0, 9] and a.findings == ()
    assert a.report.declarations[1].kind is DeclarationKind.CUE_BALL


def test_star_colours_pass_through_and_ivory_is_the_joker() -> None:
    asm = ShotAssembler()
    shot = asm.pocket(pocket(1, 1000, 1, Colour.BLUE))
    asm.pocket(pocket(2, 1100, 2, Colour.IVORY))
    asm.pocket(pocket(3, 1200, 3))
    a = build_report(shot, ShotContext("star", 0, tuple(range(16))))
    assert [(b.ball, b.colour) for b in a.report.pocketed] == [
        (None, Colour.BLUE),
        (0, Colour.IVORY),
        (None, None),
    ]
    assert [(f.kind, f.item) for f in a.findings] == [("identify_colour", "p3")]


def test_sensor_hints_are_questions_until_answered() -> None:
    asm = ShotAssembler()
    shot = asm.strike(strike(1, 1000, seat=1, double=True))
    assert shot is not None
    a = build_report(shot, ShotContext("free", 0))
    assert [(f.kind, f.seat) for f in a.findings] == [("double_hit", None), ("out_of_turn", 1)]
    assert a.report.fouls == frozenset()
    shot.answers[question_id("double_hit", "s1")] = "no_foul"
    shot.answers[question_id("out_of_turn", "s1")] = "foul"
    a = build_report(shot, ShotContext("free", 0))
    assert a.findings == () and a.report.fouls == frozenset({Foul.INTERFERENCE}) and a.report.offender == 1


def test_referee_facts_fouls_removals_and_jumps_reach_the_report() -> None:
    asm = ShotAssembler()
    shot = asm.strike(strike(1, 1000))
    assert shot is not None
    asm.pocket(pocket(1, 2000, 1))
    amend(shot, "remove", {"item": "p1"}, 3000)  # a rim-out the beam took for a ball (§22.5)
    amend(shot, "add_ball", {"pocket": 6, "ball": None, "colour": "ivory", "direct": None}, 3100)
    amend(shot, "jumped", {"ball": None, "colour": None}, 3200)
    amend(shot, "foul", {"foul": "miss", "on": True, "offender": None}, 3300)
    amend(shot, "foul", {"foul": "touch", "on": True, "offender": None}, 3400)
    amend(shot, "foul", {"foul": "touch", "on": False, "offender": None}, 3500)
    amend(shot, "fact", {"name": "cushions", "value": 2}, 3600)
    r = build_report(shot, ShotContext("free", 0)).report
    assert r.pocketed == (PocketedBall(Pocket(6), None, Colour.IVORY),)
    assert len(r.jumped) == 1 and r.fouls == frozenset({Foul.MISS}) and r.cushions == 2
