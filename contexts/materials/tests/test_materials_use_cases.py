"""The use cases against real stores (SQLite and PostgreSQL): the fold, retries, event metadata."""

from __future__ import annotations

from pathlib import Path
from typing import TypedDict

import pytest

from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.origin import WriteOrigin
from jobctrl.kernel.store import Database, EventStore
from jobctrl.llm.port import NullSpendRecorder
from jobctrl.materials.adapters.artifacts import ArtifactStore
from jobctrl.materials.adapters.offline_writer import OfflineMaterialsWriter
from jobctrl.materials.domain.aggregate import ArtifactType, JobMaterials, RetailorKind
from jobctrl.materials.domain.errors import ArtifactNotFoundError, NoAcceptedResumeError
from jobctrl.materials.domain.sample import sample_posting, sample_profile
from jobctrl.materials.use_cases._common import decide_and_save, repository
from jobctrl.materials.use_cases.render_pdf import RenderPdf, render_pdf
from jobctrl.materials.use_cases.suppress_tailored_artifacts import (
    SuppressTailoredArtifacts,
    suppress_tailored_artifacts,
)
from jobctrl.materials.use_cases.tailor_resume import TailorResume, TailorStatus, tailor_resume
from jobctrl.materials.use_cases.write_cover_letter import CoverStatus, WriteCoverLetter, write_cover_letter

pytestmark = [pytest.mark.integration, pytest.mark.both_databases]


@pytest.fixture
def store(database: Database, db_kind: str) -> EventStore:
    store = EventStore(database, registry())
    store.create_schema()
    return store


class _Ports(TypedDict):
    store: EventStore
    llm: OfflineMaterialsWriter
    artifacts: ArtifactStore
    clock: FixedClock
    spend: NullSpendRecorder | None


def _ports(
    store: EventStore,
    llm: OfflineMaterialsWriter,
    artifacts: ArtifactStore,
    clock: FixedClock,
    spend: NullSpendRecorder | None = None,
) -> _Ports:
    """What the writing use cases are given besides their command (``spend=None`` is their default)."""
    return {"store": store, "llm": llm, "artifacts": artifacts, "clock": clock, "spend": spend}


def test_tailor_then_cover_folds_back_and_records_the_writer(store: EventStore, tmp_path: Path) -> None:
    clock, artifacts, spend = FixedClock(), ArtifactStore(tmp_path), NullSpendRecorder()
    origin = WriteOrigin(workflow_id="prep-job-1", run_id="run-7", attempt=2)
    llm = OfflineMaterialsWriter()
    tailored = tailor_resume(
        TailorResume(sample_profile(), sample_posting(), origin=origin),
        **_ports(store, llm, artifacts, clock, spend),
    )
    assert tailored.status is TailorStatus.APPROVED and tailored.generation == 1
    cover = write_cover_letter(
        WriteCoverLetter(sample_profile(), sample_posting(), origin=origin),
        **_ports(store, llm, artifacts, clock, spend),
    )
    assert cover.status is CoverStatus.GENERATED
    assert len(spend.calls) == 2

    rows = store.read_all()
    assert [r.event_type for r in rows] == [
        "BulletProvenanceRecorded",
        "ResumeApproved",
        "CoverLetterGenerated",
    ]
    assert all(
        (r.meta().workflow_id, r.meta().run_id, r.meta().attempt) == ("prep-job-1", "run-7", 2) for r in rows
    )
    folded = repository(store, clock).get("job-1")
    assert folded.generation == 1 and folded.resume_artifact_id == tailored.artifact_id
    assert folded.current_cover_artifact_id == cover.artifact_id


def test_a_profile_change_makes_a_new_generation_and_stales_the_letter(
    store: EventStore, tmp_path: Path
) -> None:
    clock, artifacts, llm = FixedClock(), ArtifactStore(tmp_path), OfflineMaterialsWriter()
    tailor_resume(TailorResume(sample_profile(), sample_posting()), **_ports(store, llm, artifacts, clock))
    write_cover_letter(
        WriteCoverLetter(sample_profile(), sample_posting()), **_ports(store, llm, artifacts, clock)
    )
    changed = sample_profile()
    changed = type(changed).from_builtins(
        {**changed.to_builtins(), "version": 4, "headline": "Platform engineer"}
    )
    second = tailor_resume(
        TailorResume(changed, sample_posting()), store=store, llm=llm, artifacts=artifacts, clock=clock
    )
    assert second.status is TailorStatus.APPROVED and second.generation == 2
    assert repository(store, clock).get("job-1").current_cover_artifact_id is None


def test_a_concurrent_write_is_absorbed_by_deciding_again(store: EventStore) -> None:
    clock = FixedClock()
    repo = repository(store, clock)
    decisions: list[int] = []

    def decide(materials: JobMaterials) -> bool:
        decisions.append(materials.version)
        if len(decisions) == 1:  # another writer gets in between our read and our append
            other = repo.load("job-1") or JobMaterials("job-1")
            other.fail_resume(["fabricated_number@summary/0: 99"])
            repo.save(other)
        return materials.request_retailor(
            "req-1", RetailorKind.SINGLE_JOB, 2, 1, "policy", "2026-01-01T00:00:00.000Z"
        )

    materials, recorded = decide_and_save(repo, "job-1", decide, WriteOrigin())
    assert recorded and decisions == [0, 1]
    assert [r.event_type for r in store.read_all()] == ["ResumeFailed", "TailorRetailorRequested"]
    assert materials.tailor_failures == 0 and repository(store, clock).get("job-1").version == 2


def test_suppression_is_idempotent_and_pdfs_need_a_current_document(
    store: EventStore, tmp_path: Path
) -> None:
    clock, artifacts, llm = FixedClock(), ArtifactStore(tmp_path), OfflineMaterialsWriter()
    with pytest.raises(NoAcceptedResumeError):
        render_pdf(
            RenderPdf("job-1", ArtifactType.RESUME),
            store=store,
            renderer=_NoRenderer(),
            artifacts=artifacts,
            clock=clock,
        )
    tailored = tailor_resume(
        TailorResume(sample_profile(), sample_posting()), **_ports(store, llm, artifacts, clock)
    )
    assert tailored.artifact_id is not None
    with pytest.raises(NoAcceptedResumeError):  # no cover letter yet
        render_pdf(
            RenderPdf("job-1", ArtifactType.COVER_LETTER),
            store=store,
            renderer=_NoRenderer(),
            artifacts=artifacts,
            clock=clock,
        )
    command = SuppressTailoredArtifacts("job-1", (tailored.artifact_id,), "below_fit_threshold")
    assert suppress_tailored_artifacts(command, store=store, clock=clock) is True
    assert suppress_tailored_artifacts(command, store=store, clock=clock) is False
    with pytest.raises(ArtifactNotFoundError):
        suppress_tailored_artifacts(
            SuppressTailoredArtifacts("job-1", ("resume_json-unknown",), "x"), store=store, clock=clock
        )
    assert [r.event_type for r in store.read_all()][-1] == "TailoredArtifactsSuppressed"


class _NoRenderer:
    def render(self, html: str) -> bytes:
        raise AssertionError("nothing should be rendered")
