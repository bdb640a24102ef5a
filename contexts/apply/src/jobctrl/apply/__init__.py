"""The apply bounded context.

The public face callers outside the context may use (resolved lazily, so importing
``jobctrl.apply.events`` imports nothing else; ADR 0120):

* ``application_repository(store, clock, tenant_id)`` — the job-application repository.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jobctrl.apply.use_cases._common import jobs as application_repository

_EXPORTS: dict[str, tuple[str, str]] = {
    "application_repository": ("jobctrl.apply.use_cases._common", "jobs"),
}

__all__ = ["application_repository"]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'jobctrl.apply' has no attribute {name!r}")
    module, attribute = _EXPORTS[name]
    return getattr(importlib.import_module(module), attribute)
