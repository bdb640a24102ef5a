"""``render_pdfs``: a job's resume and cover-letter PDFs on one load of its materials and one save
(ADR 0397), decided again on the stored state when another process wrote since the load, and a
refused later PDF still records the ones stored before it (SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import EventStore
from jobctrl.materials.adapters.artifacts import ArtifactStore
from jobctrl.materials.adapters.offline_writer import OfflineMaterialsWriter
from jobctrl.materials.domain.aggregate import ArtifactType
from jobctrl.materials.domain.errors import NoAcceptedResumeError
from jobctrl.materials.domain.sample import sample_posting, sample_profile
from jobctrl.materials.use_cases._common import repository
from jobctrl.materials.use_cases.render_pdf import RenderPdf, render_pdf, render_pdfs
from jobctrl.materials.use_cases.tailor_resume import TailorResume, tailor_resume
from jobctrl.materials.use_cases.write_cover_letter import WriteCoverLetter, write_cover_letter

pytestmark = [pytest.mark.integration, pytest.mark.both_databases]
BOTH = (ArtifactType.RESUME, ArtifactType.COVER_LETTER)


class _Renderer:
    """A PDF per HTML page; ``during`` runs inside a render (another process writing meanwhile)."""

    def __init__(self, during: Callable[[int], None] | None = None) -> None:
        self.rendered = 0
        self.during = during

    def render(self, html: str) -> bytes:
        self.rendered += 1
        if self.during is not None:
            self.during(self.rendered)
        return b"%PDF-1.4 " + str(len(html)).encode()


def _prepared(store: EventStore, artifacts: ArtifactStore, clock: FixedClock, *, cover: bool = True) -> None:
    ports = {"store": store, "llm": OfflineMaterialsWriter(), "artifacts": artifacts, "clock": clock}
    tailor_resume(TailorResume(sample_profile(), sample_posting()), **ports)  # type: ignore[arg-type]
    if cover:
        write_cover_letter(WriteCoverLetter(sample_profile(), sample_posting()), **ports)  # type: ignore[arg-type]


def _pdf_events(store: EventStore) -> list[str]:
    return [r.event_type for r in store.read_all() if r.event_type == "PdfRendered"]


def test_both_pdfs_are_recorded_in_one_save(store: EventStore, tmp_path: Path) -> None:
    clock, artifacts = FixedClock(), ArtifactStore(tmp_path)
    _prepared(store, artifacts, clock)
    before = repository(store, clock).get("job-1").version
    renderer = _Renderer()
    outcomes = render_pdfs([RenderPdf("job-1", kind) for kind in BOTH], store=store, renderer=renderer,
                           artifacts=artifacts, clock=clock)  # fmt: skip
    assert renderer.rendered == 2 and [o.status.value for o in outcomes] == ["rendered", "rendered"]
    materials = repository(store, clock).get("job-1")
    assert materials.version == before + 2
    assert {o.pdf_artifact_id for o in outcomes} <= materials.rendered
    rows = [r for r in store.read_all() if r.event_type == "PdfRendered"]
    assert rows[1].position == rows[0].position + 1  # one append of both events
    # Rendering again finds both stored, renders nothing and records nothing.
    again = render_pdfs([RenderPdf("job-1", kind) for kind in BOTH], store=store, renderer=_Renderer(),
                        artifacts=artifacts, clock=clock)  # fmt: skip
    assert [o.status.value for o in again] == ["reused", "reused"] and len(_pdf_events(store)) == 2


def test_a_write_by_another_process_since_the_load_is_decided_again(
    store: EventStore, other_store: EventStore, tmp_path: Path
) -> None:
    clock, artifacts = FixedClock(), ArtifactStore(tmp_path)
    _prepared(store, artifacts, clock)

    def elsewhere(nth: int) -> None:
        if nth == 1:  # while this process renders, another one records the resume's PDF first
            render_pdf(RenderPdf("job-1", ArtifactType.RESUME), store=other_store, renderer=_Renderer(),
                       artifacts=artifacts, clock=clock)  # fmt: skip

    render_pdfs([RenderPdf("job-1", kind) for kind in BOTH], store=store, renderer=_Renderer(elsewhere),
                artifacts=artifacts, clock=clock)  # fmt: skip
    # The stale save was refused and decided again on the stored state: each PDF recorded once.
    assert _pdf_events(store) == ["PdfRendered", "PdfRendered"]
    assert len(repository(store, clock).get("job-1").rendered) == 2


def test_a_refused_later_pdf_still_records_the_ones_before_it(store: EventStore, tmp_path: Path) -> None:
    clock, artifacts = FixedClock(), ArtifactStore(tmp_path)
    _prepared(store, artifacts, clock, cover=False)
    with pytest.raises(NoAcceptedResumeError):  # no cover letter yet
        render_pdfs([RenderPdf("job-1", kind) for kind in BOTH], store=store, renderer=_Renderer(),
                    artifacts=artifacts, clock=clock)  # fmt: skip
    assert _pdf_events(store) == ["PdfRendered"]
    assert len(repository(store, clock).get("job-1").rendered) == 1
