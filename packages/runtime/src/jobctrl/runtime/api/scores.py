"""Score corrections and rescore requests over HTTP: thin routes over the scoring context's use cases.

``POST /v1/jobs/{id}/score/corrections`` records a hand correction (``correct_score``: a new score
version, the original kept in the log); ``POST /v1/scores/rescore-requests`` marks scores made under an
older policy stale (``request_rescores``), for the given jobs or every scored job.  Bad input is a typed
422 (the body's shape here, the domain's rule in the use case) and writes nothing; a job with no score
is 404.  Like every mutating route they pass the app-wide guard first (token, Origin, JSON body).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from pydantic import Field

from jobctrl.runtime.api.errors import ApiError
from jobctrl.runtime.api.models import Request, Wire, error_responses
from jobctrl.runtime.api.reads import JobIdPath
from jobctrl.runtime.api.services import Services, services
from jobctrl.scoring import (
    MAX_SCORE,
    MIN_SCORE,
    CorrectScore,
    InvalidCorrectionError,
    ScoreNotFoundError,
    correct_score,
    request_rescores,
)

router = APIRouter(prefix="/v1", tags=["scoring"])
ERRORS: dict[int | str, dict[str, object]] = error_responses(404, 422)
JobId = Annotated[str, Field(min_length=1, max_length=200, pattern=r"^[A-Za-z0-9_.:\-]+$")]


class ScoreCorrectionRequest(Request):
    corrected_score: Annotated[int, Field(ge=MIN_SCORE, le=MAX_SCORE)]
    reason: Annotated[str, Field(min_length=1, max_length=500)]


class ScoreCorrectionView(Wire):
    job_id: str
    score_version: int
    corrected_score: int


class RescoreRequest(Request):
    job_ids: Annotated[list[JobId], Field(min_length=1, max_length=1000)] | None = None


class RescoreView(Wire):
    requested: list[str]  # the jobs newly marked stale (already stale or current ones are left out)


@router.post("/jobs/{job_id}/score/corrections", response_model=ScoreCorrectionView, status_code=201,
             responses=ERRORS)  # fmt: skip
def post_score_correction(
    job_id: JobIdPath, body: ScoreCorrectionRequest, svc: Annotated[Services, Depends(services)]
) -> ScoreCorrectionView:
    command = CorrectScore(job_id=job_id, corrected_score=body.corrected_score, reason=body.reason)
    try:
        version = correct_score(command, store=svc.store, clock=svc.clock)
    except ScoreNotFoundError as exc:
        raise ApiError(404, exc.code, exc.message) from None
    except InvalidCorrectionError as exc:
        raise ApiError(422, exc.code, exc.message) from None
    return ScoreCorrectionView(job_id=job_id, score_version=version, corrected_score=body.corrected_score)


@router.post("/scores/rescore-requests", response_model=RescoreView, responses=ERRORS)
def post_rescore_requests(body: RescoreRequest, svc: Annotated[Services, Depends(services)]) -> RescoreView:
    return RescoreView(requested=request_rescores(store=svc.store, clock=svc.clock, job_ids=body.job_ids))
