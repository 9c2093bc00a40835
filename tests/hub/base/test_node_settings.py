"""hub.config.NodeSettings (the type of a node's config.json on the hub's side) has the keys of the firmware's
own DEFAULTS (firmware/config.py), section by section, and each default has the type the hub gives it."""

from __future__ import annotations

import typing

import pytest

from firmware import config as fw
from hub import config

SECTIONS = {
    "wifi": config.NodeWifi,
    "broker": config.NodeBroker,
    "serial": config.NodeSerial,
    "beam": config.NodeBeam,
    "colour": config.NodeColour,
    "cue": config.NodeCue,
    "outbox": config.NodeOutbox,
}


def fits(value: object, hint: object) -> bool:
    """Does a default fit a scalar hint (a float takes an int, as JSON does; a bool is not a number)?"""
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(hint, type):
        return isinstance(value, hint)
    return isinstance(value, typing.get_origin(hint) or object)


def test_the_top_level_keys_are_the_firmwares() -> None:
    assert set(typing.get_type_hints(config.NodeSettings)) == set(fw.DEFAULTS)


@pytest.mark.parametrize("name", sorted(SECTIONS))
def test_each_section_has_the_firmwares_keys_and_types(name: str) -> None:
    hints = typing.get_type_hints(SECTIONS[name])
    assert set(hints) == set(fw.DEFAULTS[name])
    wrong = {k: v for k, v in fw.DEFAULTS[name].items() if not fits(v, hints[k])}
    assert wrong == {}


def test_a_pocket_entry_has_the_firmwares_keys() -> None:
    hints = typing.get_type_hints(config.NodePocket)
    (entry,) = fw.DEFAULTS["pockets"]
    assert set(hints) == set(entry)
    # `colour` may be left out (validate reads it with a default)
    extras = typing.get_type_hints(config.NodePocket, include_extras=True)
    assert [k for k, h in extras.items() if typing.get_origin(h) is typing.NotRequired] == ["colour"]


def test_a_scalar_default_fits_its_top_level_type() -> None:
    hints = typing.get_type_hints(config.NodeSettings)
    scalars = {k: v for k, v in fw.DEFAULTS.items() if not isinstance(v, (dict, list))}
    assert scalars and all(fits(v, hints[k]) for k, v in scalars.items())


def test_a_default_of_the_wrong_type_would_be_seen() -> None:
    assert not fits(True, int) and not fits("30", float) and not fits(1, str) and fits(30, float)
