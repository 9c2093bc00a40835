"""100 points, the control ball #10 (§11-§14): touching it, the carom and its privilege, pocketing it, its way
back to the centre spot; then cases a referee meets (issue 13 item 7): the carom's touch, #10's way back."""

from __future__ import annotations

import pytest

from shared_rules import DeclarationKind, EffectKind, Foul, IllegalInputError, ShotReport, Spot
from shared_rules.hundred_input import TEN
from tests.rules.helpers import cites
from tests.rules.helpers_hundred import R, broken, call, foul_reasons, pot, restricted, run

# -- §11-§14: the control ball -------------------------------------------------------------------------------


def test_hundred_12_cue_ball_touching_ten_is_a_foul() -> None:
    """hundred A-100-3: the 'white' cue ball of §12 is the yellow; touching #10 is Foul.TEN_TOUCHED."""
    m = broken()
    run(m, 1, [5])
    out = m.play(ShotReport(1, first_contact=TEN, cushions=2))
    assert [e.detail for e in out.of_kind(EffectKind.FOUL)] == [Foul.TEN_TOUCHED.value]
    assert foul_reasons(out) == ["hundred 12"] and m.state.shelves[1] == () and 5 in m.state.on_table


def test_hundred_11_carom_on_ten_keeps_the_turn_and_gives_the_privilege() -> None:
    """hundred A-100-4: one privilege, for the next shot only; hundred 12:
    the carom's own touch is no foul."""
    m = broken()
    out = m.play(ShotReport(1, carom_on_ten=True, touched_ten=True, as_called=True))
    assert not out.of_kind(EffectKind.FOUL) and m.state.to_play == 1 and cites(out, "hundred 11")
    out = m.play(ShotReport(1, touched_ten=True, cushions=2))  # the privileged shot: touching #10 is allowed
    assert not out.of_kind(EffectKind.FOUL) and m.state.to_play == 0
    out = m.play(ShotReport(0, touched_ten=True, cushions=2))  # the privilege is gone
    assert out.of_kind(EffectKind.FOUL)


def test_hundred_13_ten_pocketed_by_a_numbered_ball_counts_ten_and_leaves() -> None:
    """hundred A-100-2: #10 legally pocketed is worth 10 and does not come back."""
    m = broken()
    out = m.play(ShotReport(1, declarations=(call(TEN, R),), pocketed=(pot(None, R, direct=False),)))
    assert m.state.shelves[1] == (TEN,) and m.state.scores == (0, 10) and TEN not in m.state.on_table
    assert cites(out, "hundred 13")


def test_hundred_13_ten_with_the_cue_ball_needs_the_privilege() -> None:
    m = broken()
    out = m.play(ShotReport(1, declarations=(call(TEN, R),), pocketed=(pot(TEN, R, direct=True),)))
    assert out.of_kind(EffectKind.FOUL) and TEN in m.state.on_table and m.state.scores == (0, 0)
    m.play(ShotReport(0, rokambol_on_ten=True))
    m.play(ShotReport(0, declarations=(call(TEN, R),), pocketed=(pot(TEN, R, direct=True),)))
    assert m.state.shelves[0] == (TEN,)


def test_hundred_13_ten_goes_back_to_the_centre_when_lowest_on_a_fouling_shelf() -> None:
    m = broken()
    run(m, 1, [TEN, 12])
    out = m.play(ShotReport(1, fouls=frozenset({Foul.TOUCH})))
    assert m.state.shelves[1] == (12,) and m.state.scores == (0, 12) and TEN in m.state.on_table
    assert any(
        e.kind is EffectKind.SPOT and e.ball == TEN and e.spot == Spot.CENTRE.value for e in out.effects
    )


def test_hundred_14_ten_waits_while_the_centre_spot_is_taken() -> None:
    m = broken()
    m.play(ShotReport(1, pocketed=(pot(TEN, R),), centre_spot_taken=True))  # uncalled: does not count
    s = m.state
    assert s.pocketed == (TEN,) and TEN not in s.on_table and s.scores == (0, 0)
    with pytest.raises(IllegalInputError):
        m.play(ShotReport(0, declarations=(call(TEN),)))  # it is not on the table
    out = m.play(ShotReport(0, cushions=2))
    assert m.state.pocketed == () and TEN in m.state.on_table and cites(out, "hundred 14")


def test_hundred_14_ten_knocked_off_goes_back_after_the_shot() -> None:
    m = broken()
    out = m.play(ShotReport(1, ten_off_spot=True, centre_spot_taken=True, cushions=2))
    assert m.state.get("ten_off_spot") is True and cites(out, "hundred 14")
    out = m.play(ShotReport(0, cushions=2))
    assert m.state.get("ten_off_spot") is None
    assert any(e.ball == TEN and e.spot == Spot.CENTRE.value for e in out.effects)


def test_hundred_12_carom_from_restricted_hand_is_not_excused() -> None:
    """hundred 15: from §15/§17 hand the carom on #10 does not count,
    so its touch of #10 is not excused (§12(a))."""
    m = restricted()
    out = m.play(ShotReport(1, carom_on_ten=True, touched_ten=True, as_called=True))
    assert [e.detail for e in out.of_kind(EffectKind.FOUL)] == [
        Foul.TEN_TOUCHED.value
    ] and m.state.to_play == 0


# -- cases a referee meets (issue 13 item 7) -----------------------------------------------------------------


def _ten_spotted(out: object) -> bool:
    return any(e.kind is EffectKind.SPOT and e.ball == TEN for e in out.effects)  # type: ignore[attr-defined]


def test_hundred_12_carom_without_touched_ten_is_still_a_touch_from_restricted_hand() -> None:
    """hundred 12, hundred 15: the carom on #10 IS the cue ball hitting #10. From §15/§17 hand the carom does
    not count, so its touch is the §12 foul even when the panel only set "carom" (not also "touched #10")."""
    m = restricted()
    out = m.play(ShotReport(1, carom_on_ten=True, as_called=True))
    assert [e.detail for e in out.of_kind(EffectKind.FOUL)] == [Foul.TEN_TOUCHED.value]
    assert m.state.to_play == 0 and cites(out, "hundred 12")


def test_hundred_11_carom_without_touched_ten_counts_and_is_no_foul() -> None:
    """hundred 11, hundred 12(a): outside the §15/§17 hand the called carom is
    productive and its touch excused."""
    m = broken()
    out = m.play(ShotReport(1, carom_on_ten=True, as_called=True))
    assert not out.of_kind(EffectKind.FOUL) and m.state.to_play == 1 and m.state.get("privilege") is True


def test_hundred_17_carom_after_a_failed_double_call_touches_ten() -> None:
    """hundred 17: the opponent's hand after a failed double call is restricted
    like §15: a carom is a §12 touch."""
    m = broken()
    m.play(
        ShotReport(1, declarations=(call(12, R), call(0, R, DeclarationKind.CUE_BALL)), pocketed=(pot(0, R),))
    )
    assert m.state.to_play == 0 and m.state.hand_rule == "restricted"
    out = m.play(ShotReport(0, carom_on_ten=True))
    assert [e.detail for e in out.of_kind(EffectKind.FOUL)] == [Foul.TEN_TOUCHED.value]


def test_hundred_14_ten_returned_from_a_shelf_is_not_put_back_again() -> None:
    """hundred 14, hundred 13: #10 waited off its spot, was then legally pocketed and later came back to the
    centre spot as the lowest ball of a fouling shelf. A later shot that never touches
    it says nothing about #10."""
    m = broken()
    # #10 waits off its spot
    out = m.play(ShotReport(1, ten_off_spot=True, centre_spot_taken=True, cushions=2))
    assert m.state.get("ten_off_spot") is True and cites(out, "hundred 14")
    run(m, 0, [TEN])  # legally pocketed by a numbered ball (called, not direct): 10 points
    assert m.state.shelves[0] == (TEN,) and m.state.get("ten_off_spot") is None
    # §18: the lowest shelf ball, #10, goes back (§13)
    out = m.play(ShotReport(0, fouls=frozenset({Foul.TOUCH})))
    assert TEN in m.state.on_table and (TEN, Spot.CENTRE.value) in m.state.placed and _ten_spotted(out)
    out = m.play(ShotReport(1, cushions=2))  # a safety that never touches #10
    assert not _ten_spotted(out) and not any(e.ball == TEN for e in out.effects)
    assert m.state.get("ten_off_spot") is None
