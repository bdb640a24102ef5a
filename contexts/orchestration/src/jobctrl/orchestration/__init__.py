"""The orchestration bounded context: domain and application layer (no Temporal code here).

Public API (import from the modules; this package imports nothing at import time):

* ``stage_machine.apply_trigger(state, trigger, inputs)`` — the reference JSON adapter.
* ``stages.transitions.transition`` / ``TransitionRejected``; ``stages.states`` (the 11 kinds,
  ``Trigger``, ``StageOwner``); ``stages.aggregate.JobStages``; ``stages.service.StageService``;
  ``stages.errors.OwnershipLost``; ``stages.fold.fold_job_stages``; ``stages.limits``.
* ``runs.service.RunService`` (record_started / record_outcome / request_cancellation / reconcile),
  ``runs.reconcile.decide`` / ``DescribedStatus``, ``runs.outcomes.RunOutcome``.
* ``steps.aggregate.PipelineStep``, ``step_id``, ``detail``.
* ``spend.ledger.SpendLedger`` (a ``jobctrl.llm.SpendRecorder``), ``ledger_with_settings``,
  ``spend.check_budget.check_spend_budget``.
* ``settings.model.OrchestrationSettings``, ``settings.store.SettingsStore`` / ``InvalidSettings``.
* ``profile.service.ProfileService`` (save_profile / drain_outbox).
* ``tables.create_orchestration_tables(db)`` for ``llm_spend`` and ``jobctrl_settings``.
"""
