"""Shared plumbing of the use cases: where writes come from, loading the job's aggregate, prompts."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import msgspec

from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.origin import WriteOrigin
from jobctrl.kernel.store import ConcurrencyConflict, EventStore
from jobctrl.materials.domain.aggregate import JobMaterials
from jobctrl.materials.domain.profile import CandidateProfile, TargetPosting

R = TypeVar("R")
SAVE_ATTEMPTS = 3
MAX_REPORTED_ISSUES = 20  # ResumeFailed carries at most this many reasons


def repository(
    store: EventStore, clock: Clock, tenant_id: str = LOCAL_TENANT
) -> AggregateRepository[JobMaterials]:
    return AggregateRepository.for_class(store, JobMaterials, clock=clock, tenant_id=tenant_id)


def load(repo: AggregateRepository[JobMaterials], job_id: str) -> JobMaterials:
    return repo.load(job_id) or JobMaterials(job_id)


def decide_and_save(
    repo: AggregateRepository[JobMaterials],
    job_id: str,
    decide: Callable[[JobMaterials], R],
    origin: WriteOrigin,
    loaded: JobMaterials | None = None,
) -> tuple[JobMaterials, R]:
    """Load, decide, append; on a concurrent write to the same job, reload and decide again.

    Deciding is cheap and pure (the model call and artifact write happen before), so re-deciding on
    fresh state is safe; the aggregate's own idempotence rules then turn a duplicate into a no-op.
    ``loaded`` is the aggregate the caller loaded for its own checks: the first decision is made on
    it and its save is the check (a write since its load is a ``ConcurrencyConflict``, and the
    decision is made again on a fresh load).  A decision that records nothing has no save to check
    it, and a refusal may be the stale state's: on ``loaded`` either is made again on a fresh load
    (as ADR 0363 does for the stage rows).
    """
    for attempt in range(1, SAVE_ATTEMPTS + 1):
        reused, loaded = loaded, None
        if reused is None:
            materials = load(repo, job_id)
            result = decide(materials)
        else:
            try:
                materials, result = reused, decide(reused)
            except JobCtrlError:
                materials = JobMaterials(job_id)  # refused on what the caller saw: ask the store
            if not materials.pending_events:
                materials = load(repo, job_id)
                result = decide(materials)
        try:
            repo.save(materials, **origin.metadata())
        except ConcurrencyConflict:
            if attempt == SAVE_ATTEMPTS:
                raise
            continue
        return materials, result
    raise AssertionError("unreachable")


def llm_context(profile: CandidateProfile, posting: TargetPosting) -> dict[str, object]:
    return {"profile": profile.to_builtins(), "posting": msgspec.to_builtins(posting)}


def prompt_for(profile: CandidateProfile, posting: TargetPosting) -> str:
    """The candidate's facts (with the ids a line must cite), the target and the posting's own text."""
    target = {"jobId": posting.job_id, "role": posting.role_title, "company": posting.company}
    prompt = (
        "CANDIDATE PROFILE (facts with ids):\n"
        + msgspec.json.encode(profile.to_builtins()).decode()
        + "\n\nTARGET POSTING:\n"
        + msgspec.json.encode({**target, "keywords": posting.keywords}).decode()
    )
    if posting.requirements:
        prompt += (
            "\n\nPOSTING REQUIREMENTS (tier, weight, text):\n"
            + msgspec.json.encode(
                [{"tier": r.tier, "weight": r.weight, "text": r.text} for r in posting.requirements]
            ).decode()
        )
    if posting.description:
        prompt += "\n\nPOSTING TEXT:\n" + posting.description
    return prompt


TAILORING_RULES = (
    "Order each experience's bullets, the summary sentences and the skills by how well they meet the "
    "posting's requirements (must-haves and heavier weights first); you may leave out bullets that meet "
    "none, keeping at least two per experience. Map each requirement you address to the facts that meet it. "
)
GROUNDING_RULES = (
    "Use only facts from the profile. Cite the ids of the facts each line rests on in `sources`. "
    "Never introduce a number, date, job title, employer or technology that the cited facts do not state. "
    "You may not add experiences, sections or skill categories."
)
