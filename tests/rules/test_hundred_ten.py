"""100 points, the control ball in cases a referee meets (issue 13 item 7): the carom's touch, #10's way back."""

from __future__ import annotations

from shared_rules import DeclarationKind, EffectKind, Foul, ShotReport, Spot
from shared_rules.hundred import TEN
from tests.rules.helpers import cites
from tests.rules.test_hundred import R, _restricted, broken, call, pot, run


def _ten_spotted(out: object) -> bool:
    return any(e.kind is EffectKind.SPOT and e.ball == TEN for e in out.effects)  # type: ignore[attr-defined]


def test_hundred_12_carom_without_touched_ten_is_still_a_touch_from_restricted_hand() -> None:
    """hundred 12, hundred 15: the carom on #10 IS the cue ball hitting #10. From §15/§17 hand the carom does not
    count, so its touch is the §12 foul even when the panel only set "carom" (not also "touched #10")."""
    m = _restricted()
    out = m.play(ShotReport(1, carom_on_ten=True, as_called=True))
    assert [e.detail for e in out.of_kind(EffectKind.FOUL)] == [Foul.TEN_TOUCHED.value]
    assert m.state.to_play == 0 and cites(out, "hundred 12")


def test_hundred_11_carom_without_touched_ten_counts_and_is_no_foul() -> None:
    """hundred 11, hundred 12(a): outside the §15/§17 hand the called carom is productive and its touch excused."""
    m = broken()
    out = m.play(ShotReport(1, carom_on_ten=True, as_called=True))
    assert not out.of_kind(EffectKind.FOUL) and m.state.to_play == 1 and m.state.get("privilege") is True


def test_hundred_17_carom_after_a_failed_double_call_touches_ten() -> None:
    """hundred 17: the opponent's hand after a failed double call is restricted like §15: a carom is a §12 touch."""
    m = broken()
    m.play(ShotReport(1, declarations=(call(12, R), call(0, R, DeclarationKind.CUE_BALL)), pocketed=(pot(0, R),)))
    assert m.state.to_play == 0 and m.state.hand_rule == "restricted"
    out = m.play(ShotReport(0, carom_on_ten=True))
    assert [e.detail for e in out.of_kind(EffectKind.FOUL)] == [Foul.TEN_TOUCHED.value]


def test_hundred_14_ten_returned_from_a_shelf_is_not_put_back_again() -> None:
    """hundred 14, hundred 13: #10 waited off its spot, was then legally pocketed and later came back to the centre
    spot as the lowest ball of a fouling shelf. A later shot that never touches it says nothing about #10."""
    m = broken()
    out = m.play(ShotReport(1, ten_off_spot=True, centre_spot_taken=True, cushions=2))  # #10 waits off its spot
    assert m.state.get("ten_off_spot") is True and cites(out, "hundred 14")
    run(m, 0, [TEN])  # legally pocketed by a numbered ball (called, not direct): 10 points
    assert m.state.shelves[0] == (TEN,) and m.state.get("ten_off_spot") is None
    out = m.play(ShotReport(0, fouls=frozenset({Foul.TOUCH})))  # §18: the lowest shelf ball, #10, goes back (§13)
    assert TEN in m.state.on_table and (TEN, Spot.CENTRE.value) in m.state.placed and _ten_spotted(out)
    out = m.play(ShotReport(1, cushions=2))  # a safety that never touches #10
    assert not _ten_spotted(out) and not any(e.ball == TEN for e in out.effects)
    assert m.state.get("ten_off_spot") is None
