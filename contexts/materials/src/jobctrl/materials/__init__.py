"""The Materials bounded context: tailored resumes, cover letters and their PDFs.

Public API (import from the modules; this package imports nothing so that ``events`` stays light):

* use cases — ``tailor_resume.tailor_resume(TailorResume)``, ``write_cover_letter.write_cover_letter
  (WriteCoverLetter)``, ``render_pdf.render_pdf(RenderPdf)``, ``request_retailor.request_retailor
  (RequestRetailor)``, ``suppress_tailored_artifacts.suppress_tailored_artifacts(SuppressTailoredArtifacts)``;
  each takes one plain typed command plus ports (event store, ``LlmPort``, ``ArtifactStore``,
  ``PdfRenderer``, ``Clock``) so a Temporal activity can call it, and each is idempotent on retry;
* the candidate profile shape — ``profile.CandidateProfile`` / ``profile.TargetPosting``;
* the aggregate — ``aggregate.JobMaterials`` (stream ``materials-<jobId>``);
* the gate — ``fabrication.unsupported_claims``; drafts the model returns — ``drafts``;
* adapters — ``offline_writer.OfflineMaterialsWriter`` (an ``LlmPort``), ``artifacts.ArtifactStore``,
  ``rendering.pdf.ChromiumPdfRenderer``; ``sample`` holds a sample profile for demos and scenarios.
"""
