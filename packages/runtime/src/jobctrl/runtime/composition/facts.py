"""Cross-context reads for the activity ports: the runtime may read every context's facts, a context
may not, so the composition root answers each context's questions here (from the event store and the
artifact store; no read model is needed for these per-job lookups).  The decisions are the owners'
(ADR 0260, 0263, 0321): discovery reads its jobs and executions and decides a job's apply target,
orchestration picks each cohort's preparation targets, enrichment the jobs a pass reads, apply the
jobs its standing loop may claim next; this module composes them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from jobctrl.activity_contracts.stage_tracking import StageTracker
from jobctrl.apply import ApplicantProfile, ApplicationMaterials, CurrentJobFacts, select_apply_candidates
from jobctrl.apply.activities import ApplyInputs
from jobctrl.discovery import application_url_of, discovered_job, execution_members, iter_known_job_ids
from jobctrl.discovery.events import JobDiscovered
from jobctrl.enrichment import EnrichJob, PostingEnrichment, select_enrichment_jobs
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.store import EventStore
from jobctrl.kernel.text import bound_text, plain_text
from jobctrl.materials import (
    MAX_POSTING_TEXT,
    MAX_REQUIREMENT_TEXT,
    MAX_REQUIREMENTS,
    ArtifactKind,
    ArtifactStore,
    ArtifactType,
    JobMaterials,
    PageSize,
    PostingRequirement,
    TargetPosting,
    decode_cover_letter,
    pdf_artifact_id,
)
from jobctrl.materials import CandidateProfile as MaterialsProfile
from jobctrl.orchestration import PreparationTarget, derive_preparation_targets
from jobctrl.runtime.composition.kept import KeptJobFacts
from jobctrl.runtime.composition.profiles import (
    SavedProfiles,
    materials_profile,
    saved_profile,
    scoring_profile,
)
from jobctrl.scoring import CandidateProfile as ScoringProfile
from jobctrl.scoring import JobScore
from jobctrl.scoring.activities import eligibility_of

MAX_ROLE = 200


class JobFacts:
    def __init__(
        self,
        store: EventStore,
        *,
        artifacts: ArtifactStore,
        tracker: StageTracker,
        clock: Clock,
        min_score: int | Callable[[], int],
        paper_size: PageSize = PageSize.LETTER,
    ) -> None:
        self.store = store
        self.artifacts = artifacts
        self.tracker = tracker
        self.clock = clock
        self._min_score = min_score
        self.paper_size = PageSize(paper_size)  # [materials] paper_size: which rendered PDFs are current
        self.profiles = SavedProfiles(store)  # kept while the profile stream is unchanged (ADR 0376)
        self.kept = KeptJobFacts(store)  # a job's score, enrichment and discovery, likewise (ADR 0396)

    @property
    def min_score(self) -> int:
        """``min_fit_score``, re-read on every use when given as a callable (the saved settings)."""
        return self._min_score() if callable(self._min_score) else self._min_score

    # -- discovery ------------------------------------------------------------------------------
    def discovered(self, job_id: str) -> JobDiscovered | None:
        """The job's ``JobDiscovered`` fact: discovery's own read (``discovered_job``)."""
        return discovered_job(self.store, job_id)

    def enriched_description(self, job_id: str) -> str | None:
        """The latest ``JobEnriched.fullDescription`` (the posting page's text), if enriched: read
        from enrichment's ``PostingEnrichment``, the one fold of that stream (kept while the stream
        is unchanged, ADR 0396)."""
        return _enriched_text(self.kept.read(job_id, enrichment=True).enrichment)

    def description(self, job_id: str) -> str | None:
        """What Score and the materials read: the enriched text, else the board's description (as
        text: HTML is reduced to its text); each kept while its stream is unchanged (ADR 0396)."""
        enrichment = self.kept.read(job_id, enrichment=True).enrichment
        if _enriched_text(enrichment) is not None:
            return _description_of(enrichment, None)
        return _description_of(None, self.kept.read(job_id, discovered=True).discovered)

    def members(self, tenant: str, workflow_id: str, run_id: str, cohort: str | None = None) -> list[str]:
        ref = ExecutionRef(tenant, workflow_id, run_id)
        return execution_members(self.store, ref, cohort, clock=self.clock)

    def known_jobs(self) -> Iterable[str]:
        return iter_known_job_ids(self.store)

    # -- enrichment -----------------------------------------------------------------------------
    def enrichment_targets(self, tenant: str, workflow_id: str, run_id: str) -> list[EnrichJob]:
        """Enrichment's decision over the execution's members (ADR 0221, 0263)."""
        return select_enrichment_jobs(self.members(tenant, workflow_id, run_id), self.discovered)

    # -- preparation ----------------------------------------------------------------------------
    def targets(self, tenant: str, execution_run_id: str, cohort: str) -> list[PreparationTarget]:
        """Orchestration's decision of the cohort's targets (ADR 0263), over discovery's jobs."""
        return derive_preparation_targets(
            self.store, tenant, execution_run_id, cohort, candidates=self, tracker=self.tracker
        )

    def scoring_profile(self) -> ScoringProfile | None:
        return self.profiles.shape("scoring", scoring_profile)

    def _materials_profile(self) -> MaterialsProfile | None:
        return self.profiles.shape("materials", materials_profile)

    def eligible(self, job_id: str) -> str | None:
        """Scoring's verdict on the job's score as stored now (kept while unchanged, ADR 0396)."""
        return eligibility_of(self.kept.read(job_id, score=True).score, self.min_score)

    def _score(self, job_id: str) -> JobScore | None:
        return self.kept.read(job_id, score=True).score

    def keywords(self, job_id: str, score: JobScore | None = None) -> list[str]:
        """The latest score's keywords, from scoring's ``JobScore`` (the one fold of ``score-…``)."""
        score = score or self._score(job_id)
        return [] if score is None else list(score.keywords[:20])

    def requirements(self, job_id: str, score: JobScore | None = None) -> list[PostingRequirement]:
        """The posting's requirements as the current score's ledger has them (what tailoring orders and
        selects by, ADR 0191); none without a typed ledger."""
        score = score or self._score(job_id)
        if score is None or score.breakdown is None:
            return []
        return [
            PostingRequirement(
                text=bound_text(row.text, MAX_REQUIREMENT_TEXT), tier=row.tier.value, weight=row.weight
            )
            for row in score.breakdown.requirements[:MAX_REQUIREMENTS]
            if row.text.strip() and 0 < row.weight <= 5
        ]

    def materials_inputs(self, job_id: str) -> tuple[MaterialsProfile, TargetPosting] | None:
        # One statement asks for the versions of the profile, the score, the enrichment and the
        # discovery of the job; only a changed one is read again (ADR 0396).
        also = self.profiles.streams()
        read = self.kept.read(job_id, score=True, enrichment=True, discovered=True, also=also)
        at = read.versions.get(also[0]) if also else None  # none: the profile asks the store itself
        profile, found = self.profiles.shape("materials", materials_profile, at=at), read.discovered
        if profile is None or found is None:
            return None
        title = str(found.metadata.get("title") or "the role")[:MAX_ROLE]
        posting = TargetPosting(
            job_id=job_id,
            role_title=title,
            company=found.employer[:MAX_ROLE],
            keywords=self.keywords(job_id, read.score),
            requirements=self.requirements(job_id, read.score),
            description=bound_text(
                _description_of(read.enrichment, found) or "", MAX_POSTING_TEXT, keep_newlines=True
            ),
        )
        return profile, posting

    # -- materials ------------------------------------------------------------------------------
    def materials(self, job_id: str) -> JobMaterials | None:
        return AggregateRepository.for_class(self.store, JobMaterials).load(job_id)

    def pdf_ids(self, job_id: str) -> tuple[str, str] | None:
        """The current resume and cover-letter PDF artifact ids, when both were rendered."""
        m = self.materials(job_id)
        if m is None or m.resume_artifact_id is None or m.current_cover_artifact_id is None:
            return None
        paper = self.paper_size
        resume = pdf_artifact_id(job_id, ArtifactType.RESUME, m.resume_artifact_id, paper_size=paper)
        cover = pdf_artifact_id(
            job_id, ArtifactType.COVER_LETTER, m.current_cover_artifact_id, paper_size=paper
        )
        return (resume, cover) if {resume, cover} <= m.rendered else None

    def pdf_ready(self, job_id: str) -> bool:
        return self.pdf_ids(job_id) is not None

    # -- apply ----------------------------------------------------------------------------------
    def application_url(self, job_id: str) -> str | None:
        return application_url_of(self.discovered(job_id))

    def apply_inputs(self, job_id: str) -> ApplyInputs | None:
        found, m, pdfs, saved = (
            self.discovered(job_id), self.materials(job_id), self.pdf_ids(job_id), saved_profile(self.store),
        )  # fmt: skip
        if found is None or m is None or pdfs is None or saved is None:
            return None
        profile = materials_profile(*saved)
        score_reason = self.eligible(job_id)
        fit = self._fit(job_id)
        facts = CurrentJobFacts(
            job_id=job_id,
            employer=found.employer,
            role=str(found.metadata.get("title") or ""),
            materials_generation=m.generation,
            profile_version=saved[0],
            application_url=self.application_url(job_id),
            resume_pdf_ready=True,
            score_current=fit is not None,
            score_eligible=score_reason is None,
            score=fit,
        )
        assert m.current_cover_artifact_id is not None  # pdf_ids checked it
        _, letter_bytes = self.artifacts.get(m.current_cover_artifact_id, ArtifactKind.COVER_LETTER_JSON)
        letter = decode_cover_letter(letter_bytes)
        cover_text = "\n\n".join(line.text for line in letter.paragraphs)
        materials = ApplicationMaterials(
            generation=m.generation,
            resume_pdf_path=str(self.artifacts.path_of(pdfs[0], ArtifactKind.RESUME_PDF)),
            cover_letter_text=cover_text,
            resume_artifact_id=pdfs[0],
        )
        applicant = ApplicantProfile(full_name=profile.name, email=profile.email or "", phone="")
        return ApplyInputs(facts, applicant, materials)

    def _fit(self, job_id: str) -> float | None:
        score = self._score(job_id)
        return None if score is None or score.fit_score is None else float(score.fit_score)

    def ready_to_apply(self, job_id: str) -> bool:
        """Scoring's and materials' answers for one job: eligible, and its PDFs rendered."""
        return self.eligible(job_id) is None and self.pdf_ready(job_id)

    def apply_candidates(self, tenant: str, limit: int) -> Sequence[str]:
        """Apply's decision (``select_apply_candidates``) over discovery's known jobs, read lazily."""
        return select_apply_candidates(
            self.store,
            iter_known_job_ids(self.store),
            ready=self.ready_to_apply,
            limit=limit,
            clock=self.clock,
        )


def _enriched_text(enrichment: PostingEnrichment | None) -> str | None:
    text = None if enrichment is None else enrichment.full_description
    return text if text and text.strip() else None


def _description_of(enrichment: PostingEnrichment | None, found: JobDiscovered | None) -> str | None:
    """The enriched text, else the board's description, as text (HTML reduced to its text)."""
    text = _enriched_text(enrichment)
    if text is None:
        raw = None if found is None else found.metadata.get("description")
        text = raw if isinstance(raw, str) else None
    text = plain_text(text) if text else None
    return text if text and text.strip() else None
