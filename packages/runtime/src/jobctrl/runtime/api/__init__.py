"""The HTTP API (FastAPI): one composition root, ``create_app(ApiConfig)``; OpenAPI at ``/openapi.json``.

Modules: ``app`` (composition root; mounts ``operations.router`` when that module exists), ``reads``
(jobs, workflow runs), ``settings_profile``, ``review_decision``, ``retry_stage``, ``cancel_run``,
``start_discovery``, ``workflow_control`` (the Temporal port: ``WorkflowControl``,
``TemporalWorkflowControl``), ``readiness`` (fresh worker heartbeat),
``discover_phase`` (phase + cancel rule), ``models`` (typed bodies), ``errors`` (``{"error": {code,
message}}``), ``hub`` / ``sse`` (the live event stream), ``pages`` (the dashboard's pages in ``static/``).
"""
