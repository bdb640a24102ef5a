"""Context-neutral pieces shared by the workflows (orchestration) and the activities (every context).

* ``contracts`` — the dataclasses a workflow passes to an activity by name and gets back.
* ``errors.to_application_error`` — a typed kernel error → Temporal ``ApplicationError`` (code = type).
* ``stage_tracking`` — ``StageTracker``, the port through which a context activity records its stage
  transitions (orchestration's ``StageTrackerService`` implements it), and ``owner_from_activity``.
"""
