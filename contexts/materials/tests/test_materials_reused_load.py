"""``decide_and_save(..., loaded)``: the aggregate a use case loaded for its checks is decided on and
its save is the check (ADR 0375).  A write by another writer (here another store over the same
database, as another process would be) since that load is never overwritten or missed."""

from __future__ import annotations

import pytest

from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.origin import WriteOrigin
from jobctrl.kernel.store import EventStore
from jobctrl.materials.domain.aggregate import ArtifactType, JobMaterials
from jobctrl.materials.use_cases._common import decide_and_save, repository

pytestmark = [pytest.mark.integration, pytest.mark.both_databases]
AT = "2026-01-01T00:00:00.000Z"


def _approved(store: EventStore, artifact_id: str) -> None:
    def approve(m: JobMaterials) -> bool:
        return m.approve_resume(artifact_id, 3, AT)

    decide_and_save(repository(store, FixedClock()), "job-1", approve, WriteOrigin())


def test_a_write_since_the_callers_load_is_decided_again_on_the_stored_state(
    store: EventStore, other_store: EventStore
) -> None:
    _approved(store, "resume-a")
    repo = repository(store, FixedClock())
    loaded = repo.get("job-1")
    decisions: list[int] = []
    _approved(other_store, "resume-b")  # another process, after our load

    def render(m: JobMaterials) -> bool:
        decisions.append(m.version)
        return m.record_pdf(ArtifactType.RESUME, "pdf-1", AT)

    materials, recorded = decide_and_save(repo, "job-1", render, WriteOrigin(), loaded)
    assert recorded and decisions == [2, 4]  # the stale decision's save conflicted
    stored = repository(other_store, FixedClock()).get("job-1")
    assert stored.version == 5 == materials.version
    assert stored.resume_artifact_id == "resume-b" and "pdf-1" in stored.rendered


def test_an_unchanged_stream_is_saved_from_the_callers_load_alone(store: EventStore) -> None:
    _approved(store, "resume-a")
    repo = repository(store, FixedClock())
    loaded = repo.get("job-1")
    decisions: list[int] = []

    def render(m: JobMaterials) -> bool:
        decisions.append(m.version)
        return m.record_pdf(ArtifactType.RESUME, "pdf-1", AT)

    materials, recorded = decide_and_save(repo, "job-1", render, WriteOrigin(), loaded)
    assert recorded and decisions == [2] and materials is loaded and loaded.version == 3


def test_a_no_op_on_the_callers_load_is_decided_again_on_the_stored_state(
    store: EventStore, other_store: EventStore
) -> None:
    _approved(store, "resume-a")
    repo = repository(store, FixedClock())
    loaded = repo.get("job-1")  # resume-a is current here: approving it again is a no-op
    _approved(other_store, "resume-b")  # ...but not any more in the store

    def approve(m: JobMaterials) -> bool:
        return m.approve_resume("resume-a", 3, AT)

    materials, approved = decide_and_save(repo, "job-1", approve, WriteOrigin(), loaded)
    assert approved and materials.generation == 3
    assert repository(other_store, FixedClock()).get("job-1").resume_artifact_id == "resume-a"
