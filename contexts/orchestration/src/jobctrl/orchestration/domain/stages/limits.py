"""Attempt limits per stage and the stages whose running writes must carry an owner."""

from __future__ import annotations

from typing import Final

from jobctrl.kernel.stages import Stage

# The reference's stage-row limits.  Discover has no row limit there; 3 matches its activity policy.
MAX_ATTEMPTS: Final[dict[Stage, int]] = {
    "discover": 3,
    "enrich": 5,
    "score": 3,
    "tailor": 5,
    "cover": 5,
    "apply": 3,
}

OWNED_STAGES: Final[frozenset[Stage]] = frozenset({"score", "tailor", "cover"})

# A failed or exhausted Tailor blocks these when they have not started.
TAILOR_DEPENDENTS: Final[tuple[Stage, ...]] = ("cover", "apply")
UPSTREAM_TAILOR_FAILED: Final = "UPSTREAM_TAILOR_FAILED"
UPSTREAM_TAILOR_EXHAUSTED: Final = "UPSTREAM_TAILOR_EXHAUSTED"
TAILOR_BLOCK_CODES: Final[frozenset[str]] = frozenset({UPSTREAM_TAILOR_FAILED, UPSTREAM_TAILOR_EXHAUSTED})
OWNER_RECONCILED_UNCOMMITTED: Final = "OWNER_RECONCILED_UNCOMMITTED"
