"""A foul or fact the variant does not have is refused with a sentence naming what it has (its profile,
shared_rules/profile.py), and changes nothing; the same action in its own variant is taken."""

from __future__ import annotations

import dataclasses

import pytest

from hub.view.build import scoreboard
from hub.vocab.checks import RefereeInputError
from shared_rules.model import Foul
from shared_rules.profile import GENERAL_FOULS
from tests.hub import toy_variant
from tests.hub.tablekit import Kit, session


def test_another_variants_own_foul_is_refused_and_changes_nothing() -> None:
    k = Kit()
    s = session("free", [k.ref("lag", 500, winner=0), k.strike(1000)])
    before = scoreboard(s)
    with pytest.raises(RefereeInputError) as refused:
        s.apply(k.ref("foul", 2000, foul="ten_touched"))  # 100 points §12, not a foul of Free
    assert refused.value.code == "refused" and refused.value.field == "foul"
    assert "ten_touched (100 12) is not a foul of free" in refused.value.en and "miss" in refused.value.en
    assert "не нарушение варианта free" in refused.value.ru
    assert scoreboard(s)["shot"] == before["shot"]
    s.apply(k.ref("foul", 2100, foul="miss"))  # a general foul is taken
    assert "miss" in scoreboard(s)["shot"]["fouls"]


def test_the_same_foul_in_its_own_variant_is_taken() -> None:
    k = Kit()
    s = session("hundred", [k.ref("lag", 500, winner=0), k.strike(1000)])
    s.apply(k.ref("foul", 2000, foul="ten_touched"))
    assert "ten_touched" in scoreboard(s)["shot"]["fouls"]


def test_a_fact_the_variant_never_needs_is_refused_but_taking_one_back_is_not() -> None:
    k = Kit()
    s = session("free", [k.ref("lag", 500, winner=0), k.strike(1000)])
    with pytest.raises(RefereeInputError) as refused:
        s.apply(k.ref("fact", 2000, name="touched_ten", value=True))
    assert refused.value.field == "name" and "fact 'touched_ten' does not apply in free" in refused.value.en
    assert "cushions" in refused.value.en and "не относится к варианту free" in refused.value.ru
    s.apply(k.ref("fact", 2100, name="touched_ten", value=False))  # withdrawing is always fine
    s.apply(k.ref("fact", 2200, name="cushions", value=2))  # general 20: every variant
    assert scoreboard(s)["shot"]["facts"].get("cushions") == 2


class ToyWithDoubleHit(toy_variant.Toy):
    """The toy with an own foul of its own: a double hit (18) its referee calls by hand."""

    name = "toy_double_hit"
    PROFILE = dataclasses.replace(toy_variant.Toy.PROFILE, fouls=(*GENERAL_FOULS, Foul.DOUBLE_HIT))


def test_a_variant_registered_after_import_owns_its_fouls() -> None:
    k = Kit()
    free = session("free", [k.ref("lag", 500, winner=0), k.strike(1000)])
    free.apply(k.ref("foul", 2000, foul="double_hit"))  # no variant owns it yet: not refused
    with toy_variant.registered(ToyWithDoubleHit):
        toy = session(
            ToyWithDoubleHit.name,
            [k.ref("lag", 500, winner=0), k.ref("declare", 900, ball=6, pocket=1), k.strike(1000)],
        )
        toy.apply(k.ref("foul", 2000, foul="double_hit"))  # its own foul is taken in its own variant
        assert "double_hit" in scoreboard(toy)["shot"]["fouls"]
        s = session("free", [k.ref("lag", 500, winner=0), k.strike(1000)])
        with pytest.raises(RefereeInputError) as refused:  # ... and refused in another
            s.apply(k.ref("foul", 2000, foul="double_hit"))
        assert "double_hit (18) is not a foul of free" in refused.value.en
    again = session("free", [k.ref("lag", 500, winner=0), k.strike(1000)])
    again.apply(k.ref("foul", 2000, foul="double_hit"))  # unregistered: no one owns it again
    assert "double_hit" in scoreboard(again)["shot"]["fouls"]
