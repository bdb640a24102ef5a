"""The Materials bounded context: tailored resumes, cover letters and their PDFs.

* ``events`` — published events (importable without the aggregates).
* ``use_cases`` — ``tailor_resume(TailorResume)``, ``write_cover_letter(WriteCoverLetter)``,
  ``render_pdf(RenderPdf)``, ``request_retailor(RequestRetailor)``,
  ``suppress_tailored_artifacts(SuppressTailoredArtifacts)``; each takes one plain typed command plus
  ports (event store, ``LlmPort``, ``ArtifactStore``, ``PdfRenderer``, ``Clock``) so a Temporal
  activity can call it, and each is idempotent on retry (``_common`` is their private plumbing).
* ``domain`` — the aggregate ``aggregate.JobMaterials`` (stream ``materials-<jobId>``); the candidate
  profile shape ``profile.CandidateProfile`` / ``profile.TargetPosting``; the gate
  ``fabrication.unsupported_claims``; ``assembly``, ``documents``, ``evidence``, ``validation``,
  ``errors``; ``sample`` holds a sample profile for demos and scenarios.
* ``ports`` — ``PdfRenderer`` and the LLM response models the model may return (drafts).
* ``adapters`` — ``offline_writer.OfflineMaterialsWriter`` (an ``LlmPort``), ``artifacts.ArtifactStore``,
  ``rendering.pdf.ChromiumPdfRenderer`` and the HTML templates (``rendering.html``).
* ``activities`` — ``tailor_job``, ``cover_letter`` and ``render_pdf``.

The public face below is resolved lazily (``jobctrl.kernel.exports``): importing this package, as
importing its ``events`` does, imports nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jobctrl.kernel.exports import lazy_exports

if TYPE_CHECKING:
    from jobctrl.materials.adapters.artifacts import ArtifactKind, ArtifactStore
    from jobctrl.materials.adapters.offline_writer import OfflineMaterialsWriter
    from jobctrl.materials.adapters.rendering.html import PageSize
    from jobctrl.materials.adapters.rendering.pdf import ChromiumPdfRenderer
    from jobctrl.materials.domain.aggregate import ArtifactType, JobMaterials
    from jobctrl.materials.domain.documents import decode_cover_letter
    from jobctrl.materials.domain.fabrication import unsupported_claims, unsupported_profile_claims
    from jobctrl.materials.domain.profile import (
        MAX_POSTING_TEXT,
        MAX_REQUIREMENT_TEXT,
        MAX_REQUIREMENTS,
        CandidateProfile,
        PostingRequirement,
        TargetPosting,
    )
    from jobctrl.materials.domain.sample import SAMPLE_PROFILE
    from jobctrl.materials.ports import PdfRenderer
    from jobctrl.materials.use_cases.render_pdf import RenderPdf, pdf_artifact_id, render_pdf
    from jobctrl.materials.use_cases.request_retailor import RequestRetailor, request_retailor
    from jobctrl.materials.use_cases.suppress_tailored_artifacts import (
        SuppressTailoredArtifacts,
        suppress_tailored_artifacts,
    )
    from jobctrl.materials.use_cases.tailor_resume import TailorResume, tailor_resume
    from jobctrl.materials.use_cases.write_cover_letter import WriteCoverLetter, write_cover_letter

_EXPORTS: dict[str, str] = {
    "tailor_resume": "jobctrl.materials.use_cases.tailor_resume",
    "TailorResume": "jobctrl.materials.use_cases.tailor_resume",
    "write_cover_letter": "jobctrl.materials.use_cases.write_cover_letter",
    "WriteCoverLetter": "jobctrl.materials.use_cases.write_cover_letter",
    "render_pdf": "jobctrl.materials.use_cases.render_pdf",
    "RenderPdf": "jobctrl.materials.use_cases.render_pdf",
    "request_retailor": "jobctrl.materials.use_cases.request_retailor",
    "RequestRetailor": "jobctrl.materials.use_cases.request_retailor",
    "suppress_tailored_artifacts": "jobctrl.materials.use_cases.suppress_tailored_artifacts",
    "SuppressTailoredArtifacts": "jobctrl.materials.use_cases.suppress_tailored_artifacts",
    "PdfRenderer": "jobctrl.materials.ports",
    "JobMaterials": "jobctrl.materials.domain.aggregate",
    "CandidateProfile": "jobctrl.materials.domain.profile",
    "TargetPosting": "jobctrl.materials.domain.profile",
    "unsupported_claims": "jobctrl.materials.domain.fabrication",
    "unsupported_profile_claims": "jobctrl.materials.domain.fabrication",
    "OfflineMaterialsWriter": "jobctrl.materials.adapters.offline_writer",
    "ArtifactStore": "jobctrl.materials.adapters.artifacts",
    "ChromiumPdfRenderer": "jobctrl.materials.adapters.rendering.pdf",
    "ArtifactKind": "jobctrl.materials.adapters.artifacts",
    "ArtifactType": "jobctrl.materials.domain.aggregate",
    "MAX_POSTING_TEXT": "jobctrl.materials.domain.profile",
    "MAX_REQUIREMENTS": "jobctrl.materials.domain.profile",
    "MAX_REQUIREMENT_TEXT": "jobctrl.materials.domain.profile",
    "PageSize": "jobctrl.materials.adapters.rendering.html",
    "PostingRequirement": "jobctrl.materials.domain.profile",
    "SAMPLE_PROFILE": "jobctrl.materials.domain.sample",
    "decode_cover_letter": "jobctrl.materials.domain.documents",
    "pdf_artifact_id": "jobctrl.materials.use_cases.render_pdf",
}
__all__ = [
    "MAX_POSTING_TEXT",
    "MAX_REQUIREMENTS",
    "MAX_REQUIREMENT_TEXT",
    "SAMPLE_PROFILE",
    "ArtifactKind",
    "ArtifactStore",
    "ArtifactType",
    "CandidateProfile",
    "ChromiumPdfRenderer",
    "JobMaterials",
    "OfflineMaterialsWriter",
    "PageSize",
    "PdfRenderer",
    "PostingRequirement",
    "RenderPdf",
    "RequestRetailor",
    "SuppressTailoredArtifacts",
    "TailorResume",
    "TargetPosting",
    "WriteCoverLetter",
    "decode_cover_letter",
    "pdf_artifact_id",
    "render_pdf",
    "request_retailor",
    "suppress_tailored_artifacts",
    "tailor_resume",
    "unsupported_claims",
    "unsupported_profile_claims",
    "write_cover_letter",
]
__getattr__ = lazy_exports(__name__, _EXPORTS)
