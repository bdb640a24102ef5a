"""Use case: render the PDF of the current accepted resume or cover letter (→ ``PdfRendered``).

Renders only what is missing.  The PDF id is derived from the source artifact id, the theme and the
paper size (``pdf_artifact_id``, the one rule every reader of a job's PDFs uses, so a changed
``[materials] paper_size`` renders anew), so a retry addresses the same file: if the PDF is already
stored (e.g. the process died after writing it and before appending the event) it is verified and
reused, never rendered twice.  Every artifact read is checked against its sha256; a mismatch refuses
the artifact (``ArtifactDigestMismatchError``) and nothing is appended.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from jobctrl.kernel.clock import Clock, now_iso
from jobctrl.kernel.origin import WriteOrigin
from jobctrl.kernel.store import EventStore
from jobctrl.materials.adapters.artifacts import ArtifactKind, ArtifactStore, artifact_id_for
from jobctrl.materials.adapters.rendering.html import (
    DEFAULT_THEME,
    PageSize,
    cover_letter_html,
    resume_html,
    theme,
)
from jobctrl.materials.domain.aggregate import ArtifactType
from jobctrl.materials.domain.documents import decode_cover_letter, decode_resume
from jobctrl.materials.domain.errors import NoAcceptedResumeError
from jobctrl.materials.ports import PdfRenderer
from jobctrl.materials.use_cases._common import decide_and_save, load, repository


class RenderStatus(StrEnum):
    RENDERED = "rendered"
    REUSED = "reused"  # stored PDF found and verified; the event is (re)recorded if missing


@dataclass(frozen=True)
class RenderPdf:
    job_id: str
    artifact_type: ArtifactType
    theme_id: str = DEFAULT_THEME
    paper_size: PageSize = PageSize.LETTER
    origin: WriteOrigin = field(default_factory=WriteOrigin)


@dataclass(frozen=True)
class RenderOutcome:
    status: RenderStatus
    pdf_artifact_id: str
    sha256: str
    source_artifact_id: str


def pdf_artifact_id(
    job_id: str,
    artifact_type: ArtifactType,
    source_artifact_id: str,
    *,
    theme_id: str = DEFAULT_THEME,
    paper_size: PageSize = PageSize.LETTER,
) -> str:
    """The id of the PDF rendered from ``source_artifact_id`` with this theme on this paper."""
    if artifact_type is ArtifactType.RESUME:
        return artifact_id_for(
            ArtifactKind.RESUME_PDF, job_id, source_artifact_id, theme_id, paper_size.value
        )
    return artifact_id_for(
        ArtifactKind.COVER_LETTER_PDF, job_id, source_artifact_id, "letter", paper_size.value
    )


def render_pdf(
    command: RenderPdf, *, store: EventStore, renderer: PdfRenderer, artifacts: ArtifactStore, clock: Clock
) -> RenderOutcome:
    theme(command.theme_id)  # unknown theme: typed error before anything happens
    repo = repository(store, clock, command.origin.tenant_id)
    materials = load(repo, command.job_id)
    if command.artifact_type is ArtifactType.RESUME:
        source_id, source_kind, pdf_kind = (
            materials.require_resume(),
            ArtifactKind.RESUME_JSON,
            ArtifactKind.RESUME_PDF,
        )
    else:
        cover = materials.current_cover_artifact_id
        if cover is None:
            raise NoAcceptedResumeError(f"job {command.job_id!r} has no cover letter for its current resume")
        source_id, source_kind, pdf_kind = (
            cover,
            ArtifactKind.COVER_LETTER_JSON,
            ArtifactKind.COVER_LETTER_PDF,
        )
    pdf_id = pdf_artifact_id(
        command.job_id,
        command.artifact_type,
        source_id,
        theme_id=command.theme_id,
        paper_size=command.paper_size,
    )

    stored = artifacts.find(pdf_id, pdf_kind)  # raises on a digest mismatch
    status = RenderStatus.REUSED
    if stored is None:
        _, source = artifacts.get(source_id, source_kind)  # verified against its digest
        if command.artifact_type is ArtifactType.RESUME:
            html = resume_html(decode_resume(source), command.theme_id, command.paper_size)
        else:
            letter = decode_cover_letter(source)
            html = cover_letter_html(letter, name=letter.closing[-1].text, page_size=command.paper_size)
        stored, _ = artifacts.put(pdf_id, pdf_kind, renderer.render(html))
        status = RenderStatus.RENDERED
    at = now_iso(clock)
    decide_and_save(
        repo,
        command.job_id,
        lambda m: m.record_pdf(command.artifact_type, pdf_id, at),
        command.origin,
        materials,
    )
    return RenderOutcome(status, pdf_id, stored.sha256, source_id)
