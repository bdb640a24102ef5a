"""The user's sources as the runtime sees them: the registry's catalog, and the one-time import of a
legacy ``$JOBCTRL_HOME/sources.json`` (ADR 0150).

``registry_catalog(store)`` is the ``SourceCatalog`` the worker hands Discover: every call reads the
source registry, so a source added while the worker runs is crawled by the next plan.  The legacy file
is registered through ``import_sources`` and then renamed ``sources.json.imported``: a second start
finds nothing to import, and the file is never read again.  A file that cannot be decoded is left
in place and reported (a ``ConfigurationError``), with nothing registered.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import msgspec

from jobctrl.discovery import SourceConfig, import_sources, registered_sources
from jobctrl.discovery.activities import SourceCatalog
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.errors import ConfigurationError
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore

LEGACY_FILE = "sources.json"
RETIRED_SUFFIX = ".imported"


def registry_catalog(store: EventStore) -> SourceCatalog:
    def load() -> Sequence[SourceConfig]:
        return registered_sources(store)

    return load


def import_legacy_sources(
    store: EventStore, home: Path, *, clock: Clock, tenant_id: str = LOCAL_TENANT
) -> int | None:
    """Register ``home/sources.json`` once and retire it; None when there is no such file."""
    path = home / LEGACY_FILE
    if not path.exists():
        return None
    try:
        configs = msgspec.json.decode(path.read_bytes(), type=list[SourceConfig])
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise ConfigurationError(f"{path}: not a list of sources ({exc})") from None
    created = import_sources(store, configs, clock=clock, tenant_id=tenant_id)
    path.rename(path.with_name(LEGACY_FILE + RETIRED_SUFFIX))
    return created
