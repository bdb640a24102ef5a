"""Typed errors of the Materials context (each a JobCtrlError with a stable code)."""

from __future__ import annotations

from jobctrl.kernel.errors import JobCtrlError, MissingInputError


class InvalidProfileError(JobCtrlError):
    """The candidate profile handed in does not have the documented shape; nothing was written."""

    code = "invalid_profile"
    retryable = False


class InvalidPostingError(JobCtrlError):
    code = "invalid_posting"
    retryable = False


class InvalidArtifactIdError(JobCtrlError):
    """An id that would become a file name is not a safe id; nothing was written."""

    code = "invalid_artifact_id"
    retryable = False


class ArtifactDigestMismatchError(JobCtrlError):
    """Stored bytes no longer hash to their recorded sha256: the artifact is refused, never used."""

    code = "artifact_digest_mismatch"
    retryable = False


class ArtifactNotFoundError(MissingInputError):
    code = "missing_input"


class NoAcceptedResumeError(MissingInputError):
    """Cover letters and PDFs need an accepted (and not suppressed) resume generation."""

    code = "missing_input"


class PdfRenderError(JobCtrlError):
    """Chromium could not produce a PDF (retryable: the browser may have crashed)."""

    code = "pdf_render_failed"
    retryable = True
