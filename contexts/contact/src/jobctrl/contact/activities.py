"""Contact's Temporal activity: ``run_contact_research`` (only ever started by the user), plus
``register_offline_contact`` for the offline LLM provider (candidate extraction and outreach drafts).

The pages are the ones the user supplied for this task (the source-access policy allows only their
hosts); fetches go through the politeness gateway on a private event loop (a sync activity).  The
first attempt records the task itself when the starter did not.  The candidates land sealed, in
review; nothing becomes a contact here.  The task's events are written
under the workflow's tenant (``ContactResearchActivityInput.tenant_id``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

from temporalio import activity

from jobctrl.activity_contracts.contracts import ContactResearchActivityInput, ContactResearchActivityResult
from jobctrl.activity_contracts.errors import to_application_error
from jobctrl.contact.adapters.extraction import TASK, ContactResearchCandidates, extract_offline
from jobctrl.contact.adapters.outreach_writer import TASK as OUTREACH_TASK
from jobctrl.contact.adapters.outreach_writer import OutreachMessage, write_offline
from jobctrl.contact.domain.policy import SourceAccessPolicy, allowlist_from
from jobctrl.contact.ports import PageFetcher
from jobctrl.contact.use_cases.run_research import ResearchReport, run_research
from jobctrl.contact.use_cases.services import ContactServices
from jobctrl.contact.use_cases.start_research import start_research
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.llm import OfflineProvider
from jobctrl.llm.port import StructuredRequest

FetcherSession = Callable[[], AbstractAsyncContextManager[PageFetcher]]


def register_offline_contact(provider: OfflineProvider) -> None:
    def extract(request: StructuredRequest[ContactResearchCandidates]) -> ContactResearchCandidates:
        return extract_offline(request.prompt)

    provider.register(TASK, ContactResearchCandidates, extract)
    provider.register(OUTREACH_TASK, OutreachMessage, write_offline)


class ContactActivities:
    def __init__(
        self, services: ContactServices, *, fetcher: FetcherSession, allow_loopback: bool = False
    ) -> None:
        self.services = services
        self.fetcher = fetcher
        self.allow_loopback = allow_loopback  # the local sample pages only; never a private address

    @activity.defn(name="run_contact_research")
    def run_contact_research(self, params: ContactResearchActivityInput) -> ContactResearchActivityResult:
        policy = SourceAccessPolicy(
            allowlist_from(params.sources), allow_loopback_for_tests=self.allow_loopback
        )
        try:
            report = asyncio.run(self._run(params, policy))
        except JobCtrlError as exc:
            raise to_application_error(exc) from exc
        return ContactResearchActivityResult(candidates=report.candidate_count)

    async def _run(self, params: ContactResearchActivityInput, policy: SourceAccessPolicy) -> ResearchReport:
        async with self.fetcher() as fetcher:
            services = ContactServices(
                store=self.services.store, vault=self.services.vault, clock=self.services.clock,
                llm=self.services.llm, spend=self.services.spend, fetcher=fetcher,
                tenant_id=params.tenant_id,
            )  # fmt: skip
            if services.tasks.load(params.task_id) is None:
                # The route and the CLI only start the workflow; its first attempt records the task
                # (a retry finds it recorded), so a start Temporal refused leaves nothing behind.
                start_research(services, params.task_id, employer=params.employer, job_id=params.job_id)
            return await run_research(services, params.task_id, list(params.sources), policy)
