"""Where a write comes from: the one write-origin type every context's use cases take (ADR 0185)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jobctrl.kernel.ids import LOCAL_TENANT


@dataclass(frozen=True)
class WriteOrigin:
    """Who is writing (the Temporal workflow id, run id and attempt), stored as event metadata, and
    for which tenant (the envelope's ``tenant_id``).  Unset fields are left out of the metadata, which
    omits them anyway, so an origin stores exactly what the envelope would without it."""

    workflow_id: str | None = None
    run_id: str | None = None
    attempt: int | None = None
    tenant_id: str = LOCAL_TENANT

    def metadata(self) -> dict[str, Any]:
        """The envelope fields to save with (``repo.save(aggregate, **origin.metadata())``)."""
        return {k: v for k, v in vars(self).items() if v is not None and k != "tenant_id"}


#: No workflow behind the write (a CLI command, an HTTP request, a test).
NO_ORIGIN = WriteOrigin()
