"""The scoring bounded context: evidence-ledger scores under versioned policies.

* ``events`` — published events (importable alone), including ``ScoringPolicyUpdated``.
* ``profile.CandidateProfile`` — the evidence Scoring matches against.
* ``ledger`` / ``formula`` — ledger rows and the requirement-fit formula.
* ``policy.ScoringPolicy`` — versioned settings and fit bands.
* ``llm_tasks`` / ``offline_rules`` — what is asked of the LLM port and the offline handlers
  (``register_offline_scoring(provider)``).
* ``aggregates`` — ``JobScore`` (stream ``score-<jobId>``) and ``ScoringPolicyHistory``.
* ``use_cases`` — ``score_job``, ``update_scoring_policy``, ``request_rescores``, ``correct_score``.
"""
