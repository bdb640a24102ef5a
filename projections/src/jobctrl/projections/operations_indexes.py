"""Indexes the operations snapshot relies on, declared on tables other read models own.

``job_stage_states`` by (tenant, stage, state, finished_at): the running rows and the newest
successful durations of a stage (the ETA samples) are index ranges (the per-stage state totals are
kept by the fold in ``job_stage_counts``, ADR 0345).
``discovery_execution_jobs`` by (tenant, job): which execution a stage row's job belongs to.
Declared here (attached to the table on import) so the owning module stays untouched.
"""

from __future__ import annotations

import sqlalchemy as sa

from jobctrl.projections.read_models.discovery_executions import discovery_execution_jobs
from jobctrl.projections.read_models.stage_states import job_stage_states

STAGE_STATE_FINISHED = sa.Index(
    "ix_job_stage_states_stage_state_finished",
    job_stage_states.c.tenant_id,
    job_stage_states.c.stage,
    job_stage_states.c.state,
    job_stage_states.c.finished_at,
)

EXECUTION_JOB = sa.Index(
    "ix_discovery_execution_jobs_job",
    discovery_execution_jobs.c.tenant_id,
    discovery_execution_jobs.c.job_id,
)
