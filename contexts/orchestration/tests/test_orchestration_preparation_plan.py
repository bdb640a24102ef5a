"""A preparation target's work plan (ADR 0261): the chain its kind runs, and one deterministic child
per (tenant, job, kind, version, source) -- the same plan on every retry, a new child for a new fact."""

from __future__ import annotations

from jobctrl.orchestration import PreparationTarget, plan_preparation


def test_the_kind_decides_the_chain_and_the_facts_decide_the_child() -> None:
    score = plan_preparation("local", PreparationTarget("j1", "score_job", 2, "profile-2"))
    assert score.steps == ("score", "tailor", "cover", "pdf")
    assert score.child_workflow_id == f"prep-{score.idempotency_key}"
    assert score.idempotency_key.startswith("preparation:")
    assert (score.job_id, score.target_version) == ("j1", 2)
    assert plan_preparation("local", PreparationTarget("j1", "score_job", 2, "profile-2")) == score
    tailor = plan_preparation("local", PreparationTarget("j1", "tailor_resume", 2, "profile-2"))
    assert tailor.steps == ("tailor", "cover", "pdf")
    others = {
        plan_preparation(tenant, PreparationTarget(job, kind, version, source)).child_workflow_id
        for tenant, job, kind, version, source in [
            ("local", "j1", "tailor_resume", 2, "profile-2"),
            ("acme", "j1", "score_job", 2, "profile-2"),
            ("local", "j2", "score_job", 2, "profile-2"),
            ("local", "j1", "score_job", 3, "profile-2"),
            ("local", "j1", "score_job", None, "profile-2"),
            ("local", "j1", "score_job", 2, "profile-3"),
        ]
    }
    assert len(others) == 6 and score.child_workflow_id not in others
