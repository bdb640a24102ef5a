"""Deterministic workflow ids: the same request always names the same Temporal execution."""

from __future__ import annotations

import hashlib

TASK_QUEUE = "jobctrl-default"
AUTO_APPLY_LOOP_ID = "apply-auto-local"
DISCOVERY_SCHEDULE_ID = "jobctrl-discovery-local"


def discover_workflow_id(tenant: str) -> str:
    return f"discover-{tenant}"


def apply_workflow_id(tenant: str, job_id: str) -> str:
    return f"apply-{tenant}-{job_id}"


def contact_research_workflow_id(tenant: str, task_id: str) -> str:
    return f"contact-research-{tenant}-{task_id}"


def preparation_idempotency_key(
    tenant: str, job_id: str, kind: str, target_version: int | None, source_event_id: str
) -> str:
    """``preparation:`` + sha256 over the five facts that make one preparation request unique.

    Parts are length-prefixed so ("a", "bc") and ("ab", "c") can never collide.
    """
    digest = hashlib.sha256()
    for part in (
        tenant,
        job_id,
        kind,
        "" if target_version is None else str(target_version),
        source_event_id,
    ):
        encoded = part.encode()
        digest.update(len(encoded).to_bytes(4, "big"))
        digest.update(encoded)
    return f"preparation:{digest.hexdigest()}"


def preparation_workflow_id(idempotency_key: str) -> str:
    return f"prep-{idempotency_key}"
