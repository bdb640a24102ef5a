"""The discovery bounded context.

* ``events`` — published events (reference catalog plus the appended execution/progress events).
* ``domain`` — URL normalization (``urls``), canonical identity and confidences (``identity``,
  ``identity_claim``), content fingerprints and shingles (``content``), dedupe decisions (``dedupe``),
  aggregates ``Job``, ``SourceEntry`` (+ ``source_health``), ``DiscoveryExecution``; typed errors
  (``errors``).  The discovery run is orchestration's (ADR 0180): discovery reports its start,
  progress and end through the ``ports.DiscoveryRunLog`` port.
* ``adapters`` — Greenhouse, Lever, Ashby JSON and JSON-LD career pages, all through the politeness
  gateway; ``adapters.registry.adapter_for(kind)`` gives the fetcher and its default crawl policy.
* ``use_cases`` — one command per module: ``run_source_family``, ``run_discovery`` (a whole run in
  one call),
  ``record_observation``, ``load_catalog``, ``register_source(s)``, ``change_source_state``,
  ``apply_source_recommendation``, ``select_runnable_sources``, ``link_execution_members``,
  ``known_jobs`` (``known_job_ids``: every discovered job, in bounded pages; ADR 0260),
  ``discovered_job`` (one job's ``JobDiscovered`` by its id), ``application_url`` (its apply target,
  decided by ``domain.job.application_url_of``: the posting's ``applyUrl``, else its URL),
  ``execution_members`` (an execution's members, of one cohort or all; ADR 0263),
  ``record_work_plan``, ``record_fanout_plans`` (a fan-out's plans, ADR 0261),
  ``close_execution_membership`` (and ``close_interrupted_membership``),
  ``sources`` (the user's sources: ``add_source``, ``remove_source``,
  ``list_sources``, ``registered_sources`` — the catalog Discover runs — and ``import_sources``).
  ``domain.source_spec.parse_source`` parses ``KIND TOKEN_OR_URL``; ``domain.search`` is the
  user's search, re-applied to every family after fetching.  Plain inputs plus an ``EventStore``, a
  ``Clock``, the tenant to write under (default ``local``) and (for crawling) a
  ``PolitenessGateway``: callable from Temporal activities.
* ``sample_board`` — a local job board (69 postings, six formats, robots.txt) for tests and the demo.
* ``activities`` — the Discover activities (source planning, a source family, existing backlog).

The public face below is resolved lazily (``jobctrl.kernel.exports``): importing this package, as
importing its ``events`` does, imports nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jobctrl.kernel.exports import lazy_exports

if TYPE_CHECKING:
    from jobctrl.discovery.adapters.base import SourceConfig
    from jobctrl.discovery.adapters.registry import adapter_for
    from jobctrl.discovery.domain.errors import WorkPlanConflict
    from jobctrl.discovery.domain.execution import DiscoveryExecution
    from jobctrl.discovery.domain.job import Job, application_url_of
    from jobctrl.discovery.domain.search import InvalidSearchFilters, SearchFilters
    from jobctrl.discovery.domain.source import SourceEntry
    from jobctrl.discovery.domain.source_spec import InvalidSourceSpec, parse_source
    from jobctrl.discovery.ports import DiscoveryRunLog
    from jobctrl.discovery.sample_board import SampleJobBoard
    from jobctrl.discovery.use_cases.application_url import application_url
    from jobctrl.discovery.use_cases.apply_source_recommendation import apply_source_recommendation
    from jobctrl.discovery.use_cases.change_source_state import change_source_state
    from jobctrl.discovery.use_cases.close_execution_membership import (
        InterruptedMembershipCloser,
        close_execution_membership,
        close_interrupted_membership,
    )
    from jobctrl.discovery.use_cases.discovered_job import discovered_job, discovered_job_at
    from jobctrl.discovery.use_cases.execution_members import execution_members
    from jobctrl.discovery.use_cases.import_posting import (
        ImportedPosting,
        PostingUnreachable,
        fetch_posting,
        import_posting,
    )
    from jobctrl.discovery.use_cases.known_jobs import iter_known_job_ids, known_job_ids
    from jobctrl.discovery.use_cases.link_execution_members import (
        link_execution_members,
        load_execution,
        save_execution,
    )
    from jobctrl.discovery.use_cases.load_catalog import load_catalog
    from jobctrl.discovery.use_cases.record_fanout_plans import record_fanout_plans
    from jobctrl.discovery.use_cases.record_observation import record_observation
    from jobctrl.discovery.use_cases.record_work_plan import (
        mark_member_not_eligible,
        mark_member_plan_failed,
        plan_member,
    )
    from jobctrl.discovery.use_cases.register_source import register_source
    from jobctrl.discovery.use_cases.register_sources import register_sources
    from jobctrl.discovery.use_cases.run_discovery import run_discovery
    from jobctrl.discovery.use_cases.run_source_family import run_source_family
    from jobctrl.discovery.use_cases.select_runnable_sources import select_runnable_sources
    from jobctrl.discovery.use_cases.sources import (
        SourceView,
        UnknownSource,
        add_source,
        import_sources,
        list_sources,
        registered_sources,
        remove_source,
    )

_EXPORTS: dict[str, str] = {
    "run_source_family": "jobctrl.discovery.use_cases.run_source_family",
    "run_discovery": "jobctrl.discovery.use_cases.run_discovery",
    "record_observation": "jobctrl.discovery.use_cases.record_observation",
    "record_fanout_plans": "jobctrl.discovery.use_cases.record_fanout_plans",
    "load_catalog": "jobctrl.discovery.use_cases.load_catalog",
    "register_source": "jobctrl.discovery.use_cases.register_source",
    "register_sources": "jobctrl.discovery.use_cases.register_sources",
    "change_source_state": "jobctrl.discovery.use_cases.change_source_state",
    "apply_source_recommendation": "jobctrl.discovery.use_cases.apply_source_recommendation",
    "select_runnable_sources": "jobctrl.discovery.use_cases.select_runnable_sources",
    "link_execution_members": "jobctrl.discovery.use_cases.link_execution_members",
    "known_job_ids": "jobctrl.discovery.use_cases.known_jobs",
    "execution_members": "jobctrl.discovery.use_cases.execution_members",
    "discovered_job": "jobctrl.discovery.use_cases.discovered_job",
    "discovered_job_at": "jobctrl.discovery.use_cases.discovered_job",
    "application_url": "jobctrl.discovery.use_cases.application_url",
    "application_url_of": "jobctrl.discovery.domain.job",
    "iter_known_job_ids": "jobctrl.discovery.use_cases.known_jobs",
    "plan_member": "jobctrl.discovery.use_cases.record_work_plan",
    "mark_member_not_eligible": "jobctrl.discovery.use_cases.record_work_plan",
    "mark_member_plan_failed": "jobctrl.discovery.use_cases.record_work_plan",
    "close_execution_membership": "jobctrl.discovery.use_cases.close_execution_membership",
    "close_interrupted_membership": "jobctrl.discovery.use_cases.close_execution_membership",
    "add_source": "jobctrl.discovery.use_cases.sources",
    "remove_source": "jobctrl.discovery.use_cases.sources",
    "list_sources": "jobctrl.discovery.use_cases.sources",
    "registered_sources": "jobctrl.discovery.use_cases.sources",
    "import_sources": "jobctrl.discovery.use_cases.sources",
    "import_posting": "jobctrl.discovery.use_cases.import_posting",
    "DiscoveryRunLog": "jobctrl.discovery.ports",
    "adapter_for": "jobctrl.discovery.adapters.registry",
    "Job": "jobctrl.discovery.domain.job",
    "SourceEntry": "jobctrl.discovery.domain.source",
    "DiscoveryExecution": "jobctrl.discovery.domain.execution",
    "parse_source": "jobctrl.discovery.domain.source_spec",
    "SearchFilters": "jobctrl.discovery.domain.search",
    "ImportedPosting": "jobctrl.discovery.use_cases.import_posting",
    "InterruptedMembershipCloser": "jobctrl.discovery.use_cases.close_execution_membership",
    "InvalidSearchFilters": "jobctrl.discovery.domain.search",
    "InvalidSourceSpec": "jobctrl.discovery.domain.source_spec",
    "PostingUnreachable": "jobctrl.discovery.use_cases.import_posting",
    "SampleJobBoard": "jobctrl.discovery.sample_board",
    "SourceConfig": "jobctrl.discovery.adapters.base",
    "SourceView": "jobctrl.discovery.use_cases.sources",
    "UnknownSource": "jobctrl.discovery.use_cases.sources",
    "WorkPlanConflict": "jobctrl.discovery.domain.errors",
    "fetch_posting": "jobctrl.discovery.use_cases.import_posting",
    "load_execution": "jobctrl.discovery.use_cases.link_execution_members",
    "save_execution": "jobctrl.discovery.use_cases.link_execution_members",
}
__all__ = [
    "DiscoveryExecution",
    "DiscoveryRunLog",
    "ImportedPosting",
    "InterruptedMembershipCloser",
    "InvalidSearchFilters",
    "InvalidSourceSpec",
    "Job",
    "PostingUnreachable",
    "SampleJobBoard",
    "SearchFilters",
    "SourceConfig",
    "SourceEntry",
    "SourceView",
    "UnknownSource",
    "WorkPlanConflict",
    "adapter_for",
    "add_source",
    "application_url",
    "application_url_of",
    "apply_source_recommendation",
    "change_source_state",
    "close_execution_membership",
    "close_interrupted_membership",
    "discovered_job",
    "discovered_job_at",
    "execution_members",
    "fetch_posting",
    "import_posting",
    "import_sources",
    "iter_known_job_ids",
    "known_job_ids",
    "link_execution_members",
    "list_sources",
    "load_catalog",
    "load_execution",
    "mark_member_not_eligible",
    "mark_member_plan_failed",
    "parse_source",
    "plan_member",
    "record_fanout_plans",
    "record_observation",
    "register_source",
    "register_sources",
    "registered_sources",
    "remove_source",
    "run_discovery",
    "run_source_family",
    "save_execution",
    "select_runnable_sources",
]
__getattr__ = lazy_exports(__name__, _EXPORTS)
