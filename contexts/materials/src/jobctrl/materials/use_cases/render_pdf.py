"""Use case: render the PDF of the current accepted resume or cover letter (→ ``PdfRendered``).

Renders only what is missing.  The PDF id is derived from the source artifact id, the theme and the
paper size (``pdf_artifact_id``, the one rule every reader of a job's PDFs uses, so a changed
``[materials] paper_size`` renders anew), so a retry addresses the same file: if the PDF is already
stored (e.g. the process died after writing it and before appending the event) it is verified and
reused, never rendered twice.  Every artifact read is checked against its sha256; a mismatch refuses
the artifact (``ArtifactDigestMismatchError``) and nothing is appended.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from jobctrl.kernel.clock import Clock, now_iso
from jobctrl.kernel.origin import WriteOrigin
from jobctrl.kernel.store import EventStore, IdempotencyConflict
from jobctrl.materials.adapters.artifacts import ArtifactKind, ArtifactStore, artifact_id_for
from jobctrl.materials.adapters.rendering.html import (
    DEFAULT_THEME,
    PageSize,
    cover_letter_html,
    resume_html,
    theme,
)
from jobctrl.materials.domain.aggregate import ArtifactType, JobMaterials
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
    return render_pdfs([command], store=store, renderer=renderer, artifacts=artifacts, clock=clock)[0]


def render_pdfs(
    commands: Sequence[RenderPdf],
    *,
    store: EventStore,
    renderer: PdfRenderer,
    artifacts: ArtifactStore,
    clock: Clock,
) -> list[RenderOutcome]:
    """Render one job's PDFs (the preparation's resume and cover letter) on one load of its
    materials and record them in one save (ADR 0397): each PDF is stored before the save, as one
    alone is, so a retry after a crash between them finds the stored ones (verified) and records
    them; the save is checked like any other (a write since the load decides it again on a fresh
    load).  Every command names the same job, origin and tenant."""
    if not commands:
        return []
    first = commands[0]
    if any((c.job_id, c.origin) != (first.job_id, first.origin) for c in commands):
        raise ValueError("render_pdfs renders the PDFs of one job for one origin")
    for command in commands:
        theme(command.theme_id)  # unknown theme: typed error before anything happens
    repo = repository(store, clock, first.origin.tenant_id)
    materials = load(repo, first.job_id)
    outcomes: list[RenderOutcome] = []
    try:
        # Render each missing PDF, then store them all in one durable put (ADR 0386): a refused or
        # failed later PDF still stores the ones rendered before it.
        rendered: list[tuple[RenderPdf, _Rendered]] = []
        try:
            for command in commands:
                rendered.append((command, _rendered(command, materials, renderer, artifacts)))
        finally:
            fresh = [(r.pdf_id, r.pdf_kind, r.pdf) for _, r in rendered if r.pdf is not None]
            stored = iter(artifacts.put_all(fresh))
            for _, r in rendered:
                sha256 = next(stored)[0].sha256 if r.pdf is not None else r.sha256
                status = RenderStatus.RENDERED if r.pdf is not None else RenderStatus.REUSED
                outcomes.append(RenderOutcome(status, r.pdf_id, sha256, r.source_id))
    finally:
        # A refusal or a failed render of a later PDF still records the ones stored before it, as
        # rendering them one by one did.
        if outcomes:
            at = now_iso(clock)
            done = list(zip(commands, outcomes, strict=False))

            def decide(m: JobMaterials) -> None:
                for command, outcome in done:
                    m.record_pdf(command.artifact_type, outcome.pdf_artifact_id, at)

            try:
                decide_and_save(repo, first.job_id, decide, first.origin, materials)
            except IdempotencyConflict:
                # Another writer recorded some of these PDFs since the load (the same deterministic
                # event ids at the same versions): the stream moved on, so decide again on it.
                decide_and_save(repo, first.job_id, decide, first.origin)
    return outcomes


@dataclass(frozen=True)
class _Rendered:
    """One command's PDF: found stored (``sha256``), or rendered (``pdf``) and not yet stored."""

    pdf_id: str
    pdf_kind: ArtifactKind
    source_id: str
    sha256: str = ""
    pdf: bytes | None = None


def _rendered(
    command: RenderPdf, materials: JobMaterials, renderer: PdfRenderer, artifacts: ArtifactStore
) -> _Rendered:
    """The command's PDF of the current source: found stored and verified, else rendered."""
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
    if stored is not None:
        return _Rendered(pdf_id, pdf_kind, source_id, sha256=stored.sha256)
    _, source = artifacts.get(source_id, source_kind)  # verified against its digest
    if command.artifact_type is ArtifactType.RESUME:
        html = resume_html(decode_resume(source), command.theme_id, command.paper_size)
    else:
        letter = decode_cover_letter(source)
        html = cover_letter_html(letter, name=letter.closing[-1].text, page_size=command.paper_size)
    return _Rendered(pdf_id, pdf_kind, source_id, pdf=renderer.render(html))
