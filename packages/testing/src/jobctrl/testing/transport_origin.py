"""A leaked asyncio socket transport names the test that opened it.

An asyncio transport that is garbage-collected while its socket is still open warns (``ResourceWarning:
unclosed transport …``) from its ``__del__``, i.e. at whatever moment the collector frees it.  In this
session that is mostly the full collection run *between* tests (``gc_between_tests``, ADR 0410), so
pytest reports the warning, an error under ``filterwarnings = error``, at the setup of the *next*
test, which did nothing wrong (CI, stop 27: ``test_an_opening_without_its_parts_is_refused_at_build``
failed with a transport some earlier test left ``closing``).

Loaded with ``-p jobctrl.testing.transport_origin``: each selector transport records the node id of
the test running when it was made, and its ``repr`` (which the warning prints) ends with
``opened in <node id>``.  The warning stays an error; it now points at the test to fix.
"""

from __future__ import annotations

from asyncio import selector_events
from collections.abc import Iterator
from typing import Any

import pytest

_Transport: Any = getattr(selector_events, "_SelectorTransport")  # noqa: B009 (private: not in typeshed)
_running = {"test": ""}
_original_init = _Transport.__init__
_original_repr = _Transport.__repr__


def _init(self: Any, *args: Any, **kwargs: Any) -> None:
    _original_init(self, *args, **kwargs)
    self._jobctrl_opened_in = _running["test"] or "(between tests)"


def _repr(self: Any) -> str:
    opened_in = getattr(self, "_jobctrl_opened_in", None)
    base: str = _original_repr(self)
    return base if opened_in is None else f"{base[:-1]} opened in {opened_in}>"


def opened_in(transport: object) -> str | None:
    """The node id of the test that opened ``transport`` (None: opened before this plugin loaded)."""
    value = getattr(transport, "_jobctrl_opened_in", None)
    return value if isinstance(value, str) else None


def pytest_configure(config: pytest.Config) -> None:
    _Transport.__init__ = _init
    _Transport.__repr__ = _repr


def pytest_unconfigure(config: pytest.Config) -> None:
    _Transport.__init__ = _original_init
    _Transport.__repr__ = _original_repr


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    _running["test"] = item.nodeid
    try:
        return (yield)
    finally:
        _running["test"] = ""
