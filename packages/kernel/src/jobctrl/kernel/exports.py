"""A context's public face, resolved lazily: ``import jobctrl.<context>`` imports nothing else.

Each context's ``__init__`` lists what a caller may use (its use cases, ports and domain types) and
the module defining each; a name is imported on first access, so importing a context's ``events``
(as the projections and Temporal's workflow sandbox do) never pulls in its aggregates or adapters::

    _EXPORTS = {"score_job": "jobctrl.scoring.use_cases.score_job", ...}   # or "module:attribute"
    __getattr__ = lazy_exports(__name__, _EXPORTS)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """The module ``__getattr__`` of ``package`` resolving each name of ``exports`` from its module
    (``"module"``: the same name there; ``"module:attribute"``: that attribute, exported as the name)."""

    def resolve(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        path, _, attribute = module.partition(":")
        return getattr(importlib.import_module(path), attribute or name)

    return resolve
