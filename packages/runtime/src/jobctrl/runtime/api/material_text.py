"""``GET /v1/jobs/{job_id}/materials/{artifact_id}/text``: the words of a rendered PDF, page by page.

The review page shows each PDF in Chromium's viewer, whose pages are painted by an out-of-process
plugin: nothing of them is in the page's DOM, a full-page screenshot catches them unpainted, and a
browser without the viewer shows an empty frame.  So the page also shows the text extracted from the
very PDF it would approve (the same bytes, verified against their digest), read here with pypdf
(ADR 0281).
"""

from __future__ import annotations

import io
from typing import Annotated

from fastapi import APIRouter, Depends
from pypdf import PdfReader
from pypdf.errors import PyPdfError

from jobctrl.runtime.api.application_models import MaterialText
from jobctrl.runtime.api.applications import ArtifactPath, job_pdf_bytes
from jobctrl.runtime.api.errors import ApiError
from jobctrl.runtime.api.models import error_responses
from jobctrl.runtime.api.reads import JobIdPath
from jobctrl.runtime.api.services import Services, services

router = APIRouter(prefix="/v1", tags=["applications"])
MAX_PAGES = 20  # a resume or cover letter is a page or two; a longer file is cut, and says so


@router.get(
    "/jobs/{job_id}/materials/{artifact_id}/text",
    response_model=MaterialText,
    responses=error_responses(404, 422),
    summary="The text of a rendered resume or cover-letter PDF of the job, page by page",
)
def material_text(
    job_id: JobIdPath, artifact_id: ArtifactPath, svc: Annotated[Services, Depends(services)]
) -> MaterialText:
    data = job_pdf_bytes(svc, job_id, artifact_id)
    try:
        reader = PdfReader(io.BytesIO(data))
        pages = [page.extract_text() or "" for page in reader.pages[:MAX_PAGES]]
        total = len(reader.pages)
    except (PyPdfError, ValueError, KeyError, TypeError) as exc:
        detail = f"the PDF's text cannot be read: {type(exc).__name__}"
        raise ApiError(422, "pdf_unreadable", detail) from None
    return MaterialText(job_id=job_id, artifact_id=artifact_id, pages=pages, page_count=total)
