"""Which jobs a preparation fan-out prepares, per cohort (ADR 0263).

Every target is an enriched job (its ``enrich`` stage succeeded), prepared from Score on under the
saved profile's version and keyed by it (``score_job``, source ``profile-<version>``): a second pass
under the same profile finds the same idempotency keys and re-attaches instead of preparing again.
No saved profile yet: no target.  The candidates are the cohort's:

* ``existing_backlog`` -- every known job whose Score never succeeded (a failed or interrupted
  preparation): the same key re-runs a failed preparation at its failed step and re-attaches to a
  finished or running one, so the sweep never duplicates work;
* ``profile_continuation`` -- every known job: a genuine profile change re-prepares them all under
  the new version (Score reuses a still-current score);
* any other cohort (``observed_this_run``) -- the members of that cohort in this tenant's Discover
  execution ``execution_run_id``.

The known jobs and the execution's members are discovery's (``PreparationCandidates``), the stage
states and the profile orchestration's own.
"""

from __future__ import annotations

from jobctrl.activity_contracts.stage_tracking import StageTracker
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration import COHORT, discover_workflow_id
from jobctrl.orchestration.domain.preparation_plan import PreparationTarget
from jobctrl.orchestration.ports import PreparationCandidates
from jobctrl.orchestration.use_cases.load_profile import load_profile

BACKLOG = "existing_backlog"


def derive_preparation_targets(
    store: EventStore,
    tenant: str,
    execution_run_id: str,
    cohort: str,
    *,
    candidates: PreparationCandidates,
    tracker: StageTracker,
) -> list[PreparationTarget]:
    version = load_profile(store).profile_version
    if version == 0:
        return []
    if cohort == BACKLOG:
        jobs = [j for j in candidates.known_jobs() if not tracker.succeeded(j, "score")]
    elif cohort == COHORT:
        jobs = list(candidates.known_jobs())
    else:
        jobs = candidates.members(tenant, discover_workflow_id(tenant), execution_run_id, cohort)
    return [
        PreparationTarget(job_id, "score_job", version, f"profile-{version}")
        for job_id in jobs
        if tracker.succeeded(job_id, "enrich")
    ]
