"""Deciding whether an observed posting is a new job, a known one, a content duplicate, or held.

Lookup order (runtime reference §2):
1. a canonical owner, by ATS kind + native id or by canonical URL.  Identity confidence >= 0.75
   re-observes that job; below it the link is rejected and the candidate held, never merged;
2. otherwise a content owner, only when the employer name is genuine (and the same employer):
   the content fingerprint (0.95), or description shingles (5-token, >= 80 tokens, Jaccard >= 0.83; 0.85);
3. otherwise a new job.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from jobctrl.discovery.domain.content import (
    SHINGLE_JACCARD_THRESHOLD,
    content_fingerprint,
    is_genuine_employer,
    jaccard,
    normalized,
    shingles,
)
from jobctrl.discovery.domain.identity import (
    AUTO_MERGE_THRESHOLD,
    CONFIDENCE_FINGERPRINT,
    CONFIDENCE_SHINGLES,
    CanonicalIdentity,
)


class Verdict(enum.Enum):
    NEW = "new"
    SAME_JOB = "same_job"
    CONTENT_DUPLICATE = "content_duplicate"
    HELD = "held"


@dataclass(frozen=True, slots=True)
class Candidate:
    identity: CanonicalIdentity
    title: str
    employer: str
    description: str

    @property
    def fingerprint(self) -> str:
        return content_fingerprint(self.title, self.employer, self.description)


@dataclass(frozen=True, slots=True)
class KnownJob:
    job_id: str
    canonical_url: str
    native_key: tuple[str, str] | None
    employer: str
    fingerprint: str
    shingles: frozenset[str] | None


@dataclass(frozen=True, slots=True)
class Decision:
    verdict: Verdict
    job_id: str | None
    confidence: float
    reason: str


@dataclass
class JobCatalog:
    """The known jobs, indexed the three ways dedupe looks them up."""

    by_native: dict[tuple[str, str], KnownJob] = field(default_factory=dict)
    by_url: dict[str, KnownJob] = field(default_factory=dict)
    by_fingerprint: dict[str, KnownJob] = field(default_factory=dict)
    by_employer: dict[str, list[KnownJob]] = field(default_factory=dict)

    def add(self, job: KnownJob) -> None:
        if job.native_key is not None:
            self.by_native.setdefault(job.native_key, job)
        self.by_url.setdefault(job.canonical_url, job)
        self.by_fingerprint.setdefault(job.fingerprint, job)
        self.by_employer.setdefault(normalized(job.employer), []).append(job)

    def __len__(self) -> int:
        return len({j.job_id for j in self.by_url.values()})


def decide(candidate: Candidate, catalog: JobCatalog) -> Decision:
    identity = candidate.identity
    owner = (
        catalog.by_native.get(identity.native_key) if identity.native_key else None
    ) or catalog.by_url.get(identity.canonical_url)
    if owner is not None:
        if identity.can_auto_merge:
            return Decision(Verdict.SAME_JOB, owner.job_id, identity.confidence, "canonical_identity")
        return Decision(Verdict.HELD, owner.job_id, identity.confidence, "identity_below_threshold")
    if is_genuine_employer(candidate.employer):
        match = catalog.by_fingerprint.get(candidate.fingerprint)
        if match is not None:
            return _content(match.job_id, CONFIDENCE_FINGERPRINT, "content_fingerprint")
        mine = shingles(candidate.description)
        if mine is not None:
            for known in catalog.by_employer.get(normalized(candidate.employer), []):
                if known.shingles is not None and jaccard(mine, known.shingles) >= SHINGLE_JACCARD_THRESHOLD:
                    return _content(known.job_id, CONFIDENCE_SHINGLES, "description_shingles")
    return Decision(Verdict.NEW, None, identity.confidence, "new_job")


def _content(job_id: str, confidence: float, reason: str) -> Decision:
    verdict = Verdict.CONTENT_DUPLICATE if confidence >= AUTO_MERGE_THRESHOLD else Verdict.HELD
    return Decision(verdict, job_id, confidence, reason)
