"""RunContactResearch: look at the pages the user supplied and propose candidates for review.

Each URL first passes the source-access policy (hosts supplied for this run only, protected URLs to
manual capture, local/private/metadata hosts refused), then the politeness gateway (robots honoured).
Every URL's outcome is recorded.  Candidates are sealed under their own subject key and land in
review; nothing becomes a contact here.  Spend is recorded for every model call.
"""

from __future__ import annotations

from dataclasses import dataclass

from jobctrl.contact.adapters.extraction import SYSTEM_PROMPT, TASK, ContactResearchCandidates
from jobctrl.contact.domain.policy import (
    MAX_PAGES,
    MAX_PROMPT_TEXT,
    MAX_REQUESTS,
    Outcome,
    SourceAccessPolicy,
)
from jobctrl.contact.events import ContactCandidateProposed, ContactResearchSourceAttempted
from jobctrl.contact.ports import RateLimitedError, RobotsDisallowedError
from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.kernel.clock import now_iso
from jobctrl.kernel.errors import ConfigurationError, JobCtrlError
from jobctrl.kernel.ids import deterministic_id
from jobctrl.llm import StructuredRequest


@dataclass(frozen=True)
class SourceAttempt:
    url: str
    outcome: Outcome
    reason: str
    candidates: int = 0


@dataclass(frozen=True)
class ResearchReport:
    task_id: str
    attempts: tuple[SourceAttempt, ...]
    candidate_count: int


async def run_research(
    svc: ContactServices, task_id: str, urls: list[str], policy: SourceAccessPolicy
) -> ResearchReport:
    if svc.llm is None or svc.fetcher is None:
        raise ConfigurationError("contact research needs an LLM port and a page fetcher")
    task = svc.tasks.get(task_id)
    attempts: list[SourceAttempt] = []
    requests = 0
    for url in urls[: MAX_PAGES * 2]:
        decision = policy.decide(url)
        if decision.outcome is not Outcome.ALLOWED:
            attempts.append(SourceAttempt(url, decision.outcome, decision.reason))
            continue
        if requests >= MAX_REQUESTS or sum(a.outcome is Outcome.ALLOWED for a in attempts) >= MAX_PAGES:
            attempts.append(SourceAttempt(url, Outcome.BUDGET_EXHAUSTED, "request_budget_exhausted"))
            continue
        requests += 1
        try:
            page = await svc.fetcher.fetch(url)
        except RobotsDisallowedError:
            attempts.append(SourceAttempt(url, Outcome.ROBOTS_DISALLOWED, "robots_disallowed"))
            continue
        except RateLimitedError:
            attempts.append(SourceAttempt(url, Outcome.RATE_LIMITED, "rate_limited"))
            continue
        except JobCtrlError as exc:
            attempts.append(SourceAttempt(url, Outcome.REJECTED, exc.code))
            continue
        request = StructuredRequest(
            task=TASK,
            response_model=ContactResearchCandidates,
            system=SYSTEM_PROMPT,
            prompt=page.text[:MAX_PROMPT_TEXT],
            tenant_id=svc.tenant_id,
        )
        result = svc.llm.structured(request)
        if svc.spend is not None:
            svc.spend.record(result.usage)
        proposed = 0
        for candidate in result.value.candidates:
            candidate_id = deterministic_id("contact-candidate", task_id, url, candidate.name.lower())
            sealed = svc.vault.seal(
                candidate_id,
                {
                    "name": candidate.name,
                    "title": candidate.title,
                    "email": candidate.email,
                    "profileUrl": candidate.profile_url,
                },
                now=svc.clock.now(),
            )
            task.propose(
                ContactCandidateProposed(
                    task_id=task_id,
                    candidate_id=candidate_id,
                    role=candidate.role,
                    source_kind="public_web_page",
                    source_ref=url,
                    capture_method="llm_assisted",
                    confidence=candidate.confidence,
                    proposed_at=now_iso(svc.clock),
                    sealed_candidate=sealed,
                )
            )
            proposed += 1
        outcome = Outcome.ALLOWED if proposed else Outcome.NO_CANDIDATES
        attempts.append(SourceAttempt(url, outcome, outcome.value, proposed))
    for attempt in attempts:
        task.record_source_attempt(
            ContactResearchSourceAttempted(
                task_id=task_id,
                source_ref=attempt.url[:2000],
                outcome=attempt.outcome.value,
                reason_code=attempt.reason,
                candidate_count=attempt.candidates,
                attempted_at=now_iso(svc.clock),
            )
        )
    task.ask_for_review(at=now_iso(svc.clock))
    svc.tasks.save(task)
    return ResearchReport(task_id, tuple(attempts), len(task.candidates))
