"""The match log's input codec: every `Input` to a JSON-able dict and back, strictly.

`{"type": "shot", "shooter": 0, "pocketed": [{"pocket": 5}], ...}`; enums by value; fields left at their
default are omitted. Reading rejects an unknown type or field, a wrong type, or a value outside its enum
(pocket 7) with a `MalformedInputError` that names the field. The field list comes from the dataclasses in
`model.py`, so a field added there (with a default) is carried without touching this module.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from enum import Enum
from typing import Any

from .errors import MalformedInputError
from .model import Choose, Concede, Identify, Input, Interference, Lag, RefereeDecision, ShotReport

TYPES: dict[str, type] = {
    "shot": ShotReport,
    "lag": Lag,
    "choose": Choose,
    "interference": Interference,
    "concede": Concede,
    "referee_decision": RefereeDecision,
    "identify": Identify,
}
_NAMES: dict[type, str] = {cls: name for name, cls in TYPES.items()}
_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    h = _HINTS.get(cls)
    if h is None:
        h = typing.get_type_hints(cls)
        _HINTS[cls] = h
    return h


def input_to_dict(inp: Input) -> dict[str, Any]:
    """The dict form of an input (for the log)."""
    name = _NAMES.get(type(inp))
    if name is None:
        raise MalformedInputError(f"not an input: {inp!r}", f"это не ввод: {inp!r}")
    out: dict[str, Any] = {"type": name}
    out.update(_encode_fields(inp))
    return out


def _encode_fields(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if f.default is not dataclasses.MISSING and value == f.default:
            continue
        if f.default_factory is not dataclasses.MISSING and value == f.default_factory():
            continue
        out[f.name] = _encode(value)
    return out


def _encode(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _encode_fields(value)
    if isinstance(value, frozenset):
        return sorted(_encode(v) for v in value)
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    return value


def input_from_dict(d: object) -> Input:
    """The input a dict describes; MalformedInputError naming the field if it is not exactly right."""
    if not isinstance(d, dict):
        raise MalformedInputError(f"input: expected an object, got {type(d).__name__}")
    kind = d.get("type")
    cls = TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise MalformedInputError(
            f"type: unknown input type {kind!r}; known: {', '.join(TYPES)}",
            f"type: неизвестный тип ввода {kind!r}",
        )
    body = {k: v for k, v in d.items() if k != "type"}
    return typing.cast(Input, _decode_dataclass(cls, body, ""))


def _decode_dataclass(cls: type, data: object, path: str) -> Any:
    if not isinstance(data, dict):
        raise MalformedInputError(f"{path or cls.__name__}: expected an object, got {data!r}")
    hints = _hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    for key in data:
        if key not in names:
            where = f"{path}.{key}" if path else key
            raise MalformedInputError(
                f"{where}: unknown field of {cls.__name__}", f"{where}: неизвестное поле {cls.__name__}"
            )
    kwargs = {}
    for key, value in data.items():
        where = f"{path}.{key}" if path else key
        kwargs[key] = _decode(hints[key], value, where)
    try:
        return cls(**kwargs)
    except TypeError as e:  # a required field is missing
        raise MalformedInputError(f"{path or cls.__name__}: {e}") from None


def _decode(tp: Any, value: object, path: str) -> Any:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if value is None and type(None) in args:
            return None
        real = [a for a in args if a is not type(None)]
        if len(real) == 1:
            return _decode(real[0], value, path)
        raise MalformedInputError(f"{path}: cannot decode a union")  # not used by the model
    if origin is tuple:
        if not isinstance(value, list):
            raise MalformedInputError(f"{path}: expected a list, got {value!r}")
        item = typing.get_args(tp)[0]
        return tuple(_decode(item, v, f"{path}[{i}]") for i, v in enumerate(value))
    if origin is frozenset:
        if not isinstance(value, list):
            raise MalformedInputError(f"{path}: expected a list, got {value!r}")
        item = typing.get_args(tp)[0]
        return frozenset(_decode(item, v, f"{path}[{i}]") for i, v in enumerate(value))
    if isinstance(tp, type) and issubclass(tp, Enum):
        try:
            return tp(value)
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in tp)
            raise MalformedInputError(
                f"{path}: {value!r} is not a {tp.__name__}; allowed: {allowed}",
                f"{path}: {value!r} — недопустимое значение; можно: {allowed}",
            ) from None
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _decode_dataclass(tp, value, path)
    if tp is bool:
        if type(value) is not bool:
            raise MalformedInputError(f"{path}: expected true/false, got {value!r}")
        return value
    if tp is int:
        if type(value) is not int:
            raise MalformedInputError(f"{path}: expected an integer, got {value!r}")
        return value
    if tp is str:
        if type(value) is not str:
            raise MalformedInputError(f"{path}: expected a string, got {value!r}")
        return value
    raise MalformedInputError(f"{path}: unsupported field type {tp!r}")


# An option's type as a person reads it in an error (en, ru):
# "должен быть целым числом", not "должен быть int".
_TYPE_NAMES: dict[type, tuple[str, str]] = {
    int: ("int", "целым числом"),
    bool: ("bool (true or false)", "да или нет"),
    str: ("str (text)", "текстом"),
    float: ("float (a number)", "числом"),
}


def merge_options(
    variant: str, defaults: Mapping[str, object], given: Mapping[str, object] | None
) -> dict[str, object]:
    """A match's options: the variant's `defaults` with the `given` ones put in, strictly (an unknown option
    or a value of another type than its default is a `MalformedInputError`); `Variant.check_options` checks
    the values."""
    merged = dict(defaults)
    for key, value in (given or {}).items():
        if key not in merged:
            known = ", ".join(sorted(merged))
            raise MalformedInputError(
                f"option {key!r} is not an option of {variant}; known: {known}",
                f"у разновидности {variant} нет параметра {key!r}; есть: {known}",
            )
        default = merged[key]
        if type(value) is not type(default):
            en_type, ru_type = _TYPE_NAMES.get(type(default), (type(default).__name__, "другого типа"))
            raise MalformedInputError(
                f"option {key!r} must be {en_type}, got {value!r}",
                f"параметр {key!r} должен быть {ru_type}, получено {value!r}",
            )
        merged[key] = value
    return merged
