"""Proving an event will decode under its own schema without decoding it, where that is cheap and exact.

The append path's typed re-decode (``registry.validate``) is the one check of an event's field types
and constraints: msgspec checks neither when a ``Struct`` is constructed, so ``JobDiscovered(job_id=5)``
is a valid Python object whose payload no reader could decode.  For most event classes the decode is
a roundabout way of asking "is every field of the type its annotation says", which a handful of
``type(...) is ...`` tests answer in a fifth of the time (ADR 0405).

``plain_check(cls)`` decides once per class.  It returns a function ``check(event) -> bool`` whose
``True`` is **sufficient** for ``msgspec.json.Decoder(cls).decode(encode(event))`` to succeed, or
``None`` when the class has a field the check cannot prove that way (a float that could be NaN, a
``Meta`` constraint it does not model, an enum, a ``__post_init__`` that decode would run, …); those
classes keep the full decode.  A ``False`` proves nothing either way: the caller decodes, and the
decode's error is the one raised.  So a check may be stricter than the schema (an exact ``type(v) is
str``, never ``isinstance``), never looser.

What a field may be, and the test that proves it decodes (every ``Meta`` bound on these is modelled
or the class is refused):

* ``str`` (``min_length``/``max_length`` modelled with ``len``; a ``pattern`` refuses the class):
  exactly ``str``.
* ``int`` (``ge``/``gt``/``le``/``lt`` modelled; ``multiple_of`` refuses), ``bool``, ``None``:
  exactly that type (``True`` is not an ``int`` here; msgspec's decode of an ``int`` has no range).
* ``float`` without bounds: exactly ``float`` and finite (``v - v == 0``; msgspec encodes NaN and
  infinities as ``null``, which no ``float`` decodes).
* ``Literal[...]`` of ``str``/``int`` values: exactly ``str``/``int`` and one of the values.
* ``dict[str, Any]`` without length bounds: exactly ``dict`` (JSON keys are strings, and a key that
  is neither text nor a number makes the encode itself raise; any JSON decodes as ``Any``).
* ``list[T]`` without length bounds, ``T`` exactly ``str``, ``int`` or ``bool``: exactly ``list``
  of exactly those.
* a nested ``Struct`` whose own fields pass these rules: exactly that class, checked the same way.
* ``Any``: anything the encoder accepts.
* a union of the above: any one member's test (msgspec allows one member per JSON kind, so a value
  that decodes as a member decodes as the union).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec.inspect as mi

Check = Callable[[Any], bool]

_SCALARS: dict[type[mi.Type], type] = {mi.StrType: str, mi.IntType: int, mi.BoolType: bool}
_NO_BOUNDS = ("min_length", "max_length", "ge", "gt", "le", "lt", "multiple_of", "pattern")


class _Refuse(Exception):
    """A field the plain check cannot prove: the class keeps the full decode."""


class _Builder:
    def __init__(self) -> None:
        self.names: dict[str, Any] = {}
        self.structs: dict[type, str] = {}  # class -> the name of its check function (nesting)

    def bind(self, value: Any) -> str:
        name = f"_v{len(self.names)}"
        self.names[name] = value
        return name

    def term(self, value: str, t: mi.Type) -> str:
        """A Python expression over ``value`` (an expression itself) that proves ``t`` decodes."""
        if isinstance(t, mi.AnyType):
            return "True"
        if isinstance(t, mi.NoneType):
            return f"{value} is None"
        if isinstance(t, mi.StrType):
            if t.pattern is not None:
                raise _Refuse
            return self._sized(f"type({value}) is str", value, t.min_length, t.max_length)
        if isinstance(t, mi.IntType):
            if t.multiple_of is not None:
                raise _Refuse
            bounds = [f"type({value}) is int"]
            for attr, op in (("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<")):
                bound = getattr(t, attr)
                if bound is not None:
                    bounds.append(f"{value} {op} {int(bound)!r}")
            return "(" + " and ".join(bounds) + ")"
        if isinstance(t, mi.BoolType):
            return f"type({value}) is bool"
        if isinstance(t, mi.FloatType):
            if any(getattr(t, a) is not None for a in ("ge", "gt", "le", "lt", "multiple_of")):
                raise _Refuse
            return f"(type({value}) is float and {value} - {value} == 0.0)"
        if isinstance(t, mi.LiteralType):
            kinds = {type(v) for v in t.values}
            if not kinds <= {str, int}:
                raise _Refuse
            allowed = self.bind(frozenset(t.values))
            kind = " or ".join(f"type({value}) is {k.__name__}" for k in sorted(kinds, key=str))
            return f"(({kind}) and {value} in {allowed})"
        if isinstance(t, mi.DictType):
            if t.min_length is not None or t.max_length is not None:
                raise _Refuse
            key = t.key_type
            unbounded_key = isinstance(key, mi.StrType) and (key.min_length, key.max_length, key.pattern) == (
                None,
                None,
                None,
            )
            if not unbounded_key:
                raise _Refuse
            if not isinstance(t.value_type, mi.AnyType):
                raise _Refuse
            return f"type({value}) is dict"
        if isinstance(t, mi.ListType):
            if t.min_length is not None or t.max_length is not None:
                raise _Refuse
            item = t.item_type
            item_kind = _SCALARS.get(type(item))
            if item_kind is None or any(getattr(item, a, None) is not None for a in _NO_BOUNDS):
                raise _Refuse
            only = self.bind(frozenset({item_kind}))
            return f"(type({value}) is list and {only}.issuperset(map(type, {value})))"
        if isinstance(t, mi.StructType):
            cls = self.bind(t.cls)
            return f"(type({value}) is {cls} and {self.struct(t)}({value}))"
        if isinstance(t, mi.UnionType):
            return "(" + " or ".join(self.term(value, member) for member in t.types) + ")"
        raise _Refuse

    @staticmethod
    def _sized(test: str, value: str, least: int | None, most: int | None) -> str:
        parts = [test]
        if least is not None:
            parts.append(f"len({value}) >= {int(least)!r}")
        if most is not None:
            parts.append(f"len({value}) <= {int(most)!r}")
        return "(" + " and ".join(parts) + ")" if len(parts) > 1 else test

    def struct(self, info: mi.StructType) -> str:
        """The name of a function checking every field of ``info``'s class (defined on first use)."""
        cls = info.cls
        if cls in self.structs:
            raise _Refuse  # a recursive type: leave it to the decode
        if "__post_init__" in dir(cls):
            raise _Refuse  # decode runs it: only the decode can prove it passes
        name = f"_s{len(self.structs)}"
        self.structs[cls] = name
        terms = [self.term(f"e.{f.name}", f.type) for f in info.fields if f.name.isidentifier()]
        if len(terms) != len(info.fields):
            raise _Refuse
        body = " and ".join(t for t in terms if t != "True") or "True"
        exec(f"def {name}(e):\n    return {body}\n", self.names)  # built from type info only
        return name


def plain_check(cls: type) -> Check | None:
    """``check(event)``, whose ``True`` proves ``cls``'s typed decode of the event's payload succeeds;
    ``None`` if ``cls`` has a field this cannot prove (the caller then always decodes)."""
    try:
        info = mi.type_info(cls)
    except (TypeError, ValueError):
        return None
    if not isinstance(info, mi.StructType) or info.cls is not cls:
        return None
    builder = _Builder()
    try:
        name = builder.struct(info)
    except _Refuse:
        return None
    check: Check = builder.names[name]
    return check


__all__ = ["Check", "plain_check"]
